// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's hist file read back as tables. The file holds one section
 * per hist trigger of the event, two blank lines between sections:
 *
 *   # event histogram
 *   #
 *   # trigger info: hist:keys=call_site.sym,common_pid.execname:vals=hitcount,bytes_req:...
 *   #
 *
 *   { call_site: [ffffffff827ea0b8] hist_trigger_elt_data_alloc     , common_pid: sh    [  94] } hitcount:   8192  bytes_req:  262144
 *
 *   Totals:
 *       Hits: 37452
 *       Entries: 87
 *       Dropped: 0
 *
 * A key prints as "NAME: TEXT" padded to a width of its type's, keys are
 * joined by ", ", and a stacktrace key spans lines up to a "}" of its own.
 * The key names come from the trigger info (a padded text may hold ", "),
 * the value names from the entries (variables are not printed).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

#define SECTION_MARK "# event histogram"
#define INFO_MARK "# trigger info: "

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* Appends to a NULL-terminated list; -1 when out of memory. */
static int list_add(char ***list, size_t *n, char *item)
{
	char **bigger;

	if (!item)
		return -1;
	bigger = realloc(*list, (*n + 2) * sizeof(**list));
	if (!bigger) {
		free(item);
		return -1;
	}
	bigger[(*n)++] = item;
	bigger[*n] = NULL;
	*list = bigger;
	return 0;
}

static void list_free(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

/*
 * The text of n bytes with the kernel's padding taken out: blanks (and the
 * newlines of a stacktrace) squeezed to one space, none at either end, none
 * inside brackets ("sh              [        94]" is "sh [94]").
 */
static char *squeeze(const char *s, size_t n)
{
	char *out = malloc(n + 1);
	size_t o = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!isspace((unsigned char)s[i])) {
			out[o++] = s[i];
			continue;
		}
		while (i + 1 < n && isspace((unsigned char)s[i + 1]))
			i++;
		if (o && out[o - 1] != '[' && i + 1 < n && s[i + 1] != ']')
			out[o++] = ' ';
	}
	out[o] = '\0';
	return out;
}

void hist_info_stateless(const char *info, char *buf, size_t size)
{
	const char *open = strrchr(info, '[');
	size_t n = strlen(info);

	if (open && open > info && open[-1] == ' ' && info[n - 1] == ']')
		n = (size_t)(open - 1 - info);
	snprintf(buf, size, "%.*s", (int)n, info);
}

/* The key list of the trigger info, "hist:keys=a.sym,b:vals=..." */
static int parse_keys(struct hist_section *s)
{
	const char *k = strstr(s->info, ":keys=");
	size_t len;

	if (!k)
		return -1;
	k += 6;
	len = strcspn(k, ": ");
	while (len) {
		size_t one = strcspn(k, ",");

		if (one > len)
			one = len;
		if (list_add(&s->key_names, &s->nkeys, dup_n(k, one)) < 0)
			return -1;
		k += one;
		len -= one;
		if (len) {	/* the comma */
			k++;
			len--;
		}
	}
	return s->nkeys ? 0 : -1;
}

/* A key's name as the entries print it: the field without its type. */
static size_t key_name_len(const char *spec)
{
	return strcspn(spec, ".");
}

/* Where ", NAME:" starts in keys (from p), or NULL. */
static const char *find_next_key(const char *p, const char *spec)
{
	size_t n = key_name_len(spec);

	for (const char *c = strstr(p, ", "); c; c = strstr(c + 1, ", ")) {
		const char *name = c + 2;

		if (!strncmp(name, spec, n) && name[n] == ':')
			return c;
	}
	return NULL;
}

static int parse_key_texts(struct hist_section *s, const char *keys, struct hist_row *r)
{
	const char *p = keys;
	size_t nk = 0;

	for (size_t i = 0; i < s->nkeys; i++) {
		size_t n = key_name_len(s->key_names[i]);
		const char *end;

		p += strspn(p, " ");
		if (i && *p++ != ',')
			return -1;
		p += strspn(p, " ");
		if (strncmp(p, s->key_names[i], n) || p[n] != ':')
			return -1;
		p += n + 1;
		end = i + 1 < s->nkeys ? find_next_key(p, s->key_names[i + 1]) : p + strlen(p);
		if (!end)
			return -1;
		if (list_add(&r->keys, &nk, squeeze(p, (size_t)(end - p))) < 0)
			return -1;
		p = end;
	}
	return 0;
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* "hitcount:   8192  bytes_req:  262144": names end with ':'. */
static int parse_values(struct hist_section *s, const char *v, struct hist_row *r)
{
	char **names = NULL;
	size_t nn = 0, nv = 0;
	int ret = -1;

	while (*(v += strspn(v, " \t\n"))) {
		size_t n = strcspn(v, " \t\n");

		if (n > 1 && v[n - 1] == ':' && is_name_char(v[0])) {
			if (list_add(&names, &nn, dup_n(v, n - 1)) < 0 ||
			    list_add(&r->vals, &nv, strdup("")) < 0)
				goto out;
		} else if (nv) {
			char *old = r->vals[nv - 1], *joined = NULL;

			if (asprintf(&joined, "%s%s%.*s", old, *old ? " " : "", (int)n, v) < 0)
				goto out;
			free(old);
			r->vals[nv - 1] = joined;
		} else {
			goto out;	/* a value before any name */
		}
		v += n;
	}
	if (!nv)
		goto out;
	if (!s->val_names) {
		s->val_names = names;
		s->nvals = nn;
		names = NULL;
	} else if (nn != s->nvals) {
		goto out;
	} else {
		for (size_t i = 0; i < nn; i++)
			if (strcmp(names[i], s->val_names[i]))
				goto out;
	}
	ret = 0;
out:
	list_free(names);
	return ret;
}

/* Whether an entry ends on this line: a "}" and then "NAME:". */
static bool closes_entry(const char *line)
{
	const char *c = strrchr(line, '}');
	size_t n;

	if (!c)
		return false;
	c += 1 + strspn(c + 1, " ");
	n = 0;
	while (is_name_char(c[n]))
		n++;
	return n && c[n] == ':';
}

static int parse_entry(struct hist_section *s, const char *block)
{
	const char *close = strrchr(block, '}');
	struct hist_row *rows, r = { NULL, NULL };
	char *keys;
	int ret;

	if (block[0] != '{' || !close)
		return -1;
	keys = dup_n(block + 1, (size_t)(close - block - 1));
	if (!keys)
		return -1;
	ret = parse_key_texts(s, keys, &r);
	free(keys);
	if (ret == 0)
		ret = parse_values(s, close + 1, &r);
	rows = ret == 0 ? realloc(s->rows, (s->nrows + 1) * sizeof(*rows)) : NULL;
	if (!rows) {
		list_free(r.keys);
		list_free(r.vals);
		return -1;
	}
	s->rows = rows;
	s->rows[s->nrows++] = r;
	return 0;
}

static int parse_total(struct hist_section *s, const char *line)
{
	static const char *const names[] = { "Hits: ", "Entries: ", "Dropped: " };
	unsigned long long *dest[] = { &s->hits, &s->entries, &s->dropped };

	line += strspn(line, " ");
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(names[i]);
		char *end;

		if (strncmp(line, names[i], n))
			continue;
		errno = 0;
		*dest[i] = strtoull(line + n, &end, 10);
		return errno || *end ? -1 : 0;
	}
	return *line ? -1 : 0;
}

