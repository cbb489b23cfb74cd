/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scheduling pass's tables (sched-tables.c): tasks by pid, kernel
 * stacks interned, and off-CPU time by task, state and stack. Each is a
 * growing array indexed by an ftc_hindex (keytab.h): memory follows the keys.
 */
#ifndef FTC_SCHED_TABLES_H
#define FTC_SCHED_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-sched.h"
#include "keytab.h"

enum sched_state { ST_UNKNOWN, ST_RUNNING, ST_RUNNABLE, ST_SLEEP, ST_BLOCK, ST_GONE };

/* A task as the pass follows it. */
struct sched_task {
	struct ftc_sched_task t;
	enum sched_state st;
	uint64_t on_at;			/* switched in (RUNNING) */
	uint64_t off_at;		/* switched out (0: not seen) */
	uint64_t runnable_at;		/* woken or preempted (0: not seen) */
	bool woken;			/* runnable_at is a wakeup's (not a new task's) */
	bool waking_counted;		/* a sched_waking stood in for its wakeup to come */
	uint64_t wait_ns, delay_ns;	/* before its current run */
	char off_state;			/* S or D at the last switch-out, else 0 */
	char off_letter;		/* the state of the last switch-out: R, S, D... */
	bool off_span_done;		/* its span (off_r, off_s, off_d) was counted */
	int stack;			/* kernel stack at that switch-out, -1: none */
	/* a perf sample of that switch-out: its kernel and user stacks (-1: none) */
	int pstack, ustack;
	int tgid;			/* the process, as perf samples say (0: not seen) */
	/* a sample made before its switch-out was read: its stacks and time */
	int sample_k, sample_u;
	uint64_t sample_at;
	bool followed;			/* gaps_from is set */
	/* the pass's gap count when it was first met, and when it left (ST_GONE) */
	uint64_t gaps_from, gaps_to;
};

struct sched_tasks {
	struct sched_task *v;
	size_t n, cap;
	struct ftc_hindex idx;
};

struct sched_stacks {
	uint64_t *ips;			/* every stack's addresses, one after another */
	size_t nips, cap_ips;
	struct { size_t off, n; uint64_t hash; } *v;
	size_t n, cap;
	struct ftc_hindex idx;
};

struct sched_offcpu {
	struct ftc_sched_offcpu pub;	/* comm and ips are filled when asked */
	int stack, ustack;
	size_t task;			/* index in the tasks */
};

struct sched_offcpus {
	struct sched_offcpu *v;
	size_t n, cap;
	struct ftc_hindex idx;
};

/* The task of pid, added when new; NULL when out of memory. */
struct sched_task *ftc_sched_task_get(struct sched_tasks *t, int pid);
void ftc_sched_tasks_free(struct sched_tasks *t);
/* The id of a stack of n addresses (added when new); -1 when out of memory. */
int ftc_sched_stack_id(struct sched_stacks *s, const uint64_t *ips, size_t n);
void ftc_sched_stacks_free(struct sched_stacks *s);
/* Adds ns off the CPU to (task, state, kernel stack, user stack). */
int ftc_sched_offcpu_add(struct sched_offcpus *o, size_t task, int pid, char state, int stack,
			 int ustack, uint64_t ns);
void ftc_sched_offcpus_free(struct sched_offcpus *o);

#endif
