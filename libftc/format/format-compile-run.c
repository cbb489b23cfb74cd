// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Compiled print formats run (format-compile.c builds them): a record's
 * room is worked out first, then each step writes into one buffer. Also
 * the per-event programs, kept by event id, and their counts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-format.h"
#include "opts.h"
#include "format.h"
#include "format-compile.h"

static unsigned long long load(const unsigned char *d, int off, int size)
{
	uint8_t b;
	uint16_t h;
	uint32_t w;
	uint64_t q;

	switch (size) {
	case 1: b = d[off]; return b;
	case 2: memcpy(&h, d + off, 2); return h;
	case 4: memcpy(&w, d + off, 4); return w;
	default: memcpy(&q, d + off, 8); return q;
	}
}

static unsigned long long bin(const char *op, unsigned long long l, unsigned long long r)
{
	switch (op[0]) {
	case '!': return op[1] ? l != r : !r;
	case '~': return ~r;
	case '|': return op[1] ? l || r : l | r;
	case '&': return op[1] ? l && r : l & r;
	/* x86-64 shifts by the count modulo 64, as libtraceevent's own code does. */
	case '<': return op[1] == '<' ? l << (r & 63) : op[1] == '=' ? l <= r : l < r;
	case '>': return op[1] == '>' ? l >> (r & 63) : op[1] == '=' ? l >= r : l > r;
	case '=': return l == r;
	case '-': return l - r;
	case '+': return l + r;
	default: return l * r;
	}
}

static unsigned long long eval(const struct xnode *x, const unsigned char *d)
{
	switch (x->op) {
	case X_CONST: return x->k;
	case X_FIELD: return load(d, x->off, x->size);
	case X_MASK: return eval(x->a, d) & x->k;
	case X_COND: return eval(x->a, d) ? eval(x->b, d) : eval(x->c, d);
	default: return bin(x->bop, x->a ? eval(x->a, d) : 0, eval(x->b, d));
	}
}

struct out {
	char *p, *end;
};

static char *utoa(char *end, unsigned long long v, int base, bool upper)
{
	const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";

	do {
		*--end = dig[v % (unsigned int)base];
		v /= (unsigned int)base;
	} while (v);
	return end;
}

/* Pads or not: the caller made room for width + len. */
static void put_padded(struct out *o, const char *s, size_t len, const struct step *st)
{
	size_t pad = st->width > (int)len ? (size_t)st->width - len : 0;

	if (!st->left) {
		memset(o->p, ' ', pad);
		o->p += pad;
	}
	memcpy(o->p, s, len);
	o->p += len;
	if (st->left) {
		memset(o->p, ' ', pad);
		o->p += pad;
	}
}

static void put_num(struct out *o, const struct step *st, unsigned long long v)
{
	char tmp[24], *end = tmp + sizeof(tmp), *s;
	bool neg = false;
	size_t len, pad;

	if (st->bits < 64) {
		unsigned long long m = (1ULL << st->bits) - 1, sign = 1ULL << (st->bits - 1);

		v &= m;
		if (st->is_signed && (v & sign)) {
			neg = true;
			v = (~v + 1) & m;
		}
	} else if (st->is_signed && (long long)v < 0) {
		neg = true;
		v = 0 - v;
	}
	s = utoa(end, v, st->base, st->upper);
	len = (size_t)(end - s) + neg;
	pad = st->width > (int)len ? (size_t)st->width - len : 0;
	if (!st->left && !st->zero) {
		memset(o->p, ' ', pad);
		o->p += pad;
	}
	if (neg)
		*o->p++ = '-';
	if (!st->left && st->zero) {
		memset(o->p, '0', pad);
		o->p += pad;
	}
	memcpy(o->p, s, (size_t)(end - s));
	o->p += end - s;
	if (st->left) {
		memset(o->p, ' ', pad);
		o->p += pad;
	}
}

static void put_hex0x(struct out *o, unsigned long long v)
{
	char tmp[24], *end = tmp + sizeof(tmp), *s = utoa(end, v, 16, false);

	memcpy(o->p, "0x", 2);
	memcpy(o->p + 2, s, (size_t)(end - s));
	o->p += 2 + (end - s);
}

/* Room for what a string node can print; -1: this record goes to libtraceevent. */
static long str_room(const struct snode *s, const unsigned char *d, int size, int width);

