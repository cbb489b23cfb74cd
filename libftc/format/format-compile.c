// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event print formats compiled once into small programs. libtraceevent
 * prints a record by walking its parsed format: a vsnprintf per field, a
 * strtoull per __print_symbolic entry, a strcmp per typecast, each time.
 * The same format is turned here, on an event's first record, into a list
 * of steps (literal text, a number with its width and base, a string, a
 * flag or symbol table with its values already converted) that print the
 * text libtraceevent 1.7 would, byte for byte. Function names (%pS) are
 * looked up once per address; pure plugin handlers (ftc's own) and the
 * kmem plugin's call_site are run as libtraceevent runs them. What a step
 * cannot express (%pM and other pointer extensions, "*" widths, "/" and
 * "%", variable indexes, __get_*() helpers, other handlers, bprint)
 * leaves the event to libtraceevent: ftc_compile_print() says NULL and
 * the caller prints as before.
 * FTC_FORMAT_TEP=1 turns compiling off; FTC_FORMAT_STATS=1 counts both
 * ways per event on stderr when the format is freed.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "format.h"

#define MAX_DEPTH	32	/* print args nest this deep in no real format */
#define MAX_TRIES	4	/* compiles of an event waiting for libtraceevent's symbol lookup */
#define STR_MAX		(FTC_SCRATCH_SLACK / 2)	/* a longer __get_str(): libtraceevent prints it */

enum xop { X_CONST, X_FIELD, X_MASK, X_BIN, X_COND };

/* A numeric expression: what eval_num_arg() computes, without lookups. */
struct xnode {
	enum xop op;
	char bop[3];
	int off, size;			/* X_FIELD */
	unsigned long long k;		/* X_CONST value, X_MASK mask */
	struct xnode *a, *b, *c;
};

enum sop { S_ATOM, S_ARRAY, S_DYN, S_FLAGS, S_SYMBOL, S_COND };

struct symbol {
	long long value;
	const char *str;
	size_t len;
};

/* A string argument: what print_str_arg() prints. */
struct snode {
	enum sop op;
	const char *str;		/* S_ATOM; S_FLAGS: the delimiter */
	size_t len;
	int off, size;			/* S_ARRAY (size 0: the rest), S_DYN: the data loc */
	bool relative;
	struct xnode *x;		/* S_FLAGS, S_SYMBOL, S_COND */
	int nsym;
	struct symbol *sym;
	struct snode *t, *f;		/* S_COND */
};

enum step_kind { K_LIT, K_NUM, K_STR, K_PTR, K_FUNC, K_CALL_SITE };

struct step {
	enum step_kind kind;
	const char *lit;		/* K_LIT */
	size_t len;
	struct xnode *x;		/* K_NUM, K_PTR */
	struct snode *s;		/* K_STR */
	int width;
	bool left, zero, is_signed;
	int bits, base;
	bool upper;
	bool func_offset;		/* K_FUNC: %pS/%pF (name+0x...), not %ps/%pf */
};

struct ftc_cprog {
	struct tep_event *ev;
	char *name;			/* system:event, for the statistics (tep may be gone) */
	int nsteps;
	struct step *steps;
	int min_size;			/* every fixed field read ends within this */
	const char *why;		/* not compiled: why (steps NULL) */
	bool symbol_atom;		/* a name libtraceevent has not turned into a number yet */
	bool handler;			/* a pure plugin handler prints first (ftc's own plugins) */
	int tries;			/* compiles of this event */
	unsigned long long compiled, fallback;
	/* Everything the program points at, freed together. */
	void **owned;
	int nowned, owned_cap;
};

#define FUNC_SLOTS	4096	/* kernel addresses named, direct-mapped */

struct func_slot {
	unsigned long long addr, start;
	const char *name;		/* NULL: not a function */
	size_t len;
	bool used;
};

struct ftc_compiler {
	struct tep_handle *tep;
	struct trace_seq hseq;		/* what a plugin handler printed */
	struct func_slot *funcs;
	struct ftc_cprog **by_id;
	int nids;
	bool off, stats;
	char *buf;
	size_t cap;
};

/* ------------------------------------------------------------------ */
/* Building */

static void *own(struct ftc_cprog *p, size_t n)
{
	void *m;

	if (p->nowned == p->owned_cap) {
		int cap = p->owned_cap ? p->owned_cap * 2 : 16;
		void **o = realloc(p->owned, (size_t)cap * sizeof(*o));

		if (!o)
			return NULL;
		p->owned = o;
		p->owned_cap = cap;
	}
	m = calloc(1, n);
	if (m)
		p->owned[p->nowned++] = m;
	return m;
}

static bool note_field(struct ftc_cprog *p, struct tep_format_field *fd, int size)
{
	if (!fd || fd->offset < 0 || size < 0 || fd->offset > 0xffff || size > 0xffff)
		return false;
	if (fd->offset + size > p->min_size)
		p->min_size = fd->offset + size;
	return true;
}

static struct tep_format_field *arg_field(struct tep_event *ev, struct tep_print_arg *a)
{
	if (!a->field.field && a->field.name)
		a->field.field = tep_find_any_field(ev, a->field.name);
	return a->field.field;
}

/* eval_type_str()'s result for a non-pointer cast: a mask, or all ones. */
static unsigned long long type_mask(const char *type)
{
	static const struct { const char *name; unsigned long long mask; } masks[] = {
		{ "u8", 0xff }, { "u16", 0xffff }, { "u32", 0xffffffff },
		{ "s8", 0xff }, { "s16", 0xffff }, { "s32", 0xffffffff },
		{ "char", 0xff }, { "short", 0xffff }, { "int", 0xffffffff },
	};
	size_t len = strlen(type);

	if (len < 2 || type[len - 1] == '*' || !strncmp(type, "struct", 6))
		return ~0ULL;
	if (!strcmp(type, "u64") || !strcmp(type, "s64"))
		return ~0ULL;
	if (!strncmp(type, "unsigned ", 9)) {
		type += 9;
		/* "unsigned u8" is not a type; only the plain C names follow. */
		for (size_t i = 6; i < sizeof(masks) / sizeof(masks[0]); i++)
			if (!strcmp(type, masks[i].name))
				return masks[i].mask;
		return ~0ULL;
	}
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++)
		if (!strcmp(type, masks[i].name))
			return masks[i].mask;
	return ~0ULL;
}

