// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The scheduling pass: each task followed through its switches, wakeups
 * and migrations, from the raw fields of the records (read by their
 * offsets, never formatted). A task's delay runs from its wakeup (or its
 * preemption) to its next switch-in; its sleep or block time from its
 * switch-out to its wakeup; its off-CPU time, by the kernel stack that a
 * stacktrace trigger on sched_switch recorded right after the switch on
 * that CPU, from switch-out to switch-in, as perf's off-CPU profile has it.
 * The idle tasks (pid 0) are not tasks here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-heat.h"
#include "opts.h"
#include "pass-util.h"
#include "sched-tables.h"

#define MAX_STACK 128

/* The events the pass reads, and their fields. */
enum sched_kind {
	K_SWITCH, K_WAKEUP, K_WAKEUP_NEW, K_WAKING, K_MIGRATE, K_EXIT, K_STACK, K_SAMPLE, NKINDS
};

static const struct { const char *sys, *name; } events[NKINDS] = {
	[K_SWITCH] = { "sched", "sched_switch" }, [K_WAKEUP] = { "sched", "sched_wakeup" },
	[K_WAKEUP_NEW] = { "sched", "sched_wakeup_new" }, [K_WAKING] = { "sched", "sched_waking" },
	[K_MIGRATE] = { "sched", "sched_migrate_task" }, [K_EXIT] = { "sched", "sched_process_exit" },
	[K_STACK] = { "ftrace", "kernel_stack" }, [K_SAMPLE] = { "ftc_perf", "sample" },
};

enum sched_field {
	F_PREV_PID, F_PREV_STATE, F_PREV_COMM, F_NEXT_PID, F_NEXT_COMM,
	F_WAKE_PID, F_WAKE_NEW_PID, F_WAKING_PID, F_MIGRATE_PID, F_EXIT_PID,
	F_STACK_SIZE, F_STACK_CALLER, F_SAMPLE_IP, F_SAMPLE_TID, F_SAMPLE_CHAIN, NFIELDS
};

static const struct { enum sched_kind kind; const char *name; } fields[NFIELDS] = {
	[F_PREV_PID] = { K_SWITCH, "prev_pid" }, [F_PREV_STATE] = { K_SWITCH, "prev_state" },
	[F_PREV_COMM] = { K_SWITCH, "prev_comm" }, [F_NEXT_PID] = { K_SWITCH, "next_pid" },
	[F_NEXT_COMM] = { K_SWITCH, "next_comm" }, [F_WAKE_PID] = { K_WAKEUP, "pid" },
	[F_WAKE_NEW_PID] = { K_WAKEUP_NEW, "pid" }, [F_WAKING_PID] = { K_WAKING, "pid" },
	[F_MIGRATE_PID] = { K_MIGRATE, "pid" }, [F_EXIT_PID] = { K_EXIT, "pid" },
	[F_STACK_SIZE] = { K_STACK, "size" }, [F_STACK_CALLER] = { K_STACK, "caller" },
	[F_SAMPLE_IP] = { K_SAMPLE, "ip" }, [F_SAMPLE_TID] = { K_SAMPLE, "tid" },
	[F_SAMPLE_CHAIN] = { K_SAMPLE, "callchain" },
};

struct ftc_sched {
	struct ftc_reader *r;
	struct tep_handle *tep;
	struct ftc_sched_opts o;
	int buffer;			/* the buffer read, -1 until chosen */
	int id[NKINDS];			/* each event's id, -1 when the file has no format */
	uint64_t seen[NKINDS];		/* the records read of each */
	struct tep_format_field *f[NFIELDS];
	struct sched_tasks tasks;
	struct sched_stacks stacks;
	struct sched_offcpus offcpu;
	/* per CPU: the task switched out by the last record there, awaiting its stack */
	long *pending;
	int *current;			/* per CPU: the pid switched in last */
	int ncpus;
	uint64_t last_ts, lost;
	uint64_t gaps;			/* lost-event gaps met, on any CPU */
	struct ftc_sched_task total;
	uint64_t sample_ip;		/* the last sample's ip, and whether it is a switch's */
	bool sample_ip_switch;
};