static void put_str(struct out *o, const struct snode *s, const unsigned char *d, int size,
		    const struct step *st)
{
	unsigned long long v;
	uint32_t loc;
	unsigned int off, len;
	bool any = false;

	switch (s->op) {
	case S_ATOM:
		put_padded(o, s->str, s->len, st);
		return;
	case S_ARRAY:
		len = s->size ? (unsigned int)s->size : (unsigned int)(size - s->off);
		put_padded(o, (const char *)d + s->off, strnlen((const char *)d + s->off, len), st);
		return;
	case S_DYN:
		loc = (uint32_t)load(d, s->off, s->size);
		off = loc & 0xffff;
		len = s->size == 2 ? (unsigned int)size - off : loc >> 16;
		if (off + len > (unsigned int)size || off > (unsigned int)size)
			len = 0;
		if (s->relative)
			off += (unsigned int)(s->off + s->size);
		/* An empty string prints nothing, not even its padding. */
		if (len)
			put_padded(o, (const char *)d + off, strlen((const char *)d + off), st);
		return;
	case S_COND:
		put_str(o, eval(s->x, d) ? s->t : s->f, d, size, st);
		return;
	case S_SYMBOL:
		v = eval(s->x, d);
		for (int i = 0; i < s->nsym; i++)
			if ((long long)v == s->sym[i].value) {
				put_padded(o, s->sym[i].str, s->sym[i].len, st);
				return;
			}
		put_hex0x(o, v);
		return;
	case S_FLAGS:
		v = eval(s->x, d);
		for (int i = 0; i < s->nsym; i++) {
			long long fv = s->sym[i].value;

			if (!v && fv < 0) {
				put_padded(o, s->sym[i].str, s->sym[i].len, st);
				break;
			}
			if (fv > 0 && (v & (unsigned long long)fv) == (unsigned long long)fv) {
				if (any && s->str) {
					memcpy(o->p, s->str, s->len);
					o->p += s->len;
				}
				put_padded(o, s->sym[i].str, s->sym[i].len, st);
				any = true;
				v &= ~(unsigned long long)fv;
			}
		}
		if (v) {
			if (any && s->str) {
				memcpy(o->p, s->str, s->len);
				o->p += s->len;
			}
			put_hex0x(o, v);
		}
		return;
	}
}

static long str_room(const struct snode *s, const unsigned char *d, int size, int width)
{
	uint32_t loc;
	unsigned int off, len;
	long n = 0, a, b;

	switch (s->op) {
	case S_ATOM:
		return (long)s->len + width;
	case S_ARRAY:
		return (s->size ? s->size : size - s->off) + width;
	case S_DYN:
		loc = (uint32_t)load(d, s->off, s->size);
		off = loc & 0xffff;
		if (off > (unsigned int)size)
			return -1;	/* libtraceevent's own edge cases: its own printing */
		if (s->relative)
			off += (unsigned int)(s->off + s->size);
		if (off > (unsigned int)size)
			return -1;
		/* The scratch copy is followed by zeros: a string ends by then. */
		len = (unsigned int)strnlen((const char *)d + off, STR_MAX);
		return len == STR_MAX ? -1 : (long)len + width;
	case S_COND:
		a = str_room(s->t, d, size, width);
		b = str_room(s->f, d, size, width);
		return a < 0 || b < 0 ? -1 : a > b ? a : b;
	default:
		for (int i = 0; i < s->nsym; i++)
			n += (long)s->sym[i].len + width + (long)s->len;
		return n + 24;
	}
}

/* What print_function() finds for addr, asked of libtraceevent once per address. */
static const struct func_slot *func_of(struct ftc_compiler *c, unsigned long long addr)
{
	struct func_slot *fs;
	unsigned long long h = addr * 0x9e3779b97f4a7c15ULL;

	if (!c->funcs) {
		c->funcs = calloc(FUNC_SLOTS, sizeof(*c->funcs));
		if (!c->funcs)
			return NULL;
	}
	fs = &c->funcs[(h >> 40) & (FUNC_SLOTS - 1)];
	if (fs->used && fs->addr == addr)
		return fs;
	fs->used = true;
	fs->addr = addr;
	if (!tep_find_function_info(c->tep, addr, &fs->name, &fs->start, NULL))
		fs->name = NULL;
	fs->len = fs->name ? strlen(fs->name) : 0;
	return fs;
}

static long func_room(struct ftc_compiler *c, const struct step *st, const unsigned char *d)
{
	const struct func_slot *fs = func_of(c, eval(st->x, d));

	if (!fs)
		return -1;
	return (long)fs->len + 24;
}

