// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A hist trigger's text: the keys, values and sort keys checked against
 * the event's format, then composed by libtracefs
 * (tracefs_hist_alloc_nd_cnt, _add_value, _add_sort_key,
 * _sort_key_direction). The text is handed back rather than written, so
 * that the caller writes it through its journal and a killed program is
 * undone (tracefs_hist_start would write around the journal); libtracefs
 * 1.6 also has no way to take a filter as text or a size, which are added
 * here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "ftc.h"
#include "ftc-control.h"
#include "opts.h"

static const struct {
	const char *name;
	enum tracefs_hist_key_type type;
} key_types[] = {
	{ "sym", TRACEFS_HIST_KEY_SYM }, { "sym-offset", TRACEFS_HIST_KEY_SYM_OFFSET },
	{ "hex", TRACEFS_HIST_KEY_HEX }, { "execname", TRACEFS_HIST_KEY_EXECNAME },
	{ "syscall", TRACEFS_HIST_KEY_SYSCALL }, { "log2", TRACEFS_HIST_KEY_LOG },
	{ "usecs", TRACEFS_HIST_KEY_USECS },
};
#define NKEY_TYPES (sizeof(key_types) / sizeof(key_types[0]))

/* Names the kernel's hist triggers know besides the event's fields. */
static const char *const specials[] = {
	"common_timestamp", "cpu", "common_cpu", "stacktrace", "common_stacktrace",
	"hitcount",
};

struct build {
	const char *system, *event;
	struct ftc_hist_opts o;
	struct tep_event *ev;
	struct tracefs_hist_axis_cnt *axes;	/* nkeys + 1: the last one ends them */
	char **names;				/* the keys' field names */
	struct ftc_hist_fault *fault;
};