static bool known_op(const char *op)
{
	static const char *const ops[] = {
		"!", "!=", "~", "|", "||", "&", "&&", "<", "<<", "<=",
		">", ">>", ">=", "==", "-", "+", "*",
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

static struct xnode *compile_x(struct ftc_cprog *p, struct tep_print_arg *a, int depth);

/* REC->array[N]: one element, at an offset known now (N a constant). */
static struct xnode *compile_index(struct ftc_cprog *p, struct tep_print_arg *a, int depth)
{
	struct tep_print_arg *l = a->op.left, *r = a->op.right;
	struct tep_format_field *fd;
	unsigned long long i;
	struct xnode *x;

	if (!l || !r || l->type != TEP_PRINT_FIELD || r->type != TEP_PRINT_ATOM || !r->atom.atom ||
	    !isdigit((unsigned char)r->atom.atom[0]))
		return NULL;
	fd = arg_field(p->ev, l);
	i = strtoull(r->atom.atom, NULL, 0);
	if (!fd || (fd->elementsize != 1 && fd->elementsize != 2 && fd->elementsize != 4 &&
		    fd->elementsize != 8) || i > 0xffff)
		return NULL;
	x = own(p, sizeof(*x));
	if (!x)
		return NULL;
	x->op = X_FIELD;
	x->size = (int)fd->elementsize;
	x->off = fd->offset + (int)i * x->size;
	if (x->off < 0 || x->off > 0xffff)
		return NULL;
	if (x->off + x->size > p->min_size)
		p->min_size = x->off + x->size;
	return x;
}

static struct xnode *compile_op(struct ftc_cprog *p, struct tep_print_arg *a, int depth)
{
	struct xnode *x;

	if (!a->op.op)
		return NULL;
	if (!strcmp(a->op.op, "?")) {
		struct tep_print_arg *r = a->op.right;

		if (!r || r->type != TEP_PRINT_OP || !r->op.left || !r->op.right)
			return NULL;
		x = own(p, sizeof(*x));
		if (!x)
			return NULL;
		x->op = X_COND;
		x->a = compile_x(p, a->op.left, depth + 1);
		x->b = compile_x(p, r->op.left, depth + 1);
		x->c = compile_x(p, r->op.right, depth + 1);
		return x->a && x->b && x->c ? x : NULL;
	}
	if (!strcmp(a->op.op, "["))
		return compile_index(p, a, depth);
	if (strlen(a->op.op) > 2 || !known_op(a->op.op) || !a->op.right)
		return NULL;
	x = own(p, sizeof(*x));
	if (!x)
		return NULL;
	x->op = X_BIN;
	strcpy(x->bop, a->op.op);
	/* libtraceevent evaluates the left side of unary ! and ~ too (a NULL arg: 0). */
	x->a = a->op.left ? compile_x(p, a->op.left, depth + 1) : NULL;
	if (!x->a && a->op.left)
		return NULL;
	if (!x->a && strcmp(x->bop, "!") && strcmp(x->bop, "~"))
		return NULL;
	x->b = compile_x(p, a->op.right, depth + 1);
	return x->b ? x : NULL;
}

static struct xnode *compile_x(struct ftc_cprog *p, struct tep_print_arg *a, int depth)
{
	struct tep_format_field *fd;
	struct xnode *x;

	if (!a || depth > MAX_DEPTH)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_NULL:
	case TEP_PRINT_ATOM:
		x = own(p, sizeof(*x));
		if (!x)
			return NULL;
		x->op = X_CONST;
		if (a->type == TEP_PRINT_ATOM) {
			if (!a->atom.atom)
				return NULL;
			x->k = strtoull(a->atom.atom, NULL, 0);
			/*
			 * A name (vmemmap_base) is looked up by libtraceevent as it
			 * prints, which then writes the number in its place: the
			 * event is compiled again after a record or two.
			 */
			if (!x->k && !isdigit((unsigned char)a->atom.atom[0])) {
				p->symbol_atom = true;
				return NULL;
			}
		}
		return x;
	case TEP_PRINT_FIELD:
		fd = arg_field(p->ev, a);
		if (!fd || (fd->size != 1 && fd->size != 2 && fd->size != 4 && fd->size != 8) ||
		    !note_field(p, fd, fd->size))
			return NULL;
		x = own(p, sizeof(*x));
		if (!x)
			return NULL;
		x->op = X_FIELD;
		x->off = fd->offset;
		x->size = fd->size;
		return x;
	case TEP_PRINT_TYPE:
		if (!a->typecast.type)
			return NULL;
		x = own(p, sizeof(*x));
		if (!x)
			return NULL;
		x->op = X_MASK;
		x->k = type_mask(a->typecast.type);
		x->a = compile_x(p, a->typecast.item, depth + 1);
		return x->a ? x : NULL;
	case TEP_PRINT_OP:
		return compile_op(p, a, depth);
	default:
		return NULL;
	}
}

/* eval_flag(): a number, one of libtraceevent's few known names, or -1. */
static long long flag_value(const char *s)
{
	static const struct { const char *name; long long v; } names[] = {
		{ "HI_SOFTIRQ", 0 }, { "TIMER_SOFTIRQ", 1 }, { "NET_TX_SOFTIRQ", 2 },
		{ "NET_RX_SOFTIRQ", 3 }, { "BLOCK_SOFTIRQ", 4 }, { "IRQ_POLL_SOFTIRQ", 5 },
		{ "TASKLET_SOFTIRQ", 6 }, { "SCHED_SOFTIRQ", 7 }, { "HRTIMER_SOFTIRQ", 8 },
		{ "RCU_SOFTIRQ", 9 }, { "HRTIMER_NORESTART", 0 }, { "HRTIMER_RESTART", 1 },
	};

	if (isdigit((unsigned char)s[0]))
		return (long long)strtoull(s, NULL, 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].v;
	return -1LL;
}

static bool compile_syms(struct ftc_cprog *p, struct snode *s, struct tep_print_flag_sym *list)
{
	int n = 0;

	for (struct tep_print_flag_sym *f = list; f; f = f->next) {
		if (!f->value || !f->str)
			return false;
		n++;
	}
	s->sym = own(p, (size_t)(n ? n : 1) * sizeof(*s->sym));
	if (!s->sym)
		return false;
	s->nsym = n;
	n = 0;
	for (struct tep_print_flag_sym *f = list; f; f = f->next, n++) {
		s->sym[n].value = flag_value(f->value);
		s->sym[n].str = f->str;
		s->sym[n].len = strlen(f->str);
	}
	return true;
}

static struct snode *compile_s(struct ftc_cprog *p, struct tep_print_arg *a, int depth)
{
	struct tep_format_field *fd;
	const char *str;
	struct snode *s;
	char *copy;

	if (!a || depth > MAX_DEPTH)
		return NULL;
	s = own(p, sizeof(*s));
	if (!s)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_ATOM:
	case TEP_PRINT_BSTRING:
		s->op = S_ATOM;
		str = a->type == TEP_PRINT_ATOM ? a->atom.atom : a->string.string;
		if (!str)
			return NULL;
		/* A copy: libtraceevent rewrites an atom it looked up as a symbol. */
		s->len = strlen(str);
		copy = own(p, s->len + 1);
		if (!copy)
			return NULL;
		memcpy(copy, str, s->len);
		s->str = copy;
		return s;
	case TEP_PRINT_FIELD:
		fd = arg_field(p->ev, a);
		/* A long that is not an array is printed as a printk format's address. */
		if (!fd || (!(fd->flags & TEP_FIELD_IS_ARRAY) &&
			    fd->size == tep_get_long_size(p->ev->tep)))
			return NULL;
		if (!note_field(p, fd, fd->size))
			return NULL;
		s->op = S_ARRAY;
		s->off = fd->offset;
		s->size = fd->size;
		return s;
	case TEP_PRINT_STRING:
		fd = a->string.field;
		if (!fd && a->string.string)
			fd = tep_find_any_field(p->ev, a->string.string);
		if (!fd || (fd->size != 2 && fd->size != 4) || !note_field(p, fd, fd->size))
			return NULL;
		s->op = S_DYN;
		s->off = fd->offset;
		s->size = fd->size;
		s->relative = fd->flags & TEP_FIELD_IS_RELATIVE;
		return s;
	case TEP_PRINT_FLAGS:
		s->op = S_FLAGS;
		s->str = a->flags.delim;
		s->len = s->str ? strlen(s->str) : 0;
		s->x = compile_x(p, a->flags.field, depth + 1);
		return s->x && compile_syms(p, s, a->flags.flags) ? s : NULL;
	case TEP_PRINT_SYMBOL:
		s->op = S_SYMBOL;
		s->x = compile_x(p, a->symbol.field, depth + 1);
		return s->x && compile_syms(p, s, a->symbol.symbols) ? s : NULL;
	case TEP_PRINT_OP:
		if (!a->op.op || strcmp(a->op.op, "?") || !a->op.right ||
		    a->op.right->type != TEP_PRINT_OP)
			return NULL;
		s->op = S_COND;
		s->x = compile_x(p, a->op.left, depth + 1);
		s->t = compile_s(p, a->op.right->op.left, depth + 1);
		s->f = compile_s(p, a->op.right->op.right, depth + 1);
		return s->x && s->t && s->f ? s : NULL;
	default:
		return NULL;
	}
}

