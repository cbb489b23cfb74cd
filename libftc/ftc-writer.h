/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The trace.dat writer: a file that trace-cmd 3.1 reads (version 7 with
 * zstd, zlib or no compression, or version 6), written while the capture
 * runs. Each CPU of each buffer owns a region of the file that its pages
 * are appended to as they arrive; the index that makes the file readable
 * (BUFFER options, strings) is rewritten at every checkpoint, so a file
 * cut short by SIGKILL or a full disk still holds every completed chunk.
 * See the layout comment in writer.c.
 */
#ifndef FTC_WRITER_H
#define FTC_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ftc_compression {
	FTC_COMPRESS_NONE,
	FTC_COMPRESS_ZLIB,
	FTC_COMPRESS_ZSTD,
};

/* "none", "zlib", "zstd" -> the enum; -1 for anything else. */
FTC_API int ftc_compression_parse(const char *name);
FTC_API const char *ftc_compression_name(enum ftc_compression c);
/* The version of the library behind c that libftc runs with ("1.5.4"); "" for none. */
FTC_API const char *ftc_compression_version(enum ftc_compression c);

struct ftc_writer;

/*
 * Removes what a failed write left at path, only when it is a regular
 * file: never a device or a fifo the caller named (ftc convert t.dat
 * /dev/null used to remove /dev/null). Keeps errno.
 */
FTC_API void ftc_writer_unlink(const char *path);

/*
 * Creates FILE (truncating it). version is 6 or 7; v6 has no compression.
 * Nothing is read from tracefs yet.
 */
FTC_API struct ftc_writer *ftc_writer_create(const char *path, int version,
					     enum ftc_compression comp);

/*
 * Declares a buffer before ftc_writer_start(): instance NULL or "" is the
 * top-level buffer; cpus lists the CPU numbers that will be written.
 * Returns the buffer's index (0, 1, ...) or -1.
 */
FTC_API int ftc_writer_add_buffer(struct ftc_writer *w, const char *instance,
				  int ncpus, const int *cpus);

/*
 * Stores what the buffer of instance records, as tracefs says now (each
 * event enabled and its triggers: FTC_OPT_FTC_ENABLED), so that a reader
 * tells an event not recorded from one that did not happen. Before
 * ftc_writer_start(); 0 also when tracefs cannot say, -1 when out of memory.
 */
FTC_API int ftc_writer_add_enabled(struct ftc_writer *w, const char *instance);
/*
 * Stores what instance's last_boot_info says when the instance holds a
 * previous boot's records (a persistent, boot-mapped buffer, 6.12+), so a
 * reader names that boot's functions right: 1 stored, 0 nothing to store
 * (no such file, or it describes this boot), -1 error.
 */
FTC_API int ftc_writer_add_last_boot(struct ftc_writer *w, const char *instance);

/*
 * Events that ftc makes itself (writer-synthetic.c), before start: an
 * event system whose "format" texts (with ids no kernel event uses) join
 * the file's event formats, and a buffer (an instance of the file) whose
 * pages come from the caller, with the clock their timestamps are on.
 * Returns 0, or the buffer's index, or -1.
 */
FTC_API int ftc_writer_add_system(struct ftc_writer *w, const char *system,
				  const char *const *formats, int n);
FTC_API int ftc_writer_add_synthetic_buffer(struct ftc_writer *w, const char *name,
					    int ncpus, const int *cpus, const char *clock);

/*
 * Keeps at most about `bytes` of trace per CPU in the file, the newest
 * (the region is used as two halves in turn). Call before start.
 */
FTC_API int ftc_writer_set_max(struct ftc_writer *w, uint64_t bytes);

/*
 * Reads the metadata from tracefs and /proc (header_page, formats,
 * kallsyms, printk formats, cmdlines, uname, clocks), lays the file out
 * and writes its head and a first, empty index. Afterwards the file is
 * readable at any time.
 */
FTC_API int ftc_writer_start(struct ftc_writer *w);

/*
 * Events lost before a CPU's page whose header says only that some were
 * (the kernel stores no count in a full sub-buffer): count of them, by the
 * page's header timestamp; 0 when a later page's count covers them. Kept
 * in an option of ftc's own (v7 files), which readers of trace.dat that do
 * not know it skip. Same threading rule as ftc_writer_add_pages().
 */
FTC_API int ftc_writer_add_lost(struct ftc_writer *w, int buf, int cpu_idx,
				uint64_t page_ts, uint64_t count);
/* That count for the page with header timestamp page_ts, or -1 (none, or 0). */
FTC_API long long ftc_writer_lost_count(struct ftc_writer *w, int buf, int cpu_idx,
					uint64_t page_ts);

/* The page size of the file: the unit of ftc_writer_add_pages(). */
FTC_API unsigned int ftc_writer_page_size(const struct ftc_writer *w);

/*
 * Appends len bytes (whole pages) of raw ring-buffer sub-buffers of one
 * CPU (the index in the cpus array given to ftc_writer_add_buffer()).
 * Threads may call this at once for different CPUs, never for the same one.
 */
FTC_API int ftc_writer_add_pages(struct ftc_writer *w, int buf, int cpu_idx,
				 const void *data, size_t len);

/*
 * Writes a CPU's pages that wait for a whole compressed chunk as a short
 * chunk now, so a slow CPU's events reach the next checkpoint instead of
 * waiting minutes for nine more pages. Same threading rule as add_pages.
 */
FTC_API int ftc_writer_flush_cpu(struct ftc_writer *w, int buf, int cpu_idx);

/* Makes everything appended so far readable (rewrites the index). */
FTC_API int ftc_writer_checkpoint(struct ftc_writer *w);

/* Bytes of trace data written to the file so far (after compression). */
FTC_API uint64_t ftc_writer_data_bytes(struct ftc_writer *w);

/*
 * Finishes the file: last partial chunks, the final saved_cmdlines and
 * per-CPU stats, then closes the gaps between the CPU regions and writes
 * the final index. The file is complete even if this fails half-way
 * (it then keeps the gaps, which cost no disk space).
 */
FTC_API int ftc_writer_finish(struct ftc_writer *w);

FTC_API void ftc_writer_free(struct ftc_writer *w);

/*
 * Finishes a v7 file that ftc left unfinished (SIGKILL, crash): takes the
 * chunks written after the last checkpoint, removes the gaps between the
 * CPU regions and rewrites the index from what the file holds. A file with
 * nothing to gain is not opened for writing; a rewrite goes to a new file
 * beside it, read back before it replaces path. Where the disk has no room
 * for that copy, the file is finished in place, in steps that each leave
 * a whole index on disk. *changed tells whether there was anything to do.
 */
FTC_API int ftc_writer_repair(const char *path, int *changed);

#ifdef __cplusplus
}
#endif

#endif
