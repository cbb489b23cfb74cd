// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc top's counts: every record the live reader delivers is counted once
 * into each view's table (event, task, CPU, and syscall or function when
 * it is one), so that switching views shows history, not a fresh start.
 * The filter applies as records come in; changing it zeroes the counts.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-reader.h"
#include "ftc-symbols.h"
#include "top.h"

int top_model_init(struct top_model *m, int ncpus)
{
	memset(m, 0, sizeof(*m));
	m->filter.pid = -1;
	m->filter_gen = 1;
	m->ncpus = ncpus > 0 ? ncpus : 1;
	m->cpu_since = calloc((size_t)m->ncpus, sizeof(*m->cpu_since));
	return m->cpu_since ? 0 : -1;
}

enum kind { K_UNKNOWN, K_OTHER, K_SWITCH, K_SYS_ENTER, K_IRQ, K_FUNC, K_EXEC, K_FORK };
#define MAX_IDS 65536	/* common_type is 16 bits */

void top_model_set_reader(struct top_model *m, struct ftc_reader *r)
{
	m->reader = r;
	m->tep = ftc_reader_tep(r);
	/* a new reader: its event formats are parsed afresh */
	if (m->kind)
		memset(m->kind, K_UNKNOWN, MAX_IDS);
	m->ev_exec = m->ev_fork = NULL;
	m->f_prev_pid = m->f_prev_comm = m->f_next_pid = m->f_next_comm = NULL;
	m->f_sys_id = m->f_func_ip = NULL;
}

/* The events the views read, recognised at their first record (the
 * reader parses a format only when it is first needed). */
static enum kind classify(struct top_model *m, struct tep_record *rec, int id)
{
	struct tep_event *ev = ftc_reader_event(m->reader, rec);
	enum kind k = K_OTHER;

	if (!ev)
		return k;
	if (!strcmp(ev->system, "sched") && !strcmp(ev->name, "sched_switch")) {
		m->f_prev_pid = tep_find_field(ev, "prev_pid");
		m->f_prev_comm = tep_find_field(ev, "prev_comm");
		m->f_next_pid = tep_find_field(ev, "next_pid");
		m->f_next_comm = tep_find_field(ev, "next_comm");
		k = K_SWITCH;
	} else if (!strcmp(ev->system, "raw_syscalls") && !strcmp(ev->name, "sys_enter")) {
		m->f_sys_id = tep_find_field(ev, "id");
		k = K_SYS_ENTER;
	} else if (!strcmp(ev->system, "irq") && !strcmp(ev->name, "irq_handler_entry")) {
		k = K_IRQ;
	} else if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "function")) {
		m->f_func_ip = tep_find_field(ev, "ip");
		k = K_FUNC;
	} else if (!strcmp(ev->system, "sched") && !strcmp(ev->name, "sched_process_exec")) {
		m->ev_exec = ev;
		k = K_EXEC;
	} else if (!strcmp(ev->system, "sched") && !strcmp(ev->name, "sched_process_fork")) {
		m->ev_fork = ev;
		k = K_FORK;
	}
	return k;
}

static enum kind kind_of(struct top_model *m, struct tep_record *rec, int id)
{
	if (id < 0 || id >= MAX_IDS)
		return K_OTHER;
	if (!m->kind && !(m->kind = calloc(MAX_IDS, 1)))
		return K_OTHER;
	if (m->kind[id] == K_UNKNOWN)
		m->kind[id] = (unsigned char)classify(m, rec, id);
	return (enum kind)m->kind[id];
}

static void set_comm(struct top_model *m, uint64_t pid, const char *comm, size_t len)
{
	struct top_entry *e = top_map_get(&m->comms, pid);

	if (!e || (e->name && !strncmp(e->name, comm, len) && !e->name[len]))
		return;
	free(e->name);
	e->name = strndup(comm, len);
	e->v[0] = 0;	/* the filter's verdict on it is to be made again */
}

static void read_proc_comm(struct top_model *m, uint64_t pid)
{
	char buf[64] = "";

	if (pid == 0) {
		set_comm(m, pid, "<idle>", 6);
		return;
	}
	ftc_task_comm((pid_t)pid, buf, sizeof(buf));
	set_comm(m, pid, buf[0] ? buf : "<...>", buf[0] ? strlen(buf) : 5);
}

