// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The timeline's state machine (timeline-model.h). A stretch (a slice on a
 * CPU, a state of a task) is given when it ends, so nothing waits in
 * memory but the open one of each CPU and task. Stretches are clipped to
 * the window; those that began before it are heads, and one that ended
 * before it is dropped. The records before the window are read all the
 * same: they say what runs where when it opens.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "opts.h"
#include "timeline-model.h"

int ftc_tl_init(struct tl_model *m, const struct ftc_timeline_opts *o)
{
	memset(m, 0, sizeof(*m));
	if (o && FTC_OPTS_COPY(&m->o, o, ftc_timeline_opts, ctx) < 0)
		return -1;
	m->to = m->o.to ? m->o.to : UINT64_MAX;
	if (m->o.to && m->o.from > m->o.to)
		return ftc_error(EINVAL, "the window starts after it ends");
	m->cpus = calloc(TL_MAX_CPUS, sizeof(*m->cpus));
	if (!m->cpus)
		return ftc_error(ENOMEM, "out of memory");
	return 0;
}

void ftc_tl_free(struct tl_model *m)
{
	ftc_keytab_free(&m->keys);
	free(m->tasks);
	free(m->cpus);
	m->tasks = NULL;
	m->cpus = NULL;
}

static bool cpu_wanted(const struct tl_model *m, int cpu)
{
	if (!m->o.cpu_mask)
		return true;
	return cpu >= 0 && cpu < TL_MAX_CPUS && (m->o.cpu_mask[cpu / 64] >> (cpu % 64) & 1);
}

static bool pid_wanted(const struct tl_model *m, int pid)
{
	if (!m->o.pids)
		return true;
	for (size_t i = 0; i < m->o.npids; i++)
		if (m->o.pids[i] == pid)
			return true;
	return false;
}

static struct tl_cpu *cpu_of(struct tl_model *m, int cpu)
{
	return cpu >= 0 && cpu < TL_MAX_CPUS ? &m->cpus[cpu] : NULL;
}

struct tl_task *ftc_tl_task(struct tl_model *m, int pid)
{
	int added;
	struct tl_task *t = ftc_keytab_value(&m->keys, (uint64_t)(uint32_t)pid,
					     (void **)&m->tasks, sizeof(*t), &added);

	if (t && added) {
		t->pub.pid = pid;
		t->cpu = -1;
	}
	return t;
}

static size_t task_index(const struct tl_model *m, const struct tl_task *t)
{
	return (size_t)(t - m->tasks);
}

static void set_comm(struct tl_task *t, const char *comm)
{
	if (comm && *comm)
		snprintf(t->pub.comm, sizeof(t->pub.comm), "%s", comm);
}

/*
 * [*a, *b] clipped to the window; false when nothing of it is inside. A
 * stretch that began before the window must reach into it, not touch it.
 */
static bool clip(const struct tl_model *m, uint64_t *a, uint64_t *b)
{
	if (*a > m->to || *b < m->o.from || (*a < m->o.from && *b == m->o.from))
		return false;
	if (*a < m->o.from)
		*a = m->o.from;
	if (*b > m->to)
		*b = m->to;
	return true;
}

/* The stretch of the task that ran on c ends at ts. */
static void slice_end(struct tl_model *m, int cpu, struct tl_cpu *c, uint64_t start, bool head,
		      uint64_t ts, char state)
{
	struct tl_task *t = &m->tasks[c->task];
	struct ftc_timeline_slice s = { .start = start, .end = ts, .cpu = cpu, .task = c->task,
					.end_state = state };

	if (head && start >= ts)
		return;
	if (!clip(m, &s.start, &s.end) || !cpu_wanted(m, cpu) || !pid_wanted(m, t->pub.pid))
		return;
	s.head = head || start < m->o.from;
	t->pub.slices++;
	t->pub.run_ns += s.end - s.start;
	t->pub.shown = true;
	if (m->o.on_slice)
		m->o.on_slice(&s, m->o.ctx);
}

/* t's state since t->since ends at ts (started: when from later than that). */
static void state_end(struct tl_model *m, struct tl_task *t, uint64_t started, uint64_t ts)
{
	struct ftc_timeline_state s = { .start = started, .end = ts, .task = task_index(m, t),
					.cpu = t->cpu, .state = t->st };

	if (!t->st || !clip(m, &s.start, &s.end) || !cpu_wanted(m, t->cpu) ||
	    !pid_wanted(m, t->pub.pid))
		return;
	t->pub.shown = true;
	if (m->o.on_state)
		m->o.on_state(&s, m->o.ctx);
}

static void state_set(struct tl_task *t, char st, uint64_t ts, int cpu)
{
	t->st = st;
	t->since = ts;
	t->cpu = cpu;
}

int ftc_tl_seen(struct tl_model *m, int cpu, uint64_t ts)
{
	struct tl_cpu *c = cpu_of(m, cpu);

	if (!m->any) {
		m->any = true;
		m->first = ts;
	}
	if (ts > m->to) {
		m->done = true;
		return 1;
	}
	m->last = ts;
	if (c && !c->seen) {
		c->seen = true;
		c->first = ts;
	}
	return 0;
}

