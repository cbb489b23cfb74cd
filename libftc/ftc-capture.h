/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-CPU capture of the raw ring buffers (per_cpu/cpuN/trace_pipe_raw)
 * into an ftc_writer. One thread per traced CPU of each buffer: it sleeps
 * in poll(), which the kernel ends when the CPU's buffer is
 * buffer_percent full (no busy polling), moves whole sub-buffers out
 * with splice, and hands them to the writer. At stop, the last partial
 * sub-buffers are read without blocking and zero-padded to a page.
 * Threads cannot outlive the process that captures.
 */
#ifndef FTC_CAPTURE_H
#define FTC_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ftc-writer.h"
#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_capture;

/* wake_usecs: the longest a reader sleeps without a kernel wake-up (the
 * index is checkpointed at least that often); 0 picks one second. */
FTC_API struct ftc_capture *ftc_capture_new(struct ftc_writer *w, unsigned int wake_usecs);

/*
 * Adds one buffer: instance NULL or "" is the top level; cpus as given to
 * ftc_writer_add_buffer() for the writer's buffer buf_index. Opens the
 * per-CPU files now, so errors show before anything runs.
 */
FTC_API int ftc_capture_add(struct ftc_capture *c, int buf_index, const char *instance,
			    int ncpus, const int *cpus);

/* Read the snapshot buffer (snapshot_raw) instead; call before adding. */
FTC_API void ftc_capture_use_snapshot(struct ftc_capture *c);
/*
 * Reads each buffer through its memory map (Linux 6.10) instead of splice,
 * where the kernel lets it (not a snapshot, not a memmap= persistent
 * buffer): ftc_capture_cpu_stats() says which CPUs were mapped. Call
 * before ftc_capture_add().
 */
FTC_API void ftc_capture_use_mmap(struct ftc_capture *c);

/*
 * Live reading (ftc-live.h): every page read is also handed to fn, in the
 * reader thread of its CPU (slot: 0.. in the order added; len whole
 * pages, a partial one zero-padded), and each wake-up also takes the page
 * the kernel is filling, so wake_usecs bounds how long an event waits
 * unread; after each wake-up that emptied the CPU's buffer, fn gets pages
 * NULL and len 0 (every event of the CPU older than the previous such
 * call has been handed over). write false: the writer only lends its page size and metadata,
 * nothing is written to its file. Call before ftc_capture_start().
 */
typedef void (*ftc_capture_page_fn)(void *arg, int slot, const void *pages, size_t len);
FTC_API void ftc_capture_set_live(struct ftc_capture *c, ftc_capture_page_fn fn, void *arg,
				  bool write);

/* Starts the reader threads. */
/*
 * The readers' SCHED_FIFO priority (1-99), where the kernel allows it
 * (root); 0: not real-time, nice -10 only. Default 1. Before start.
 */
FTC_API void ftc_capture_set_rt_priority(struct ftc_capture *c, int rt_priority);
/* For the options structures that take a priority, where 0 is the default. */
#define FTC_CAPTURE_NO_RT	(-1)
FTC_API int ftc_capture_start(struct ftc_capture *c);

/* The reader threads' ids (so that a recorder can keep its own
 * activity out of the trace); returns how many were stored. */
FTC_API int ftc_capture_tids(struct ftc_capture *c, pid_t *tids, int max);

/* True once a reader failed (full disk, I/O error); the message is in
 * ftc_capture_error(). */
FTC_API bool ftc_capture_failed(struct ftc_capture *c);
FTC_API const char *ftc_capture_error(struct ftc_capture *c);

/*
 * Makes the capture so far readable in the file: the readers of idle or
 * slow CPUs first put their partial page and pending chunk in, then the
 * index is rewritten (ftc_writer_checkpoint). About once a second.
 */
FTC_API int ftc_capture_checkpoint(struct ftc_capture *c);

/* Wakes the readers, lets them take what is left (partial pages too) and
 * joins them. Returns -1 if a reader failed. */
FTC_API int ftc_capture_stop(struct ftc_capture *c);

/* Without threads: takes everything the buffers hold now and returns
 * (ftc extract). */
FTC_API int ftc_capture_drain(struct ftc_capture *c);

/*
 * Figures for one traced CPU (slot: 0.. in the order added). The caller
 * sets size, as for an options structure (FTC_OPTS_INIT, ftc-api.h): the
 * library fills the members that fit in it.
 */
struct ftc_capture_cpu_stats {
	size_t size;		/* sizeof(struct ftc_capture_cpu_stats), set by the caller */
	const char *instance;	/* "" for the top level */
	int cpu;
	uint64_t pages;		/* sub-buffers written */
	uint64_t events;	/* events read from the ring buffer (stats) */
	uint64_t lost;		/* events lost: overruns + drops (stats), or
				 * counted in page headers, whichever is more */
	uint64_t lost_pages;	/* pages whose header says events were missed */
	bool mapped;		/* read through the buffer's memory map, not splice */
};
FTC_API int ftc_capture_nslots(const struct ftc_capture *c);
/*
 * The events lost before a slot's page with header timestamp page_ts, as
 * the capture counted them when the page's header flags a loss without a
 * count; -1 when it did not (ftc_writer_lost_count()).
 */
FTC_API long long ftc_capture_lost_count(struct ftc_capture *c, int slot, uint64_t page_ts);
FTC_API int ftc_capture_cpu_stats(struct ftc_capture *c, int slot,
				  struct ftc_capture_cpu_stats *out);

FTC_API void ftc_capture_free(struct ftc_capture *c);

/*
 * Other processes that read the raw or text pipes of an instance now
 * (they would take events from us): writes "pid N (comm): FILE" lines
 * into *who (malloc'd) and returns their number, 0 when none.
 */
FTC_API int ftc_capture_find_readers(const char *instance, char **who);

/* The CPUs to capture: those of tracing_cpumask. *cpus is malloc'd;
 * returns their number or -1. */
FTC_API int ftc_capture_cpus(const char *instance, int **cpus);

/* The sub-buffer size of an instance in bytes (buffer_subbuf_size_kb,
 * or the page size on kernels without it). */
FTC_API int ftc_capture_subbuf_size(const char *instance);

#ifdef __cplusplus
}
#endif

#endif