static void put_func(struct ftc_compiler *c, struct out *o, const struct step *st,
		     const unsigned char *d)
{
	unsigned long long v = eval(st->x, d);
	const struct func_slot *fs = func_of(c, v);

	if (!fs->name) {
		put_hex0x(o, v);
		return;
	}
	memcpy(o->p, fs->name, fs->len);
	o->p += fs->len;
	if (st->func_offset) {
		*o->p++ = '+';
		put_hex0x(o, v - fs->start);
	}
}

/* The kmem plugin's "(%s+0x%x) ": the offset as an int, no "+0x" without a name. */
static void put_call_site(struct ftc_compiler *c, struct out *o, const struct step *st,
			  const unsigned char *d)
{
	unsigned long long v = eval(st->x, d);
	const struct func_slot *fs = func_of(c, v);
	char tmp[12], *end = tmp + sizeof(tmp), *s;

	if (!fs->name)
		return;
	*o->p++ = '(';
	memcpy(o->p, fs->name, fs->len);
	o->p += fs->len;
	s = utoa(end, (unsigned int)(int)(v - fs->start), 16, false);
	memcpy(o->p, "+0x", 3);
	memcpy(o->p + 3, s, (size_t)(end - s));
	o->p += 3 + (end - s);
	memcpy(o->p, ") ", 2);
	o->p += 2;
}

static bool room(struct ftc_compiler *c, size_t need)
{
	char *b;

	if (need <= c->cap)
		return true;
	b = realloc(c->buf, need * 2);
	if (!b)
		return false;
	c->buf = b;
	c->cap = need * 2;
	return true;
}

/* The room the program's text needs for this record; -1: not this record. */
static long prog_room(struct ftc_compiler *c, const struct ftc_cprog *p,
		      const unsigned char *d, int size)
{
	long n = 0, s;

	for (int i = 0; i < p->nsteps; i++) {
		const struct step *st = &p->steps[i];

		switch (st->kind) {
		case K_LIT:
			n += (long)st->len;
			break;
		case K_STR:
			s = str_room(st->s, d, size, st->width);
			if (s < 0)
				return -1;
			n += s;
			break;
		case K_FUNC:
		case K_CALL_SITE:
			s = func_room(c, st, d);
			if (s < 0)
				return -1;
			n += s;
			break;
		default:
			n += 24 + st->width;
			break;
		}
	}
	return n;
}

/* The program's text after pre (a handler's), in c->buf. */
static int run(struct ftc_compiler *c, const struct ftc_cprog *p, struct tep_record *rec,
	       const char *pre, size_t pre_len)
{
	const unsigned char *d = rec->data;
	long need = prog_room(c, p, d, rec->size);
	struct out o;

	if (need < 0 || !room(c, (size_t)need + pre_len + 1))
		return -1;
	memcpy(c->buf, pre, pre_len);
	o.p = c->buf + pre_len;
	o.end = c->buf + c->cap;
	for (int i = 0; i < p->nsteps; i++) {
		const struct step *st = &p->steps[i];
		unsigned long long v;

		switch (st->kind) {
		case K_LIT:
			memcpy(o.p, st->lit, st->len);
			o.p += st->len;
			break;
		case K_NUM:
			put_num(&o, st, eval(st->x, d));
			break;
		case K_PTR:
			/* glibc's %p, which libtraceevent uses whatever the width. */
			v = eval(st->x, d);
			if (v) {
				put_hex0x(&o, v);
			} else {
				memcpy(o.p, "(nil)", 5);
				o.p += 5;
			}
			break;
		case K_STR:
			put_str(&o, st->s, d, rec->size, st);
			break;
		case K_FUNC:
			put_func(c, &o, st, d);
			break;
		case K_CALL_SITE:
			put_call_site(c, &o, st, d);
			break;
		}
	}
	*o.p = '\0';
	return (int)(o.p - c->buf);
}

/* The programs by event id, each made on its event's first record. */

/* Compiles the event again, keeping its counts. */
static void recompile(struct ftc_compiler *c, int id, bool host_order, bool pure)
{
	struct ftc_cprog *old = c->by_id[id], *p = ftc_cprog_compile(old->ev, host_order, pure);

	if (!p)
		return;
	p->tries = old->tries + 1;
	p->compiled = old->compiled;
	p->fallback = old->fallback;
	if (p->steps)
		p->why = "the first records, while libtraceevent looked a name up";
	ftc_cprog_free(old);
	c->by_id[id] = p;
}

