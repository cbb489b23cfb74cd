/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Live reading of a tracing buffer (libftc/live/): the records of every
 * traced CPU, merged by timestamp, while tracing runs (ftc stream, ftc top).
 *
 * The per-CPU pages come from trace_pipe_raw through the capture's reader
 * threads (ftc-capture.h), which in live mode also take each CPU's partial
 * page every wake-up, so a quiet CPU's events come out within a few
 * milliseconds instead of when its page fills. The pages are walked with
 * a tep handle holding this kernel's event formats (read from tracefs
 * when the live reader opens, through the same metadata a capture stores;
 * ftc_live_reader() hands it out as a struct ftc_reader, so the
 * formatters of ftc-format.h print live records as ftc report does).
 *
 * Order: each CPU's records come in timestamp order, but the CPUs are read
 * by separate threads at separate moments. The oldest queued record x is
 * delivered once no CPU can still bring an older one: each other CPU
 * either has a record queued (its next ones are later) or its reader
 * emptied its buffer after x was read (the readers look every 10 ms, or
 * four times a window if that is shorter). So the output never goes
 * back in time and lags the kernel by one or two reader wake-ups. The
 * window bounds the wait for a reader kept off its CPU: a record waits at
 * most window_ms after it was read. One that still arrives behind a record
 * already delivered is delivered at once and counted in
 * ftc_live_cpu_stats.late.
 *
 * Lost events: a record's missed field says how many events the kernel
 * dropped on its CPU right before it (> 0: that many, -1: some, count
 * unknown), as in ftc_merge_next(); ftc_format_record() prints the marker.
 *
 * Threads: one per CPU reads; everything else, the callback included, runs
 * in the thread that calls ftc_live_poll() and ftc_live_flush().
 */
#ifndef FTC_LIVE_H
#define FTC_LIVE_H

#include <stdint.h>
#include <sys/types.h>

#include "ftc-api.h"
#include "ftc-capture.h"
#include "ftc-writer.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_live;
struct ftc_reader;
struct ftc_merge_record;

/* The reorder window when ftc_live_opts.window_ms is 0. */
#define FTC_LIVE_WINDOW_MS	1000

struct ftc_live_opts {
	size_t size;		/* sizeof(struct ftc_live_opts) (FTC_OPTS_INIT) */
	/* Longest wait for a late reader, in ms; 0: FTC_LIVE_WINDOW_MS. 5 to 10000. */
	unsigned int window_ms;
	/* CPUs to read; NULL: those of the instance's tracing_cpumask. */
	const int *cpus;
	int ncpus;
	/*
	 * Also write everything read into this trace.dat (as ftc record
	 * writes it: readable by trace-cmd report); NULL: none. The file is
	 * finished by ftc_live_close().
	 */
	const char *record_path;
	int file_version;		/* 6 or 7 for record_path; 0: 7 */
	enum ftc_compression compression;	/* for record_path, version 7 */
	unsigned int reader_flags;	/* enum ftc_reader_flags: FTC_READER_NO_PLUGINS */
	/* Plugins loaded after the system's, as ftc_reader_opts.plugin_dir; NULL: none. */
	const char *plugin_dir;
	/*
	 * The readers' SCHED_FIFO priority, 1-99 (ftc_capture_set_rt_priority);
	 * 0: the capture's default (real-time, the lowest priority);
	 * FTC_LIVE_NO_RT: not real-time.
	 */
	int rt_priority;
};

#define FTC_LIVE_NO_RT	FTC_CAPTURE_NO_RT

/*
 * What ftc_live_poll() and ftc_live_flush() hand over, in timestamp order:
 * mr->rec (its ts, data, size and cpu), mr->cpu, mr->missed (lost events
 * before it, see above), mr->buffer (always 0: the reader's only buffer).
 * Valid during the call only. Return 0 to go on; anything else stops the
 * delivery (the records not delivered stay queued) and is returned by
 * ftc_live_poll()/ftc_live_flush() when negative.
 */
typedef int (*ftc_live_cb)(const struct ftc_merge_record *mr, void *arg);

/*
 * Opens the per-CPU trace_pipe_raw files of instance (NULL or "": the top
 * level), reads the event formats and starts the reader threads. Tracing
 * itself is configured by the caller (ftc_state, ftc-control.h), before or
 * after. Refused when another process reads the buffer (it would take the
 * events away): the message names it. opts may be NULL.
 */
FTC_API struct ftc_live *ftc_live_open(const char *instance, const struct ftc_live_opts *opts);

/*
 * Waits at most timeout_ms (0: not at all, -1: until something comes) for
 * records, and delivers those that the window lets out. Returns how many
 * it delivered (0 when none), or a negative errno (a reader failed:
 * ftc_strerror() says why), or the callback's negative return.
 */
FTC_API int ftc_live_poll(struct ftc_live *l, int timeout_ms, ftc_live_cb cb, void *arg);

/*
 * At the end: stops the readers (they take the partial pages left) and
 * delivers every record still queued. Returns as ftc_live_poll(). After
 * it, ftc_live_poll() delivers nothing.
 */
FTC_API int ftc_live_flush(struct ftc_live *l, ftc_live_cb cb, void *arg);

/*
 * A descriptor that polls readable when pages came in (an eventfd), so a
 * program can wait on it and on its own descriptors (a terminal) together,
 * then call ftc_live_poll(l, 0, ...). Records that wait for their window
 * raise no event: call ftc_live_poll() at least every window_ms.
 */
FTC_API int ftc_live_fd(struct ftc_live *l);

/* The event formats (and kallsyms, printk formats, comms) of this kernel:
 * for ftc_format_new(), ftc_reader_event(). Owned by the live reader. */
FTC_API struct ftc_reader *ftc_live_reader(struct ftc_live *l);

/* The reader threads' ids, to keep them out of the trace
 * (set_event_notrace_pid); returns how many were stored. */
FTC_API int ftc_live_tids(struct ftc_live *l, pid_t *tids, int max);

/* The window in use, in milliseconds. */
FTC_API unsigned int ftc_live_window_ms(const struct ftc_live *l);

/* Figures of one CPU (index 0 .. ftc_live_ncpus() - 1); the caller sets
 * size (FTC_OPTS_INIT, ftc-api.h). */
struct ftc_live_cpu_stats {
	size_t size;		/* sizeof(struct ftc_live_cpu_stats), set by the caller */
	int cpu;
	uint64_t events;	/* events the kernel's ring buffer took (per_cpu stats) */
	uint64_t lost;		/* events lost: overruns + drops (stats) or page headers */
	uint64_t bytes;		/* bytes of pages read */
	uint64_t delivered;	/* records handed to the callback */
	uint64_t late;		/* of them, delivered behind a later one (window too short) */
};
FTC_API int ftc_live_ncpus(const struct ftc_live *l);
FTC_API int ftc_live_cpu_stats(struct ftc_live *l, int i, struct ftc_live_cpu_stats *out);

/*
 * Stops the readers if ftc_live_flush() did not, finishes the record file
 * (if any) and frees everything. Returns 0, or -1 when the record file
 * could not be finished (ftc_strerror()). NULL is a no-op.
 */
FTC_API int ftc_live_close(struct ftc_live *l);

#ifdef __cplusplus
}
#endif

#endif