static struct step *add_step(struct ftc_cprog *p, int *cap)
{
	if (p->nsteps == *cap) {
		int n = *cap ? *cap * 2 : 8;
		struct step *s = realloc(p->steps, (size_t)n * sizeof(*s));

		if (!s)
			return NULL;
		p->steps = s;
		*cap = n;
	}
	memset(&p->steps[p->nsteps], 0, sizeof(p->steps[0]));
	return &p->steps[p->nsteps++];
}

static bool add_lit(struct ftc_cprog *p, int *cap, const char *s, size_t n)
{
	struct step *st;
	char *t;

	if (!n)
		return true;
	/* Two literals in a row (a ">c<" after text) become one. */
	if (p->nsteps && p->steps[p->nsteps - 1].kind == K_LIT) {
		struct step *prev = &p->steps[p->nsteps - 1];

		t = own(p, prev->len + n + 1);
		if (!t)
			return false;
		memcpy(t, prev->lit, prev->len);
		memcpy(t + prev->len, s, n);
		prev->lit = t;
		prev->len += n;
		return true;
	}
	st = add_step(p, cap);
	t = own(p, n + 1);
	if (!st || !t)
		return false;
	memcpy(t, s, n);
	st->kind = K_LIT;
	st->lit = t;
	st->len = n;
	return true;
}