static int look_up_events(struct ftc_sched *s)
{
	for (int k = 0; k < NKINDS; k++) {
		struct tep_event *e = ftc_reader_find_event(s->r, events[k].sys, events[k].name);

		s->id[k] = e ? e->id : -1;
	}
	for (int f = 0; f < NFIELDS; f++) {
		int id = s->id[fields[f].kind];
		struct tep_event *e = id >= 0 ? tep_find_event(s->tep, id) : NULL;

		s->f[f] = e ? tep_find_field(e, fields[f].name) : NULL;
	}
	for (int i = F_PREV_PID; i <= F_NEXT_COMM; i++)
		if (!s->f[i])
			return ftc_error(ENOENT, "the file has no sched:sched_switch with its "
					 "prev_pid, prev_state and next_pid fields: record it (ftc "
					 "record -e sched:sched_switch -e sched:sched_wakeup ...)");
	return 0;
}

struct ftc_sched *ftc_sched_new(struct ftc_reader *r, const struct ftc_sched_opts *o)
{
	struct ftc_sched *s = calloc(1, sizeof(*s));

	if (!s) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	s->r = r;
	s->tep = ftc_reader_tep(r);
	s->buffer = -1;
	s->ncpus = ftc_reader_ncpus(r);
	s->total.pid = -1;
	strcpy(s->total.comm, "total");
	if (s->ncpus < 1)
		s->ncpus = 1;
	if (o && FTC_OPTS_COPY(&s->o, o, ftc_sched_opts, on_switch) < 0)
		goto fail;
	s->pending = malloc((size_t)s->ncpus * sizeof(*s->pending));
	s->current = calloc((size_t)s->ncpus, sizeof(*s->current));
	if (!s->pending || !s->current) {
		ftc_error(ENOMEM, "out of memory");
		goto fail;
	}
	for (int i = 0; i < s->ncpus; i++)
		s->pending[i] = -1;
	if (look_up_events(s) < 0)
		goto fail;
	return s;
fail:
	ftc_sched_free(s);
	return NULL;
}

void ftc_sched_free(struct ftc_sched *s)
{
	if (!s)
		return;
	ftc_sched_tasks_free(&s->tasks);
	ftc_sched_stacks_free(&s->stacks);
	ftc_sched_offcpus_free(&s->offcpu);
	free(s->pending);
	free(s->current);
	free(s);
}

static long long num(const struct ftc_sched *s, enum sched_field f, const struct tep_record *rec)
{
	return ftc_pass_int(s->f[f], rec);
}

static void set_comm(struct sched_task *t, const struct tep_format_field *f,
		     const struct tep_record *rec)
{
	ftc_pass_comm(f, rec, t->t.comm);
}

/* The task of pid, followed from now: the gaps met before it are not its own. */
static struct sched_task *task_of(struct ftc_sched *s, int pid)
{
	struct sched_task *t = ftc_sched_task_get(&s->tasks, pid);

	if (t && !t->followed) {
		t->followed = true;
		t->gaps_from = s->gaps;
		/* the file's name until a switch names it (a task only woken keeps it) */
		snprintf(t->t.comm, sizeof(t->t.comm), "%s", tep_data_comm_from_pid(s->tep, pid));
	}
	return t;
}

static void delay_seen(struct ftc_sched *s, struct sched_task *t, uint64_t ns, uint64_t at)
{
	int b = ns ? 63 - __builtin_clzll(ns) : 0;

	t->t.delays++;
	t->t.delay_ns += ns;
	t->t.hist[b]++;
	if (ns >= t->t.delay_max_ns) {
		t->t.delay_max_ns = ns;
		t->t.delay_max_at = at;
	}
	t->delay_ns = ns;
	if (s->o.on_delay)
		s->o.on_delay(&t->t, at, ns, s->o.ctx);
}

static void span_add(struct ftc_sched_span *sp, uint64_t ns, uint64_t at)
{
	if (ns > sp->max_ns || !sp->count) {
		sp->max_ns = ns;
		sp->max_at = at;
	}
	if (ns < sp->min_ns || !sp->count) {
		sp->min_ns = ns;
		sp->min_at = at;
	}
	sp->count++;
	sp->total_ns += ns;
}

