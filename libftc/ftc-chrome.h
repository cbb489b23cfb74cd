/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A trace.dat as Chrome's Trace Event Format, the JSON that chrome://tracing,
 * Perfetto's legacy importer and speedscope read (libftc/export/chrome.c):
 * a pass over the reader's records, in timestamp order, that writes each
 * function_graph call as a complete event of its thread, trace_marker's
 * atrace spans (B|, E|) and counters (C|) as begin, end and counter
 * events, other markers and perf samples (their stack in args) as instant
 * events, perf counter readings as counters, what each CPU ran (from
 * sched_switch) as complete events of a lane per CPU, and lost events as
 * global instants; then the threads' and lanes' names. Memory follows the
 * CPUs and tasks, not the records.
 */
#ifndef FTC_CHROME_H
#define FTC_CHROME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct ftc_merge_record;
struct ftc_chrome;

/* An options structure (FTC_OPTS_INIT). */
struct ftc_chrome_opts {
	size_t size;			/* sizeof(struct ftc_chrome_opts) */
	bool no_cpu_lanes;		/* no lane per CPU from sched_switch */
};

/* What the pass wrote; a sized value type (set size before the call). */
struct ftc_chrome_stats {
	size_t size;			/* sizeof(struct ftc_chrome_stats) */
	uint64_t records;		/* records taken */
	uint64_t calls;			/* function_graph calls (complete events) */
	uint64_t slices;		/* a task's stretch on a CPU (complete events) */
	uint64_t markers;		/* trace_marker lines (begin, end, counter, instant) */
	uint64_t samples, readings;	/* perf samples, perf counter readings */
	uint64_t lost;			/* lost-event marks */
	uint64_t events;		/* trace events written, metadata included */
};

/* A pass writing to out, which stays the caller's. */
FTC_API struct ftc_chrome *ftc_chrome_new(struct ftc_reader *r, FILE *out,
					  const struct ftc_chrome_opts *o);
FTC_API void ftc_chrome_free(struct ftc_chrome *c);
/* Feeds one record, in timestamp order (ftc_merge_next()). 0, or -1. */
FTC_API int ftc_chrome_add(struct ftc_chrome *c, const struct ftc_merge_record *mr);
/* Writes the names of the threads and lanes and closes the JSON. 0, or -1 (a write failed). */
FTC_API int ftc_chrome_finish(struct ftc_chrome *c);
FTC_API int ftc_chrome_stats(const struct ftc_chrome *c, struct ftc_chrome_stats *st);

#ifdef __cplusplus
}
#endif

#endif
