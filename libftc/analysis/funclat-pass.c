// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The function latency pass. What each event is for is settled once, from
 * the formats: funcgraph_exit carries a call's calltime and rettime; a
 * probe event with __probe_ip and no __probe_func is an entry, one with
 * __probe_func and __probe_ret_ip a return. Entries wait on a short stack
 * per thread until their return, matched by address: a return whose entry
 * was missed (before the trace, or lost) pops nothing and is counted apart.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-funclat.h"
#include "keytab.h"
#include "opts.h"
#include "pass-util.h"

enum role { R_NONE, R_GRAPH, R_ENTRY, R_RETURN };

struct ev_role {
	bool known;			/* settled */
	enum role role;
	struct tep_event *e;
	struct tep_format_field *addr;	/* func, __probe_ip or __probe_func */
	struct tep_format_field *calltime, *rettime, *depth;
};

/* Calls open on one thread: nested probes, the innermost last. */
#define STACK_DEPTH 16

struct frame {
	uint64_t addr, ts;
	int ev;			/* the entry's event id */
};

struct thread {
	int n;
	struct frame f[STACK_DEPTH];
};

struct fn {
	char *name;
	uint64_t addr;
	bool selected;
};

struct ftc_funclat {
	struct ftc_reader *r;
	struct tep_handle *tep;
	struct ftc_funclat_opts o;
	int buffer;
	struct ev_role *roles;		/* by event id */
	int nroles;
	bool all_parsed;		/* every format has its role */
	bool has_probes;		/* a return probe's format was met */
	int sources;			/* sources seen */
	struct ftc_keytab thread_keys, fn_keys, stat_keys;
	struct thread *threads;
	struct fn *fns;
	struct ftc_funclat_stat *stats;
	uint64_t records, unmatched, lost;
};

static int grow_roles(struct ftc_funclat *f, int type)
{
	int n = type + 64;
	struct ev_role *v;

	if (type < f->nroles)
		return 0;
	v = realloc(f->roles, (size_t)n * sizeof(*v));
	if (!v)
		return -1;
	memset(v + f->nroles, 0, (size_t)(n - f->nroles) * sizeof(*v));
	f->roles = v;
	f->nroles = n;
	return 0;
}

static void role_of(struct ftc_funclat *f, struct tep_event *e)
{
	struct tep_format_field *ip = tep_find_field(e, "__probe_ip");
	struct tep_format_field *func = tep_find_field(e, "__probe_func");
	struct ev_role *r;

	if (e->id < 0 || e->id > 65535 || grow_roles(f, e->id) < 0)
		return;
	r = &f->roles[e->id];
	r->known = true;
	r->e = e;
	if (!strcmp(e->system, "ftrace") && !strcmp(e->name, "funcgraph_exit")) {
		r->addr = tep_find_field(e, "func");
		r->calltime = tep_find_field(e, "calltime");
		r->rettime = tep_find_field(e, "rettime");
		r->depth = tep_find_field(e, "depth");
		if (r->addr && r->calltime && r->rettime)
			r->role = R_GRAPH;
	} else if (ip && !func) {
		r->role = R_ENTRY;
		r->addr = ip;
	} else if (func && tep_find_field(e, "__probe_ret_ip")) {
		r->role = R_RETURN;
		r->addr = func;
	}
	if (r->role == R_RETURN)
		f->has_probes = true;
}

/*
 * The reader parses a format when its first record is met: so is a role
 * settled, at the first record of each event.
 */
static struct ev_role *role_at(struct ftc_funclat *f, const struct ftc_merge_record *mr)
{
	int type = tep_data_type(f->tep, mr->rec);
	struct tep_event *e;

	if (type < 0 || type > 65535 || grow_roles(f, type) < 0)
		return NULL;
	if (!f->roles[type].known) {
		e = ftc_reader_event(f->r, mr->rec);
		if (e)
			role_of(f, e);
		f->roles[type].known = true;
	}
	return &f->roles[type];
}

struct ftc_funclat *ftc_funclat_new(struct ftc_reader *r, const struct ftc_funclat_opts *o)
{
	struct ftc_funclat *f = calloc(1, sizeof(*f));

	if (!f) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	f->r = r;
	f->tep = ftc_reader_tep(r);
	f->buffer = -1;
	if (o && FTC_OPTS_COPY(&f->o, o, ftc_funclat_opts, ctx) < 0) {
		ftc_funclat_free(f);
		return NULL;
	}
	if (!f->o.slowest)
		f->o.slowest = 5;
	if (f->o.slowest > FTC_FUNCLAT_SLOWEST)
		f->o.slowest = FTC_FUNCLAT_SLOWEST;
	return f;
}

