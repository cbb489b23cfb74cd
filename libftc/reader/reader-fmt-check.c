// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * For a reader opened without a parse guard (struct ftc_reader_opts):
 * refuses, before libtraceevent sees it, an event format whose print
 * arguments would crash libtraceevent 1.7's parser (both shapes found by
 * the fuzzer in damaged files):
 *
 *  - an operator the parser does not know after an array index or after
 *    the last operand of a condition ("REC->a[1];", "x[0].y",
 *    "a ? b : c #", "a ? b : REC->c[1]"): process_op() then recurses on
 *    a NULL argument;
 *  - a division or modulo of two constants whose divisor reads as 0
 *    ("0x2 %pfx4", where the damage dropped a quote, or "4 / 0"): the
 *    parser folds constant operations as it goes, with no zero check.
 *
 * The arguments are tokenized the way libtraceevent does. No real kernel
 * format has either shape (none of 2326 on a 6.18 kernel). It is a first
 * line, not a net: on random mutations of real formats it refuses about a
 * fifth of those that crash the parser (the others crash in
 * __print_symbolic lists, on folded divisors like "4 / (1 - 1)", ...),
 * and about 1 % of the others, damaged formats the parser would have
 * half-parsed. A parse guard catches them all.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

enum tok_type { TOK_END, TOK_ITEM, TOK_QUOTE, TOK_DELIM, TOK_OP };

struct tok {
	enum tok_type type;
	const char *s;		/* item, quote content or operator */
	size_t len;
};

struct lex {
	const char *p, *end;
};

static int peek(const struct lex *l)
{
	return l->p < l->end ? (unsigned char)*l->p : -1;
}

/* An operator token, combined as libtraceevent's __read_token() does. */
static void read_op(struct lex *l, struct tok *t)
{
	int c = (unsigned char)*l->p++;

	t->type = TOK_OP;
	if (c == '-' && peek(l) == '>') {
		l->p++;
	} else if (strchr("+-|&<>", c) && peek(l) == c) {
		l->p++;
		if ((c == '<' || c == '>') && peek(l) == '=')
			l->p++;
	} else if (strchr("+-|&<>!=", c) && peek(l) == '=') {
		l->p++;
	}
	t->len = (size_t)(l->p - t->s);
}

/*
 * A quoted string ends at its quote, or at a character that is not
 * printable (a tab too); a double-quoted one goes on into the next when
 * only spaces lie between them. t->s spans the whole, quotes included.
 */
static void read_quote(struct lex *l, struct tok *t)
{
	int q = (unsigned char)*l->p++, last = 0;
	const char *after;

	t->type = TOK_QUOTE;
	while (l->p < l->end) {
		int c = (unsigned char)*l->p++;

		if ((c == q || (!isprint(c) && c != '\n')) && last != '\\')
			break;
		last = c == '\\' && last == '\\' ? 0 : c;
	}
	for (after = l->p; after < l->end && isspace((unsigned char)*after); after++)
		;
	if (q == '"' && after < l->end && *after == '"') {
		l->p = after;
		read_quote(l, t);
	}
	t->len = (size_t)(l->p - t->s);
}

static void next(struct lex *l, struct tok *t)
{
	int c;

	while (l->p < l->end && isspace((unsigned char)*l->p))
		l->p++;
	t->s = l->p;
	t->len = 0;
	c = peek(l);
	if (c < 0 || c == 0 || !isprint(c)) {
		t->type = TOK_END;	/* the parser stops here too */
	} else if (isalnum(c) || c == '_') {
		t->type = TOK_ITEM;
		while (l->p < l->end && (isalnum((unsigned char)*l->p) || *l->p == '_'))
			l->p++;
		t->len = (size_t)(l->p - t->s);
	} else if (c == '"' || c == '\'') {
		read_quote(l, t);
	} else if (c == '(' || c == ')' || c == ',') {
		t->type = TOK_DELIM;
		t->len = 1;
		l->p++;
	} else {
		read_op(l, t);
	}
}

static bool is(const struct tok *t, const char *s)
{
	return t->len == strlen(s) && !memcmp(t->s, s, t->len);
}

