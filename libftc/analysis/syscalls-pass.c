// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The syscall pass: each task's entry of a call paired with its exit, from
 * the raw fields of syscalls:sys_enter_NAME/sys_exit_NAME or
 * raw_syscalls:sys_enter/sys_exit (read at their offsets, never
 * formatted). An exit without its entry is a call entered before the
 * trace (no duration); an entry without its exit, at the end or when the
 * task enters another call, one that did not return in the trace (exit,
 * execve's old image, or its exit lost). Each record's event is
 * classified once per type.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-syscalls.h"
#include "keytab.h"
#include "opts.h"
#include "syscall-table.h"

enum ev_kind { EV_UNSEEN, EV_OTHER, EV_ENTER, EV_EXIT, EV_RAW_ENTER, EV_RAW_EXIT };

/* What a record type is to the pass, found at its first record. */
struct sc_event {
	enum ev_kind kind;
	const char *name;		/* sys_enter_NAME's NAME */
	struct tep_format_field *nr, *ret, *raw_args;
	struct tep_format_field *args[FTC_SYSCALL_MAXARGS];
	int nargs;
};

/* A task's call in progress. */
struct sc_task {
	const char *comm;
	bool open;
	struct ftc_syscall call;
};

struct ftc_syscalls {
	struct ftc_reader *r;
	struct tep_handle *tep;
	struct ftc_syscalls_opts o;
	int buffer;			/* the buffer read, -1 until chosen */
	int arch;			/* FTC_SC_*, -1: unknown */
	struct sc_event *ev;		/* by record type */
	size_t nev;
	struct ftc_keytab task_keys;	/* tid -> tasks */
	struct sc_task *tasks;
	struct ftc_keytab stat_keys;	/* (tid, nr) -> stats */
	struct ftc_syscall_stats *stats;
	struct ftc_syscall_stats *calls;	/* per nr, made by finish */
	size_t ncalls;
	uint64_t records, lost;
};

/* The traced machine's table: its uname's, else the formats' guess. */
static int arch_of(struct ftc_reader *r)
{
	const char *uname = ftc_reader_option_text(r, FTC_OPT_UNAME);
	const char *m = uname ? strrchr(uname, ' ') : NULL;
	int a = m ? ftc_syscall_arch(m + 1) : -1;

	if (a >= 0)
		return a;
	if (ftc_reader_find_event(r, "syscalls", "sys_enter_open"))
		return FTC_SC_X86_64;	/* only x86_64 of the two has open */
	if (ftc_reader_find_event(r, "syscalls", "sys_enter_openat"))
		return FTC_SC_ARM64;
	return ftc_syscall_host_arch();
}

struct ftc_syscalls *ftc_syscalls_new(struct ftc_reader *r, const struct ftc_syscalls_opts *o)
{
	struct ftc_syscalls *s = calloc(1, sizeof(*s));

	if (!s) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	s->r = r;
	s->tep = ftc_reader_tep(r);
	s->buffer = -1;
	if (o && FTC_OPTS_COPY(&s->o, o, ftc_syscalls_opts, ctx) < 0) {
		ftc_syscalls_free(s);
		return NULL;
	}
	s->arch = arch_of(r);
	return s;
}

void ftc_syscalls_free(struct ftc_syscalls *s)
{
	if (!s)
		return;
	free(s->ev);
	ftc_keytab_free(&s->task_keys);
	free(s->tasks);
	ftc_keytab_free(&s->stat_keys);
	free(s->stats);
	free(s->calls);
	free(s);
}

/* sys_enter_NAME's fields: __syscall_nr, then the arguments in order. */
static void classify_one(struct sc_event *e, struct tep_event *ev, bool enter)
{
	e->kind = enter ? EV_ENTER : EV_EXIT;
	e->name = ev->name + (enter ? strlen("sys_enter_") : strlen("sys_exit_"));
	e->nr = tep_find_field(ev, "__syscall_nr");
	e->ret = enter ? NULL : tep_find_field(ev, "ret");
	if (!enter)
		return;
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		if (f != e->nr && e->nargs < FTC_SYSCALL_MAXARGS)
			e->args[e->nargs++] = f;
}

static void classify(struct sc_event *e, struct tep_event *ev)
{
	e->kind = EV_OTHER;
	if (!ev)
		return;
	if (!strcmp(ev->system, "syscalls")) {
		if (!strncmp(ev->name, "sys_enter_", 10))
			classify_one(e, ev, true);
		else if (!strncmp(ev->name, "sys_exit_", 9))
			classify_one(e, ev, false);
	} else if (!strcmp(ev->system, "raw_syscalls")) {
		bool enter = !strcmp(ev->name, "sys_enter");

		if (!enter && strcmp(ev->name, "sys_exit"))
			return;
		e->kind = enter ? EV_RAW_ENTER : EV_RAW_EXIT;
		e->nr = tep_find_field(ev, "id");
		e->ret = enter ? NULL : tep_find_field(ev, "ret");
		e->raw_args = enter ? tep_find_field(ev, "args") : NULL;
	}
	/* a format without the fields read is no syscall event to the pass */
	if (e->kind != EV_OTHER && (!e->nr || ((e->kind == EV_EXIT || e->kind == EV_RAW_EXIT) &&
					       !e->ret) || (e->kind == EV_RAW_ENTER && !e->raw_args)))
		e->kind = EV_OTHER;
}

/* The record's type as the pass sees it; NULL when out of memory. */
static const struct sc_event *event_of(struct ftc_syscalls *s, struct tep_record *rec)
{
	static const struct sc_event other = { .kind = EV_OTHER };
	int type = tep_data_type(s->tep, rec);
	struct sc_event *e;

	if (type < 0 || type > 0xffff)
		return &other;
	if ((size_t)type >= s->nev) {
		size_t n = (size_t)type + 64;

		e = realloc(s->ev, n * sizeof(*e));
		if (!e) {
			ftc_error(ENOMEM, "out of memory");
			return NULL;
		}
		memset(e + s->nev, 0, (n - s->nev) * sizeof(*e));
		s->ev = e;
		s->nev = n;
	}
	e = &s->ev[type];
	if (e->kind == EV_UNSEEN)
		classify(e, ftc_reader_event(s->r, rec));
	return e;
}

static long long field_signed(const struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	tep_read_number_field((struct tep_format_field *)f, rec->data, &v);
	if (f->size == 4)
		return (int)v;
	if (f->size == 2)
		return (short)v;
	return (long long)v;
}

static struct sc_task *task_of(struct ftc_syscalls *s, int tid)
{
	int added;
	long i = ftc_keytab_get(&s->task_keys, (uint64_t)(uint32_t)tid, &added);

	if (i < 0)
		return NULL;
	if (added) {
		struct sc_task *v = realloc(s->tasks, s->task_keys.cap * sizeof(*v));

		if (!v) {
			ftc_error(ENOMEM, "out of memory");
			return NULL;
		}
		s->tasks = v;
		memset(&v[i], 0, sizeof(v[i]));
		v[i].comm = tep_data_comm_from_pid(s->tep, tid);
	}
	return &s->tasks[i];
}

static struct ftc_syscall_stats *stats_of(struct ftc_syscalls *s, const struct ftc_syscall *c)
{
	uint64_t key = (uint64_t)(uint32_t)c->tid << 32 | (uint32_t)c->nr;
	int added;
	long i = ftc_keytab_get(&s->stat_keys, key, &added);

	if (i < 0)
		return NULL;
	if (added) {
		struct ftc_syscall_stats *v = realloc(s->stats, s->stat_keys.cap * sizeof(*v));

		if (!v) {
			ftc_error(ENOMEM, "out of memory");
			return NULL;
		}
		s->stats = v;
		v[i] = (struct ftc_syscall_stats){ .tid = c->tid, .comm = c->comm, .nr = c->nr,
						   .name = c->name };
	}
	return &s->stats[i];
}

/* A call is over (end 0: it did not return in the trace): counted, then given. */
static int call_done(struct ftc_syscalls *s, const struct ftc_syscall *c)
{
	struct ftc_syscall_stats *st = stats_of(s, c);
	uint64_t ns;

	if (!st)
		return -1;
	if (!c->end) {
		st->unfinished++;
	} else {
		st->calls++;
		st->errors += c->ret < 0 && c->ret >= -4095;
		if (c->ts && c->end >= c->ts) {
			ns = c->end - c->ts;
			st->min_ns = !st->timed || ns < st->min_ns ? ns : st->min_ns;
			st->max_ns = ns > st->max_ns ? ns : st->max_ns;
			st->total_ns += ns;
			st->sumsq_ns += (double)ns * (double)ns;
			st->timed++;
		}
	}
	if (s->o.on_call)
		s->o.on_call(c, s->o.ctx);
	return 0;
}

static void read_args(const struct ftc_syscalls *s, const struct sc_event *e,
		      const struct tep_record *rec, struct ftc_syscall *c)
{
	const struct tep_format_field *raw = e->raw_args;
	unsigned long long v;
	int esize;

	if (e->kind == EV_ENTER) {
		c->nargs = e->nargs;
		for (int i = 0; i < e->nargs; i++) {
			v = 0;
			tep_read_number_field(e->args[i], rec->data, &v);
			c->args[i] = v;
		}
		return;
	}
	/* raw_syscalls: an array of six longs */
	esize = raw->elementsize ? (int)raw->elementsize : tep_get_long_size(s->tep);
	if (esize <= 0 || esize > 8 || (int)raw->offset + FTC_SYSCALL_MAXARGS * esize > rec->size)
		return;
	c->nargs = FTC_SYSCALL_MAXARGS;
	for (int i = 0; i < FTC_SYSCALL_MAXARGS; i++)
		c->args[i] = tep_read_number(s->tep, (char *)rec->data + raw->offset + i * esize,
					     esize);
}

static const char *name_of(const struct ftc_syscalls *s, const struct sc_event *e, long nr)
{
	if (e->kind == EV_ENTER || e->kind == EV_EXIT)
		return e->name;
	return ftc_syscall_name(s->arch, nr);
}

static int on_enter(struct ftc_syscalls *s, const struct sc_event *e,
		    const struct tep_record *rec, int tid, int cpu)
{
	struct sc_task *t = task_of(s, tid);
	long nr = (long)field_signed(e->nr, rec);

	if (!t || (t->open && call_done(s, &t->call) < 0))
		return -1;
	t->call = (struct ftc_syscall){ .ts = rec->ts, .tid = tid, .cpu = cpu, .comm = t->comm,
					.nr = nr, .name = name_of(s, e, nr) };
	read_args(s, e, rec, &t->call);
	t->open = true;
	return 0;
}

static int on_exit_rec(struct ftc_syscalls *s, const struct sc_event *e,
		       const struct tep_record *rec, int tid, int cpu)
{
	struct sc_task *t = task_of(s, tid);
	long nr = (long)field_signed(e->nr, rec);
	struct ftc_syscall c;

	if (!t)
		return -1;
	if (t->open && t->call.nr == nr) {
		c = t->call;
	} else {
		if (t->open && call_done(s, &t->call) < 0)	/* its exit was lost */
			return -1;
		c = (struct ftc_syscall){ .tid = tid, .comm = t->comm, .nr = nr,
					  .name = name_of(s, e, nr) };
	}
	t->open = false;
	c.end = rec->ts;
	c.cpu = cpu;
	c.ret = field_signed(e->ret, rec);
	return call_done(s, &c);
}

/* The buffer read: the one asked for, or the first with a syscall record. */
static bool in_buffer(struct ftc_syscalls *s, const struct ftc_merge_record *mr, bool syscall)
{
	const struct ftc_dat_buffer *b;

	if (s->buffer >= 0)
		return mr->buffer == s->buffer;
	b = ftc_reader_buffer(s->r, mr->buffer);
	if (s->o.instance ? b && !strcmp(b->name, s->o.instance) : syscall) {
		s->buffer = mr->buffer;
		return true;
	}
	return false;
}

int ftc_syscalls_add(struct ftc_syscalls *s, const struct ftc_merge_record *mr)
{
	struct tep_record *rec = mr->rec;
	const struct sc_event *e = event_of(s, rec);
	int tid;

	if (!e)
		return -1;
	if (!in_buffer(s, mr, e->kind > EV_OTHER))
		return 0;
	if (mr->missed > 0)
		s->lost += (uint64_t)mr->missed;
	if (e->kind <= EV_OTHER)
		return 0;
	s->records++;
	tid = tep_data_pid(s->tep, rec);
	if (e->kind == EV_ENTER || e->kind == EV_RAW_ENTER)
		return on_enter(s, e, rec, tid, mr->cpu);
	return on_exit_rec(s, e, rec, tid, mr->cpu);
}

static int sum_calls(struct ftc_syscalls *s)
{
	struct ftc_keytab keys = { 0 };
	int added, ret = 0;

	for (size_t i = 0; i < s->stat_keys.n && !ret; i++) {
		const struct ftc_syscall_stats *st = &s->stats[i];
		long k = ftc_keytab_get(&keys, (uint64_t)(uint32_t)st->nr, &added);
		struct ftc_syscall_stats *v, *sum;

		if (k < 0) {
			ret = -1;
			break;
		}
		if (added) {
			v = realloc(s->calls, keys.cap * sizeof(*v));
			if (!v) {
				ret = ftc_error(ENOMEM, "out of memory");
				break;
			}
			s->calls = v;
			v[k] = (struct ftc_syscall_stats){ .tid = -1, .comm = "all", .nr = st->nr,
							   .name = st->name };
		}
		sum = &s->calls[k];
		sum->min_ns = !sum->timed || (st->timed && st->min_ns < sum->min_ns) ?
			      st->min_ns : sum->min_ns;
		sum->max_ns = st->max_ns > sum->max_ns ? st->max_ns : sum->max_ns;
		sum->calls += st->calls;
		sum->errors += st->errors;
		sum->timed += st->timed;
		sum->total_ns += st->total_ns;
		sum->sumsq_ns += st->sumsq_ns;
		sum->unfinished += st->unfinished;
	}
	s->ncalls = ret ? 0 : keys.n;
	ftc_keytab_free(&keys);
	return ret;
}

void ftc_syscalls_finish(struct ftc_syscalls *s)
{
	for (size_t i = 0; i < s->task_keys.n; i++)
		if (s->tasks[i].open) {
			s->tasks[i].open = false;
			call_done(s, &s->tasks[i].call);
		}
	sum_calls(s);
}

size_t ftc_syscalls_nstats(const struct ftc_syscalls *s)
{
	return s->stat_keys.n;
}

const struct ftc_syscall_stats *ftc_syscalls_stats_at(const struct ftc_syscalls *s, size_t i)
{
	return i < s->stat_keys.n ? &s->stats[i] : NULL;
}

size_t ftc_syscalls_ncalls(const struct ftc_syscalls *s)
{
	return s->ncalls;
}

const struct ftc_syscall_stats *ftc_syscalls_call_at(const struct ftc_syscalls *s, size_t i)
{
	return i < s->ncalls ? &s->calls[i] : NULL;
}

double ftc_syscall_stddev_ns(const struct ftc_syscall_stats *st)
{
	double mean, var;

	if (st->timed < 2)
		return 0;
	mean = (double)st->total_ns / (double)st->timed;
	var = st->sumsq_ns / (double)st->timed - mean * mean;
	return var > 0 ? sqrt(var) : 0;
}

uint64_t ftc_syscalls_records(const struct ftc_syscalls *s)
{
	return s->records;
}

uint64_t ftc_syscalls_lost(const struct ftc_syscalls *s)
{
	return s->lost;
}

const char *ftc_syscalls_arch(const struct ftc_syscalls *s)
{
	return s->arch >= 0 && s->arch < FTC_SC_NARCH ? ftc_syscall_tables[s->arch].arch : NULL;
}
