// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's hist file read back: one section per hist trigger of the
 * event, two blank lines between sections:
 *
 *   # event histogram
 *   #
 *   # trigger info: hist:keys=call_site.sym,common_pid.execname:vals=hitcount,...
 *   #
 *
 *   { call_site: [ffffffff827ea0b8] hist_trigger_elt_data_alloc    , common_pid: sh
 *     [  94] } hitcount:   8192  bytes_req:  262144
 *   (one line in the file)
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
			/* one trigger per section: the rows read so far have its keys */
			if (s->info) {
				ret = -1;
				continue;
			}
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
