/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Rewriting a trace.dat (libftc/convert/): as another file version or
 * compression, with some of its buffers only (ftc convert), or cut into
 * parts by time, events or pages (ftc split). The ring-buffer pages are
 * copied, never re-encoded: a part's first and last page of a CPU are cut
 * at an event; the metadata (formats, kallsyms, printk formats, command
 * lines, clocks, time offsets, CPU stats) is copied as it is.
 */
#ifndef FTC_CONVERT_H
#define FTC_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;

struct ftc_convert_opts {
	size_t size;			/* sizeof(struct ftc_convert_opts) */
	int version;			/* 6 or 7; 0: 7 */
	int compression;		/* enum ftc_compression (ftc-writer.h); v6: none */
	/*
	 * The buffers to keep, by name ("" the top-level one), each of
	 * which the file must hold; NULL (ninstances 0): every buffer.
	 */
	const char *const *instances;
	int ninstances;
};

/*
 * Writes r's trace into a new file at path (truncating it). r's byte
 * order and long size must be this machine's. Damage in r stops the CPU
 * it is in, as for reading (ftc_reader_warnings() says where); the file
 * written is complete either way. On failure nothing is left at path
 * (a file that was there before is left alone when the failure comes
 * before path is created: a buffer not in r, path being r's own file).
 */
FTC_API int ftc_convert(struct ftc_reader *r, const char *path,
			const struct ftc_convert_opts *opts);

enum ftc_split_unit {
	FTC_SPLIT_NONE,		/* one part: every record from start to end */
	FTC_SPLIT_EVENTS,	/* count records per part */
	FTC_SPLIT_PAGES,	/* count ring-buffer pages per part, always per CPU */
	FTC_SPLIT_NSECS,	/* a part spans count ns from its first record */
};

struct ftc_split_opts {
	size_t size;			/* sizeof(struct ftc_split_opts) */
	int unit;			/* enum ftc_split_unit */
	uint64_t count;			/* records, pages or ns per part; not 0 */
	/*
	 * Count each CPU of each buffer on its own (trace-cmd split -c):
	 * a part holds up to count of each. Otherwise the buffers' records
	 * are taken in timestamp order, as ftc_merge_next() gives them.
	 */
	bool per_cpu;
	/* ns on the file's clock: records before start are skipped, none after end; 0: none */
	uint64_t start, end;
};

/*
 * A split of r, which must outlive it. Parts are in r's file version and
 * compression, with every buffer of r.
 */
struct ftc_split;
FTC_API struct ftc_split *ftc_split_open(struct ftc_reader *r,
					 const struct ftc_split_opts *opts);
/*
 * Writes the next part at path: 1 written, 0 no record left (no file
 * made), -1 error (and nothing at path).
 */
FTC_API int ftc_split_next(struct ftc_split *s, const char *path);
/* The records the last part written holds. */
FTC_API uint64_t ftc_split_part_records(const struct ftc_split *s);
FTC_API void ftc_split_close(struct ftc_split *s);

#ifdef __cplusplus
}
#endif

#endif