static struct ftc_cprog *prog_of(struct ftc_format *f, struct tep_event *ev)
{
	struct ftc_compiler *c = f->compiler;
	int id = ev->id;
	bool pure;

	if (id < 0 || id > 0xffff)
		return NULL;
	if (id >= c->nids) {
		int n = id + 64;
		struct ftc_cprog **b = realloc(c->by_id, (size_t)n * sizeof(*b));

		if (!b)
			return NULL;
		memset(b + c->nids, 0, (size_t)(n - c->nids) * sizeof(*b));
		c->by_id = b;
		c->nids = n;
	}
	if (c->by_id[id] && (c->by_id[id]->steps || !c->by_id[id]->symbol_atom ||
			     c->by_id[id]->tries >= MAX_TRIES))
		return c->by_id[id]->ev == ev ? c->by_id[id] : NULL;
	pure = ev->handler && ftc_reader_handler_is_pure(f->r, ev);
	if (c->by_id[id] && c->by_id[id]->ev == ev)
		recompile(c, id, ftc_reader_host_order(f->r), pure);
	if (!c->by_id[id]) {
		c->by_id[id] = ftc_cprog_compile(ev, ftc_reader_host_order(f->r), pure);
		if (c->by_id[id])
			c->by_id[id]->tries = 1;
	}
	return c->by_id[id] && c->by_id[id]->ev == ev ? c->by_id[id] : NULL;
}

/* print_event_info()'s order: the handler, then the format if it returns non-zero. */
static int with_handler(struct ftc_compiler *c, const struct ftc_cprog *p,
			struct tep_record *rec, struct tep_event *ev)
{
	struct trace_seq *s = &c->hseq;
	int more;

	trace_seq_reset(s);
	more = ev->handler(s, rec, ev, ev->context);
	if (s->state != TRACE_SEQ__GOOD)
		return -1;
	if (more)
		return p->steps && rec->size >= p->min_size ?
		       run(c, p, rec, s->buffer, s->len) : -1;
	if (!room(c, (size_t)s->len + 1))
		return -1;
	memcpy(c->buf, s->buffer, s->len);
	c->buf[s->len] = '\0';
	return (int)s->len;
}

const char *ftc_compile_print(struct ftc_format *f, struct tep_record *rec,
			      struct tep_event *ev, int *len)
{
	struct ftc_cprog *p;
	int n;

	if (!f->compiler) {
		f->compiler = calloc(1, sizeof(*f->compiler));
		if (!f->compiler)
			return NULL;
		f->compiler->tep = f->r->tep;
		trace_seq_init(&f->compiler->hseq);
	}
	if (f->flags & FTC_FMT_NO_COMPILE)
		return NULL;
	p = prog_of(f, ev);
	if (!p)
		return NULL;
	if (p->handler)
		n = with_handler(f->compiler, p, rec, ev);
	else if (!p->steps || rec->size < p->min_size)
		n = -1;
	else
		n = run(f->compiler, p, rec, "", 0);
	if (n < 0) {
		p->fallback++;
		return NULL;
	}
	p->compiled++;
	*len = n;
	return f->compiler->buf;
}

int ftc_format_stats(const struct ftc_format *f, struct ftc_format_stats *out,
		     ftc_format_left_fn *each, void *arg)
{
	const struct ftc_compiler *c = f ? f->compiler : NULL;
	struct ftc_format_stats st = { .size = sizeof(st) };

	/* A size never set is refused before any callback runs. */
	if (FTC_SIZED_FILL(out, &st, ftc_format_stats) < 0)
		return -1;
	for (int i = 0; c && i < c->nids; i++) {
		const struct ftc_cprog *p = c->by_id[i];

		if (!p)
			continue;
		st.records_compiled += p->compiled;
		st.records_left += p->fallback;
		if (p->steps)
			st.events_compiled++;
		else
			st.events_left++;
		if (p->fallback && each)
			each(p->name ? p->name : "?", p->fallback,
			     p->why ? p->why : "record shorter than its fields or odd string", arg);
	}
	if (FTC_SIZED_FILL(out, &st, ftc_format_stats) < 0)
		return -1;
	return c ? 1 : 0;
}

void ftc_compile_free(struct ftc_format *f)
{
	struct ftc_compiler *c = f->compiler;

	if (!c)
		return;
	for (int i = 0; i < c->nids; i++)
		ftc_cprog_free(c->by_id[i]);
	free(c->by_id);
	free(c->funcs);
	free(c->buf);
	trace_seq_destroy(&c->hseq);
	free(c);
	f->compiler = NULL;
}