/* The lines of one section; the entries need the key names first. */
static int parse_section(struct hist_section *s)
{
	char *copy = strdup(s->raw), *save = NULL, *block = NULL;
	int ret = 0;

	if (!copy)
		return -1;
	for (char *l = strtok_r(copy, "\n", &save); l && ret == 0; l = strtok_r(NULL, "\n", &save)) {
		if (block) {
			char *more = NULL;

			ret = asprintf(&more, "%s\n%s", block, l) < 0 ? -1 : 0;
			free(block);
			block = more;
		} else if (!strncmp(l, INFO_MARK, strlen(INFO_MARK))) {
			s->info = strdup(l + strlen(INFO_MARK));
			ret = s->info && parse_keys(s) == 0 ? 0 : -1;
			continue;
		} else if (l[0] == '#') {
			continue;
		} else if (l[0] == '{') {
			block = strdup(l);
			ret = block ? 0 : -1;
		} else if (!strcmp(l, "Totals:")) {
			s->totals = true;
			continue;
		} else if (s->totals) {
			ret = parse_total(s, l);
			continue;
		} else {
			ret = -1;	/* something this parser does not know */
			continue;
		}
		if (ret == 0 && closes_entry(l)) {
			ret = s->key_names ? parse_entry(s, block) : -1;
			free(block);
			block = NULL;
		}
	}
	if (block)
		ret = -1;	/* an entry never closed */
	free(block);
	free(copy);
	return ret == 0 && s->info && s->totals ? 0 : -1;
}

static void section_free(struct hist_section *s)
{
	free(s->raw);
	free(s->info);
	list_free(s->key_names);
	list_free(s->val_names);
	for (size_t i = 0; i < s->nrows; i++) {
		list_free(s->rows[i].keys);
		list_free(s->rows[i].vals);
	}
	free(s->rows);
}

void hist_sections_free(struct hist_section *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		section_free(&s[i]);
	free(s);
}

/* The start of the section marker line at or after p, or NULL. */
static const char *next_section(const char *text, const char *p)
{
	for (const char *m = strstr(p, SECTION_MARK); m; m = strstr(m + 1, SECTION_MARK)) {
		const char *end = m + strlen(SECTION_MARK);

		if ((m == text || m[-1] == '\n') && (*end == '\n' || !*end))
			return m;
	}
	return NULL;
}

int hist_parse(const char *text, struct hist_section **out, size_t *n)
{
	struct hist_section *list = NULL;
	size_t count = 0;

	for (const char *m = next_section(text, text); m; ) {
		const char *next = next_section(text, m + 1);
		size_t len = next ? (size_t)(next - m) : strlen(m);
		struct hist_section *bigger = realloc(list, (count + 1) * sizeof(*list));
		struct hist_section *s;

		if (!bigger) {
			hist_sections_free(list, count);
			return -1;
		}
		list = bigger;
		s = &list[count++];
		memset(s, 0, sizeof(*s));
		/* the blank lines that separate sections are not theirs */
		while (len > 1 && m[len - 1] == '\n' && m[len - 2] == '\n')
			len--;
		s->raw = dup_n(m, len);
		if (!s->raw) {
			hist_sections_free(list, count);
			return -1;
		}
		s->parsed = parse_section(s) == 0;
		m = next;
	}
	*out = list;
	*n = count;
	return 0;
}

bool hist_hitcount_sum(const struct hist_section *s, unsigned long long *sum)
{
	size_t col = s->nvals;

	for (size_t i = 0; i < s->nvals; i++)
		if (!strcmp(s->val_names[i], "hitcount"))
			col = i;
	if (!s->parsed || col == s->nvals)
		return false;
	*sum = 0;
	for (size_t i = 0; i < s->nrows; i++)
		*sum += strtoull(s->rows[i].vals[col], NULL, 10);
	return true;
}

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
