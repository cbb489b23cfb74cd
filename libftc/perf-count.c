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

static int push_cpu(int **cpus, int *n, long cpu)
{
	int *c;

	for (int i = 0; i < *n; i++)
		if ((*cpus)[i] == cpu)
			return 0;
	c = realloc(*cpus, (size_t)(*n + 1) * sizeof(int));
	if (!c)
		return ftc_error(ENOMEM, "out of memory");
	c[(*n)++] = (int)cpu;
	*cpus = c;
	return 0;
}

static int read_online(char *buf, size_t size)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");

	if (!f || !fgets(buf, (int)size, f)) {
		if (f)
			fclose(f);
		snprintf(buf, size, "0-%ld", sysconf(_SC_NPROCESSORS_ONLN) - 1);
		return 0;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int ftc_perf_parse_cpus(const char *list, int **cpus)
{
	char online[256];
	const char *p;
	int n = 0;
	long max = sysconf(_SC_NPROCESSORS_CONF);

	*cpus = NULL;
	if (!list) {
		read_online(online, sizeof(online));
		list = online;
	}
	for (p = list; *p;) {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(p, &end, 10);
		b = a;
		if (end == p || errno)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				goto bad;
		}
		if (a < 0 || b >= max)
			goto bad;
		for (long c = a; c <= b; c++)
			if (push_cpu(cpus, &n, c) < 0)
				return -1;
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	if (!n)
		goto bad;
	return n;
bad:
	free(*cpus);
	*cpus = NULL;
	return ftc_error(EINVAL, "bad CPU list '%s': use numbers and ranges below %ld, e.g. 0-1,3",
			 list, max);
}
