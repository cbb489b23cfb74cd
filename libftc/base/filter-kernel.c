// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The syntax of a kernel event filter (Documentation/trace/events.rst,
 * section 5), checked before it is written to an event's filter file or a
 * hist trigger (ftc-filter.h). The kernel checks fields and values itself,
 * with a caret in its error_log, but takes "prev_pid == 0 &&" and then
 * records nothing; this refuses what cannot be a filter:
 *
 *   expr  := term { ( '&&' | '||' ) term }
 *   term  := { '!' } ( '(' expr ')' | FIELD OP VALUE )
 *   OP    := == != < <= > >= & ~
 *   VALUE := a quoted string, or a word: a number, a bare string, CPUS{...}
 *
 * or "0", which clears a filter.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ftc-filter.h"

#define MAX_DEPTH 64

enum ktok { K_END, K_WORD, K_STR, K_LPAREN, K_RPAREN, K_AND, K_OR, K_NOT, K_CMP };

struct kparser {
	const char *s;
	size_t at, pos, len;
	enum ktok t;
	int depth;
	struct ftc_filter_error *err;
};

static int kfail(struct kparser *p, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int kfail(struct kparser *p, size_t pos, const char *fmt, ...)
{
	va_list ap;

	p->err->pos = pos;
	p->err->status = 2;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* What ends a word: blanks, quotes, parentheses and operator characters. */
static bool word_char(char c)
{
	return c && !isspace((unsigned char)c) && !strchr("\"'()=!<>&|~", c);
}

static int klex(struct kparser *p)
{
	const char *s = p->s;
	size_t i;

	while (isspace((unsigned char)s[p->at]))
		p->at++;
	p->pos = i = p->at;
	if (!s[i]) {
		p->t = K_END;
		p->len = 0;
		return 0;
	}
	if (!isprint((unsigned char)s[i]))
		return kfail(p, i, "a control character or a non-ASCII byte");
	if (s[i] == '"' || s[i] == '\'') {
		const char *end = strchr(s + i + 1, s[i]);

		if (!end)
			return kfail(p, i, "this string has no closing %c", s[i]);
		p->t = K_STR;
		i = (size_t)(end - s) + 1;
	} else if (s[i] == '(' || s[i] == ')') {
		p->t = s[i] == '(' ? K_LPAREN : K_RPAREN;
		i++;
	} else if (!strncmp(s + i, "&&", 2) || !strncmp(s + i, "||", 2)) {
		p->t = s[i] == '&' ? K_AND : K_OR;
		i += 2;
	} else if (!strncmp(s + i, "==", 2) || !strncmp(s + i, "!=", 2) ||
		   !strncmp(s + i, "<=", 2) || !strncmp(s + i, ">=", 2)) {
		p->t = K_CMP;
		i += 2;
	} else if (strchr("<>&~", s[i])) {
		p->t = K_CMP;
		i++;
	} else if (s[i] == '!') {
		p->t = K_NOT;
		i++;
	} else if (word_char(s[i])) {
		p->t = K_WORD;
		while (word_char(s[i]))
			i++;
	} else {
		return kfail(p, i, "'%c' is not an operator of a filter (==, !=, <, <=, >, >=, &, ~, &&, ||, !)",
			     s[i]);
	}
	p->len = i - p->at;
	p->at = i;
	return 0;
}

static int kexpr(struct kparser *p);

static int kterm(struct kparser *p)
{
	while (p->t == K_NOT)
		if (klex(p) < 0)
			return -1;
	if (p->t == K_LPAREN) {
		size_t open = p->pos;

		if (++p->depth > MAX_DEPTH)
			return kfail(p, open, "parentheses nest deeper than %d", MAX_DEPTH);
		if (klex(p) < 0 || kexpr(p) < 0)
			return -1;
		if (p->t != K_RPAREN)
			return kfail(p, p->pos, "expected ')' to close the '(' at column %zu", open + 1);
		p->depth--;
		return klex(p);
	}
	if (p->t != K_WORD)
		return kfail(p, p->pos, "expected a field name, '(' or '!'");
	if (klex(p) < 0)
		return -1;
	if (p->t != K_CMP)
		return kfail(p, p->pos, "expected a comparison: ==, !=, <, <=, >, >=, & or ~");
	if (klex(p) < 0)
		return -1;
	if (p->t != K_WORD && p->t != K_STR)
		return kfail(p, p->pos, "expected a value: a number or a string");
	return klex(p);
}

static int kexpr(struct kparser *p)
{
	if (kterm(p) < 0)
		return -1;
	while (p->t == K_AND || p->t == K_OR)
		if (klex(p) < 0 || kterm(p) < 0)
			return -1;
	if (p->t == K_END || (p->t == K_RPAREN && p->depth))
		return 0;
	if (p->t == K_RPAREN)
		return kfail(p, p->pos, "this ')' closes no '('");
	return kfail(p, p->pos, "expected && or ||%s", p->depth ? " or ')'" : " or the end");
}

int ftc_filter_check_kernel(const char *text, struct ftc_filter_error *err)
{
	struct kparser p = { .s = text, .err = err };
	size_t n = strspn(text, " \t");

	if (text[n] == '0' && !text[n + 1 + strspn(text + n + 1, " \t")])
		return 0;	/* "0" clears the filter */
	if (klex(&p) < 0)
		return -1;
	if (p.t == K_END)
		return kfail(&p, p.pos, "an empty filter (\"0\" clears one)");
	return kexpr(&p);
}
