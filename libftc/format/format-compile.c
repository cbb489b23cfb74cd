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
 * FTC_FMT_NO_COMPILE turns compiling off; ftc_format_stats() counts both
 * ways per event (ftc reads FTC_FORMAT_TEP and FTC_FORMAT_STATS for them).
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
#include "format-compile.h"

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

struct ftc_cprog *ftc_cprog_compile(struct tep_event *ev, bool host_order, bool pure)
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
	p->handler = ev->handler && !(ev->flags & TEP_EVENT_FL_NOHANDLE) && pure &&
		     !kmem_call_site(ev);	/* pure too, but compiled below */
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

void ftc_cprog_free(struct ftc_cprog *p)
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
