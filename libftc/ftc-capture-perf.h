/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perf samples and counter readings captured beside the trace (capture-
 * perf.c): events opened on the trace's own clock, one mmap ring per
 * traced CPU drained by a thread into ring-buffer pages of an extra
 * instance ("ftc_perf") of the same trace.dat, with the event formats of
 * system "ftc_perf" (see ftc-perf.h), so trace-cmd reads them too.
 */
#ifndef FTC_CAPTURE_PERF_H
#define FTC_CAPTURE_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ftc-writer.h"
#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FTC_CAPTURE_PERF_INSTANCE "ftc_perf"

/* An options structure (FTC_OPTS_INIT). */
struct ftc_capture_perf_opts {
	size_t size;			/* sizeof(struct ftc_capture_perf_opts) */
	const char *sample;		/* event to sample; NULL: no sampling */
	unsigned long long freq;	/* samples per second (default 4000) ... */
	unsigned long long period;	/* ... or one sample every period events */
	bool callchain;
	const char *count;		/* events to count; NULL: no counting */
	unsigned int interval_ms;	/* counter readings every ms (default 1000) */
	const char *instance;		/* the traced instance (NULL: top level) */
	pid_t pid;			/* > 0: only this command (from its exec, with
					 * children); otherwise every task */
	/* > 0 with sample: call chains whose user part is unwound with DWARF
	 * as samples are drained, from this many bytes of user stack copied
	 * per sample (a multiple of 8 up to 65528; perf's default is 8192) */
	unsigned int dwarf_stack;
};

struct ftc_capture_perf;

/*
 * Before ftc_writer_start(): opens the events (disabled) on the clock of
 * trace_clock, and adds the event system and the buffer to the writer.
 */
FTC_API struct ftc_capture_perf *ftc_capture_perf_new(struct ftc_writer *w,
						      const struct ftc_capture_perf_opts *o,
						      const char *trace_clock, int ncpus,
						      const int *cpus);
/* After ftc_writer_start(): enables the events and starts the drain thread. */
FTC_API int ftc_capture_perf_start(struct ftc_capture_perf *cp);
/* The command was released and has exec'd: its counting intervals start now. */
FTC_API void ftc_capture_perf_command_started(struct ftc_capture_perf *cp);
/* The drain thread's id after start (0 before): a recorder keeps it out of the trace. */
FTC_API pid_t ftc_capture_perf_tid(const struct ftc_capture_perf *cp);
/* Disables the events, drains what is left, writes the last pages. */
FTC_API int ftc_capture_perf_stop(struct ftc_capture_perf *cp);

/* What the capture took; the caller sets size (FTC_OPTS_INIT, ftc-api.h). */
struct ftc_capture_perf_stats {
	size_t size;		/* sizeof(struct ftc_capture_perf_stats), set by the caller */
	uint64_t samples, lost, readings, records, pages;
	const char *event;	/* what was sampled (after a fallback) */
	const char *note;	/* why the event fell back, or "" */
	const char *clock;	/* the trace clock the timestamps are on */
	int64_t perf_shift;	/* ns taken off perf's stamps to get there */
};
FTC_API int ftc_capture_perf_stats(const struct ftc_capture_perf *cp,
				   struct ftc_capture_perf_stats *out);
FTC_API void ftc_capture_perf_free(struct ftc_capture_perf *cp);

#ifdef __cplusplus
}
#endif

#endif