static void span_merge(struct ftc_sched_span *sum, const struct ftc_sched_span *sp)
{
	if (!sp->count)
		return;
	if (sp->max_ns > sum->max_ns || !sum->count) {
		sum->max_ns = sp->max_ns;
		sum->max_at = sp->max_at;
	}
	if (sp->min_ns < sum->min_ns || !sum->count) {
		sum->min_ns = sp->min_ns;
		sum->min_at = sp->min_at;
	}
	sum->count += sp->count;
	sum->total_ns += sp->total_ns;
}

/*
 * The span off the CPU since the switch-out ends, by its state (trace-cmd's
 * sched_switch:R, :S, :D): a sleep at its wakeup, else (a preemption, or a
 * wakeup the trace lacks) at the switch-in, inferred ones too.
 */
static void off_span_end(struct sched_task *t, uint64_t ts)
{
	struct ftc_sched_span *off = NULL;

	if (t->off_span_done || !t->off_at || ts < t->off_at)
		return;
	switch (t->off_letter) {
	case 'R': off = &t->t.off_r; break;
	case 'S': off = &t->t.off_s; break;
	case 'D': off = &t->t.off_d; break;
	}
	if (off)
		span_add(off, ts - t->off_at, ts);
	t->off_span_done = true;
}

/* A switch-in ends the span off the CPU, if open, and the one since a wakeup (recorded only). */
static void spans_end(struct sched_task *t, uint64_t ts, bool inferred)
{
	off_span_end(t, ts);
	if (t->st == ST_RUNNABLE && t->runnable_at && t->woken && !inferred)
		span_add(&t->t.woken, ts - t->runnable_at, ts);
}

/* Off the CPU in S or D until now: that time is sleep or block. */
static void end_rest(struct sched_task *t, uint64_t ts)
{
	uint64_t ns = t->off_at && ts > t->off_at ? ts - t->off_at : 0;

	if (t->st == ST_SLEEP) {
		t->t.sleeps++;
		t->t.sleep_ns += ns;
	} else if (t->st == ST_BLOCK) {
		t->t.blocks++;
		t->t.block_ns += ns;
	}
}

static void switch_out(struct ftc_sched *s, struct sched_task *t, long long state, uint64_t ts,
		       int cpu)
{
	char letter = ftc_pass_state_letter(state);
	struct ftc_sched_run run;

	if (t->st == ST_RUNNING && ts >= t->on_at) {
		t->t.run_ns += ts - t->on_at;
		if (s->o.on_run) {
			run = (struct ftc_sched_run){ .ts = ts, .cpu = cpu, .pid = t->t.pid,
				.comm = t->t.comm, .wait_ns = t->wait_ns, .delay_ns = t->delay_ns,
				.run_ns = ts - t->on_at, .state = letter };
			s->o.on_run(&run, s->o.ctx);
		}
	}
	t->off_at = ts;
	t->off_letter = letter;
	t->off_span_done = false;
	t->woken = false;
	t->stack = t->pstack = t->ustack = -1;
	if (t->sample_at) {	/* the sample of this switch, made before its record */
		t->pstack = t->sample_k;
		t->ustack = t->sample_u;
	}
	t->sample_at = 0;
	t->off_state = letter == 'S' || letter == 'D' ? letter : 0;
	t->runnable_at = 0;
	switch (letter) {
	case 'R':
		t->t.preempted++;
		t->st = ST_RUNNABLE;
		t->runnable_at = ts;
		break;
	case 'S': t->st = ST_SLEEP; break;
	case 'D': t->st = ST_BLOCK; break;
	default:
		t->st = ST_GONE;
		t->gaps_to = s->gaps;
		break;
	}
}

/*
 * Switched in at ts; inferred: the trace lacks that switch (this kernel
 * does not always record one out of an idle CPU), and ts is the first
 * record of the task running, so the delay before it is not measured.
 */
static int switch_in(struct ftc_sched *s, struct sched_task *t, uint64_t ts, bool inferred)
{
	size_t idx = (size_t)(t - s->tasks.v);

	t->wait_ns = t->off_at && ts > t->off_at && !inferred ? ts - t->off_at : 0;
	t->delay_ns = 0;
	t->t.inferred += inferred;
	spans_end(t, ts, inferred);
	if (t->st == ST_RUNNABLE && t->runnable_at && !inferred)
		delay_seen(s, t, ts - t->runnable_at, ts);
	else if (t->st == ST_SLEEP || t->st == ST_BLOCK)
		end_rest(t, ts);	/* its wakeup was not recorded */
	if (t->off_state && t->off_at && ts > t->off_at &&
	    ftc_sched_offcpu_add(&s->offcpu, idx, t->t.pid, t->off_state,
				 t->stack >= 0 ? t->stack : t->pstack, t->ustack, ts - t->off_at) < 0)
		return -1;
	t->off_state = 0;
	t->st = ST_RUNNING;
	t->on_at = ts;
	t->t.switches++;
	return 0;
}

