// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One line of a dump into a record. ftrace_dump prints in the latency
 * layout whatever the latency-format option says:
 *     "      sh-93        1d..2. 30595us : do_sys_openat2 <-__x64_sys_openat"
 * (comm cut to 8, pid, CPU glued to the flags, microseconds since the
 * buffer's start, or raw counts for a clock not in ns); the trace file's
 * layout ("sh-93  [001] d..2.  12.345678: ...") is read too, for logs
 * that hold a copy of it. function_graph prints its own layout, without
 * timestamps or pids: " 0) + 16.474 us   |      getname_flags();" and
 * task banners " 0)  ftc-98  =>  sh-94 "; the times are rebuilt from the
 * durations (ftc_imp_header says so) and the pids from the banners.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "import.h"
#include "reader.h"	/* FTC_MAX_CPUS: a CPU the reader takes */

struct ctx {
	char comm[IMP_COMM_LEN];
	int pid, cpu;
	uint64_t ts;
	uint8_t flags, preempt;
};

/* c is one of set's characters (never its NUL). */
static bool in_set(char c, const char *set)
{
	return c && strchr(set, c);
}

static const char *skip_sp(const char *p, const char *e)
{
	while (p < e && *p == ' ')
		p++;
	return p;
}

/* Up to maxdig decimal digits; false when there is none or too many. */
static bool digits(const char **pp, const char *e, uint64_t *v, int maxdig)
{
	const char *p = *pp;
	uint64_t n = 0;
	int k = 0;

	while (p < e && isdigit((unsigned char)*p)) {
		if (++k > maxdig)
			return false;
		n = n * 10 + (uint64_t)(*p++ - '0');
	}
	if (!k)
		return false;
	*pp = p;
	*v = n;
	return true;
}

static char *dup_n(const char *s, size_t n)
{
	char *p;

	if (n > IMP_TEXT_MAX)
		n = IMP_TEXT_MAX;
	p = malloc(n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
		/* A NUL from a damaged log would end the text early: show it as '?'. */
		for (size_t i = 0; i < n; i++)
			if (!p[i])
				p[i] = '?';
	}
	return p;
}

static const char *rtrim(const char *s, const char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return e;
}

/*
 * The latency flags: irqs-off (d, D with bh off, b, X), need-resched
 * (N, n, p), hard/soft irq (Z, z, H, h, s), preempt depth, migrate-disable.
 */
static bool lat_flags(const char *f, size_t n, struct ctx *c)
{
	static const char irq[] = "dDbX.", res[] = "NnpLl.", hs[] = "ZzHhs.";
	int v;

	if (n < 4 || n > 6)
		return false;
	if (!in_set(f[0], irq) || !in_set(f[1], res) || !in_set(f[2], hs))
		return false;
	c->flags = 0;
	c->flags |= f[0] == 'd' || f[0] == 'D' ? 0x01 : f[0] == 'X' ? 0x02 : 0;
	c->flags |= f[0] == 'D' || f[0] == 'b' ? 0x80 : 0;
	c->flags |= f[1] == 'N' ? 0x24 : f[1] == 'n' ? 0x04 : f[1] == 'p' ? 0x20 : 0;
	c->flags |= f[2] == 'Z' ? 0x48 : f[2] == 'z' ? 0x40 : f[2] == 'H' ? 0x18 :
		    f[2] == 'h' ? 0x08 : f[2] == 's' ? 0x10 : 0;
	c->preempt = 0;
	for (size_t i = 3; i < n && i < 5; i++) {
		if (f[i] == '.')
			continue;
		if (!isxdigit((unsigned char)f[i]))
			return false;
		v = isdigit((unsigned char)f[i]) ? f[i] - '0' : tolower(f[i]) - 'a' + 10;
		c->preempt |= (uint8_t)(i == 3 ? v : v << 4);
	}
	return true;
}

/* "SECS.FRAC" (the trace layout) into ns; a FRAC of 3, 6 or 9 digits. */
static bool secs(const char **pp, const char *e, uint64_t *ns)
{
	const char *p = *pp, *f;
	uint64_t s, frac;

	if (!digits(&p, e, &s, 12))
		return false;
	if (p >= e || *p != '.') {
		*ns = s;	/* a clock that counts, not in ns */
		*pp = p;
		return true;
	}
	f = ++p;
	if (!digits(&p, e, &frac, 9))
		return false;
	for (long k = p - f; k < 9; k++)
		frac *= 10;
	*ns = s * 1000000000ULL + frac;
	*pp = p;
	return true;
}

/* "[CPU] [FLAGS] SECS.FRAC: " after the pid (and tgid): the trace file's layout. */
static bool trace_tail(struct imp_dump *d, const char *p, const char *e, struct ctx *c,
		       const char **text)
{
	uint64_t cpu;
	const char *tok;

	p++;
	if (!digits(&p, e, &cpu, 5) || p >= e || *p != ']' || cpu >= FTC_MAX_CPUS)
		return false;
	p = skip_sp(p + 1, e);
	tok = p;
	while (p < e && *p != ' ')
		p++;
	if (p < e && tok < p && !isdigit((unsigned char)*tok)) {
		if (!lat_flags(tok, (size_t)(p - tok), c))
			return false;
		p = skip_sp(p, e);
	} else {
		p = tok;
	}
	if (!secs(&p, e, &c->ts) || p >= e || *p != ':')
		return false;
	c->cpu = (int)cpu;
	d->trace_layout = true;
	*text = p + 1 < e && p[1] == ' ' ? p + 2 : p + 1;
	return true;
}

/* "CPUFLAGS TIMEus : " after the pid: ftrace_dump's latency layout. */
static bool lat_tail(struct imp_dump *d, const char *p, const char *e, struct ctx *c,
		     const char **text)
{
	uint64_t cpu, ts;
	const char *f;
	bool us = false;

	if (!digits(&p, e, &cpu, 5) || cpu >= FTC_MAX_CPUS)
		return false;
	f = p;
	while (p < e && *p != ' ')
		p++;
	if (!lat_flags(f, (size_t)(p - f), c))
		return false;
	p = skip_sp(p, e);
	if (!digits(&p, e, &ts, 19))
		return false;
	if (e - p >= 2 && p[0] == 'u' && p[1] == 's') {
		us = true;
		p += 2;
		/* The delay mark before the colon: ' ', '+', '!', '#', '*', '@', '$'. */
		if (e - p >= 2 && p[1] == ':' && in_set(p[0], " +!#*@$"))
			p++;
	}
	if (p >= e || *p != ':')
		return false;
	c->cpu = (int)cpu;
	c->ts = us ? ts * 1000 : ts;
	d->latency = true;
	d->non_ns |= !us;
	*text = p + 1 < e && p[1] == ' ' ? p + 2 : p + 1;
	return true;
}

/* After "COMM-": the pid, then either layout. */
static bool ctx_tail(struct imp_dump *d, const char *p, const char *e, struct ctx *c,
		     const char **text)
{
	uint64_t pid;

	if (!digits(&p, e, &pid, 10) || pid > INT_MAX || p >= e || *p != ' ')
		return false;
	c->pid = (int)pid;
	p = skip_sp(p, e);
	if (p < e && *p == '(') {		/* record-tgid: "(  123)" or "(-------)" */
		const char *q = memchr(p, ')', (size_t)(e - p) < 12 ? (size_t)(e - p) : 12);

		if (!q)
			return false;
		p = skip_sp(q + 1, e);
	}
	if (p < e && *p == '[')
		return trace_tail(d, p, e, c, text);
	return lat_tail(d, p, e, c, text);
}

/*
 * A comm may hold '-' and blanks: each '-' followed by a digit is tried as
 * the one before the pid until the rest of the context parses.
 */
static bool parse_ctx(struct imp_dump *d, const char *s, const char *e, struct ctx *c,
		      const char **text)
{
	const char *start = skip_sp(s, e);

	for (const char *dash = start; dash < e; dash++) {
		size_t n;

		if (*dash != '-' || dash == start || dash + 1 >= e ||
		    !isdigit((unsigned char)dash[1]))
			continue;
		if (!ctx_tail(d, dash + 1, e, c, text))
			continue;
		n = (size_t)(dash - start);
		if (n >= IMP_COMM_LEN)
			n = IMP_COMM_LEN - 1;
		memcpy(c->comm, start, n);
		c->comm[n] = '\0';
		return true;
	}
	return false;
}

static bool sym_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '$';
}

