/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The records of a trace.dat, every CPU of every buffer merged into one
 * stream by timestamp (libftc/merge/). Opened on a reader, which must
 * outlive it.
 */
#ifndef FTC_MERGE_H
#define FTC_MERGE_H

#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct tep_record;

/* Merged iteration over every CPU of every buffer, by timestamp. */
struct ftc_merge;

struct ftc_merge_record {
	struct tep_record *rec;		/* valid until the next ftc_merge_next */
	int buffer;			/* index for ftc_reader_buffer() */
	int cpu;
	long long missed;		/* events lost before this one: >0 count, -1 unknown */
};

/* cpus: NULL for all, else a mask of wanted CPUs (bit n = CPU n, n < 1024). */
FTC_API struct ftc_merge *ftc_merge_open(struct ftc_reader *r, const uint64_t *cpu_mask);
/* 1 with a record, 0 at the end, -1 on an error that stops everything. */
FTC_API int ftc_merge_next(struct ftc_merge *m, struct ftc_merge_record *out);
FTC_API void ftc_merge_close(struct ftc_merge *m);

#ifdef __cplusplus
}
#endif

#endif
