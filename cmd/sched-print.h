/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc sched's views (sched-print.c): the pass over the file, then the
 * latency table, the timehist lines or the off-CPU stacks.
 */
#ifndef FTC_CMD_SCHED_PRINT_H
#define FTC_CMD_SCHED_PRINT_H

#include <stdbool.h>

#include "options.h"

struct ftc_reader;

enum sched_view { SCHED_LATENCY, SCHED_TIMEHIST, SCHED_OFFCPU };

enum sched_sort {
	SCHED_SORT_DEFAULT, SCHED_SORT_RUN, SCHED_SORT_SWITCHES, SCHED_SORT_DELAY,
	SCHED_SORT_MAX, SCHED_SORT_SLEEP, SCHED_SORT_BLOCK, SCHED_SORT_PID, SCHED_SORT_COMM,
};

struct sched_print {
	const char *input, *instance, *comm, *flame;
	int pid;
	int view;			/* enum sched_view */
	int sort;			/* enum sched_sort */
	unsigned long long limit;
	bool json, folded;
	struct ftc_reader *r;
};

/* KEY of --sort; -1 when it is none. */
int sched_print_sort_key(const char *key, int *sort);
/* Runs the pass and prints the view: an exit status. */
int sched_print_run(const struct command *cmd, struct sched_print *p);

#endif