/* A symbol, with the sym-offset option's "+0x1c/0x1c0" if any. */
static const char *sym_end(const char *p, const char *e)
{
	const char *s = p;

	if (p >= e || isdigit((unsigned char)*p))
		return NULL;
	while (p < e && sym_char(*p))
		p++;
	if (p == s)
		return NULL;
	if (p < e && *p == '+') {
		p++;
		while (p < e && (isxdigit((unsigned char)*p) || *p == 'x' || *p == '/'))
			p++;
	}
	return p;
}

static struct imp_rec *new_rec(struct imp_dump *d, unsigned long line);

static void add_task(struct imp_dump *d, int pid, const char *comm)
{
	struct imp_task *t;

	if (pid <= 0 || !*comm || !strcmp(comm, "<...>"))
		return;
	for (size_t i = d->ntasks; i-- > 0;)
		if (d->tasks[i].pid == pid) {
			snprintf(d->tasks[i].comm, IMP_COMM_LEN, "%s", comm);
			return;
		}
	if (d->ntasks == d->captasks) {
		size_t cap = d->captasks ? d->captasks * 2 : 64;

		t = realloc(d->tasks, cap * sizeof(*t));
		if (!t)
			return;
		d->tasks = t;
		d->captasks = cap;
	}
	d->tasks[d->ntasks].pid = pid;
	snprintf(d->tasks[d->ntasks].comm, IMP_COMM_LEN, "%s", comm);
	d->ntasks++;
}