void ftc_funclat_free(struct ftc_funclat *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->fn_keys.n; i++)
		free(f->fns[i].name);
	ftc_keytab_free(&f->thread_keys);
	ftc_keytab_free(&f->fn_keys);
	ftc_keytab_free(&f->stat_keys);
	free(f->threads);
	free(f->fns);
	free(f->stats);
	free(f->roles);
	free(f);
}

static uint64_t num(struct tep_format_field *fd, const struct tep_record *rec)
{
	return ftc_pass_field(fd, rec);
}

/* A kernel function by its symbol; a user one (uprobe) by its entry probe's name. */
static char *name_of(struct ftc_funclat *f, uint64_t addr, int ev)
{
	const char *sym = tep_find_function(f->tep, addr);

	if (sym)
		return strdup(sym);
	if (ev >= 0 && ev < f->nroles && f->roles[ev].e)
		return strdup(f->roles[ev].e->name);
	return strdup("?");
}

/*
 * The function at addr: a kernel address is one function whichever event
 * gave it; a user address is only that within its entry probe's binary.
 */
static struct fn *fn_of(struct ftc_funclat *f, uint64_t addr, int ev, long *idx)
{
	uint64_t key = ev < 0 ? addr : ((uint64_t)ev + 1) << 48 ^ addr;
	int added;
	struct fn *fn = ftc_keytab_value(&f->fn_keys, key, (void **)&f->fns, sizeof(*fn), &added);

	if (!fn)
		return NULL;
	if (added) {
		fn->addr = addr;
		fn->name = name_of(f, addr, ev);
		if (!fn->name) {
			ftc_error(ENOMEM, "out of memory");
			return NULL;	/* the pass ends there */
		}
		fn->selected = !f->o.func || !fnmatch(f->o.func, fn->name, 0);
	}
	*idx = fn - f->fns;
	return fn;
}

static int bucket(uint64_t v)
{
	return v ? 63 - __builtin_clzll(v) : 0;
}

static void keep_slow(struct ftc_funclat *f, struct ftc_funclat_stat *s,
		      const struct ftc_funclat_slow *c)
{
	size_t i = s->nslow < f->o.slowest ? s->nslow++ : s->nslow;

	if (i == s->nslow && s->slow[i - 1].ns >= c->ns)
		return;		/* full, and not slower than the last kept */
	if (i == s->nslow)
		i--;
	while (i > 0 && s->slow[i - 1].ns < c->ns) {
		s->slow[i] = s->slow[i - 1];
		i--;
	}
	s->slow[i] = *c;
}

static int count_call(struct ftc_funclat *f, struct fn *fn, long fi,
		      const struct ftc_funclat_call *c)
{
	uint64_t key = (uint64_t)fi << 32 | (f->o.per_task ? (uint32_t)c->pid : 0);
	struct ftc_funclat_slow slow = { c->start, c->ns, c->pid };
	struct ftc_funclat_stat *s;
	int added;

	s = ftc_keytab_value(&f->stat_keys, key, (void **)&f->stats, sizeof(*s), &added);
	if (!s)
		return -1;
	if (added) {
		s->func = fn->name;
		s->addr = fn->addr;
		s->pid = f->o.per_task ? c->pid : 0;
		s->min_ns = c->ns;
	}
	s->count++;
	s->total_ns += c->ns;
	s->min_ns = c->ns < s->min_ns ? c->ns : s->min_ns;
	s->max_ns = c->ns > s->max_ns ? c->ns : s->max_ns;
	s->hist[bucket(c->ns)]++;
	keep_slow(f, s, &slow);
	if (f->o.on_call)
		f->o.on_call(c, f->o.ctx);
	return 0;
}

static int call(struct ftc_funclat *f, uint64_t addr, int ev, struct ftc_funclat_call *c,
		enum ftc_funclat_source src)
{
	long fi;
	struct fn *fn = fn_of(f, addr, ev, &fi);

	if (!fn)
		return -1;
	f->sources |= src;
	if (!fn->selected || c->ns < f->o.min_ns)
		return 0;
	c->func = fn->name;
	return count_call(f, fn, fi, c);
}

