// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc sched VIEW -- COMMAND, and -a: the views live, on what ftc sched
 * record records (live-record.h); with a command, its tasks are shown.
 */
#include <stdio.h>

#include "live-record.h"
#include "sched-print.h"
#include "ftc.h"

extern const struct command cmd_sched, cmd_sched_record;

int sched_live_record(struct sched_print *p)
{
	int status = live_record(&cmd_sched, &cmd_sched_record, NULL, 0, p->duration,
				 p->live_argv, &p->live);

	if (status)
		return status;
	if (p->live_argv && !p->all && !p->pid && !p->comm) {
		p->comm = p->live.comm;
		fprintf(stderr, "ftc sched: the tasks named '%s' (the command; -a: every task)\n",
			p->comm);
	}
	p->input = p->live.path;
	return FTC_EXIT_OK;
}

void sched_live_clean(struct sched_print *p)
{
	live_clean(&p->live);
}