static struct imp_rec *new_rec(struct imp_dump *d, unsigned long line)
{
	struct imp_rec *r;

	if (d->nrecs == d->caprecs) {
		size_t cap = d->caprecs ? d->caprecs * 2 : 256;

		r = realloc(d->recs, cap * sizeof(*r));
		if (!r) {
			ftc_error(ENOMEM, "out of memory");
			return NULL;
		}
		d->recs = r;
		d->caprecs = cap;
	}
	r = &d->recs[d->nrecs++];
	memset(r, 0, sizeof(*r));
	r->line = line;
	return r;
}

/* A record's text: func <-parent, name: text, or anything else. */
static int classify(struct imp_rec *r, const char *t, const char *e)
{
	const char *a = sym_end(t, e), *b;

	e = rtrim(t, e);
	if (a && e - a > 3 && !memcmp(a, " <-", 3) && (b = sym_end(a + 3, e)) && b == e) {
		r->kind = IMP_FUNC;
		r->name = dup_n(t, (size_t)(a - t));
		r->parent = dup_n(a + 3, (size_t)(e - a - 3));
		r->text = dup_n(t, (size_t)(e - t));
		return r->name && r->parent && r->text ? 0 : -1;
	}
	a = t;
	while (a < e && (isalnum((unsigned char)*a) || *a == '_'))
		a++;
	if (a > t && a < e && *a == ':' && (a + 1 == e || a[1] == ' ') && !isdigit((unsigned char)*t)) {
		r->kind = IMP_EVENT;
		r->name = dup_n(t, (size_t)(a - t));
		b = a + 1 < e ? a + 2 : e;
		r->text = dup_n(b, (size_t)(e - b));
		return r->name && r->text ? 0 : -1;
	}
	r->kind = IMP_TEXT;
	r->text = dup_n(t, (size_t)(e - t));
	return r->text ? 0 : -1;
}

static int add_ctx_rec(struct imp_dump *d, const struct ctx *c, const char *t, const char *e,
		       unsigned long line)
{
	struct imp_rec *r = new_rec(d, line);

	if (!r)
		return -1;
	r->cpu = c->cpu;
	r->pid = c->pid;
	r->ts = c->ts;
	r->flags = c->flags;
	r->preempt = c->preempt;
	add_task(d, c->pid, c->comm);
	return classify(r, t, e);
}