/* The CPU runs t now (NULL: idle) after prev, as the caller's on_switch learns. */
static void cpu_switched(struct ftc_sched *s, int cpu, uint64_t ts, const struct sched_task *t,
			 const struct sched_task *prev, bool inferred)
{
	struct ftc_sched_switch sw = { .ts = ts, .cpu = cpu, .task = SIZE_MAX,
				       .inferred = inferred };

	if (cpu >= 0 && cpu < s->ncpus)
		s->current[cpu] = t ? t->t.pid : 0;
	if (!s->o.on_switch)
		return;
	if (prev) {
		sw.prev_pid = prev->t.pid;
		sw.prev_comm = prev->t.comm;
	}
	if (t) {
		sw.pid = t->t.pid;
		sw.comm = t->t.comm;
		sw.task = (size_t)(t - s->tasks.v);
	}
	s->o.on_switch(&sw, s->o.ctx);
}

static int on_switch(struct ftc_sched *s, const struct tep_record *rec, int cpu)
{
	int prev = (int)num(s, F_PREV_PID, rec), next = (int)num(s, F_NEXT_PID, rec);
	uint64_t ts = rec->ts;
	struct sched_task *t;

	long out = -1;

	if (prev > 0) {
		t = task_of(s, prev);
		if (!t || (t->st != ST_RUNNING && switch_in(s, t, ts, true) < 0))
			return -1;
		set_comm(t, s->f[F_PREV_COMM], rec);
		switch_out(s, t, num(s, F_PREV_STATE, rec), ts, cpu);
		out = (long)(t - s->tasks.v);
		if (cpu >= 0 && cpu < s->ncpus)
			s->pending[cpu] = out;
	}
	t = NULL;
	if (next > 0) {
		t = task_of(s, next);
		if (!t)
			return -1;
		set_comm(t, s->f[F_NEXT_COMM], rec);
		if (switch_in(s, t, ts, false) < 0)
			return -1;
	}
	/* by index: adding next may have moved the tasks */
	cpu_switched(s, cpu, ts, t, out >= 0 ? &s->tasks.v[out] : NULL, false);
	return 0;
}

/* A wakeup (is_new: of a new task): its sleep ends, its delay starts. */
static int wakeup(struct ftc_sched *s, int pid, uint64_t ts, bool is_new)
{
	struct sched_task *t;
	bool asleep;

	if (pid <= 0)
		return 0;
	t = task_of(s, pid);
	if (!t)
		return -1;
	t->t.wakeups++;
	/* trace-cmd's wakeup span: of a task seen going to sleep only */
	asleep = t->st == ST_SLEEP || t->st == ST_BLOCK;
	if (asleep) {
		end_rest(t, ts);
		off_span_end(t, ts);
	}
	if (t->st != ST_RUNNING && t->st != ST_RUNNABLE) {
		t->st = ST_RUNNABLE;
		t->runnable_at = ts;
		t->woken = asleep && !is_new;
	}
	return 0;
}

static int on_wakeup(struct ftc_sched *s, int pid, uint64_t ts)
{
	return wakeup(s, pid, ts, false);
}

/* sched_waking stands in for sched_wakeup until one is recorded. */
static int on_waking(struct ftc_sched *s, int pid, uint64_t ts)
{
	struct sched_task *t;

	if (s->seen[K_WAKEUP] || pid <= 0)
		return 0;
	t = task_of(s, pid);
	if (!t)
		return -1;
	t->waking_counted = true;
	return on_wakeup(s, pid, ts);
}

/* A task's first sched_wakeup after its waking stood in is that waking's. */
static int on_wakeup_record(struct ftc_sched *s, int pid, uint64_t ts)
{
	struct sched_task *t = pid > 0 ? task_of(s, pid) : NULL;

	if (t && t->waking_counted) {
		t->waking_counted = false;
		return 0;
	}
	return on_wakeup(s, pid, ts);
}

