/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thread ids of ftc record itself, for set_event_notrace_pid. */
#ifndef FTC_CMD_RECORD_SELF_H
#define FTC_CMD_RECORD_SELF_H

#include <stddef.h>
#include <sys/types.h>

struct tid_source {
	/* Fills at most max tids, returns how many. */
	int (*get)(void *ctx, pid_t *tids, int max);
	void *ctx;
	int most;	/* the most it can give: one reader per CPU and buffer */
};

/*
 * Every source's tids as decimal strings, in an array sized from the
 * sources' own counts (a capture may have a reader for each of hundreds
 * of CPUs). Returns NULL on ENOMEM; free with self_tids_free.
 */
char **self_tids(const struct tid_source *src, size_t nsrc, size_t *n);
void self_tids_free(char **v, size_t n);

#endif