/* Text up to the next conversion, with parse_arg_string()'s escapes. */
static const char *literal(struct ftc_cprog *p, int *cap, const char *fmt, bool *ok)
{
	char *t = own(p, strlen(fmt) + 1);
	size_t n = 0;

	if (!t) {
		*ok = false;
		return fmt;
	}
	for (; *fmt; fmt++) {
		if (*fmt == '\\') {
			fmt++;
			switch (*fmt) {
			case 'n': t[n++] = '\n'; break;
			case 't': t[n++] = '\t'; break;
			case 'r': t[n++] = '\r'; break;
			case '\0': *ok = false; return fmt;	/* libtraceevent reads on */
			default: t[n++] = *fmt; break;
			}
		} else if (*fmt == '%') {
			if (fmt[1] != '%')
				break;
			t[n++] = '%';
			fmt++;
		} else {
			t[n++] = *fmt;
		}
	}
	*ok = add_lit(p, cap, t, n);
	return fmt;
}

/*
 * One conversion, as parse_arg_format() splits it, then read the way
 * printf reads the piece libtraceevent passes it.
 */
static const char *conversion(struct ftc_cprog *p, int *cap, const char *fmt,
			      struct tep_print_arg **arg, bool *ok)
{
	const char *start = fmt++, *c;
	int ls = 0, h = 0, l = 0, other_len = 0;
	struct step st = { 0 };
	struct step *dst;
	char bad[3];

