// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc top's IPC view: a cycles and an instructions counter on each of the
 * busiest tasks (perf_event_open, counting only), read every refresh. A
 * machine without a hardware PMU (most VMs) refuses the first open; the
 * view then shows <not supported> and why.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "top.h"

#define PERF_TASKS 32	/* counters on at most this many tasks */

struct perf_task {
	uint64_t pid;
	int fd[2];		/* cycles, instructions */
	uint64_t last[2], delta[2];
	bool seen;
};

struct top_perf {
	struct perf_task t[PERF_TASKS];
	size_t n;
	bool supported;
};

static int open_counter(uint64_t pid, uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, (pid_t)pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Tries the PMU once on ourselves, to say at the start why it cannot be. */
struct top_perf *top_perf_new(char *why, size_t size)
{
	struct top_perf *p = calloc(1, sizeof(*p));
	int fd;

	if (!p)
		return NULL;
	fd = open_counter(0, PERF_COUNT_HW_CPU_CYCLES);
	if (fd < 0) {
		snprintf(why, size, "perf counters <not supported>: perf_event_open(cycles): %s "
			 "(no hardware PMU here, or perf_event_paranoid)", strerror(errno));
		return p;
	}
	close(fd);
	p->supported = true;
	return p;
}

bool top_perf_supported(const struct top_perf *p)
{
	return p && p->supported;
}

static void task_close(struct perf_task *t)
{
	if (t->fd[0] >= 0)
		close(t->fd[0]);
	if (t->fd[1] >= 0)
		close(t->fd[1]);
}

static struct perf_task *find(struct top_perf *p, uint64_t pid)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->t[i].pid == pid)
			return &p->t[i];
	return NULL;
}

void top_perf_follow(struct top_perf *p, const uint64_t *pids, size_t n)
{
	size_t i;

	if (!top_perf_supported(p))
		return;
	for (i = 0; i < p->n; i++)
		p->t[i].seen = false;
	for (i = 0; i < n; i++) {
		struct perf_task *t = find(p, pids[i]);

		if (t) {
			t->seen = true;
			continue;
		}
		if (p->n == PERF_TASKS || pids[i] == 0)
			continue;
		t = &p->t[p->n];
		memset(t, 0, sizeof(*t));
		t->pid = pids[i];
		t->fd[0] = open_counter(t->pid, PERF_COUNT_HW_CPU_CYCLES);
		t->fd[1] = open_counter(t->pid, PERF_COUNT_HW_INSTRUCTIONS);
		t->seen = true;
		if (t->fd[0] < 0 || t->fd[1] < 0)	/* gone, or not ours to count */
			task_close(t);
		else
			p->n++;
	}
	for (i = 0; i < p->n;) {	/* tasks that left the list lose their counters */
		if (p->t[i].seen) {
			i++;
			continue;
		}
		task_close(&p->t[i]);
		p->t[i] = p->t[--p->n];
	}
}

void top_perf_read(struct top_perf *p)
{
	size_t i;
	int k;

	for (i = 0; p && i < p->n; i++) {
		for (k = 0; k < 2; k++) {
			uint64_t v = 0;

			if (read(p->t[i].fd[k], &v, sizeof(v)) != sizeof(v))
				continue;
			p->t[i].delta[k] = v - p->t[i].last[k];
			p->t[i].last[k] = v;
		}
	}
}

int top_perf_get(const struct top_perf *p, uint64_t pid, uint64_t *cycles, uint64_t *instr)
{
	size_t i;

	for (i = 0; p && i < p->n; i++) {
		if (p->t[i].pid != pid)
			continue;
		*cycles = p->t[i].delta[0];
		*instr = p->t[i].delta[1];
		return 0;
	}
	return -1;
}

void top_perf_free(struct top_perf *p)
{
	size_t i;

	for (i = 0; p && i < p->n; i++)
		task_close(&p->t[i]);
	free(p);
}
