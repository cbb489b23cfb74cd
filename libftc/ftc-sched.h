/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Scheduling answers from a trace's sched events (libftc/analysis/): a
 * pass over the reader's records (no text formatting) that follows each
 * task through run, runnable, sleeping (S) and blocked (D), and keeps per
 * task its run time, switches, scheduling delay (woken or preempted to
 * switched in), sleep and block time, preemptions and migrations; a log2
 * histogram of the delays; and the off-CPU time by kernel stack, where a
 * stacktrace trigger on sched_switch recorded one. Memory grows with the
 * tasks and the distinct stacks, not with the records.
 */
#ifndef FTC_SCHED_H
#define FTC_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct ftc_merge_record;
struct ftc_sched;

/* log2 buckets of ns: bucket i holds [2^i, 2^(i+1)), bucket 0 also 0 */
#define FTC_SCHED_BUCKETS 64

/* Spans of one kind: how many, their sum, the longest and shortest and when they ended. */
struct ftc_sched_span {
	uint64_t count, total_ns;
	uint64_t max_ns, max_at;	/* the first of the longest */
	uint64_t min_ns, min_at;	/* the first of the shortest */
};

/* A task (a thread: pid is the kernel's), or the total over all (pid -1). */
struct ftc_sched_task {
	int pid;
	char comm[17];			/* the last name it ran under */
	uint64_t run_ns;		/* on a CPU */
	uint64_t switches;		/* switched in */
	/* of those, switch-ins the trace lacks, inferred from the task's first
	 * record running (this kernel does not always record the switch out of
	 * an idle CPU): no delay is measured for them */
	uint64_t inferred;
	uint64_t wakeups;		/* sched_wakeup and sched_wakeup_new */
	uint64_t preempted;		/* switched out runnable */
	uint64_t migrations;		/* sched_migrate_task */
	uint64_t delays;		/* runnable to switched in, measured */
	uint64_t delay_ns, delay_max_ns;
	uint64_t delay_max_at;		/* the switch-in that ended the longest delay */
	uint64_t sleeps, sleep_ns;	/* off the CPU in S (or I) */
	uint64_t blocks, block_ns;	/* off the CPU in D */
	uint64_t hist[FTC_SCHED_BUCKETS];	/* delays */
	/*
	 * As trace-cmd's profile has them: from each switch-out, by the state
	 * it left in (R: preempted; S, with I; D), to its wakeup, or to the
	 * next switch-in when no wakeup came first (a preemption; inferred
	 * switch-ins too); and from each wakeup of a task seen going to sleep
	 * to a recorded switch-in.
	 */
	struct ftc_sched_span off_r, off_s, off_d, woken;
	/*
	 * Gaps where a CPU lost events while this task was followed (from its
	 * first record to the end, or to its exit): any of its numbers may be
	 * short. The total's: every gap in the buffer read.
	 */
	uint64_t lost_gaps;
};

/* One stretch on a CPU, given when it ends (ftc sched timehist). */
struct ftc_sched_run {
	uint64_t ts;			/* switched out */
	int cpu, pid;
	const char *comm;
	uint64_t wait_ns;		/* off the CPU before it (0: not seen) */
	uint64_t delay_ns;		/* of that, runnable (0: not seen) */
	uint64_t run_ns;
	char state;			/* how it left: R (preempted), S, D, or another letter */
};

typedef void (*ftc_sched_run_fn)(const struct ftc_sched_run *run, void *ctx);

/* A CPU switched to another task, or to idle (ftc sched map). */
struct ftc_sched_switch {
	uint64_t ts;
	int cpu;
	int pid;			/* 0: idle */
	const char *comm;		/* NULL when idle */
	int prev_pid;			/* the task it ran before (0: idle, or not known) */
	const char *prev_comm;		/* its name then; NULL when idle */
	size_t task;			/* its index for ftc_sched_task_at(); SIZE_MAX when idle */
	/* the trace lacks this switch: the task's first record on that CPU shows it */
	bool inferred;
};