	*ok = false;
	for (; *fmt; fmt++) {
		switch (*fmt) {
		case 'h': ls--; h++; continue;
		case 'l': ls++; l++; continue;
		case 'L': ls = 2; other_len++; continue;
		case 'z': case 'Z': ls = 1; other_len++; continue;
		case '#': case '.': case '*':
			p->why = "'#', '.' or '*' in a conversion";
			return fmt;
		case '-': case '0' ... '9':
			continue;
		}
		break;
	}
	if (!*fmt) {
		p->why = "a conversion without its letter";
		return fmt;
	}
	if (!strchr("pduixXos", *fmt)) {
		/* libtraceevent prints ">c<" and keeps the argument for the next one. */
		bad[0] = '>';
		bad[1] = *fmt;
		bad[2] = '<';
		*ok = add_lit(p, cap, bad, 3);
		return fmt + 1;
	}
	if (!*arg) {
		p->why = "more conversions than arguments";
		return fmt;
	}
	/* printf's view of the piece: flags, then a width, then the length. */
	for (c = start + 1; *c == '-' || *c == '0'; c++) {
		st.left |= *c == '-';
		st.zero |= *c == '0';
	}
	for (; *c >= '0' && *c <= '9'; c++)
		st.width = st.width * 10 + (*c - '0');
	for (const char *m = c; m < fmt; m++)
		if (!strchr("hlLzZ", *m))
			st.width = -1;
	if (st.width < 0 || st.width > 4096) {
		p->why = "flags after the width, or a width over 4096";
		return fmt;
	}
	if (other_len + (h > 0) + (l > 0) > 1 || h > 2 || l > 2 || ls < -2 || ls > 2) {
		p->why = "mixed length modifiers";
		return fmt;
	}
	switch (*fmt) {
	case 'p':
		if (fmt[1] && strchr("FSfs", fmt[1])) {
			st.kind = K_FUNC;
			st.func_offset = fmt[1] == 'F' || fmt[1] == 'S';
			fmt++;
		} else if (fmt[1] && strchr("MmIiUh", fmt[1])) {
			p->why = "a %p extension (%pM, %pI, %pU, %ph)";
			return fmt;
		} else {
			st.kind = K_PTR;
		}
		if ((*arg)->type == TEP_PRINT_BSTRING) {
			p->why = "a string for %p";
			return fmt;
		}
		st.x = compile_x(p, *arg, 0);
		break;
	case 's':
		if (st.zero) {
			p->why = "'0' with %s";
			return fmt;
		}
		st.kind = K_STR;
		st.s = compile_s(p, *arg, 0);
		break;
	default:
		st.kind = K_NUM;
		st.bits = ls <= -2 ? 8 : ls == -1 ? 16 : ls == 0 ? 32 : 64;
		st.is_signed = *fmt == 'd' || *fmt == 'i';
		st.base = *fmt == 'o' ? 8 : (*fmt == 'x' || *fmt == 'X') ? 16 : 10;
		st.upper = *fmt == 'X';
		st.x = compile_x(p, *arg, 0);
		break;
	}
	if (!st.x && !st.s) {
		if (!p->why)
			p->why = "an argument the compiler does not handle";
		return fmt;
	}
	dst = add_step(p, cap);
	if (!dst)
		return fmt;
	*dst = st;
	*arg = (*arg)->next;
	*ok = true;
	return fmt + 1;
}