/* A mistake in what the options ask for: item index of list, and why. */
static int mistake(struct build *b, int list, size_t index, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int mistake(struct build *b, int list, size_t index, const char *fmt, ...)
{
	va_list ap;

	b->fault->list = list;
	b->fault->index = index;
	va_start(ap, fmt);
	ftc_verror(EINVAL, fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_identifier(const char *s, size_t n)
{
	if (!n || isdigit((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/*
 * A field name (the first n bytes of value) must be one of the event's or
 * one the kernel adds; an expression ("bytes_alloc-bytes_req") or a
 * variable is left to the kernel.
 */
static int check_field(struct build *b, int list, size_t i, const char *value, size_t n)
{
	char name[256];

	if (!is_identifier(value, n) || n >= sizeof(name))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)n, value);
	for (size_t s = 0; s < sizeof(specials) / sizeof(specials[0]); s++)
		if (!strcmp(name, specials[s]))
			return 0;
	if (tep_find_any_field(b->ev, name))
		return 0;
	return mistake(b, list, i, "%s:%s has no field '%s' ('ftc list -e -F %s:%s' lists them)",
		       b->system, b->event, name, b->system, b->event);
}

/* ".bogus": the message names the types the table knows. */
static int unknown_key_type(struct build *b, size_t i, const char *dot)
{
	char known[128];
	size_t n = 0;

	known[0] = '\0';
	for (size_t t = 0; t < NKEY_TYPES && n < sizeof(known); t++)
		n += (size_t)snprintf(known + n, sizeof(known) - n, "%s, ", key_types[t].name);
	if (n >= 2 && n < sizeof(known))
		known[n - 2] = '\0';
	return mistake(b, FTC_HIST_KEYS, i, "unknown key type '%s' (%s or buckets=N)", dot, known);
}

static int key_type(struct build *b, size_t i, const char *dot, struct tracefs_hist_axis_cnt *axis)
{
	char *end;

	axis->type = TRACEFS_HIST_KEY_NORMAL;
	if (!dot)
		return 0;
	for (size_t t = 0; t < NKEY_TYPES; t++) {
		if (!strcmp(dot + 1, key_types[t].name)) {
			axis->type = key_types[t].type;
			return 0;
		}
	}
	if (!strncmp(dot + 1, "buckets=", 8) && isdigit((unsigned char)dot[9])) {
		long n = strtol(dot + 9, &end, 10);

		if (!*end && n > 0 && n < 1L << 30) {
			axis->type = TRACEFS_HIST_KEY_BUCKETS;
			axis->cnt = (int)n;
			return 0;
		}
	}
	return unknown_key_type(b, i, dot);
}

/* The key types, before the format is read: the options alone. */
static int key_types_of(struct build *b)
{
	for (size_t i = 0; i < b->o.nkeys; i++) {
		const char *key = b->o.keys[i], *dot = strchr(key, '.');

		if (key_type(b, i, dot, &b->axes[i]) < 0)
			return -1;
		b->names[i] = strndup(key, dot ? (size_t)(dot - key) : strlen(key));
		if (!b->names[i])
			return ftc_error(ENOMEM, "out of memory");
		b->axes[i].key = b->names[i];
	}
	return 0;
}

static int check_keys(struct build *b)
{
	for (size_t i = 0; i < b->o.nkeys; i++)
		if (check_field(b, FTC_HIST_KEYS, i, b->o.keys[i], strlen(b->names[i])) < 0)
			return -1;
	return 0;
}

static int add_values(struct build *b, struct tracefs_hist *h)
{
	for (size_t i = 0; i < b->o.nvalues; i++) {
		const char *v = b->o.values[i];

		if (check_field(b, FTC_HIST_VALUES, i, v, strcspn(v, ".")) < 0)
			return -1;
		if (tracefs_hist_add_value(h, v) < 0)
			return -1;
	}
	return 0;
}

/* The name sort key i goes by (its first n bytes): a key's or value's
 * field without its type. */
static int sort_name(struct build *b, size_t i, size_t n, char *name, size_t size)
{
	const struct ftc_hist_opts *o = &b->o;

	snprintf(name, size, "%.*s", (int)n, o->sort[i]);
	if (!strcmp(name, "hitcount"))
		return 0;
	for (size_t j = 0; j < o->nkeys + o->nvalues; j++) {
		const char *k = j < o->nkeys ? o->keys[j] : o->values[j - o->nkeys];
		size_t kn = strcspn(k, ".");

		if (!strcmp(name, k) || (strlen(name) == kn && !strncmp(name, k, kn))) {
			name[kn] = '\0';
			return 0;
		}
	}
	return mistake(b, FTC_HIST_SORT, i, "not hitcount, nor one of the keys or values");
}

/* A sort key's direction (-1: none given), and the length of its name. */
static int sort_direction(const char *item, size_t *n)
{
	const char *dot = strrchr(item, '.');
	int dir = -1;

	*n = strlen(item);
	if (dot && !strcmp(dot, ".descending"))
		dir = TRACEFS_HIST_SORT_DESCENDING;
	else if (dot && !strcmp(dot, ".ascending"))
		dir = TRACEFS_HIST_SORT_ASCENDING;
	if (dir >= 0)
		*n = (size_t)(dot - item);
	return dir;
}

/* Sorting by names that are neither keys nor values, or by three. */
static int check_sort(struct build *b)
{
	char name[256];
	size_t n;

	if (b->o.nsort > 2)
		return mistake(b, FTC_HIST_SORT, 2, "the kernel sorts by two keys at most");
	for (size_t i = 0; i < b->o.nsort; i++) {
		sort_direction(b->o.sort[i], &n);
		if (sort_name(b, i, n, name, sizeof(name)) < 0)
			return -1;
	}
	return 0;
}

static int add_sort(struct build *b, struct tracefs_hist *h)
{
	for (size_t i = 0; i < b->o.nsort; i++) {
		char name[256];
		size_t n;
		int dir = sort_direction(b->o.sort[i], &n);

		if (sort_name(b, i, n, name, sizeof(name)) < 0)
			return -1;
		if (tracefs_hist_add_sort_key(h, name) < 0 ||
		    (dir >= 0 && tracefs_hist_sort_key_direction(h, name, dir) < 0))
			return -1;
	}
	return 0;
}

/* The trigger as libtracefs writes it: "echo 'TEXT' > PATH" holds it. */
static char *hist_text(struct tracefs_hist *h)
{
	struct trace_seq seq;
	char *out = NULL, *start, *end;

	trace_seq_init(&seq);
	if (tracefs_hist_echo_cmd(&seq, NULL, h, TRACEFS_HIST_CMD_START) == 0) {
		trace_seq_terminate(&seq);
		start = strchr(seq.buffer, '\'');
		end = strstr(seq.buffer, "' > ");
		if (start && end > start)
			out = strndup(start + 1, (size_t)(end - start - 1));
	}
	trace_seq_destroy(&seq);
	return out;
}

static struct tep_event *load_event(struct build *b, struct tep_handle *tep)
{
	char *fmt;
	int size = 0;
	struct tep_event *ev = NULL;

	fmt = tracefs_event_file_read(NULL, b->system, b->event, "format", &size);
	if (fmt && tep_parse_event(tep, fmt, (unsigned long)size, b->system) == 0)
		ev = tep_find_event_by_name(tep, b->system, b->event);
	free(fmt);
	if (!ev)
		ftc_error(EINVAL, "events/%s/%s/format: cannot read or parse it", b->system,
			  b->event);
	return ev;
}

/* "TEXT[:size=N][:pause][ if FILTER]" */
static char *with_tail(struct build *b, const char *text, const char *state)
{
	char size[32] = "", *out;

	if (b->o.entries)
		snprintf(size, sizeof(size), ":size=%llu", b->o.entries);
	if (asprintf(&out, "%s%s%s%s%s", text, size, state, b->o.filter ? " if " : "",
		     b->o.filter ? b->o.filter : "") < 0)
		return NULL;
	return out;
}

static int compose(struct build *b, struct tep_handle *tep, char **start, char **pause)
{
	struct tracefs_hist *h = NULL;
	char *text = NULL;
	int ret = -1, err;

	if (check_keys(b) < 0)
		goto out;
	h = tracefs_hist_alloc_nd_cnt(tep, b->system, b->event, b->axes);
	if (!h || add_values(b, h) < 0 || add_sort(b, h) < 0)
		goto out;
	text = hist_text(h);
	if (!text)
		goto out;
	*start = with_tail(b, text, "");
	*pause = *start ? with_tail(b, text, ":pause") : NULL;
	if (*pause)
		ret = 0;
out:
	err = errno ? errno : EINVAL;
	if (ret < 0 && b->fault->list == FTC_HIST_NONE)
		ftc_error(err, "cannot compose the hist trigger for %s:%s: %s", b->system,
			  b->event, strerror(err));
	if (ret < 0) {
		free(*start);
		*start = NULL;
	}
	tracefs_hist_free(h);
	free(text);
	return ret;
}

/* The lists' counts against their arrays: a programming mistake, not the user's. */
static int check_opts(const struct ftc_hist_opts *o)
{
	if (!o->nkeys || !o->keys)
		return ftc_error(EINVAL, "a hist trigger needs a key (struct ftc_hist_opts keys)");
	if ((o->nvalues && !o->values) || (o->nsort && !o->sort))
		return ftc_error(EINVAL, "struct ftc_hist_opts: a count without its list");
	return 0;
}

int ftc_hist_compose(const char *system, const char *event, const struct ftc_hist_opts *opts,
		     char **start, char **pause, struct ftc_hist_fault *fault)
{
	struct ftc_hist_fault none;
	struct build b = { .system = system, .event = event, .fault = fault ? fault : &none };
	struct tep_handle *tep = NULL;
	int ret = -1;

	*start = *pause = NULL;
	memset(b.fault, 0, sizeof(*b.fault));
	if (FTC_OPTS_COPY(&b.o, opts, ftc_hist_opts, filter) < 0 || check_opts(&b.o) < 0)
		return -1;
	b.axes = calloc(b.o.nkeys + 1, sizeof(*b.axes));
	b.names = calloc(b.o.nkeys, sizeof(*b.names));
	tep = tep_alloc();
	if (!b.axes || !b.names || !tep)
		ftc_error(ENOMEM, "out of memory");
	else if (key_types_of(&b) == 0 && check_sort(&b) == 0) {
		b.ev = load_event(&b, tep);
		if (b.ev)
			ret = compose(&b, tep, start, pause);
	}
	for (size_t i = 0; b.names && i < b.o.nkeys; i++)
		free(b.names[i]);
	free(b.names);
	free(b.axes);
	if (tep)
		tep_free(tep);
	return ret;
}