/* " => func" lines of a stack trace record join the record before them. */
static int stack_line(struct imp_dump *d, const char *s, const char *e)
{
	struct imp_rec *r;
	size_t old, add;
	char *t;

	s = skip_sp(s, e);
	if (e - s < 3 || memcmp(s, "=> ", 3) || !d->nrecs)
		return 0;
	r = &d->recs[d->nrecs - 1];
	old = strlen(r->text);
	add = (size_t)(e - s);
	if (old + add + 2 > IMP_TEXT_MAX)
		return 1;	/* kept as far as a record holds */
	t = realloc(r->text, old + add + 2);
	if (!t)
		return -1;
	t[old] = '\n';
	memcpy(t + old + 1, s, add);
	t[old + 1 + add] = '\0';
	for (size_t i = old + 1; i < old + 1 + add; i++)
		if (!t[i])
			t[i] = '?';
	r->text = t;
	if (r->kind != IMP_TEXT) {
		/* A function line with a stack is no longer one record of its kind. */
		r->kind = IMP_TEXT;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* function_graph */

static struct imp_gcpu *gcpu(struct imp_dump *d, int cpu)
{
	struct imp_gcpu *g;

	for (int i = 0; i < d->ngcpus; i++)
		if (d->gcpus[i].cpu == cpu)
			return &d->gcpus[i];
	g = realloc(d->gcpus, (size_t)(d->ngcpus + 1) * sizeof(*g));
	if (!g)
		return NULL;
	d->gcpus = g;
	g = &d->gcpus[d->ngcpus++];
	memset(g, 0, sizeof(*g));
	g->cpu = cpu;
	g->pid = -1;
	g->first_unknown = SIZE_MAX;
	return g;
}

/* "comm-pid" alone (a banner side, the funcgraph-proc column). */
static bool comm_pid(const char *s, const char *e, char *comm, int *pid)
{
	const char *dash;
	uint64_t v;

	s = skip_sp(s, e);
	e = rtrim(s, e);
	for (dash = e; dash > s && dash[-1] != '-'; dash--)
		;
	if (dash <= s + 1)
		return false;
	{
		const char *p = dash;

		if (!digits(&p, e, &v, 10) || p != e || v > INT_MAX)
			return false;
	}
	snprintf(comm, IMP_COMM_LEN, "%.*s", (int)(dash - 1 - s), s);
	*pid = (int)v;
	return true;
}

static int banner(struct imp_dump *d, struct imp_gcpu *g, const char *s, const char *e,
		  const char *arrow)
{
	char from[IMP_COMM_LEN], to[IMP_COMM_LEN];
	int fpid, tpid;

	if (!comm_pid(s, arrow, from, &fpid) || !comm_pid(arrow + 2, e, to, &tpid))
		return 0;
	add_task(d, fpid, from);
	add_task(d, tpid, to);
	if (g->first_unknown != SIZE_MAX) {
		for (size_t i = g->first_unknown; i < d->nrecs; i++)
			if (d->recs[i].cpu == g->cpu && d->recs[i].pid == -1)
				d->recs[i].pid = fpid;
		g->first_unknown = SIZE_MAX;
	}
	g->pid = tpid;
	return 1;
}

/* "+ 16.474 us", "! 521.363 us", "" */
static int duration(const char *s, const char *e, uint64_t *ns, bool *has)
{
	uint64_t us, frac = 0;
	const char *f;

	s = skip_sp(s, e);
	e = rtrim(s, e);
	*has = false;
	if (s == e)
		return 1;
	if (in_set(*s, "+!#*@$"))
		s = skip_sp(s + 1, e);
	if (!digits(&s, e, &us, 12))
		return 0;
	if (s < e && *s == '.') {
		f = ++s;
		if (!digits(&s, e, &frac, 3))
			return 0;
		for (long k = s - f; k < 3; k++)
			frac *= 10;
	}
	s = skip_sp(s, e);
	if (e - s != 2 || memcmp(s, "us", 2))
		return 0;
	*ns = us * 1000 + frac;
	*has = true;
	return 1;
}

static void push(struct imp_gcpu *g, int depth, char *name, uint64_t ts)
{
	if (g->nstack == g->capstack) {
		int cap = g->capstack ? g->capstack * 2 : 16;
		void *p;

		if (cap > 4096)
			return;
		p = realloc(g->stack, (size_t)cap * sizeof(*g->stack));
		if (!p)
			return;
		g->stack = p;
		g->capstack = cap;
	}
	g->stack[g->nstack].depth = depth;
	g->stack[g->nstack].name = name;
	g->stack[g->nstack].ts = ts;
	g->nstack++;
}

/* The entry an exit at depth closes: the nearest one on the stack at that depth. */
static int pop(struct imp_gcpu *g, int depth, char **name, uint64_t *ts)
{
	while (g->nstack > 0) {
		g->nstack--;
		if (g->stack[g->nstack].depth == depth) {
			*name = g->stack[g->nstack].name;
			*ts = g->stack[g->nstack].ts;
			return 1;
		}
		if (g->stack[g->nstack].depth < depth) {
			g->nstack++;
			return 0;
		}
	}
	return 0;
}

struct gline {
	struct imp_gcpu *g;
	const char *dur_col;	/* where the duration column starts: a text record's text */
	uint64_t abs, dur;
	bool has_abs, has_dur;
	struct ctx c;
	bool has_proc, has_lat;
};

static struct imp_rec *graph_rec(struct imp_dump *d, struct gline *gl, unsigned long line)
{
	struct imp_rec *r = new_rec(d, line);

	if (!r)
		return NULL;
	r->cpu = gl->g->cpu;
	r->pid = gl->has_proc ? gl->c.pid : gl->g->pid;
	r->flags = gl->c.flags;
	r->preempt = gl->c.preempt;
	r->ts = gl->has_abs ? gl->abs : d->gclock;
	if (r->pid == -1 && gl->g->first_unknown == SIZE_MAX)
		gl->g->first_unknown = d->nrecs - 1;
	return r;
}

static void tick(struct imp_dump *d, uint64_t to)
{
	d->gclock = (to > d->gclock ? to : d->gclock) + 1;
}

/* The text after the '|': entry, leaf, exit, comment or other text. */
static int graph_text(struct imp_dump *d, struct gline *gl, const char *t, const char *e,
		      unsigned long line)
{
	const char *p = t, *s;
	struct imp_rec *r;
	int depth;

	while (p < e && *p == ' ')
		p++;
	depth = (int)((p - t) >= 2 ? (p - t - 2) / 2 : 0);
	e = rtrim(p, e);
	r = graph_rec(d, gl, line);
	if (!r)
		return -1;
	r->depth = depth;
	/* As text, the line keeps its duration: "+ 16.474 us   |    getname();". */
	r->text = gl->dur_col ? dup_n(skip_sp(gl->dur_col, e), (size_t)(e - skip_sp(gl->dur_col, e))) :
		  dup_n(t, (size_t)(e - t));
	if (!r->text)
		return -1;
	s = sym_end(p, e);
	if (s && e - s == 4 && !memcmp(s, "() {", 4)) {
		r->kind = IMP_GRAPH_ENTRY;
		r->name = dup_n(p, (size_t)(s - p));
		if (!r->name)
			return -1;
		push(gl->g, depth, r->name, r->ts);
		tick(d, r->ts);
		return 1;
	}
	if (s && e - s >= 3 && !memcmp(s, "();", 3) && (e - s == 3 || s[3] == ' ')) {
		r->kind = IMP_GRAPH_LEAF;
		r->name = dup_n(p, (size_t)(s - p));
		if (!r->name)
			return -1;
		r->calltime = r->ts;
		r->ts += gl->has_dur ? gl->dur : 0;
		tick(d, r->ts);
		return 1;
	}
	if (p < e && *p == '}') {
		char *name;
		uint64_t start;

		if (pop(gl->g, depth, &name, &start)) {
			r->kind = IMP_GRAPH_EXIT;
			r->name = strdup(name);
			if (!r->name)
				return -1;
			if (gl->has_abs) {
				r->calltime = gl->has_dur && r->ts > gl->dur ? r->ts - gl->dur : start;
			} else {
				r->calltime = start;
				if (gl->has_dur && start + gl->dur > r->ts)
					r->ts = start + gl->dur;
			}
		}
		tick(d, r->ts);
		return 1;
	}
	if (e - p >= 4 && !memcmp(p, "/*", 2) && !memcmp(e - 2, "*/", 2)) {
		/* An event or a trace_printk in the graph, as a C comment "name: text". */
		const char *in = skip_sp(p + 2, e - 2), *ie = rtrim(in, e - 2);

		free(r->text);
		r->text = NULL;
		if (classify(r, in, ie) < 0)
			return -1;
		if (r->kind == IMP_FUNC) {
			free(r->name);
			free(r->parent);
			r->name = r->parent = NULL;
			r->kind = IMP_TEXT;
		}
	}
	tick(d, r->ts);
	return 1;
}

/* The columns between "CPU)" and the text, each ending in '|'. */
static int graph_columns(struct gline *gl, const char **pp, const char *e)
{
	const char *p = *pp;

	for (int col = 0; col < 4; col++) {
		const char *bar = memchr(p, '|', (size_t)(e - p)), *s, *se;

		if (!bar)
			return 0;
		s = skip_sp(p, bar);
		se = rtrim(s, bar);
		if (duration(p, bar, &gl->dur, &gl->has_dur)) {
			gl->dur_col = p;
			*pp = bar + 1;
			return 1;
		}
		if (se - s >= 4 && se - s <= 6 && lat_flags(s, (size_t)(se - s), &gl->c)) {
			gl->has_lat = true;
			p = bar + 1;
			continue;
		}
		if (!gl->has_proc && comm_pid(s, se, gl->c.comm, &gl->c.pid)) {
			gl->has_proc = true;
			p = bar + 1;
			continue;
		}
		return 0;
	}
	return 0;
}

static int parse_graph(struct imp_dump *d, const char *s, const char *e, unsigned long line)
{
	struct gline gl = { 0 };
	const char *p = skip_sp(s, e), *q, *arrow;
	uint64_t cpu;

	/* funcgraph-abstime: "  123.456789 |  0) ..." */
	q = p;
	if (secs(&q, e, &gl.abs) && q < e && q[-1] != '.') {
		const char *b = skip_sp(q, e);

		if (b < e && *b == '|') {
			gl.has_abs = true;
			d->abstime = true;
			p = skip_sp(b + 1, e);
		}
	}
	if (!digits(&p, e, &cpu, 5) || p >= e || *p != ')' || cpu >= FTC_MAX_CPUS)
		return 0;
	p++;
	gl.g = gcpu(d, (int)cpu);
	if (!gl.g)
		return -1;
	d->graph = true;
	if (!memchr(p, '|', (size_t)(e - p))) {
		for (arrow = p; arrow + 1 < e; arrow++)
			if (arrow[0] == '=' && arrow[1] == '>')
				return banner(d, gl.g, p, e, arrow);
		return 0;
	}
	if (!graph_columns(&gl, &p, e)) {
		/* "==========> |" and "<========== |": an interrupt's edges. */
		struct imp_rec *r;

		if (!memmem(p, (size_t)(e - p), "=====", 5))
			return 0;
		r = graph_rec(d, &gl, line);
		if (!r || !(r->text = dup_n(skip_sp(p, e), (size_t)(rtrim(p, e) - skip_sp(p, e)))))
			return -1;
		tick(d, r->ts);
		return 1;
	}
	if (gl.has_proc)
		add_task(d, gl.c.pid, gl.c.comm);
	d->gproc |= gl.has_proc;
	d->glat |= gl.has_lat;
	return graph_text(d, &gl, p, e, line);
}

int ftc_imp_add_bad(struct imp_dump *d, const char *s, size_t len, unsigned long lineno)
{
	struct imp_bad *b;

	if (d->nbad == d->capbad) {
		size_t cap = d->capbad ? d->capbad * 2 : 16;

		b = realloc(d->bad, cap * sizeof(*b));
		if (!b)
			return ftc_error(ENOMEM, "out of memory");
		d->bad = b;
		d->capbad = cap;
	}
	b = &d->bad[d->nbad++];
	b->line = lineno;
	if (len > sizeof(b->text) - 1)
		len = sizeof(b->text) - 1;
	for (size_t i = 0; i < len; i++)
		b->text[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	b->text[len] = '\0';
	return 0;
}

static int add_hash_line(struct imp_dump *d, const char *s, const char *e)
{
	size_t old = d->hash_lines ? strlen(d->hash_lines) : 0, n = (size_t)(e - s);
	char *p;

	if (old + n > 16384)
		return 0;
	p = realloc(d->hash_lines, old + n + 2);
	if (!p)
		return -1;
	memcpy(p + old, s, n);
	p[old + n] = '\n';
	p[old + n + 1] = '\0';
	d->hash_lines = p;
	return 0;
}

static bool dashes(const char *s, const char *e)
{
	while (s < e && *s == '-')
		s++;
	return s == e;
}

/* 1: a record (or a line that belongs to one), 0: unparsable, -1: ENOMEM. */
int ftc_imp_parse_line(struct imp_dump *d, const char *s, size_t len, unsigned long lineno)
{
	const char *e = rtrim(s, s + len), *t, *b = skip_sp(s, e);
	struct ctx c = { .pid = -1 };
	int ret;

	if (b == e)
		return 1;	/* the blank line after a graph banner */
	if (*b == '#')
		return add_hash_line(d, b, e) < 0 ? -1 : 1;
	if (e - b == 21 && !memcmp(b, "(ftrace buffer empty)", 21)) {
		d->empty = true;
		return 1;
	}
	/* The graph's banner rule " ------------------------------------------". */
	if (e - b >= 10 && dashes(b, e))
		return 1;
	ret = parse_graph(d, s, e, lineno);
	if (ret)
		return ret;
	if (parse_ctx(d, s, e, &c, &t))
		return add_ctx_rec(d, &c, t, e, lineno) < 0 ? -1 : 1;
	return stack_line(d, s, e);
}
