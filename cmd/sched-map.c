// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc sched map: what each CPU runs, a line per switch, as perf sched map
 * draws it. Each task gets a two-character name when first seen (A0, B0,
 * ... Z0, A1, ... Z9, then a0 ... z9, then again), told once as "A0 => comm:pid";
 * the CPU that switched is starred, an idle one is a dot, and a switch
 * the trace lacks (taken from the task's first record there) is a '+'.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "sched-print.h"
#include "ftc.h"
#include "ftc-sched.h"

#define NAMES 520			/* A0..Z9, a0..z9 */

struct sched_map {
	const struct sched_print *p;
	int ncpus;
	int *cpu_name;			/* per CPU: the name of the task it runs, -1 idle */
	int *task_name;			/* per task index: its name + 1, 0 until seen */
	size_t ntasks;
	int next;			/* the next name to give */
	int failed;			/* out of memory: errno */
};

static void name_text(int n, char buf[3])
{
	int set = n / 260, k = n % 260;

	buf[0] = (char)((set ? 'a' : 'A') + k % 26);
	buf[1] = (char)('0' + k / 26);
	buf[2] = '\0';
}

/* The task's name, given now if new (*fresh); -1 when out of memory. */
static int task_name(struct sched_map *m, size_t task, bool *fresh)
{
	*fresh = false;
	if (task >= m->ntasks) {
		size_t n = task + 64;
		int *v = realloc(m->task_name, n * sizeof(*v));

		if (!v) {
			m->failed = ENOMEM;
			return -1;
		}
		memset(v + m->ntasks, 0, (n - m->ntasks) * sizeof(*v));
		m->task_name = v;
		m->ntasks = n;
	}
	if (!m->task_name[task]) {
		m->task_name[task] = m->next + 1;
		m->next = (m->next + 1) % NAMES;
		*fresh = true;
	}
	return m->task_name[task] - 1;
}

/* A switch of a selected task in or out, or any without a selection. */
static bool shown(const struct sched_map *m, const struct ftc_sched_switch *sw)
{
	const struct sched_print *p = m->p;

	if (!p->pid && !p->comm)
		return true;
	if (sw->pid && sched_print_selected(p, sw->pid, sw->comm))
		return true;
	return sw->prev_pid > 0 && sched_print_selected(p, sw->prev_pid, sw->prev_comm);
}

static void map_line(const struct sched_map *m, const struct ftc_sched_switch *sw, bool fresh)
{
	char name[3];

	for (int c = 0; c < m->ncpus; c++) {
		char mark = c != sw->cpu ? ' ' : sw->inferred ? '+' : '*';

		if (m->cpu_name[c] < 0)
			strcpy(name, " .");
		else
			name_text(m->cpu_name[c], name);
		printf("%c%s ", mark, name);
	}
	putchar(' ');
	sched_print_ts(sw->ts);
	if (fresh) {
		name_text(m->cpu_name[sw->cpu], name);
		printf("  %s => %s:%d", name, sw->comm, sw->pid);
	}
	putchar('\n');
}

void sched_map_switch(const struct ftc_sched_switch *sw, void *ctx)
{
	struct sched_map *m = ((const struct sched_print *)ctx)->map;
	bool fresh = false, show;
	int n = -1;

	if (m->failed || sw->cpu < 0 || sw->cpu >= m->ncpus || cmd_output_failed())
		return;
	if (sw->pid > 0 && (n = task_name(m, sw->task, &fresh)) < 0)
		return;
	show = shown(m, sw);
	m->cpu_name[sw->cpu] = n;
	if (show)
		map_line(m, sw, fresh);
}

struct sched_map *sched_map_new(const struct sched_print *p, int ncpus)
{
	struct sched_map *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->p = p;
	m->ncpus = ncpus > 0 ? ncpus : 1;
	m->cpu_name = malloc((size_t)m->ncpus * sizeof(int));
	if (!m->cpu_name) {
		sched_map_free(m);
		return NULL;
	}
	for (int c = 0; c < m->ncpus; c++)
		m->cpu_name[c] = -1;
	return m;
}

void sched_map_free(struct sched_map *m)
{
	if (!m)
		return;
	free(m->cpu_name);
	free(m->task_name);
	free(m);
}

void sched_map_head(const struct sched_map *m)
{
	for (int c = 0; c < m->ncpus; c++)
		printf("%3d ", c);
	printf(" %15s\n", "time");
}

int sched_map_failed(const struct sched_map *m)
{
	return m->failed;
}