static int on_migrate(struct ftc_sched *s, int pid)
{
	struct sched_task *t = pid > 0 ? task_of(s, pid) : NULL;

	if (pid > 0 && !t)
		return -1;
	if (t)
		t->t.migrations++;
	return 0;
}

/* A record made by a task (its common_pid) shows it running, switched in or not. */
static int running(struct ftc_sched *s, int pid, int cpu, uint64_t ts)
{
	int was = cpu >= 0 && cpu < s->ncpus ? s->current[cpu] : 0;
	struct sched_task *t;
	long prev = -1;

	if (pid <= 0 || was == pid)
		return 0;	/* the task the CPU switched to last: known to run */
	if (was > 0) {	/* kept as an index: adding pid's task may move the tasks */
		t = task_of(s, was);
		if (!t)
			return -1;
		prev = (long)(t - s->tasks.v);
	}
	t = task_of(s, pid);
	if (!t || (t->st != ST_RUNNING && switch_in(s, t, ts, true) < 0))
		return -1;
	cpu_switched(s, cpu, ts, t, prev >= 0 ? &s->tasks.v[prev] : NULL, true);
	return 0;
}

/* The stack the trigger recorded right after a switch on this CPU: the switched-out task's. */
static int on_stack(struct ftc_sched *s, const struct tep_record *rec, long task)
{
	const struct tep_format_field *f = s->f[F_STACK_CALLER];
	int lsize = tep_get_long_size(s->tep);
	uint64_t ips[MAX_STACK];
	long long want = num(s, F_STACK_SIZE, rec);
	size_t n = 0, room;
	int id;

	if (!f || task < 0 || lsize <= 0 || f->offset < 0 || rec->size <= f->offset)
		return 0;
	room = (size_t)(rec->size - f->offset) / (size_t)lsize;
	if (want > 0 && (size_t)want < room)
		room = (size_t)want;
	for (size_t i = 0; i < room && n < MAX_STACK; i++) {
		unsigned long long ip = tep_read_number(s->tep, (const char *)rec->data +
							f->offset + i * (size_t)lsize, lsize);

		if (!ip || ip == (unsigned long long)-1)	/* the end mark of older kernels */
			break;
		ips[n++] = ip;
	}
	id = n ? ftc_sched_stack_id(&s->stacks, ips, n) : -1;
	if (n && id < 0)
		return -1;
	s->tasks.v[task].stack = id;
	return 0;
}

/* A perf chain's kernel and user parts, split at its context marks, interned. */
static int sample_stacks(struct ftc_sched *s, const struct tep_record *rec, int *k, int *u)
{
	uint64_t kips[MAX_STACK], uips[MAX_STACK], ip;
	size_t nk = 0, nu = 0, len = 0;
	const char *chain = ftc_pass_bytes(s->f[F_SAMPLE_CHAIN], rec, &len);
	bool user = false;

	*k = *u = -1;
	if (!chain)
		return 0;
	for (size_t i = 0; i + 8 <= len; i += 8) {
		memcpy(&ip, chain + i, 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX)
			user = ip == (uint64_t)PERF_CONTEXT_USER;
		else if (user && nu < MAX_STACK)
			uips[nu++] = ip;
		else if (!user && nk < MAX_STACK)
			kips[nk++] = ip;
	}
	if ((nk && (*k = ftc_sched_stack_id(&s->stacks, kips, nk)) < 0) ||
	    (nu && (*u = ftc_sched_stack_id(&s->stacks, uips, nu)) < 0))
		return -1;
	return 0;
}

/*
 * Whether a sample is one of sched:sched_switch: its ip is in the switch's
 * tracepoint (__traceiter_sched_switch, perf_trace_sched_switch). Without
 * the kernel's symbols in the file, it is taken to be.
 */
static bool switch_sample(struct ftc_sched *s, uint64_t ip)
{
	const char *f;

	if (ip != s->sample_ip || !s->sample_ip) {
		f = tep_find_function(s->tep, ip);
		s->sample_ip = ip;
		s->sample_ip_switch = !f || strstr(f, "sched_switch");
	}
	return s->sample_ip_switch;
}