/*
 * libtraceevent's kmem plugin prints "(FUNC+0xOFF) " for call_site, when
 * the address names a function, before the event's own format: that
 * handler, known by the file it lives in, is compiled as one more step.
 */
static bool kmem_call_site(struct tep_event *ev)
{
	static const char *const names[] = {
		"kfree", "kmalloc", "kmalloc_node", "kmem_cache_alloc",
		"kmem_cache_alloc_node", "kmem_cache_free",
	};
	struct tep_format_field *fd;
	const char *base;
	Dl_info info;
	bool known = false;

	if (!ev->system || strcmp(ev->system, "kmem") || !ev->name)
		return false;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		known |= !strcmp(ev->name, names[i]);
	if (!known || !dladdr((void *)ev->handler, &info) || !info.dli_fname)
		return false;
	base = strrchr(info.dli_fname, '/');
	base = base ? base + 1 : info.dli_fname;
	fd = tep_find_field(ev, "call_site");
	return !strcmp(base, "plugin_kmem.so") && fd &&
	       (fd->size == 1 || fd->size == 2 || fd->size == 4 || fd->size == 8);
}

static bool add_call_site(struct ftc_cprog *p, int *cap)
{
	struct tep_format_field *fd = tep_find_field(p->ev, "call_site");
	struct step *st;
	struct xnode *x;

	if (!note_field(p, fd, fd->size))
		return false;
	st = add_step(p, cap);
	x = own(p, sizeof(*x));
	if (!st || !x)
		return false;
	x->op = X_FIELD;
	x->off = fd->offset;
	x->size = fd->size;
	st->kind = K_CALL_SITE;
	st->x = x;
	return true;
}

static const char *unsupported(struct tep_event *ev, bool host_order, bool pure)
{
	if (!host_order)
		return "the file's byte order is not the host's";
	if (ev->flags & TEP_EVENT_FL_FAILED)
		return "libtraceevent could not parse the format";
	if (ev->flags & (TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_PRINTRAW))
		return "bprint or raw event";
	if (ev->handler && !(ev->flags & TEP_EVENT_FL_NOHANDLE) && !pure && !kmem_call_site(ev))
		return "a plugin handler prints it (one that registers comms, or not known)";
	if (!ev->print_fmt.format)
		return "no print format";
	return NULL;
}

