// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc hist's trigger text: the keys, values and sort keys of the command
 * line checked against the event's format, then composed by libtracefs
 * (tracefs_hist_alloc_nd_cnt, _add_value, _add_sort_key,
 * _sort_key_direction). ftc writes the text itself, through its journal,
 * so that a killed ftc is undone (tracefs_hist_start would write around
 * the journal); libtracefs 1.6 also has no way to take a filter as text or
 * a size, which are added here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "hist.h"
#include "options.h"

int hist_spec_add(const char **list, int *n, char *value)
{
	for (char *p = value, *comma; ; p = comma + 1) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p)
			return cmd_bad_value("an empty item: give NAME[,NAME...]");
		if (*n >= HIST_MAX_ITEMS)
			return cmd_bad_value("more than %d items in all", HIST_MAX_ITEMS);
		list[(*n)++] = p;
		if (!comma)
			return 0;
	}
}

static const struct {
	const char *name;
	enum tracefs_hist_key_type type;
} key_types[] = {
	{ "sym", TRACEFS_HIST_KEY_SYM }, { "sym-offset", TRACEFS_HIST_KEY_SYM_OFFSET },
	{ "hex", TRACEFS_HIST_KEY_HEX }, { "execname", TRACEFS_HIST_KEY_EXECNAME },
	{ "syscall", TRACEFS_HIST_KEY_SYSCALL }, { "log2", TRACEFS_HIST_KEY_LOG },
	{ "usecs", TRACEFS_HIST_KEY_USECS },
};

/* Names the kernel's hist triggers know besides the event's fields. */
static const char *const specials[] = {
	"common_timestamp", "cpu", "common_cpu", "stacktrace", "common_stacktrace",
	"hitcount",
};

struct build {
	const struct hist_spec *s;
	struct tep_event *ev;
	struct tracefs_hist_axis_cnt axes[HIST_MAX_ITEMS + 1];
	char *names[HIST_MAX_ITEMS];	/* the keys' field names */
	int *status;
};

static int usage_error(struct build *b, const char *opt, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int usage_error(struct build *b, const char *opt, const char *value, const char *fmt, ...)
{
	char q[256];
	va_list ap;

	cmd_quote(q, sizeof(q), value);
	fprintf(stderr, "ftc hist: %s '%s': ", opt, q);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	*b->status = FTC_EXIT_USAGE;
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
 * A field name must be one of the event's or one the kernel adds; an
 * expression ("bytes_alloc-bytes_req") or a variable is left to the kernel.
 */
static int check_field(struct build *b, const char *opt, const char *value, size_t n)
{
	char name[256];

	if (!is_identifier(value, n) || n >= sizeof(name))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)n, value);
	for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (!strcmp(name, specials[i]))
			return 0;
	if (tep_find_any_field(b->ev, name))
		return 0;
	return usage_error(b, opt, value, "%s:%s has no field '%s' ('ftc list -e -F %s:%s' "
			   "lists them)", b->s->system, b->s->event, name, b->s->system,
			   b->s->event);
}

static int key_type(struct build *b, const char *key, const char *dot,
		    struct tracefs_hist_axis_cnt *axis)
{
	char *end;