/*
 * A sample of a switch: the stacks of its thread's switch-out. The sample
 * and the record are made in the same tracepoint call, in either order
 * (far apart on a slow machine): one that follows the switch-out, the
 * thread not having run since, is that switch-out's; one that comes
 * first waits for the thread's next switch-out.
 */
static int on_sample(struct ftc_sched *s, const struct tep_record *rec)
{
	int tid = (int)num(s, F_SAMPLE_TID, rec), k, u;
	struct sched_task *t;

	if (tid <= 0 || !switch_sample(s, (uint64_t)num(s, F_SAMPLE_IP, rec)))
		return 0;
	t = task_of(s, tid);
	if (!t || sample_stacks(s, rec, &k, &u) < 0)
		return -1;
	t->tgid = tep_data_pid(s->tep, (struct tep_record *)rec);
	if (t->st != ST_RUNNING && t->off_at && rec->ts >= t->off_at && t->pstack < 0 &&
	    t->ustack < 0) {
		t->pstack = k;
		t->ustack = u;
		return 0;
	}
	t->sample_k = k;
	t->sample_u = u;
	t->sample_at = rec->ts;
	return 0;
}

/* The kind of a record's type, NKINDS for another event. */
static enum sched_kind kind_of(const struct ftc_sched *s, int type)
{
	for (int k = 0; k < NKINDS; k++)
		if (s->id[k] == type)
			return (enum sched_kind)k;
	return NKINDS;
}

/* The buffer read: the one asked for, or the first with a record of the pass's events. */
static bool in_buffer(struct ftc_sched *s, const struct ftc_merge_record *mr, enum sched_kind kind)
{
	const struct ftc_dat_buffer *b;

	if (s->buffer >= 0)
		return mr->buffer == s->buffer;
	b = ftc_reader_buffer(s->r, mr->buffer);
	if (s->o.instance ? b && !strcmp(b->name, s->o.instance) : kind != NKINDS) {
		s->buffer = mr->buffer;
		return true;
	}
	return false;
}

static int dispatch(struct ftc_sched *s, enum sched_kind kind, const struct tep_record *rec,
		    int cpu, long pending)
{
	switch (kind) {
	case K_SWITCH: return on_switch(s, rec, cpu);
	case K_STACK: return on_stack(s, rec, pending);
	case K_WAKEUP: return on_wakeup_record(s, (int)num(s, F_WAKE_PID, rec), rec->ts);
	case K_WAKEUP_NEW: return wakeup(s, (int)num(s, F_WAKE_NEW_PID, rec), rec->ts, true);
	case K_WAKING: return on_waking(s, (int)num(s, F_WAKING_PID, rec), rec->ts);
	case K_MIGRATE: return on_migrate(s, (int)num(s, F_MIGRATE_PID, rec));
	default: return 0;
	}
}

/* Events lost on a CPU before this record: every task followed across it may be short. */
static void lost_gap(struct ftc_sched *s, const struct ftc_merge_record *mr)
{
	if (mr->missed > 0)
		s->lost += (uint64_t)mr->missed;
	s->gaps++;
	if (s->o.on_lost)
		s->o.on_lost(mr->cpu, mr->rec->ts, mr->missed, s->o.ctx);
}

int ftc_sched_add(struct ftc_sched *s, const struct ftc_merge_record *mr)
{
	const struct tep_record *rec = mr->rec;
	enum sched_kind kind = kind_of(s, tep_data_type(s->tep, (struct tep_record *)rec));
	int cpu = mr->cpu, ret = 0;
	long pending = -1;

	if (kind == K_SAMPLE) {
		/* ftc_perf's buffer: not the one read, but of its tasks */
		s->seen[kind]++;
		return on_sample(s, rec);
	}
	if (!in_buffer(s, mr, kind))
		return 0;
	s->last_ts = rec->ts;
	if (mr->missed)
		lost_gap(s, mr);
	if (cpu >= 0 && cpu < s->ncpus) {
		pending = s->pending[cpu];
		s->pending[cpu] = -1;
	}
	if (kind != NKINDS)
		s->seen[kind]++;
	/* the task that made a record runs: a switch and a stack say more themselves */
	if (kind != K_SWITCH && kind != K_STACK)
		ret = running(s, tep_data_pid(s->tep, (struct tep_record *)rec), cpu, rec->ts);
	return ret < 0 ? ret : dispatch(s, kind, rec, cpu, pending);
}