static struct ftc_cprog *compile(struct tep_event *ev, bool host_order, bool pure)
{
	struct ftc_cprog *p = calloc(1, sizeof(*p));
	struct tep_print_arg *arg;
	const char *fmt;
	int cap = 0;
	bool ok = true;

	if (!p)
		return NULL;
	p->ev = ev;
	if (asprintf(&p->name, "%s:%s", ev->system, ev->name) < 0)
		p->name = NULL;
	p->why = unsupported(ev, host_order, pure);
	if (p->why)
		return p;
	/*
	 * A pure handler (its text a function of the record) is called as
	 * libtraceevent would call it; the print format follows when it asks.
	 */
	p->handler = ev->handler && !(ev->flags & TEP_EVENT_FL_NOHANDLE) && pure;
	arg = ev->print_fmt.args;
	fmt = ev->print_fmt.format;
	if (ev->handler && !(ev->flags & TEP_EVENT_FL_NOHANDLE) && !p->handler)
		ok = add_call_site(p, &cap);
	while (*fmt && ok) {
		if (*fmt == '%' && fmt[1] != '%')
			fmt = conversion(p, &cap, fmt, &arg, &ok);
		else
			fmt = literal(p, &cap, fmt, &ok);
	}
	if (!ok) {
		if (!p->why)
			p->why = "out of memory or a format that ends in '\\'";
		free(p->steps);
		p->steps = NULL;
		p->nsteps = 0;
	}
	return p;
}

/* ------------------------------------------------------------------ */
/* Running */

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

/* ------------------------------------------------------------------ */

static void prog_free(struct ftc_cprog *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nowned; i++)
		free(p->owned[i]);
	free(p->owned);
	free(p->name);
	free(p->steps);
	free(p);
}

/* Compiles the event again, keeping its counts. */
static void recompile(struct ftc_compiler *c, int id, bool host_order, bool pure)
{
	struct ftc_cprog *old = c->by_id[id], *p = compile(old->ev, host_order, pure);

	if (!p)
		return;
	p->tries = old->tries + 1;
	p->compiled = old->compiled;
	p->fallback = old->fallback;
	if (p->steps)
		p->why = "the first records, while libtraceevent looked a name up";
	prog_free(old);
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
		c->by_id[id] = compile(ev, ftc_reader_host_order(f->r), pure);
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

static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
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
		f->compiler->off = env_on("FTC_FORMAT_TEP");
		f->compiler->stats = env_on("FTC_FORMAT_STATS");
	}
	if (f->compiler->off)
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

static void print_stats(struct ftc_compiler *c)
{
	unsigned long long comp = 0, fb = 0;
	int ncomp = 0, nfb = 0;

	for (int i = 0; i < c->nids; i++) {
		struct ftc_cprog *p = c->by_id[i];

		if (!p)
			continue;
		comp += p->compiled;
		fb += p->fallback;
		if (p->steps)
			ncomp++;
		else
			nfb++;
		if (p->fallback)
			fprintf(stderr, "ftc format: %s: %llu records by libtraceevent: %s\n",
				p->name ? p->name : "?", p->fallback,
				p->why ? p->why : "record shorter than its fields or odd string");
	}
	fprintf(stderr, "ftc format: %d events compiled, %d left to libtraceevent; "
		"%llu records compiled, %llu by libtraceevent\n", ncomp, nfb, comp, fb);
}

void ftc_compile_free(struct ftc_format *f)
{
	struct ftc_compiler *c = f->compiler;

	if (!c)
		return;
	if (c->stats)
		print_stats(c);
	for (int i = 0; i < c->nids; i++)
		prog_free(c->by_id[i]);
	free(c->by_id);
	free(c->funcs);
	free(c->buf);
	trace_seq_destroy(&c->hseq);
	free(c);
	f->compiler = NULL;
}
