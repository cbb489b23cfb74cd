// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The event filter grammar ftc accepts (ftc-filter.h), a subset of what
 * libtraceevent's parser takes without crashing or guessing:
 *
 *   filter := events [ ':' expr ]
 *   events := name { ',' name }       name: sys/event, sys:event or one name
 *   expr   := term { ( '&&' | '||' ) term }   (left to right, as libtraceevent)
 *   term   := { '!' } ( '(' expr ')' | cond )
 *   cond   := FIELD cmp value | FIELD bitop operand
 *   cmp    := == != < <= > >= =~ !~
 *   bitop  := & | ^ + - * / % << >>      (the result is tested for non-zero)
 *
 * libtraceevent dereferences NULL on a comparison without its value, reads
 * a field on the right of a comparison as a garbage type, turns a
 * one-letter '...' string into a pointer's value and takes an unknown
 * field as false: each is refused here with the place it goes wrong.
 */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc-filter.h"

#define MAX_DEPTH 64	/* parentheses; libtraceevent recurses too */

enum tok_kind { T_END, T_NAME, T_NUM, T_STR, T_LPAREN, T_RPAREN, T_OP };

struct tok {
	enum tok_kind kind;
	size_t pos, len;	/* in the text; a string's quotes included */
	char op[3];
	bool single;		/* a '...' string */
};

struct parser {
	const char *text;
	size_t at;
	struct tok t;
	ftc_filter_field_fn field;
	void *ctx;
	struct ftc_filter_error *err;
	int depth;
	char *unknown;		/* the first field no event has */
	size_t unknown_pos;
	size_t prev_end;	/* where the token before t ended */
	char *out;		/* the expression for libtraceevent */
	size_t len, cap;
	bool oom;
};

static void emit(struct parser *p, const char *s, size_t n)
{
	if (p->len + n + 1 > p->cap) {
		size_t cap = (p->len + n + 1) * 2;
		char *o = realloc(p->out, cap);

		if (!o) {
			p->oom = true;
			return;
		}
		p->out = o;
		p->cap = cap;
	}
	memcpy(p->out + p->len, s, n);
	p->len += n;
	p->out[p->len] = '\0';
}