typedef void (*ftc_sched_switch_fn)(const struct ftc_sched_switch *sw, void *ctx);
/* A delay measured: t was runnable for ns until switched in at ts (a heat map's feed). */
typedef void (*ftc_sched_delay_fn)(const struct ftc_sched_task *t, uint64_t ts, uint64_t ns,
				   void *ctx);

/* Events were lost on cpu before the record at ts: missed of them (-1: how many is unknown). */
typedef void (*ftc_sched_lost_fn)(int cpu, uint64_t ts, long long missed, void *ctx);

/* An options structure (FTC_OPTS_INIT). */
struct ftc_sched_opts {
	size_t size;			/* sizeof(struct ftc_sched_opts) */
	/* the buffer to read: NULL for the first with a sched record, "" for the top level */
	const char *instance;
	ftc_sched_run_fn on_run;	/* NULL: none */
	void *ctx;			/* the callbacks' */
	ftc_sched_delay_fn on_delay;	/* NULL: none */
	ftc_sched_lost_fn on_lost;	/* NULL: none */
	ftc_sched_switch_fn on_switch;	/* NULL: none */
};

/* Needs sched:sched_switch in r's formats (ENOENT otherwise, naming what to record). */
FTC_API struct ftc_sched *ftc_sched_new(struct ftc_reader *r, const struct ftc_sched_opts *o);
FTC_API void ftc_sched_free(struct ftc_sched *s);
/* Feeds one record, in timestamp order (ftc_merge_next()); others than sched's are passed over. */
FTC_API int ftc_sched_add(struct ftc_sched *s, const struct ftc_merge_record *mr);
/* Closes the stretches still open at the end of the trace (at its last timestamp). */
FTC_API void ftc_sched_finish(struct ftc_sched *s);

/* The tasks seen, in the order met, and the total (pid -1, comm "total"). */
FTC_API size_t ftc_sched_ntasks(const struct ftc_sched *s);
FTC_API const struct ftc_sched_task *ftc_sched_task_at(const struct ftc_sched *s, size_t i);
FTC_API const struct ftc_sched_task *ftc_sched_total(const struct ftc_sched *s);
/* The ns at or under which pct percent (0-100] of h's delays lie, from the buckets' tops. */
FTC_API uint64_t ftc_sched_percentile(const struct ftc_sched_task *t, double pct);
/* The buffer read (NULL: the top level, or none had a sched_switch). */
FTC_API const char *ftc_sched_instance(const struct ftc_sched *s);
/*
 * The records of an event the pass read in that buffer: sched_switch,
 * sched_wakeup, sched_wakeup_new, sched_waking, sched_migrate_task,
 * sched_process_exit, kernel_stack, or sample (ftc_perf's, in any
 * buffer; 0 for another name). A file holds
 * the formats of events it never recorded: this tells "not recorded"
 * from a format.
 */
FTC_API uint64_t ftc_sched_seen(const struct ftc_sched *s, const char *name);
/*
 * Events lost inside the window read (those counted: a gap of unknown size
 * adds none, but counts in lost_gaps): the numbers that depend on them are
 * short.
 */
FTC_API uint64_t ftc_sched_lost(const struct ftc_sched *s);

/*
 * Off-CPU time of one task in one state under one stack. The kernel stack
 * is the stacktrace trigger's, else a perf sample's of the same switch
 * (ftc record --sample sched:sched_switch --count 1 --call-graph ...),
 * which also gives the user stack; the process (tgid) names its maps.
 */
struct ftc_sched_offcpu {
	int pid;
	const char *comm;
	char state;			/* S or D */
	uint64_t ns, count;
	const uint64_t *ips;		/* the kernel stack at the switch-out, innermost first */
	size_t nips;			/* 0: none was recorded */
	const uint64_t *user_ips;	/* the user stack, innermost first */
	size_t nuser_ips;		/* 0: none was recorded */
	int tgid;			/* the task's process (0: no perf sample said) */
};

FTC_API size_t ftc_sched_noffcpu(const struct ftc_sched *s);
FTC_API const struct ftc_sched_offcpu *ftc_sched_offcpu_at(const struct ftc_sched *s, size_t i);

#ifdef __cplusplus
}
#endif

#endif