/* The task leaving cpu: its slice and running state end, its next state starts. */
static int switch_out(struct tl_model *m, int cpu, struct tl_cpu *c, uint64_t ts, int pid,
		      const char *comm, char state)
{
	struct tl_task *t;

	if (c->known && c->pid > 0 && c->pid != pid)	/* events lost: its end is not known */
		slice_end(m, cpu, c, c->since, false, ts, 0);
	if (pid <= 0)
		return 0;
	t = ftc_tl_task(m, pid);
	if (!t)
		return -1;
	set_comm(t, comm);
	c->task = task_index(m, t);
	if (c->known && c->pid == pid)
		slice_end(m, cpu, c, c->since, false, ts, state);
	else if (!c->known)	/* it ran from before the CPU's first record */
		slice_end(m, cpu, c, c->first, true, ts, state);
	if (t->st == 'R') {
		state_end(m, t, t->since, ts);
	} else if (!c->known) {
		/* running since the CPU's first record, or since its last known state */
		uint64_t from = t->st && t->since > c->first ? t->since : c->first;

		if (from < ts) {
			state_set(t, 'R', from, cpu);
			state_end(m, t, from, ts);
		}
	}
	state_set(t, state == 'R' ? 'W' : state == 'X' || state == 'Z' ? 0 : state, ts, cpu);
	return 0;
}

int ftc_tl_switch(struct tl_model *m, int cpu, uint64_t ts, int prev_pid, const char *prev_comm,
		  char prev_state, int next_pid, const char *next_comm)
{
	struct tl_cpu *c = cpu_of(m, cpu);
	struct tl_task *t;

	if (!c)
		return 0;
	if (!c->seen)
		ftc_tl_seen(m, cpu, ts);
	if (switch_out(m, cpu, c, ts, prev_pid, prev_comm, prev_state) < 0)
		return -1;
	c->known = true;
	c->pid = next_pid > 0 ? next_pid : 0;
	c->since = ts;
	if (next_pid <= 0)
		return 0;
	t = ftc_tl_task(m, next_pid);
	if (!t)
		return -1;
	set_comm(t, next_comm);
	c->task = task_index(m, t);
	state_end(m, t, t->since, ts);
	state_set(t, 'R', ts, cpu);
	return 0;
}

int ftc_tl_wakeup(struct tl_model *m, int pid, int cpu, uint64_t ts)
{
	struct tl_task *t;

	if (pid <= 0)
		return 0;
	t = ftc_tl_task(m, pid);
	if (!t)
		return -1;
	if (t->st == 'R' || t->st == 'W')
		return 0;
	state_end(m, t, t->since, ts);
	state_set(t, 'W', ts, cpu);
	return 0;
}

static bool in_window(const struct tl_model *m, uint64_t ts)
{
	return ts >= m->o.from && ts <= m->to;
}

int ftc_tl_mark(struct tl_model *m, int cpu, uint64_t ts, int pid, const char *text, size_t len)
{
	struct ftc_timeline_mark k = { .ts = ts, .cpu = cpu, .task = SIZE_MAX, .text = text,
				       .len = len };
	struct tl_task *t;

	if (!in_window(m, ts) || !cpu_wanted(m, cpu) || !pid_wanted(m, pid))
		return 0;
	if (pid > 0) {
		t = ftc_tl_task(m, pid);
		if (!t)
			return -1;
		t->pub.shown = true;
		k.task = task_index(m, t);
	}
	if (m->o.on_mark)
		m->o.on_mark(&k, m->o.ctx);
	return 0;
}

void ftc_tl_lost(struct tl_model *m, int cpu, uint64_t ts, long long missed)
{
	struct ftc_timeline_mark k = { .ts = ts, .cpu = cpu, .task = SIZE_MAX, .missed = missed };

	if (in_window(m, ts) && cpu_wanted(m, cpu) && m->o.on_mark)
		m->o.on_mark(&k, m->o.ctx);
}

/* A counter belongs to no task and is kept whatever the pids; a sample is its task's. */
int ftc_tl_point(struct tl_model *m, int cpu, uint64_t ts, int pid, const char *name,
		 uint64_t value)
{
	struct ftc_timeline_point p = { .ts = ts, .cpu = cpu, .task = SIZE_MAX, .name = name,
					.value = value };
	struct tl_task *t;

	if (!in_window(m, ts) || !cpu_wanted(m, cpu) || (!name && !pid_wanted(m, pid)))
		return 0;
	if (!name && pid > 0) {
		t = ftc_tl_task(m, pid);
		if (!t)
			return -1;
		p.task = task_index(m, t);
	}
	if (m->o.on_point)
		m->o.on_point(&p, m->o.ctx);
	return 0;
}

void ftc_tl_finish(struct tl_model *m)
{
	uint64_t end = m->done ? m->to : m->last;

	if (!m->any)
		return;
	for (int cpu = 0; cpu < TL_MAX_CPUS; cpu++) {
		struct tl_cpu *c = &m->cpus[cpu];

		if (c->known && c->pid > 0 && end >= c->since)
			slice_end(m, cpu, c, c->since, false, end, 0);
		if (c->known && c->pid > 0)
			c->since = end;
	}
	for (size_t i = 0; i < m->keys.n; i++) {
		struct tl_task *t = &m->tasks[i];

		if (t->st && end >= t->since)
			state_end(m, t, t->since, end);
		t->since = end;
	}
}