static int fail_at(struct ftc_filter_error *err, size_t pos, int status, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail_at(struct ftc_filter_error *err, size_t pos, int status, const char *fmt, ...)
{
	va_list ap;

	err->pos = pos;
	err->status = status;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_name_char(int c)
{
	return isalnum(c) || c == '_';
}

/* The operators libtraceevent knows, longest first. */
static const char *const ops[] = {
	"&&", "||", "==", "!=", "<=", ">=", "=~", "!~", "<<", ">>",
	"<", ">", "!", "&", "|", "^", "+", "-", "*", "/", "%", "~", "=",
};

static int lex_string(struct parser *p, struct tok *t)
{
	const char *s = p->text;
	size_t i = t->pos;
	char q = s[i];

	t->single = q == '\'';
	for (;;) {
		for (i++; s[i] && s[i] != q; i++) {
			/* libtraceevent never ends a string at a quote after a
			 * backslash, "\\" or not, and keeps the backslash */
			if (s[i] == '\\' && s[i + 1] == q)
				return fail_at(p->err, i, 2, "a string cannot hold its own quote: put a %c between %c quotes",
					       q, q == '"' ? '\'' : '"');
			if (!isprint((unsigned char)s[i]))
				return fail_at(p->err, i, 2, "a string holds only printable characters");
			/* libtraceevent cuts its event list at every ',' of the text */
			if (s[i] == ',')
				return fail_at(p->err, i, 2, "a ',' cannot be in a filter's string (libtraceevent takes it for the event list's)");
		}
		if (!s[i])
			return fail_at(p->err, t->pos, 2, "this string has no closing %c", q);
		i++;
		/* libtraceevent joins "a" "b" as C does */
		if (q != '"')
			break;
		size_t j = i;

		while (isspace((unsigned char)s[j]))
			j++;
		if (s[j] != '"')
			break;
		i = j;
	}
	t->kind = T_STR;
	t->len = i - t->pos;
	return 0;
}

static int lex(struct parser *p)
{
	const char *s = p->text;
	struct tok *t = &p->t;
	unsigned char c;

	p->prev_end = t->pos + t->len;
	while (isspace((unsigned char)s[p->at]))
		p->at++;
	memset(t, 0, sizeof(*t));
	t->pos = p->at;
	c = (unsigned char)s[p->at];
	if (!c) {
		t->kind = T_END;
		return 0;
	}
	if (is_name_char(c)) {
		while (is_name_char((unsigned char)s[p->at + t->len]))
			t->len++;
		t->kind = isdigit(c) ? T_NUM : T_NAME;
	} else if (c == '"' || c == '\'') {
		if (lex_string(p, t) < 0)
			return -1;
	} else if (c == '(' || c == ')') {
		t->kind = c == '(' ? T_LPAREN : T_RPAREN;
		t->len = 1;
	} else {
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if (!strncmp(s + p->at, ops[i], strlen(ops[i]))) {
				t->kind = T_OP;
				t->len = strlen(ops[i]);
				memcpy(t->op, ops[i], t->len);
				break;
			}
		if (t->kind != T_OP) {
			if (!isprint(c))
				return fail_at(p->err, p->at, 2, "a control character or a non-ASCII byte");
			return fail_at(p->err, p->at, 2, "'%c' is not an operator of a filter", c);
		}
	}
	p->at += t->len;
	return 0;
}

static bool is_op(const struct tok *t, const char *op)
{
	return t->kind == T_OP && !strcmp(t->op, op);
}

static bool is_cmp(const struct tok *t)
{
	static const char *const cmps[] = { "==", "!=", "<", "<=", ">", ">=", "=~", "!~" };

	for (size_t i = 0; t->kind == T_OP && i < sizeof(cmps) / sizeof(cmps[0]); i++)
		if (!strcmp(t->op, cmps[i]))
			return true;
	return false;
}

static bool is_bitop(const struct tok *t)
{
	static const char *const bops[] = { "&", "|", "^", "+", "-", "*", "/", "%", "<<", ">>" };

	for (size_t i = 0; t->kind == T_OP && i < sizeof(bops) / sizeof(bops[0]); i++)
		if (!strcmp(t->op, bops[i]))
			return true;
	return false;
}

/* The token's text, for messages and lookups. */
static char *tok_text(const struct parser *p, const struct tok *t)
{
	return strndup(p->text + t->pos, t->len);
}

/* A number as libtraceevent's strtoull(.., 0) reads it, but whole. */
static int number(struct parser *p, unsigned long long *v)
{
	char *s = tok_text(p, &p->t), *end;
	int ret = 0;

	if (!s)
		return fail_at(p->err, p->t.pos, 1, "out of memory");
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (*end || errno)
		ret = fail_at(p->err, p->t.pos, 2, "'%s' is not a number (decimal, 0x hex or 0 octal, below 2^64)", s);
	free(s);
	return ret;
}

/* The string's value without its quotes, as libtraceevent keeps it. */
static char *string_value(const struct parser *p, const struct tok *t)
{
	const char *s = p->text + t->pos;
	char *v = malloc(t->len + 1), *o = v;
	char q = *s;

	if (!v)
		return NULL;
	for (size_t i = 1; i < t->len; i++) {
		if (s[i] == q) {	/* the end, or a "..." "..." join */
			while (i + 1 < t->len && s[i + 1] != q)
				i++;
			i++;
			continue;
		}
		*o++ = s[i];
	}
	*o = '\0';
	return v;
}

static const char *type_name(enum ftc_filter_type ty)
{
	return ty == FTC_FILTER_STR ? " (a string)" : ty == FTC_FILTER_NUM ? " (a number)" : "";
}

/* A field no event has is refused once the syntax is known good: a
 * half-typed filter is a usage error first. */
static enum ftc_filter_type lookup(struct parser *p, const char *name, size_t pos)
{
	enum ftc_filter_type ty = p->field(p->ctx, name);

	if (ty == FTC_FILTER_UNKNOWN && !p->unknown) {
		p->unknown = strdup(name);
		p->unknown_pos = pos;
		p->oom |= !p->unknown;
	}
	return ty;
}

static int string_value_check(struct parser *p, const char *field, enum ftc_filter_type ty,
			      const char *cmp)
{
	bool regex = !strcmp(cmp, "=~") || !strcmp(cmp, "!~");
	struct tok *t = &p->t;
	char *v;
	int ret = 0;

	if (ty == FTC_FILTER_NUM)
		return fail_at(p->err, t->pos, 2, "field '%s' is a number: compare it with a number, not a string",
			       field);
	if (!regex && strcmp(cmp, "==") && strcmp(cmp, "!="))
		return fail_at(p->err, t->pos, 2, "a string compares only with ==, != or the regular expressions =~ and !~");
	v = string_value(p, t);
	if (!v)
		return fail_at(p->err, t->pos, 1, "out of memory");
	/* libtraceevent reads 'x' as a character code, and that wrongly */
	if (t->single && strlen(v) == 1 && !regex)
		ret = fail_at(p->err, t->pos, 2, "a one-character string in single quotes is not a string there: use \"%s\"",
			      v);
	if (!ret && regex) {
		regex_t re;
		int rc = regcomp(&re, v, REG_ICASE | REG_NOSUB);

		if (rc) {
			char why[96];

			regerror(rc, &re, why, sizeof(why));
			ret = fail_at(p->err, t->pos, 2, "not a regular expression: %s", why);
		} else {
			regfree(&re);
		}
	}
	free(v);
	return ret;
}

static const char *const value_hint = "a number or a quoted string";

/* The value after FIELD CMP. */
static int value(struct parser *p, const char *field, enum ftc_filter_type ty, const char *cmp)
{
	bool regex = !strcmp(cmp, "=~") || !strcmp(cmp, "!~");
	unsigned long long v;

	switch (p->t.kind) {
	case T_STR:
		if (string_value_check(p, field, ty, cmp) < 0)
			return -1;
		break;
	case T_NUM:
		if (number(p, &v) < 0)
			return -1;
		if (regex)
			return fail_at(p->err, p->t.pos, 2, "%s takes a regular expression in quotes", cmp);
		if (ty == FTC_FILTER_STR)
			return fail_at(p->err, p->t.pos, 2, "field '%s' is a string: compare it with a quoted string",
				       field);
		break;
	case T_NAME:
		return fail_at(p->err, p->t.pos, 2, "expected %s: a field is not taken on the right of %s",
			       regex ? "a quoted regular expression" : value_hint, cmp);
	case T_OP:
		if (is_op(&p->t, "-"))
			return fail_at(p->err, p->t.pos, 2, "expected %s (a negative number is not taken)",
				       value_hint);
		/* fall through */
	default:
		return fail_at(p->err, p->t.pos, 2, "expected %s after %s",
			       regex ? "a quoted regular expression" : value_hint, cmp);
	}
	return lex(p);
}

/* The operand after FIELD BITOP: a number or a numeric field. */
static int bit_operand(struct parser *p, const char *op)
{
	unsigned long long v;
	enum ftc_filter_type ty;
	char *name;

	if (p->t.kind == T_NUM) {
		if (number(p, &v) < 0)
			return -1;
		if (!v && (!strcmp(op, "/") || !strcmp(op, "%")))
			return fail_at(p->err, p->t.pos, 2, "a division by zero");
		if (v > 63 && (!strcmp(op, "<<") || !strcmp(op, ">>")))
			return fail_at(p->err, p->t.pos, 2, "a shift by more than 63 bits");
		return lex(p);
	}
	if (p->t.kind != T_NAME)
		return fail_at(p->err, p->t.pos, 2, "expected a number after %s", op);
	/* libtraceevent divides without a check: a field may hold 0 */
	if (!strcmp(op, "/") || !strcmp(op, "%"))
		return fail_at(p->err, p->t.pos, 2, "%s takes a number (not zero), not a field", op);
	name = tok_text(p, &p->t);
	if (!name)
		return fail_at(p->err, p->t.pos, 1, "out of memory");
	ty = lookup(p, name, p->t.pos);
	if (ty == FTC_FILTER_STR)
		fail_at(p->err, p->t.pos, 2, "field '%s' is a string: %s takes numbers", name, op);
	free(name);
	if (ty == FTC_FILTER_STR)
		return -1;
	return lex(p);
}

/* A condition, copied as typed; negated with libtraceevent's "!" before a
 * single condition, the one form of its negation that frees what it
 * parsed (after "!(" it leaks the parenthesis). */
static int cond(struct parser *p, bool neg)
{
	enum ftc_filter_type ty;
	char op[3], *field;
	size_t start = p->t.pos;
	int ret;

	if (p->t.kind != T_NAME)
		return fail_at(p->err, p->t.pos, 2, "expected a field name%s",
			       p->t.kind == T_END ? ", '(' or '!'" : "");
	field = tok_text(p, &p->t);
	if (!field)
		return fail_at(p->err, p->t.pos, 1, "out of memory");
	ty = lookup(p, field, p->t.pos);
	ret = lex(p);
	if (ret < 0)
		goto out;
	memcpy(op, p->t.op, sizeof(op));
	if (is_op(&p->t, "~")) {
		ret = fail_at(p->err, p->t.pos, 2, "'~' (the kernel's glob) is not taken here: use =~ with a regular expression, e.g. =~ \"^bash\"");
	} else if (is_cmp(&p->t)) {
		ret = lex(p);
		if (!ret)
			ret = value(p, field, ty, op);
	} else if (is_bitop(&p->t)) {
		if (ty == FTC_FILTER_STR)
			ret = fail_at(p->err, p->t.pos, 2, "field '%s' is a string: %s takes numbers", field, op);
		else
			ret = lex(p);
		if (!ret)
			ret = bit_operand(p, op);
	} else {
		ret = fail_at(p->err, p->t.pos, 2, "expected a comparison after '%s'%s: %s==, !=, <, <=, >, >=%s",
			      field, type_name(ty), is_op(&p->t, "=") ? "'=' is not one; " : "",
			      ty == FTC_FILTER_NUM ? ", &" : ty == FTC_FILTER_STR ? ", =~, !~" : ", =~, !~, &");
	}
out:
	free(field);
	if (!ret) {
		if (neg)
			emit(p, "!", 1);
		emit(p, p->text + start, p->prev_end - start);
	}
	return ret;
}

static int expr(struct parser *p, bool neg);

static int group(struct parser *p, bool neg)
{
	size_t open = p->t.pos;

	if (++p->depth > MAX_DEPTH)
		return fail_at(p->err, open, 2, "parentheses nest deeper than %d", MAX_DEPTH);
	emit(p, "(", 1);
	if (lex(p) < 0 || expr(p, neg) < 0)
		return -1;
	if (p->t.kind != T_RPAREN)
		return fail_at(p->err, p->t.pos, 2, "expected ')' to close the '(' at column %zu%s",
			       open + 1, p->t.kind == T_END ? "" : ", or && or ||");
	p->depth--;
	emit(p, ")", 1);
	return lex(p);
}

static int term(struct parser *p, bool neg)
{
	while (is_op(&p->t, "!")) {
		neg = !neg;
		if (lex(p) < 0)
			return -1;
	}
	return p->t.kind == T_LPAREN ? group(p, neg) : cond(p, neg);
}

/*
 * libtraceevent joins terms from left to right, so a negated expression is
 * the same chain with each term negated and && and || swapped (De Morgan):
 * !(a && b || c) is written (!a || !b && !c).
 */
static int expr(struct parser *p, bool neg)
{
	if (term(p, neg) < 0)
		return -1;
	while (is_op(&p->t, "&&") || is_op(&p->t, "||")) {
		bool and = is_op(&p->t, "&&");

		emit(p, and != neg ? " && " : " || ", 4);
		if (lex(p) < 0 || term(p, neg) < 0)
			return -1;
	}
	if (p->t.kind == T_END || (p->t.kind == T_RPAREN && p->depth))
		return 0;
	if (p->t.kind == T_RPAREN)
		return fail_at(p->err, p->t.pos, 2, "this ')' closes no '('");
	return fail_at(p->err, p->t.pos, 2, "expected && or ||%s", p->depth ? " or ')'" : " or the end");
}

int ftc_filter_check(const char *text, struct ftc_filter_head *h,
		     ftc_filter_field_fn field, void *ctx, struct ftc_filter_error *err)
{
	struct parser p = { .text = text, .at = h->expr, .field = field, .ctx = ctx, .err = err };
	int ret;

	if (!h->has_expr)
		return 0;
	if (lex(&p) < 0)
		return -1;
	if (p.t.kind == T_END)
		return fail_at(err, p.t.pos, 2, "expected a filter after ':' (e.g. prev_pid == 0)");
	ret = expr(&p, false);
	if (!ret && p.unknown)
		ret = fail_at(err, p.unknown_pos, 3, "no selected event has a field '%s'", p.unknown);
	if (!ret && (p.oom || !p.out))
		ret = fail_at(err, h->expr, 1, "out of memory");
	free(p.unknown);
	if (ret) {
		free(p.out);
		return ret;
	}
	free(h->tep_expr);
	h->tep_expr = p.out;
	return 0;
}

static char *trim_dup(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return strndup(s, len);
}

/* A name of the event list, as libtraceevent matches it: "^name$". */
static int name_check(const char *name, size_t pos, struct ftc_filter_error *err)
{
	regex_t re;
	char *anch;
	int rc;

	if (!*name)
		return fail_at(err, pos, 2, "expected an event name (EVENT, SYSTEM/EVENT or SYSTEM:EVENT)");
	for (const char *c = name; *c; c++)
		if (!isprint((unsigned char)*c) || *c == '"' || *c == '\'')
			return fail_at(err, pos + (size_t)(c - name), 2, "not a character of an event name");
	if (asprintf(&anch, "^%s$", name) < 0)
		return fail_at(err, pos, 1, "out of memory");
	rc = regcomp(&re, anch, REG_ICASE | REG_NOSUB);
	free(anch);
	if (rc)
		return fail_at(err, pos, 2, "an event name is a regular expression, and this one is not");
	regfree(&re);
	return 0;
}

/* One name: [sys SEP] event, SEP '/' or ':'. */
static int split_one(const char *s, size_t len, size_t pos, struct ftc_filter_event *ev,
		     struct ftc_filter_error *err)
{
	size_t sep = strcspn(s, "/:");
	size_t lead = 0;

	while (lead < len && isspace((unsigned char)s[lead]))
		lead++;
	if (sep < len) {
		if (memchr(s + sep + 1, '/', len - sep - 1) || memchr(s + sep + 1, ':', len - sep - 1))
			return fail_at(err, pos + sep + 1 + strcspn(s + sep + 1, "/:"), 2,
				       "an event is SYSTEM/EVENT or SYSTEM:EVENT, with one separator");
		ev->sys = trim_dup(s, sep);
		ev->name = trim_dup(s + sep + 1, len - sep - 1);
	} else {
		ev->name = trim_dup(s, len);
	}
	ev->pos = pos + lead;
	if (!ev->name || (sep < len && !ev->sys))
		return fail_at(err, pos, 1, "out of memory");
	if (ev->sys && name_check(ev->sys, pos + lead, err) < 0)
		return -1;
	return name_check(ev->name, sep < len ? pos + sep + 1 : pos + lead, err);
}

/* The expression starts after the last ':' outside quotes: an event list
 * holds no quote, an expression no ':' but in a string. */
static size_t expr_start(const char *text, bool *has)
{
	size_t colon = 0;
	char q = 0;

	*has = false;
	for (size_t i = 0; text[i]; i++) {
		if (q) {
			if (text[i] == q)
				q = 0;
		} else if (text[i] == '"' || text[i] == '\'') {
			q = text[i];
		} else if (text[i] == ':') {
			/* "sys:event:" has two; the one after the event ends the list */
			size_t j = i + 1 + strcspn(text + i + 1, ":\"'");

			colon = i + 1;
			*has = true;
			if (text[j] != ':')
				break;
		}
	}
	return colon;
}

int ftc_filter_split(const char *text, struct ftc_filter_head *h, struct ftc_filter_error *err)
{
	bool has;
	size_t end, at = 0;

	memset(h, 0, sizeof(*h));
	h->expr = expr_start(text, &has);
	h->has_expr = has;
	end = has ? h->expr - 1 : strlen(text);
	do {
		size_t len = strcspn(text + at, ",");
		struct ftc_filter_event *e;

		if (at + len > end)
			len = end - at;
		e = realloc(h->events, (h->nevents + 1) * sizeof(*e));
		if (!e)
			return fail_at(err, at, 1, "out of memory");
		h->events = e;
		memset(&e[h->nevents], 0, sizeof(*e));
		if (split_one(text + at, len, at, &e[h->nevents++], err) < 0)
			return -1;
		at += len + 1;
	} while (at <= end);
	return 0;
}

void ftc_filter_head_free(struct ftc_filter_head *h)
{
	for (size_t i = 0; i < h->nevents; i++) {
		free(h->events[i].sys);
		free(h->events[i].name);
	}
	free(h->events);
	free(h->tep_expr);
	memset(h, 0, sizeof(*h));
}

char *ftc_filter_tep_text(const char *text, const struct ftc_filter_head *h)
{
	const char *expr = h->tep_expr ? h->tep_expr : text + h->expr;
	size_t size = strlen(expr) + 2;
	char *out, *o;

	for (size_t i = 0; i < h->nevents; i++)
		size += (h->events[i].sys ? strlen(h->events[i].sys) + 1 : 0) + strlen(h->events[i].name) + 1;
	out = malloc(size);
	if (!out)
		return NULL;
	o = out;
	for (size_t i = 0; i < h->nevents; i++) {
		const struct ftc_filter_event *e = &h->events[i];

		o += sprintf(o, "%s%s%s%s", i ? "," : "", e->sys ? e->sys : "", e->sys ? "/" : "",
			     e->name);
	}
	if (h->has_expr)
		sprintf(o, ":%s", expr);
	return out;
}
