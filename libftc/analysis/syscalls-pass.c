// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The syscall pass: each task's entry of a call paired with its exit, from
 * the raw fields of syscalls:sys_enter_NAME/sys_exit_NAME or
 * raw_syscalls:sys_enter/sys_exit (read at their offsets, never
 * formatted). An exit without its entry is a call entered before the
 * trace (no duration); an entry without its exit, at the end or when the
 * task enters another call, one that did not return in the trace (exit,
 * execve's old image, or its exit lost). Each record's event is
 * classified once per type. A probe with fields ptr and str (a uprobe on
 * the C library's wrapper, an event probe on the entry) gives the text of
 * a string argument: held on its thread until the next call that takes a
 * string, which takes the texts read at its addresses and drops the rest.
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
#include "pass-util.h"
#include "syscall-table.h"

enum ev_kind { EV_UNSEEN, EV_OTHER, EV_ENTER, EV_EXIT, EV_RAW_ENTER, EV_RAW_EXIT, EV_STRING };

/* What a record type is to the pass, found at its first record. */
struct sc_event {
	enum ev_kind kind;
	const char *name;		/* sys_enter_NAME's NAME */
	struct tep_format_field *nr, *ret, *raw_args;
	struct tep_format_field *args[FTC_SYSCALL_MAXARGS];
	int nargs;
	unsigned int string_args;	/* sys_enter_NAME's char pointers */
	struct tep_format_field *ptr, *str;	/* a string probe's */
	bool before;			/* a uprobe: it fires before the call it reads for */
};

/*
 * Strings a probe read on a task, waiting for the call that takes them:
 * the next call with a string argument takes those at its addresses and
 * drops the rest, so that a string never outlives the call it was read for.
 */
#define SC_PENDING 4

struct sc_pending {
	uint64_t ptr;
	char *str;
};

/* A task's call in progress. */
struct sc_task {
	const char *comm;
	bool open;
	struct ftc_syscall call;
	int npend;
	struct sc_pending pend[SC_PENDING];
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

static void strings_free(struct ftc_syscall *c)
{
	for (int i = 0; i < FTC_SYSCALL_MAXARGS; i++) {
		free((char *)c->strings[i]);
		c->strings[i] = NULL;
	}
}

static void pending_drop(struct sc_task *t)
{
	while (t->npend > 0)
		free(t->pend[--t->npend].str);
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
	for (size_t i = 0; i < s->task_keys.n; i++) {
		strings_free(&s->tasks[i].call);
		pending_drop(&s->tasks[i]);
	}
	ftc_keytab_free(&s->task_keys);
	free(s->tasks);
	ftc_keytab_free(&s->stat_keys);
	free(s->stats);
	free(s->calls);
	free(s);
}

/* "const char *", "const char __user *": a string; not "const char *const *" (argv). */
static bool is_char_pointer(const char *type)
{
	const char *star = type ? strchr(type, '*') : NULL;

	return star && strstr(type, "char") && strstr(type, "char") < star &&
	       !strchr(star + 1, '*');
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
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		if (f == e->nr || e->nargs == FTC_SYSCALL_MAXARGS)
			continue;
		if (is_char_pointer(f->type))
			e->string_args |= 1u << e->nargs;
		e->args[e->nargs++] = f;
	}
}

/* A probe that read a string at an address: fields ptr (a number) and str (a string). */
static bool classify_string(struct sc_event *e, struct tep_event *ev)
{
	struct tep_format_field *ptr = tep_find_field(ev, "ptr");
	struct tep_format_field *str = tep_find_field(ev, "str");

	if (!ptr || !str || (ptr->flags & TEP_FIELD_IS_DYNAMIC) ||
	    !(str->flags & TEP_FIELD_IS_DYNAMIC))
		return false;
	e->kind = EV_STRING;
	e->ptr = ptr;
	e->str = str;
	e->before = tep_find_field(ev, "__probe_ip") != NULL;
	return true;
}

static void classify(struct sc_event *e, struct tep_event *ev)
{
	e->kind = EV_OTHER;
	if (!ev)
		return;
	if (classify_string(e, ev))
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
	uint64_t v = ftc_pass_field(f, rec);

	if (f->size == 4)
		return (int)v;
	if (f->size == 2)
		return (short)v;
	return (long long)v;
}

static struct sc_task *task_of(struct ftc_syscalls *s, int tid)
{
	int added;
	struct sc_task *t = ftc_keytab_value(&s->task_keys, (uint64_t)(uint32_t)tid,
					     (void **)&s->tasks, sizeof(*t), &added);

	if (t && added)
		t->comm = tep_data_comm_from_pid(s->tep, tid);
	return t;
}

static struct ftc_syscall_stats *stats_of(struct ftc_syscalls *s, const struct ftc_syscall *c)
{
	uint64_t key = (uint64_t)(uint32_t)c->tid << 32 | (uint32_t)c->nr;
	int added;
	struct ftc_syscall_stats *st = ftc_keytab_value(&s->stat_keys, key, (void **)&s->stats,
							sizeof(*st), &added);

	if (st && added)
		*st = (struct ftc_syscall_stats){ .tid = c->tid, .comm = c->comm, .nr = c->nr,
						  .name = c->name };
	return st;
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
	int esize;

	if (e->kind == EV_ENTER) {
		c->nargs = e->nargs;
		for (int i = 0; i < e->nargs; i++)
			c->args[i] = ftc_pass_field(e->args[i], rec);
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

/* The strings read for the call just entered, by address; the rest are stale. */
static void take_strings(struct sc_task *t)
{
	struct ftc_syscall *c = &t->call;

	for (int i = 0; i < c->nargs; i++) {
		if (!(c->string_args & 1u << i))
			continue;
		for (int k = t->npend; k-- > 0;)
			if (t->pend[k].ptr == c->args[i]) {
				c->strings[i] = t->pend[k].str;
				t->pend[k] = t->pend[--t->npend];
				break;
			}
	}
	pending_drop(t);
}

/*
 * A probe read a string on a task: an event probe on the entry, for the
 * call in progress (it fires after the entry's record), else for the next;
 * a uprobe on the C library's wrapper, for the next (it fires before; a
 * call still open then lost its exit).
 */
static int on_string(struct ftc_syscalls *s, const struct sc_event *e,
		     const struct tep_record *rec, int tid)
{
	struct sc_task *t = task_of(s, tid);
	uint64_t ptr;
	const char *text;
	char *copy;
	size_t len;

	if (!t)
		return -1;
	ptr = ftc_pass_field(e->ptr, rec);
	text = ftc_pass_str(e->str, rec, &len);
	if (!text)
		return 0;
	copy = strndup(text, len);
	if (!copy) {
		ftc_error(ENOMEM, "out of memory");
		return -1;
	}
	for (int i = 0; t->open && !e->before && i < t->call.nargs; i++)
		if ((t->call.string_args & 1u << i) && t->call.args[i] == ptr &&
		    !t->call.strings[i]) {
			t->call.strings[i] = copy;
			return 0;
		}
	if (t->npend == SC_PENDING) {
		free(t->pend[0].str);
		memmove(t->pend, t->pend + 1, (SC_PENDING - 1) * sizeof(t->pend[0]));
		t->npend--;
	}
	t->pend[t->npend++] = (struct sc_pending){ ptr, copy };
	return 0;
}

static int on_enter(struct ftc_syscalls *s, const struct sc_event *e,
		    const struct tep_record *rec, int tid, int cpu)
{
	struct sc_task *t = task_of(s, tid);
	long nr = (long)field_signed(e->nr, rec);

	if (!t)
		return -1;
	if (t->open) {
		int ret = call_done(s, &t->call);

		strings_free(&t->call);
		if (ret < 0)
			return -1;
	}
	t->call = (struct ftc_syscall){ .ts = rec->ts, .tid = tid, .cpu = cpu, .comm = t->comm,
					.nr = nr, .name = name_of(s, e, nr),
					.string_args = e->string_args };
	read_args(s, e, rec, &t->call);
	t->open = true;
	if (t->call.string_args)
		take_strings(t);
	return 0;
}

static int on_exit_rec(struct ftc_syscalls *s, const struct sc_event *e,
		       const struct tep_record *rec, int tid, int cpu)
{
	struct sc_task *t = task_of(s, tid);
	long nr = (long)field_signed(e->nr, rec);
	struct ftc_syscall c;
	int ret;

	if (!t)
		return -1;
	if (t->open && t->call.nr == nr) {
		c = t->call;	/* its strings move with it */
	} else {
		if (t->open) {	/* its exit was lost */
			ret = call_done(s, &t->call);
			strings_free(&t->call);
			if (ret < 0)
				return -1;
		}
		c = (struct ftc_syscall){ .tid = tid, .comm = t->comm, .nr = nr,
					  .name = name_of(s, e, nr) };
	}
	memset(t->call.strings, 0, sizeof(t->call.strings));
	t->open = false;
	c.end = rec->ts;
	c.cpu = cpu;
	c.ret = field_signed(e->ret, rec);
	ret = call_done(s, &c);
	strings_free(&c);
	return ret;
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
	if (e->kind == EV_STRING)
		return on_string(s, e, rec, tid);
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
		struct ftc_syscall_stats *sum = ftc_keytab_value(&keys, (uint64_t)(uint32_t)st->nr,
								 (void **)&s->calls, sizeof(*sum),
								 &added);

		if (!sum) {
			ret = -1;
			break;
		}
		if (added)
			*sum = (struct ftc_syscall_stats){ .tid = -1, .comm = "all", .nr = st->nr,
							   .name = st->name };
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
			strings_free(&s->tasks[i].call);
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