	axis->type = TRACEFS_HIST_KEY_NORMAL;
	if (!dot)
		return 0;
	for (size_t i = 0; i < sizeof(key_types) / sizeof(key_types[0]); i++) {
		if (!strcmp(dot + 1, key_types[i].name)) {
			axis->type = key_types[i].type;
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
	return usage_error(b, "--key", key, "unknown key type '%s' (sym, sym-offset, hex, "
			   "execname, syscall, log2, usecs or buckets=N)", dot);
}

/* The key types, before the format is read: the command line alone. */
static int key_types_of(struct build *b)
{
	for (int i = 0; i < b->s->nkeys; i++) {
		const char *key = b->s->keys[i], *dot = strchr(key, '.');

		if (key_type(b, key, dot, &b->axes[i]) < 0)
			return -1;
		b->names[i] = strndup(key, dot ? (size_t)(dot - key) : strlen(key));
		if (!b->names[i])
			return -1;
		b->axes[i].key = b->names[i];
	}
	return 0;
}

static int check_keys(struct build *b)
{
	for (int i = 0; i < b->s->nkeys; i++)
		if (check_field(b, "--key", b->s->keys[i], strlen(b->names[i])) < 0)
			return -1;
	return 0;
}

static int add_values(struct build *b, struct tracefs_hist *h)
{
	for (int i = 0; i < b->s->nvals; i++) {
		const char *v = b->s->vals[i];

		if (check_field(b, "--value", v, strcspn(v, ".")) < 0)
			return -1;
		if (tracefs_hist_add_value(h, v) < 0)
			return -1;
	}
	return 0;
}

/* The name a sort key goes by: a key's or value's field without its type. */
static int sort_name(struct build *b, const char *item, size_t n, char *name, size_t size)
{
	const struct hist_spec *s = b->s;

	snprintf(name, size, "%.*s", (int)n, item);
	if (!strcmp(name, "hitcount"))
		return 0;
	for (int i = 0; i < s->nkeys + s->nvals; i++) {
		const char *k = i < s->nkeys ? s->keys[i] : s->vals[i - s->nkeys];
		size_t kn = strcspn(k, ".");

		if (!strcmp(name, k) || (strlen(name) == kn && !strncmp(name, k, kn))) {
			name[kn] = '\0';
			return 0;
		}
	}
	return usage_error(b, "--sort", item, "not hitcount, nor one of the keys or values");
}

/* Sorting by names that are neither keys nor values, or by three. */
static int check_sort(struct build *b)
{
	char name[256];

	if (b->s->nsort > 2)
		return usage_error(b, "--sort", b->s->sort[2], "the kernel sorts by two keys at most");
	for (int i = 0; i < b->s->nsort; i++) {
		const char *item = b->s->sort[i], *dot = strrchr(item, '.');
		size_t n = strlen(item);

		if (dot && (!strcmp(dot, ".descending") || !strcmp(dot, ".ascending")))
			n = (size_t)(dot - item);
		if (sort_name(b, item, n, name, sizeof(name)) < 0)
			return -1;
	}
	return 0;
}

static int add_sort(struct build *b, struct tracefs_hist *h)
{
	for (int i = 0; i < b->s->nsort; i++) {
		const char *item = b->s->sort[i], *dot = strrchr(item, '.');
		size_t n = strlen(item);
		int dir = -1;
		char name[256];

		if (dot && !strcmp(dot, ".descending"))
			dir = TRACEFS_HIST_SORT_DESCENDING;
		else if (dot && !strcmp(dot, ".ascending"))
			dir = TRACEFS_HIST_SORT_ASCENDING;
		if (dir >= 0)
			n = (size_t)(dot - item);
		if (sort_name(b, item, n, name, sizeof(name)) < 0)
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

static struct tep_event *load_event(struct tep_handle *tep, const struct hist_spec *s)
{
	char *fmt;
	int size = 0;
	struct tep_event *ev = NULL;

	fmt = tracefs_event_file_read(NULL, s->system, s->event, "format", &size);
	if (fmt && tep_parse_event(tep, fmt, (unsigned long)size, s->system) == 0)
		ev = tep_find_event_by_name(tep, s->system, s->event);
	free(fmt);
	if (!ev)
		fprintf(stderr, "ftc hist: events/%s/%s/format: cannot read or parse it\n",
			s->system, s->event);
	return ev;
}

static int compose(struct build *b, struct tep_handle *tep, char **start, char **pause)
{
	struct tracefs_hist *h = NULL;
	char *text = NULL, size[32] = "";
	int ret = -1;

	if (check_keys(b) < 0)
		goto out;
	h = tracefs_hist_alloc_nd_cnt(tep, b->s->system, b->s->event, b->axes);
	if (!h || add_values(b, h) < 0 || add_sort(b, h) < 0)
		goto out;
	text = hist_text(h);
	if (!text)
		goto out;
	if (b->s->size)
		snprintf(size, sizeof(size), ":size=%llu", b->s->size);
	if (asprintf(start, "%s%s%s%s", text, size, b->s->filter ? " if " : "",
		     b->s->filter ? b->s->filter : "") < 0) {
		*start = NULL;
		goto out;
	}
	if (asprintf(pause, "%s%s:pause%s%s", text, size, b->s->filter ? " if " : "",
		     b->s->filter ? b->s->filter : "") < 0) {
		free(*start);
		*start = *pause = NULL;
		goto out;
	}
	ret = 0;
out:
	if (ret < 0 && *b->status != FTC_EXIT_USAGE)
		fprintf(stderr, "ftc hist: cannot compose the hist trigger for %s:%s: %s\n",
			b->s->system, b->s->event, strerror(errno ? errno : EINVAL));
	tracefs_hist_free(h);
	free(text);
	return ret;
}

int hist_spec_build(const struct hist_spec *s, char **start, char **pause, int *status)
{
	struct build b = { .s = s, .status = status };
	struct tep_handle *tep = tep_alloc();
	int ret = -1;

	*status = FTC_EXIT_FAIL;
	*start = *pause = NULL;
	if (!tep) {
		fprintf(stderr, "ftc hist: out of memory\n");
		return -1;
	}
	if (key_types_of(&b) == 0 && check_sort(&b) == 0) {
		b.ev = load_event(tep, s);
		if (b.ev)
			ret = compose(&b, tep, start, pause);
	}
	for (int i = 0; i < HIST_MAX_ITEMS; i++)
		free(b.names[i]);
	tep_free(tep);
	return ret;
}
