/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc report --jobs N: the records formatted by N processes, printed in
 * order, byte for byte what one process prints (report-jobs.c says how).
 */
#ifndef FTC_CMD_REPORT_JOBS_H
#define FTC_CMD_REPORT_JOBS_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "ftc-format.h"
#include "ftc-reader.h"

#define REPORT_JOBS_MAX		16
/*
 * Printed records per stretch: a stretch's text (about 1 MB) is what a
 * helper holds. FTC_REPORT_STRETCH=N sets another (tests: many boundaries).
 */
#define REPORT_JOBS_CHUNK	8192

struct report_jobs {
	int n;				/* processes; 1: this one alone */
	int me;				/* 0: the printing parent; 1..n-1: a helper */
	pid_t pid[REPORT_JOBS_MAX];	/* parent: the helpers */
	int fd[REPORT_JOBS_MAX];	/* parent: their pipes; helper: its own in fd[me] */
	FILE *mem;			/* helper: its stretch's text */
	char *buf;
	size_t len;
	const char *input;		/* for messages */
	unsigned long long chunk;	/* records per stretch */
};

/*
 * The number of processes for a report of r with the formatter flags fl:
 * asked (0: the default, up to 4 of the CPUs this process may run on for a
 * capture of more than 4 MB of ring buffer data), and 1 where the layout
 * keeps state across records (the kernel's function_graph layout).
 */
int report_jobs_count(struct ftc_reader *r, unsigned int fl, int asked);

/*
 * Starts the helpers (after the header is out). In a helper, *f is
 * replaced by a formatter of its own writing to memory. Falls back to one
 * process when they cannot start. Returns 0, or -1 (a message was printed).
 */
int report_jobs_start(struct report_jobs *j, int n, struct ftc_format **f, struct ftc_merge *m,
		      struct ftc_reader *r, unsigned int fl);

/* Whether this process prints the printed-th selected record (0-based). */
static inline bool report_jobs_mine(const struct report_jobs *j, unsigned long long printed)
{
	return (int)((printed / j->chunk) % (unsigned long long)j->n) == j->me;
}

/*
 * After each selected record (printed: how many so far): at the end of a
 * stretch, its text goes out in order. Returns 0, or -1 (a message was
 * printed; stop).
 */
int report_jobs_step(struct report_jobs *j, struct ftc_format *f, unsigned long long printed);

/*
 * At the end of the records (printed: how many): the last stretch goes
 * out, and the helpers are waited for. A helper exits here. Returns 0, or -1
 * when a helper failed (a message was printed).
 */
int report_jobs_finish(struct report_jobs *j, struct ftc_format *f, unsigned long long printed);

#endif
