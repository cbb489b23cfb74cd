/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc report --timeline FILE.html: the capture's CPUs, tasks, marks and
 * counters drawn in one self-contained HTML page (report-timeline.c; the
 * page's script and style are cmd/timeline-page.html).
 */
#ifndef FTC_REPORT_TIMELINE_H
#define FTC_REPORT_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "pass.h"

struct ftc_reader;

struct report_timeline {
	const char *path;		/* FILE.html; "-": standard output */
	const char *input;		/* the trace.dat, as named */
	const char *instance;		/* NULL: the first with sched records; "": top */
	const uint64_t *cpu_mask;	/* NULL: every CPU */
	const int *pids;		/* NULL: every task */
	int npids;
	struct cmd_window *win;		/* --from, --to */
};

/* From the option's handler: a directory or an empty name is refused (exit 2). */
int report_timeline_opt(const char *path);
/* Writes the page; returns an exit status (nothing is left at path on failure). */
int report_timeline_run(struct ftc_reader *r, const struct report_timeline *o);

#endif
