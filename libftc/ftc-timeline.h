/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A timeline of a trace (libftc/analysis/): a pass over the reader's
 * records (no text formatting) that turns sched_switch, sched_wakeup,
 * ftrace print (trace_marker) records, ftc_perf samples and counters, and
 * the lost-event gaps, into what a timeline draws: each task's stretches
 * on a CPU (slices), each task's states (running, runnable, sleeping S,
 * blocked D), marks and counter points. Each is given to a callback when
 * it ends, clipped to a time window and kept to the CPUs and pids asked
 * for, so that a caller can write it out at once: memory grows with the
 * tasks and CPUs, not with the records.
 */
#ifndef FTC_TIMELINE_H
#define FTC_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct ftc_merge_record;
struct ftc_timeline;

/* A task in the timeline: the index the callbacks give is its place in ftc_timeline_task_at(). */
struct ftc_timeline_task {
	int pid;
	char comm[17];			/* the last name a switch gave it */
	uint64_t slices;		/* of those given: switch-ins, heads too */
	uint64_t run_ns;		/* on a CPU inside the window */
	bool shown;			/* something of it was given */
};

/* A task's stretch on a CPU, from its switch-in to its switch-out. */
struct ftc_timeline_slice {
	uint64_t start, end;		/* clipped to the window */
	int cpu;
	size_t task;
	/* how it left: R (preempted), S, D, another letter; 0: still running at the end */
	char end_state;
	/* no switch-in of it in the window: it ran from before the window
	 * (or before the CPU's first record) */
	bool head;
};

/*
 * A task's state over a stretch: 'R' running, 'W' runnable (woken, or
 * preempted) and waiting for a CPU, 'S' sleeping, 'D' blocked, or the
 * kernel's letter of another state it was switched out in (T, t, P...).
 */
struct ftc_timeline_state {
	uint64_t start, end;		/* clipped to the window */
	size_t task;
	/* where: the CPU it ran on, was preempted on, left, or was woken to */
	int cpu;
	char state;
};

/* A trace_marker write (ftrace:print), or events lost (text NULL). */
struct ftc_timeline_mark {
	uint64_t ts;
	int cpu;
	size_t task;			/* SIZE_MAX: no task (lost events, idle) */
	const char *text;		/* the marker's text, without its newline */
	size_t len;
	long long missed;		/* lost events: how many, -1 unknown */
};

/* A perf sample (ftc_perf:sample) or a counter reading (ftc_perf:counter, name set). */
struct ftc_timeline_point {
	uint64_t ts;
	int cpu;
	size_t task;			/* SIZE_MAX: none (counters, idle) */
	const char *name;		/* a counter's, NULL for a sample */
	uint64_t value;			/* a counter's value (cumulative), a sample's period */
};

typedef void (*ftc_timeline_slice_fn)(const struct ftc_timeline_slice *s, void *ctx);
typedef void (*ftc_timeline_state_fn)(const struct ftc_timeline_state *s, void *ctx);
typedef void (*ftc_timeline_mark_fn)(const struct ftc_timeline_mark *m, void *ctx);
typedef void (*ftc_timeline_point_fn)(const struct ftc_timeline_point *p, void *ctx);

/* An options structure (FTC_OPTS_INIT). */
struct ftc_timeline_opts {
	size_t size;			/* sizeof(struct ftc_timeline_opts) */
	/* the buffer to read: NULL for the first with a sched or print record, "" for the top */
	const char *instance;
	uint64_t from, to;		/* the window, both ends included; to 0: open */
	const uint64_t *cpu_mask;	/* 16 words, bit n = CPU n; NULL: every CPU */
	const int *pids;		/* only these tasks (npids of them); NULL: all */
	size_t npids;
	ftc_timeline_slice_fn on_slice;	/* each may be NULL */
	ftc_timeline_state_fn on_state;
	ftc_timeline_mark_fn on_mark;
	ftc_timeline_point_fn on_point;
	void *ctx;
};

/* Needs sched:sched_switch in r's formats (ENOENT otherwise, naming what to record). */
FTC_API struct ftc_timeline *ftc_timeline_new(struct ftc_reader *r,
					      const struct ftc_timeline_opts *o);
FTC_API void ftc_timeline_free(struct ftc_timeline *t);
/*
 * Feeds one record, in timestamp order (ftc_merge_next()), from the
 * trace's start: the records before the window say what runs where when
 * it opens. Returns 1 once a record lies past the window's end (the
 * caller may stop), 0 otherwise, -1 when out of memory.
 */
FTC_API int ftc_timeline_add(struct ftc_timeline *t, const struct ftc_merge_record *mr);
/* Ends what is still open at the window's end, or the last record's time. */
FTC_API void ftc_timeline_finish(struct ftc_timeline *t);

FTC_API size_t ftc_timeline_ntasks(const struct ftc_timeline *t);
FTC_API const struct ftc_timeline_task *ftc_timeline_task_at(const struct ftc_timeline *t,
							     size_t i);
/* The first and last timestamps drawn: the window, narrowed to the records read. */
FTC_API uint64_t ftc_timeline_start(const struct ftc_timeline *t);
FTC_API uint64_t ftc_timeline_end(const struct ftc_timeline *t);
/* The buffer read (NULL: the top level, or none had a record of the pass's). */
FTC_API const char *ftc_timeline_instance(const struct ftc_timeline *t);

#ifdef __cplusplus
}
#endif

#endif
