// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A parsed hist section (hist-parse.c) printed as a table: one column per
 * key and value, aligned; a key that reads "comm [pid]" or "[addr] symbol"
 * is two parts, each aligned on its own; numbers to the right. A rule, a
 * total row for the value columns that are decimal, and the kernel's
 * Totals close it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

/* The table's layout: a column is one or two parts wide ("sh" "[94]"). */
struct column {
	const char *name;
	size_t w[2];
	bool right[2];		/* every row's part is a number */
	bool two;
	bool summed;		/* every value is decimal: a total is printed */
	unsigned long long total;
	size_t width;
};

/* Splits "[addr] sym" and "comm [pid]" in two; *len0 is the first part's. */
static const char *second_part(const char *text, size_t *len0)
{
	const char *c;
	size_t n = strlen(text);

	*len0 = n;
	if (text[0] == '[' && (c = strstr(text, "] "))) {
		*len0 = (size_t)(c + 1 - text);
		return c + 2;
	}
	if (n && text[n - 1] == ']' && (c = strrchr(text, '[')) && c > text && c[-1] == ' ') {
		*len0 = (size_t)(c - 1 - text);
		return c;
	}
	return NULL;
}

static bool is_number(const char *s, size_t n, bool hex)
{
	if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
		s++;
		n -= 2;
	}
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(hex ? isxdigit((unsigned char)s[i]) : isdigit((unsigned char)s[i])))
			return false;
	return true;
}

static void measure(struct column *c, const char *text, bool hex, bool first)
{
	size_t len0;
	const char *p1 = second_part(text, &len0);

	if (first)
		c->right[0] = c->right[1] = true;
	if (len0 > c->w[0])
		c->w[0] = len0;
	c->right[0] = c->right[0] && is_number(text, len0, hex);
	if (p1) {
		c->two = true;
		if (strlen(p1) > c->w[1])
			c->w[1] = strlen(p1);
		c->right[1] = c->right[1] && is_number(p1, strlen(p1), false);
	}
}

static void finish_column(struct column *c)
{
	size_t cells = c->w[0] + (c->two ? 1 + c->w[1] : 0);

	c->width = cells > strlen(c->name) ? cells : strlen(c->name);
	/* a wider header pushes the parts right when they are numbers */
	if (!c->two)
		c->w[0] = c->width;
	else
		c->w[1] = c->width - c->w[0] - 1;
}

static void layout(const struct hist_section *s, struct column *cols)
{
	size_t nc = s->nkeys + s->nvals;

	for (size_t i = 0; i < nc; i++) {
		struct column *c = &cols[i];
		bool key = i < s->nkeys;
		const char *name = key ? s->key_names[i] : s->val_names[i - s->nkeys];
		size_t len = strlen(name);
		bool hex = len > 4 && !strcmp(name + len - 4, ".hex");

		memset(c, 0, sizeof(*c));
		c->name = name;
		c->summed = !key;
		for (size_t r = 0; r < s->nrows; r++) {
			const char *t = key ? s->rows[r].keys[i] : s->rows[r].vals[i - s->nkeys];

			measure(c, t, hex, r == 0);
			if (!key && !is_number(t, strlen(t), false))
				c->summed = false;
			else if (!key)
				c->total += strtoull(t, NULL, 10);
		}
		finish_column(c);
	}
}

static void put_part(FILE *f, const char *t, size_t n, size_t w, bool right)
{
	fprintf(f, right ? "%*.*s" : "%-*.*s", (int)w, (int)n, t);
}

static void put_cell(FILE *f, const struct column *c, const char *text, bool last)
{
	size_t len0;
	const char *p1 = c->two ? second_part(text, &len0) : NULL;

	if (p1) {
		put_part(f, text, len0, c->w[0], c->right[0]);
		fputc(' ', f);
		put_part(f, p1, strlen(p1), c->w[1], c->right[1]);
	} else {	/* a one-part text, a header, a rule: the whole width */
		put_part(f, text, strlen(text), c->width, !c->two && c->right[0]);
	}
	if (!last)
		fputs("  ", f);
}

/* A line of cells with trailing blanks cut: built in memory first. */
static void put_line(FILE *f, const struct column *cols, size_t nc,
		     const char *(*text)(const void *ctx, size_t col), const void *ctx)
{
	char *buf = NULL;
	size_t size = 0, n;
	FILE *m = open_memstream(&buf, &size);

	if (!m)
		return;
	for (size_t i = 0; i < nc; i++)
		put_cell(m, &cols[i], text(ctx, i), i + 1 == nc);
	fclose(m);
	for (n = size; n && buf[n - 1] == ' '; n--)
		;
	fprintf(f, "%.*s\n", (int)n, buf);
	free(buf);
}

struct line_ctx {
	const struct hist_section *s;
	const struct column *cols;
	size_t row;
	char num[32];
	char *dashes;		/* as many as the widest column */
	size_t widest;
};

static const char *header_text(const void *ctx, size_t col)
{
	const struct line_ctx *l = ctx;

	return l->cols[col].name;
}

static const char *row_text(const void *ctx, size_t col)
{
	const struct line_ctx *l = ctx;
	const struct hist_row *r = &l->s->rows[l->row];

	return col < l->s->nkeys ? r->keys[col] : r->vals[col - l->s->nkeys];
}

static const char *rule_text(const void *ctx, size_t col)
{
	const struct line_ctx *l = ctx;

	return l->dashes + (l->widest - l->cols[col].width);
}

static const char *total_text(const void *ctx, size_t col)
{
	struct line_ctx *l = (struct line_ctx *)ctx;

	if (col == 0)
		return "total";
	if (!l->cols[col].summed)
		return "";
	snprintf(l->num, sizeof(l->num), "%llu", l->cols[col].total);
	return l->num;
}

void hist_print_table(FILE *f, const struct hist_section *s, const char *title)
{
	size_t nc = s->nkeys + s->nvals;
	struct column *cols;
	struct line_ctx l = { .s = s };

	if (!s->parsed || !nc || !(cols = calloc(nc, sizeof(*cols)))) {
		fputs(s->raw, f);
		return;
	}
	if (!s->nvals) {	/* no entry told the value names */
		free(cols);
		fprintf(f, "%s: %s\n\n(no entries)\n", title, s->info);
	} else {
		layout(s, cols);
		l.cols = cols;
		for (size_t i = 0; i < nc; i++)
			if (cols[i].width > l.widest)
				l.widest = cols[i].width;
		l.dashes = malloc(l.widest + 1);
		if (!l.dashes) {
			free(cols);
			fputs(s->raw, f);
			return;
		}
		memset(l.dashes, '-', l.widest);
		l.dashes[l.widest] = '\0';
		fprintf(f, "%s: %s\n\n", title, s->info);
		put_line(f, cols, nc, header_text, &l);
		put_line(f, cols, nc, rule_text, &l);
		for (l.row = 0; l.row < s->nrows; l.row++)
			put_line(f, cols, nc, row_text, &l);
		put_line(f, cols, nc, rule_text, &l);
		put_line(f, cols, nc, total_text, &l);
		free(l.dashes);
		free(cols);
	}
	fprintf(f, "\nTotals:\n    Hits: %llu\n    Entries: %llu\n    Dropped: %llu\n",
		s->hits, s->entries, s->dropped);
}
