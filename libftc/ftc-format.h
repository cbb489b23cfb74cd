/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Records as text (the layout trace-cmd report prints), JSON lines or the
 * kernel's function_graph layout (libftc/format/).
 */
#ifndef FTC_FORMAT_H
#define FTC_FORMAT_H

#include <stdio.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct ftc_merge;
struct ftc_merge_record;
struct tep_record;

/* Output of records (format*.c): the ftrace text layout, or JSON lines. */
struct ftc_format;

enum ftc_format_flags {
	FTC_FMT_NS		= 1 << 0,	/* nanosecond timestamps */
	FTC_FMT_RAW		= 1 << 1,	/* fields as name=value, no print format */
	FTC_FMT_JSON		= 1 << 2,	/* one JSON object per line */
	FTC_FMT_NO_GRAPH	= 1 << 3,	/* do not fold function_graph entry/exit */
	FTC_FMT_INSTANCE	= 1 << 4,	/* prefix records with "instance: " */
	/* function_graph as the kernel's trace file shows it (ftc_format_header too). */
	FTC_FMT_GRAPH_KERNEL	= 1 << 5,
	FTC_FMT_GRAPH_PROC	= 1 << 6,	/* with it: the TASK/PID column */
	FTC_FMT_GRAPH_ABSTIME	= 1 << 7,	/* with it: the TIME column */
	/* Every event's text by libtraceevent, none through the print formats
	 * libftc compiles (to check that both print the same bytes; slower). */
	FTC_FMT_NO_COMPILE	= 1 << 8,
};

FTC_API struct ftc_format *ftc_format_new(struct ftc_reader *r, FILE *out, unsigned int flags);
/* Before ftc_reader_close(r): the reader keeps the last one's caches for the next. */
FTC_API void ftc_format_free(struct ftc_format *f);
/*
 * Lets function_graph output fold entry+exit pairs by looking ahead in m.
 * Without a merge (live records), an entry waits for the next record given
 * to the formatter instead: folded when that is its exit on the same CPU.
 */
FTC_API void ftc_format_set_merge(struct ftc_format *f, struct ftc_merge *m);
/* The kernel's trace header: tracer, entries, #P and the column legend. */
FTC_API void ftc_format_header(struct ftc_format *f, const char *tracer);
/* Prints a record, preceded by its lost-events marker if any. */
FTC_API int ftc_format_record(struct ftc_format *f, const struct ftc_merge_record *mr);
/*
 * A record a selection leaves out: not printed, but its plugin handler still
 * runs (sched_switch's registers the comms later records print with), so a
 * selected report prints the same lines as the whole one.
 */
FTC_API void ftc_format_pass_over(struct ftc_format *f, const struct ftc_merge_record *mr);
/*
 * A record that another formatter prints (report --jobs: each process
 * prints every Nth stretch): not printed, but everything printing it does to
 * the reader and the merge is done, so the next record prints as it would
 * have: ftc_format_pass_over(), and a function_graph entry takes its folded
 * exit off the merge. Not for FTC_FMT_GRAPH_KERNEL, which keeps per-CPU
 * state of what it printed.
 */
FTC_API void ftc_format_skip_record(struct ftc_format *f, const struct ftc_merge_record *mr);
/*
 * Hands the lines formatted so far to the FILE (they are gathered in a
 * buffer for speed), but not a function_graph entry held for its exit:
 * for live output, before fflush().
 */
FTC_API void ftc_format_sync(struct ftc_format *f);
/* Prints what is still held back (function_graph entries waiting for an exit). */
FTC_API void ftc_format_flush(struct ftc_format *f);
/*
 * How the records formatted so far were printed: through the print formats
 * libftc compiles, or left to libtraceevent. The figures are the reader's
 * (its formats pass their caches on to the next): ask before the last
 * ftc_format_free(). A sized value type: set size (see ftc-api.h).
 */
struct ftc_format_stats {
	size_t size;
	unsigned int events_compiled;		/* events whose print format compiled */
	unsigned int events_left;		/* events left to libtraceevent */
	unsigned long long records_compiled;
	unsigned long long records_left;	/* printed by libtraceevent */
};
/* One event with records left to libtraceevent: their count, and why. */
typedef void ftc_format_left_fn(const char *event, unsigned long long records,
				const char *why, void *arg);
/* Fills st and calls each (when not NULL) for every event with records
 * left to libtraceevent. Returns 1, 0 when no record was printed yet (st
 * all 0), or -1 with EINVAL for a size never set. */
FTC_API int ftc_format_stats(const struct ftc_format *f, struct ftc_format_stats *st,
			     ftc_format_left_fn *each, void *arg);
/* "function_graph", "function" or "nop", from the events at the head of m,
 * and then from the file's first records (4096 at most). */
FTC_API const char *ftc_merge_guess_tracer(struct ftc_merge *m, struct ftc_reader *r);
/* The event name of a record ("unknown" if its format is missing). */
FTC_API const char *ftc_record_event_name(struct ftc_reader *r, struct tep_record *rec);

#ifdef __cplusplus
}
#endif

#endif