const char *top_model_comm(struct top_model *m, uint64_t pid)
{
	struct top_entry *e = top_map_find(&m->comms, pid);

	if (!e || !e->name) {
		read_proc_comm(m, pid);
		e = top_map_find(&m->comms, pid);
	}
	return e && e->name ? e->name : "<...>";
}

/* The verdict on a task is kept with its comm (v[0] the generation it
 * was made in, v[1] the verdict): one lookup per record, no strcmp. */
bool top_model_pass(struct top_model *m, uint64_t pid)
{
	struct top_entry *e;
	bool ok;

	if (m->filter.pid >= 0)
		return pid == (uint64_t)m->filter.pid;
	if (!m->filter.comm[0])
		return true;
	e = top_map_find(&m->comms, pid);
	if (e && e->name && e->v[0] == m->filter_gen)
		return e->v[1];
	ok = !strcmp(top_model_comm(m, pid), m->filter.comm);
	e = top_map_find(&m->comms, pid);
	if (e) {
		e->v[0] = m->filter_gen;
		e->v[1] = ok;
	}
	return ok;
}

void top_filter_set(struct top_filter *f, const char *text)
{
	char *end;
	long pid;

	while (isspace((unsigned char)*text))
		text++;
	f->pid = -1;
	f->comm[0] = 0;
	if (!*text)
		return;
	pid = strtol(text, &end, 10);
	if (*end == 0 && pid >= 0) {
		f->pid = pid;
		return;
	}
	snprintf(f->comm, sizeof(f->comm), "%s", text);
	f->comm[strcspn(f->comm, "\n")] = 0;
}

