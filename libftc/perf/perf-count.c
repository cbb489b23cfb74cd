// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Arithmetic on counts: multiplexing scale, interval deltas, the running
 * statistics of repeated runs; and the targets counts are taken on
 * (threads of a process, CPU lists).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "tracefs-layer.h"

double ftc_perf_count_scaled(const struct ftc_perf_count *c)
{
	/* A counter that ran only part of its enabled time saw that part of
	 * the events; extrapolate as perf does. */
	if (c->run && c->run < c->ena)
		return (double)c->val * (double)c->ena / (double)c->run;
	return (double)c->val;
}

double ftc_perf_count_running_pct(const struct ftc_perf_count *c)
{
	if (!c->ena)
		return 100.0;
	return 100.0 * (double)c->run / (double)c->ena;
}

void ftc_perf_count_sub(struct ftc_perf_count *c, const struct ftc_perf_count *a,
			const struct ftc_perf_count *b)
{
	c->val = a->val - b->val;
	c->ena = a->ena - b->ena;
	c->run = a->run - b->run;
}

void ftc_perf_stats_add(struct ftc_perf_stats *s, double v)
{
	double delta = v - s->mean;

	s->n += 1;
	s->mean += delta / s->n;
	s->m2 += delta * (v - s->mean);
}

double ftc_perf_stats_stddev_mean(const struct ftc_perf_stats *s)
{
	/* The spread of the mean itself: sample variance / n. */
	if (s->n < 2)
		return 0;
	return sqrt(s->m2 / (s->n - 1) / s->n);
}

double ftc_perf_stats_rel_stddev(const struct ftc_perf_stats *s)
{
	if (s->mean == 0)
		return 0;
	return 100.0 * ftc_perf_stats_stddev_mean(s) / fabs(s->mean);
}

int ftc_perf_pid_threads(pid_t pid, pid_t **tids)
{
	char dir[64];
	DIR *d;
	struct dirent *de;
	pid_t *t = NULL;
	int n = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	d = opendir(dir);
	if (!d)
		return ftc_error(errno, "no process %d (%s: %s); check the pid with ps",
				 (int)pid, dir, strerror(errno));
	while ((de = readdir(d))) {
		pid_t *nt;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		nt = realloc(t, (size_t)(n + 1) * sizeof(*t));
		if (!nt) {
			free(t);
			closedir(d);
			return ftc_error(ENOMEM, "out of memory");
		}
		t = nt;
		t[n++] = (pid_t)atoi(de->d_name);
	}
	closedir(d);
	*tids = t;
	return n;
}

int ftc_perf_parse_cpus(const char *list, int **cpus)
{
	return ftc_cpulist_parse(list, cpus);
}