static int graph_exit(struct ftc_funclat *f, const struct ev_role *r,
		      const struct tep_record *rec, int pid)
{
	uint64_t t0 = num(r->calltime, rec), t1 = num(r->rettime, rec);
	struct ftc_funclat_call c = {
		.ns = t1 > t0 ? t1 - t0 : 0, .pid = pid,
		.depth = r->depth ? (int)num(r->depth, rec) : -1,
	};

	/* calltime and rettime are the kernel's local clock, whatever the trace's */
	c.start = rec->ts > c.ns ? rec->ts - c.ns : 0;
	return call(f, num(r->addr, rec), -1, &c, FTC_FUNCLAT_GRAPH);
}

static struct thread *thread_of(struct ftc_funclat *f, int pid)
{
	int added;

	return ftc_keytab_value(&f->thread_keys, (uint32_t)pid, (void **)&f->threads,
				sizeof(struct thread), &added);
}

static int probe_entry(struct ftc_funclat *f, const struct ev_role *r,
		       const struct tep_record *rec, int pid)
{
	struct thread *t = thread_of(f, pid);

	if (!t)
		return -1;
	if (t->n == STACK_DEPTH) {	/* returns were missed: the oldest goes */
		memmove(t->f, t->f + 1, (STACK_DEPTH - 1) * sizeof(t->f[0]));
		t->n--;
	}
	t->f[t->n++] = (struct frame){ num(r->addr, rec), rec->ts, r->e->id };
	return 0;
}

static int probe_return(struct ftc_funclat *f, const struct ev_role *r,
			const struct tep_record *rec, int pid)
{
	uint64_t addr = num(r->addr, rec);
	long ti = ftc_keytab_find(&f->thread_keys, (uint32_t)pid);
	struct thread *t = ti >= 0 ? &f->threads[ti] : NULL;
	struct ftc_funclat_call c = { .pid = pid, .depth = -1 };
	int i;

	for (i = t ? t->n : 0; i-- > 0;)
		if (t->f[i].addr == addr)
			break;
	if (i < 0) {
		f->unmatched++;
		return 0;
	}
	c.start = t->f[i].ts;
	c.ns = rec->ts > c.start ? rec->ts - c.start : 0;
	t->n = i;	/* entries above it returned unseen */
	return call(f, addr, t->f[i].ev, &c, FTC_FUNCLAT_PROBES);
}

int ftc_funclat_add(struct ftc_funclat *f, const struct ftc_merge_record *mr)
{
	const struct ev_role *r = role_at(f, mr);
	int pid;

	if (!ftc_pass_buffer(f->r, f->o.instance, r && r->role != R_NONE, mr, &f->buffer, &f->lost))
		return 0;
	if (!r || r->role == R_NONE)
		return 0;
	f->records++;
	pid = tep_data_pid(f->tep, mr->rec);
	switch (r->role) {
	case R_GRAPH:
		return graph_exit(f, r, mr->rec, pid);
	case R_ENTRY:
		return probe_entry(f, r, mr->rec, pid);
	default:
		return probe_return(f, r, mr->rec, pid);
	}
}

size_t ftc_funclat_nstats(const struct ftc_funclat *f)
{
	return f->stat_keys.n;
}

const struct ftc_funclat_stat *ftc_funclat_stat_at(const struct ftc_funclat *f, size_t i)
{
	return i < f->stat_keys.n ? &f->stats[i] : NULL;
}

int ftc_funclat_sources(const struct ftc_funclat *f)
{
	return f->sources;
}

bool ftc_funclat_has_probes(struct ftc_funclat *f)
{
	int n;

	if (!f->all_parsed && ftc_reader_parse_all_events(f->r) == 0) {
		n = tep_get_events_count(f->tep);
		for (int i = 0; i < n; i++) {
			struct tep_event *e = tep_get_event(f->tep, i);

			if (e->id >= f->nroles || !f->roles[e->id].known)
				role_of(f, e);
		}
		f->all_parsed = true;
	}
	return f->has_probes;
}

uint64_t ftc_funclat_records(const struct ftc_funclat *f)
{
	return f->records;
}

uint64_t ftc_funclat_unmatched(const struct ftc_funclat *f)
{
	return f->unmatched;
}

uint64_t ftc_funclat_open_calls(const struct ftc_funclat *f)
{
	uint64_t n = 0;

	for (size_t i = 0; i < f->thread_keys.n; i++)
		n += (uint64_t)f->threads[i].n;
	return n;
}

uint64_t ftc_funclat_lost(const struct ftc_funclat *f)
{
	return f->lost;
}