void ftc_sched_finish(struct ftc_sched *s)
{
	struct ftc_sched_task *tot = &s->total;

	memset(tot, 0, sizeof(*tot));
	tot->pid = -1;
	strcpy(tot->comm, "total");
	tot->lost_gaps = s->gaps;
	for (size_t i = 0; i < s->tasks.n; i++) {
		struct sched_task *t = &s->tasks.v[i];

		/* a task no switch named (only woken, or running from the start) */
		if (!t->t.comm[0])
			snprintf(t->t.comm, sizeof(t->t.comm), "%s",
				 tep_data_comm_from_pid(s->tep, t->t.pid));
		if (t->st == ST_RUNNING && s->last_ts > t->on_at) {
			t->t.run_ns += s->last_ts - t->on_at;
			t->on_at = s->last_ts;
		}
		t->t.lost_gaps = (t->st == ST_GONE ? t->gaps_to : s->gaps) - t->gaps_from;
		tot->run_ns += t->t.run_ns;
		tot->switches += t->t.switches;
		tot->inferred += t->t.inferred;
		tot->wakeups += t->t.wakeups;
		tot->preempted += t->t.preempted;
		tot->migrations += t->t.migrations;
		tot->delays += t->t.delays;
		tot->delay_ns += t->t.delay_ns;
		tot->sleeps += t->t.sleeps;
		tot->sleep_ns += t->t.sleep_ns;
		tot->blocks += t->t.blocks;
		tot->block_ns += t->t.block_ns;
		if (t->t.delay_max_ns >= tot->delay_max_ns && t->t.delays) {
			tot->delay_max_ns = t->t.delay_max_ns;
			tot->delay_max_at = t->t.delay_max_at;
		}
		for (int b = 0; b < FTC_SCHED_BUCKETS; b++)
			tot->hist[b] += t->t.hist[b];
		span_merge(&tot->off_r, &t->t.off_r);
		span_merge(&tot->off_s, &t->t.off_s);
		span_merge(&tot->off_d, &t->t.off_d);
		span_merge(&tot->woken, &t->t.woken);
	}
}

size_t ftc_sched_ntasks(const struct ftc_sched *s)
{
	return s->tasks.n;
}

const struct ftc_sched_task *ftc_sched_task_at(const struct ftc_sched *s, size_t i)
{
	return i < s->tasks.n ? &s->tasks.v[i].t : NULL;
}

const struct ftc_sched_task *ftc_sched_total(const struct ftc_sched *s)
{
	return &s->total;
}

uint64_t ftc_sched_percentile(const struct ftc_sched_task *t, double pct)
{
	return ftc_heat_percentile(t->hist, t->delays, t->delay_max_ns, pct);
}

const char *ftc_sched_instance(const struct ftc_sched *s)
{
	const struct ftc_dat_buffer *b = s->buffer >= 0 ? ftc_reader_buffer(s->r, s->buffer) : NULL;

	return b && *b->name ? b->name : NULL;
}

uint64_t ftc_sched_seen(const struct ftc_sched *s, const char *name)
{
	for (int k = 0; k < NKINDS; k++)
		if (!strcmp(name, events[k].name))
			return s->seen[k];
	return 0;
}

uint64_t ftc_sched_lost(const struct ftc_sched *s)
{
	return s->lost;
}

size_t ftc_sched_noffcpu(const struct ftc_sched *s)
{
	return s->offcpu.n;
}

const struct ftc_sched_offcpu *ftc_sched_offcpu_at(const struct ftc_sched *s, size_t i)
{
	struct sched_offcpu *e;

	if (i >= s->offcpu.n)
		return NULL;
	e = &s->offcpu.v[i];
	e->pub.comm = s->tasks.v[e->task].t.comm;
	e->pub.ips = e->stack >= 0 ? s->stacks.ips + s->stacks.v[e->stack].off : NULL;
	e->pub.nips = e->stack >= 0 ? s->stacks.v[e->stack].n : 0;
	e->pub.user_ips = e->ustack >= 0 ? s->stacks.ips + s->stacks.v[e->ustack].off : NULL;
	e->pub.nuser_ips = e->ustack >= 0 ? s->stacks.v[e->ustack].n : 0;
	e->pub.tgid = s->tasks.v[e->task].tgid;
	return &e->pub;
}
