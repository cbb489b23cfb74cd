/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The timeline's state machine (timeline-model.c), apart from the records
 * it is fed from (timeline-pass.c) so that a unit test can drive it with
 * plain switches and wakeups: what runs on each CPU, what state each task
 * is in and since when, and the window and selection that decide what is
 * given to the callbacks.
 */
#ifndef FTC_TIMELINE_MODEL_H
#define FTC_TIMELINE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-timeline.h"
#include "keytab.h"

#define TL_MAX_CPUS 1024

struct tl_cpu {
	bool seen;			/* a record of the buffer was read on it */
	bool known;			/* a switch was read on it: pid is what runs */
	int pid;			/* 0: idle */
	size_t task;
	uint64_t first;			/* its first record */
	uint64_t since;			/* pid's switch-in */
};

struct tl_task {
	struct ftc_timeline_task pub;
	char st;			/* R, W, S, D, another letter; 0: not known, or gone */
	uint64_t since;
	int cpu;
};

struct tl_model {
	struct ftc_timeline_opts o;
	struct ftc_keytab keys;		/* pid to task */
	struct tl_task *tasks;
	struct tl_cpu *cpus;		/* TL_MAX_CPUS of them */
	uint64_t to;			/* the window's end, UINT64_MAX when open */
	uint64_t first, last;		/* the records read: first and last timestamps */
	bool any, done;			/* a record was read; one past the window */
};

int ftc_tl_init(struct tl_model *m, const struct ftc_timeline_opts *o);
void ftc_tl_free(struct tl_model *m);
/* A record of the buffer on cpu at ts: 1 when past the window. */
int ftc_tl_seen(struct tl_model *m, int cpu, uint64_t ts);
/* prev_state is the switch's letter: R (preempted), S, D, X, Z... Comms may be NULL. */
int ftc_tl_switch(struct tl_model *m, int cpu, uint64_t ts, int prev_pid, const char *prev_comm,
		  char prev_state, int next_pid, const char *next_comm);
int ftc_tl_wakeup(struct tl_model *m, int pid, int cpu, uint64_t ts);
int ftc_tl_mark(struct tl_model *m, int cpu, uint64_t ts, int pid, const char *text, size_t len);
void ftc_tl_lost(struct tl_model *m, int cpu, uint64_t ts, long long missed);
int ftc_tl_point(struct tl_model *m, int cpu, uint64_t ts, int pid, const char *name,
		 uint64_t value);
void ftc_tl_finish(struct tl_model *m);
/* The task of pid (added when new), or NULL when out of memory. */
struct tl_task *ftc_tl_task(struct tl_model *m, int pid);

#endif