static uint64_t field(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

static void note_switch_comms(struct top_model *m, struct tep_record *rec)
{
	const char *d = rec->data;

	/* the trace names tasks that may be gone before /proc is read */
	if (m->f_prev_comm)
		set_comm(m, field(m->f_prev_pid, rec), d + m->f_prev_comm->offset,
			 strnlen(d + m->f_prev_comm->offset, m->f_prev_comm->size));
	if (m->f_next_comm)
		set_comm(m, field(m->f_next_pid, rec), d + m->f_next_comm->offset,
			 strnlen(d + m->f_next_comm->offset, m->f_next_comm->size));
}

static const char *str_field(struct tep_event *ev, const char *name, struct tep_record *rec,
			     int *len)
{
	const char *s = tep_get_field_raw(NULL, ev, name, rec, len, 0);

	if (s)
		*len = (int)strnlen(s, (size_t)*len);
	return s;
}

static uint64_t num_field(struct tep_event *ev, const char *name, struct tep_record *rec)
{
	unsigned long long v = 0;

	tep_get_field_val(NULL, ev, name, rec, &v, 0);
	return v;
}

/* A task's comm changes at exec (to the file's name) and starts at fork as
 * its parent's: the filter by comm must see the new name before the new
 * program's first event. */
static void note_exec_fork(struct top_model *m, enum kind k, struct tep_record *rec)
{
	const char *s, *base;
	int len = 0;

	if (k == K_EXEC && (s = str_field(m->ev_exec, "filename", rec, &len))) {
		base = memrchr(s, '/', (size_t)len);
		base = base ? base + 1 : s;
		len -= (int)(base - s);
		set_comm(m, num_field(m->ev_exec, "pid", rec), base, len > 15 ? 15 : (size_t)len);
	} else if (k == K_FORK && (s = str_field(m->ev_fork, "child_comm", rec, &len))) {
		set_comm(m, num_field(m->ev_fork, "child_pid", rec), s, (size_t)len);
	}
}

/* The time prev_pid ran on this CPU, and a switch for it and the CPU. */
static void count_switch(struct top_model *m, struct tep_record *rec, struct top_entry *task,
			 struct top_entry *cpu)
{
	uint64_t *since = rec->cpu < m->ncpus ? &m->cpu_since[rec->cpu] : NULL;

	if (task) {
		task->v[1]++;
		if (since && *since && rec->ts > *since)
			task->v[2] += rec->ts - *since;
	}
	if (cpu)
		cpu->v[2]++;
	if (since)
		*since = rec->ts;
}

static void count_event(struct top_model *m, int id)
{
	struct top_entry *e = top_map_get(&m->map[TOP_VIEW_EVENT], (uint64_t)id);
	struct tep_event *ev;

	if (!e)
		return;
	e->count++;
	if (!e->name && (ev = tep_find_event(m->tep, id)) != NULL &&
	    asprintf(&e->name, "%s:%s", ev->system, ev->name) < 0)
		e->name = NULL;
}

static void count_func(struct top_model *m, struct tep_record *rec)
{
	struct top_entry *e = top_map_get(&m->map[TOP_VIEW_FUNC], field(m->f_func_ip, rec));

	if (e)
		e->count++;
}

void top_model_record(struct top_model *m, struct tep_record *rec)
{
	int id = tep_data_type(m->tep, rec);
	enum kind k = kind_of(m, rec, id);
	uint64_t pid = (uint64_t)tep_data_pid(m->tep, rec);
	struct top_entry *task, *cpu;

	if (k == K_SWITCH)
		note_switch_comms(m, rec);
	else if (k == K_EXEC || k == K_FORK)
		note_exec_fork(m, k, rec);
	if (!top_model_pass(m, pid)) {
		m->filtered++;
		/* the CPU's clock for runtime runs on whoever is there */
		if (k == K_SWITCH && rec->cpu < m->ncpus)
			m->cpu_since[rec->cpu] = rec->ts;
		return;
	}
	m->total++;
	count_event(m, id);
	task = top_map_get(&m->map[TOP_VIEW_TASK], pid);
	cpu = top_map_get(&m->map[TOP_VIEW_CPU], (uint64_t)rec->cpu);
	if (task)
		task->count++;
	if (cpu)
		cpu->count++;
	if (k == K_SWITCH) {
		count_switch(m, rec, task, cpu);
	} else if (k == K_SYS_ENTER) {
		struct top_entry *sc = top_map_get(&m->map[TOP_VIEW_SYSCALL],
						   field(m->f_sys_id, rec));

		if (sc)
			sc->count++;
		if (task)
			task->v[0]++;
		if (cpu)
			cpu->v[0]++;
	} else if (k == K_IRQ) {
		if (cpu)
			cpu->v[1]++;
	} else if (k == K_FUNC) {
		count_func(m, rec);
	}
}

void top_model_lost(struct top_model *m, int cpu, uint64_t n)
{
	struct top_entry *e = top_map_get(&m->map[TOP_VIEW_CPU], (uint64_t)cpu);

	m->lost += n;
	if (e)
		e->v[3] += n;
}

static void tick_map(struct top_map *map, double secs)
{
	size_t i;

	for (i = 0; i < map->cap; i++) {
		struct top_entry *e = &map->e[i];

		if (!e->used)
			continue;
		e->rate = secs > 0 && e->count >= e->prev ?
			(uint64_t)((double)(e->count - e->prev) / secs + 0.5) : 0;
		e->prev = e->count;
	}
}

void top_model_tick(struct top_model *m, double secs)
{
	int v;

	for (v = 0; v < TOP_NVIEWS; v++)
		tick_map(&m->map[v], secs);
	m->total_rate = secs > 0 ? (uint64_t)((double)(m->total - m->total_prev) / secs + 0.5) : 0;
	m->total_prev = m->total;
}

void top_model_reset(struct top_model *m)
{
	int v;

	for (v = 0; v < TOP_NVIEWS; v++)
		top_map_clear(&m->map[v]);
	m->total = m->total_prev = m->total_rate = 0;
	m->lost = m->filtered = 0;
	m->filter_gen++;
	memset(m->cpu_since, 0, (size_t)m->ncpus * sizeof(*m->cpu_since));
}

void top_model_free(struct top_model *m)
{
	int v;

	for (v = 0; v < TOP_NVIEWS; v++)
		top_map_clear(&m->map[v]);
	top_map_clear(&m->comms);
	free(m->cpu_since);
	free(m->kind);
	if (m->syms)
		ftc_symbols_free(m->syms);
}