/* Operators libtraceevent gives a priority to (get_op_prio() > 0). */
static bool known_op(const struct tok *t)
{
	static const char *const ops[] = {
		"~", "!", "*", "/", "%", "+", "-", "<", ">", "&", "^", "|", "?",
		"++", "--", ">>", "<<", ">=", "<=", "==", "!=", "&&", "||",
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (is(t, ops[i]))
			return true;
	return false;
}

/* What strtoull makes of an atom's text (of a quote: of what follows its quote). */
static unsigned long long atom_value(const struct tok *t)
{
	const char *s = t->type == TOK_QUOTE ? t->s + 1 : t->s;
	size_t len = t->type == TOK_QUOTE ? t->len - 1 : t->len;
	char buf[32];
	size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;

	memcpy(buf, s, n);
	buf[n] = '\0';
	return strtoull(buf, NULL, 0);
}

/* An operand libtraceevent keeps as a constant: a word that is no field or call, or a quote. */
static bool constant(const struct tok *t, const struct tok *before, const struct tok *after)
{
	if (t->type == TOK_QUOTE)
		return true;
	return t->type == TOK_ITEM && !is(t, "REC") && !(before->type == TOK_OP && is(before, "->")) &&
	       !(after->type == TOK_DELIM && is(after, "("));
}

/* Where an operand ends: what a following operator applies to. */
static bool operand_end(const struct tok *t)
{
	return t->type == TOK_ITEM || t->type == TOK_QUOTE ||
	       (t->type == TOK_DELIM && is(t, ")")) || (t->type == TOK_OP && is(t, "]"));
}

/*
 * The parser applies the operator after an index, or after the last
 * operand of "a ? b : c", by its priority, and takes an operator it does
 * not know as lower than anything: it then recurses on the missing right
 * operand. An operator it knows in between (c + d #) takes the tail over.
 */
static bool unknown_op_after(const struct tok *prev, const struct tok *cur,
			     const struct tok *n, int cond)
{
	if (n->type != TOK_OP || is(n, ":") || known_op(n))
		return false;
	if (cur->type == TOK_OP && is(cur, "]") && !is(prev, "["))
		return true;	/* "[]" is refused before: only a read index goes on */
	return cond == 2 && operand_end(cur) && !(is(cur, "REC") && is(n, "->"));
}

/* A division of two constants whose divisor reads as 0: t is the operator. */
static bool zero_divisor(const struct tok *before, const struct tok *prev, const struct tok *t,
			 const struct tok *n, struct lex ahead)
{
	struct tok after;

	if (t->type != TOK_OP || (!is(t, "/") && !is(t, "%")))
		return false;
	next(&ahead, &after);
	return constant(prev, before, t) && constant(n, t, &after) && !atom_value(n);
}

#define MAX_DEPTH 64

/* What an opening parenthesis or brace starts. */
enum nest { GROUP, CALL, LIST };

/*
 * The parser folds constants in a top-level argument and in a value of a
 * __print_flags/__print_symbolic list, not inside a call's arguments.
 */
static bool folds(const unsigned char *kind, int depth)
{
	for (int d = depth < MAX_DEPTH ? depth : MAX_DEPTH - 1; d > 0; d--)
		if (kind[d] != GROUP)
			return kind[d] == LIST;
	return true;
}

/*
 * Whether the print format's arguments close every parenthesis they open.
 * libtraceevent's parser reads freed memory on an argument list cut short
 * inside a group (found by the fuzzer), which no guard catches: such a
 * format is never handed to it. No kernel writes one.
 */
bool ftc_fmt_args_closed(const char *text, size_t len)
{
	const char *p = memmem(text, len, "print fmt:", 10);
	struct lex l;
	struct tok cur;
	long depth = 0;

	if (!p)
		return true;
	l.p = p + 10;
	l.end = text + len;
	for (next(&l, &cur); cur.type != TOK_END; next(&l, &cur)) {
		if (cur.type == TOK_DELIM && is(&cur, "("))
			depth++;
		else if (cur.type == TOK_DELIM && is(&cur, ")"))
			depth--;
	}
	return depth == 0;
}

bool ftc_fmt_text_parsable(const char *text, size_t len, const char **why)
{
	const char *p = memmem(text, len, "print fmt:", 10);
	struct tok before = { TOK_END, "", 0 }, prev = before, cur, n;
	/* Per nesting depth: 1 after "?", 2 after its ":" (the last operand). */
	unsigned char cond[MAX_DEPTH] = { 0 }, kind[MAX_DEPTH] = { GROUP };
	int depth = 0;
	struct lex l, ahead;

	if (!p)
		return true;
	l.p = p + 10;
	l.end = text + len;
	/* The parser reads arguments only after a format string and a comma. */
	next(&l, &cur);
	if (cur.type != TOK_QUOTE || *cur.s != '"')
		return true;
	next(&l, &cur);
	if (cur.type != TOK_DELIM || !is(&cur, ","))
		return true;
	for (next(&l, &cur); cur.type != TOK_END; next(&l, &cur)) {
		bool open = (cur.type == TOK_DELIM && is(&cur, "(")) ||
			    (cur.type == TOK_OP && is(&cur, "{"));
		bool close = (cur.type == TOK_DELIM && is(&cur, ")")) ||
			     (cur.type == TOK_OP && is(&cur, "}"));
		unsigned char *c;

		if (open && ++depth < MAX_DEPTH) {
			cond[depth] = 0;
			kind[depth] = *cur.s == '{' ? LIST :
				      prev.type == TOK_ITEM && !is(&prev, "REC") ? CALL : GROUP;
		} else if (close && depth > 0 && depth-- < MAX_DEPTH) {
			cond[depth + 1] = 0;
		}
		c = &cond[depth < MAX_DEPTH ? depth : MAX_DEPTH - 1];
		if (cur.type == TOK_OP && is(&cur, "?"))
			*c = 1;
		else if (cur.type == TOK_OP && is(&cur, ":") && *c)
			*c = 2;
		else if ((cur.type == TOK_OP && known_op(&cur) && *c == 2) || is(&cur, ","))
			*c = 0;
		ahead = l;
		next(&ahead, &n);
		if (unknown_op_after(&prev, &cur, &n, *c)) {
			*why = "an operator it does not know after an index or a condition";
			return false;
		}
		if (folds(kind, depth) && zero_divisor(&before, &prev, &cur, &n, ahead)) {
			*why = "a constant divided by zero";
			return false;
		}
		/* Any other operator it does not know ends the parse, safely. */
		if (n.type == TOK_OP && !known_op(&n) && !strchr(":[]{}", *n.s) &&
		    !(is(&n, "->") && is(&cur, "REC")))
			return true;
		before = prev;
		prev = cur;
	}
	return true;
}
