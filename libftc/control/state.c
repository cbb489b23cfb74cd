// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The state journal: each write saves what it replaces, in the form that
 * puts it back. Restoring walks the journal newest first, so a knob written
 * twice ends at the value it had before the first write.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tracefs.h>

#include "ftc.h"
#include "ftc-control.h"
#include "control.h"
#include "state.h"

static const char *const list_files[] = {
	"set_ftrace_filter", "set_ftrace_notrace", "set_graph_function",
	"set_graph_notrace", "set_event", "set_event_pid", "set_event_notrace_pid",
	"set_ftrace_pid", "set_ftrace_notrace_pid", "stack_trace_filter", NULL,
};

static bool is_list_file(const char *file)
{
	for (int i = 0; list_files[i]; i++)
		if (!strcmp(file, list_files[i]))
			return true;
	return false;
}

/* events/enable and events/SYS/enable can read "X" (mixed), which cannot
 * be written back: their state is saved through set_event instead. */
static bool is_enable_tree(const char *file)
{
	const char *slash;

	if (!strcmp(file, "events/enable"))
		return true;
	if (strncmp(file, "events/", 7))
		return false;
	slash = strchr(file + 7, '/');
	return slash && !strcmp(slash, "/enable");
}

/* The files that define dynamic events (uprobes, kprobes, eprobes). */
static bool is_probe_file(const char *file)
{
	return !strcmp(file, "uprobe_events") || !strcmp(file, "kprobe_events") ||
	       !strcmp(file, "dynamic_events");
}

static enum knob_kind kind_of(const char *file, const char *value)
{
	if (is_probe_file(file))
		return KNOB_PROBE;
	if (!strcmp(file, "set_ftrace_filter") && ftc_is_func_trigger(value))
		return KNOB_FUNC_TRIGGER;
	if (is_list_file(file) || is_enable_tree(file))
		return KNOB_LIST;
	if (!strcmp(file, "trace_clock"))
		return KNOB_CLOCK;
	if (ftc_str_ends(file, "/filter"))
		return KNOB_FILTER;
	if (ftc_str_ends(file, "/trigger"))
		return KNOB_TRIGGER;
	if (ftc_str_ends(file, "buffer_size_kb"))
		return KNOB_BUFSIZE;
	return KNOB_PLAIN;
}

struct ftc_state *ftc_state_new(void)
{
	struct ftc_state *st = calloc(1, sizeof(*st));

	if (!st) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	st->jf.fd = st->jf.guard_fd = -1;
	return st;
}

size_t ftc_state_count(const struct ftc_state *st)
{
	return st ? st->n : 0;
}

static bool same_instance(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* The kernel's current value, read for saving; a refusal is explained. */
static _Thread_local const char *saving_value;	/* for the message */

static int read_for_save(const char *instance, const char *file, char **value)
{
	if (ftc_knob_read(instance, file, value) == 0)
		return 0;
	return ftc_knob_fail(instance, file, saving_value, errno, NULL, true);
}

struct list_ctx {
	char *out;
	const char *instance;
	bool func_filter;	/* set_ftrace_filter: leave triggers out */
	bool set_event;		/* set_event: leave out events a trigger alone holds */
	int err;
};

/*
 * set_event lists an event that only a trigger holds ("0*" in its enable
 * file): written back, that line would enable it for real, and it would
 * stay enabled once the trigger is gone.
 */
static bool soft_enabled_only(const char *instance, const char *line)
{
	const char *colon = strchr(line, ':');
	char file[512], *v = NULL;
	bool soft;

	if (!colon || (size_t)snprintf(file, sizeof(file), "events/%.*s/%s/enable",
				       (int)(colon - line), line, colon + 1) >= sizeof(file) ||
	    ftc_knob_read(instance, file, &v) < 0)
		return false;
	soft = v[0] == '0' && v[1] == '*';
	free(v);
	return soft;
}

static int keep_list_line(const char *line, void *arg)
{
	struct list_ctx *c = arg;

	if (!strcmp(line, "no pid"))
		return 0;
	if (c->func_filter && ftc_is_func_trigger(line))
		return 0;
	if (c->set_event && soft_enabled_only(c->instance, line))
		return 0;
	return ftc_str_addline(&c->out, line);
}

static int save_list(const char *instance, const char *file, char **undo)
{
	struct list_ctx c = { .func_filter = !strcmp(file, "set_ftrace_filter"),
			      .set_event = !strcmp(file, "set_event"), .instance = instance };
	char *text;

	if (read_for_save(instance, file, &text) < 0)
		return -1;
	if (ftc_lines_each(text, keep_list_line, &c) < 0) {
		free(text);
		free(c.out);
		return -1;
	}
	free(text);
	*undo = c.out ? c.out : strdup("");
	return *undo ? 0 : ftc_error(ENOMEM, "out of memory");
}

static int save_clock(const char *instance, char **undo)
{
	char *text, *open, *close;

	if (read_for_save(instance, "trace_clock", &text) < 0)
		return -1;
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close) {
		free(text);
		return ftc_error(EINVAL, "trace_clock: no [selected] clock in its contents");
	}
	*close = '\0';
	*undo = strdup(open + 1);
	free(text);
	return *undo ? 0 : ftc_error(ENOMEM, "out of memory");
}

static int save_filter(const char *instance, const char *file, char **undo)
{
	if (read_for_save(instance, file, undo) < 0)
		return -1;
	/* "none", or the leftover of a rejected filter: nothing was active */
	if (!strcmp(*undo, "none") || strstr(*undo, "parse_error")) {
		free(*undo);
		*undo = strdup("0");
	}
	return *undo ? 0 : ftc_error(ENOMEM, "out of memory");
}

static int save_bufsize(const char *instance, const char *file, char **undo)
{
	char *exp;

	if (read_for_save(instance, file, undo) < 0)
		return -1;
	/* "7 (expanded: 1410)": the kernel will use 1410 once tracing starts */
	exp = strstr(*undo, "(expanded: ");
	if (exp) {
		char *num = strdup(exp + 11);

		if (num)
			num[strspn(num, "0123456789")] = '\0';
		free(*undo);
		*undo = num;
	}
	return *undo ? 0 : ftc_error(ENOMEM, "out of memory");
}

struct trig_ctx {
	const char *want;	/* the removal line to match */
	bool func;
	char *out;
};

static int match_trigger(const char *line, void *arg)
{
	struct trig_ctx *c = arg;
	char *rm, *add;
	int ret = 0;

	if (c->func && !ftc_is_func_trigger(line))
		return 0;
	rm = ftc_trigger_removal(line, c->func);
	if (!rm)
		return -1;
	if (!strcmp(rm, c->want)) {
		add = ftc_trigger_readd(line, c->func);
		ret = add ? ftc_str_addline(&c->out, add) : -1;
		free(add);
	}
	free(rm);
	return ret;
}

/* Adding a trigger is undone by removing it; removing one by adding back
 * what the kernel had (with its count and filter). */
static int save_trigger(const char *instance, const char *file, const char *value,
			bool func, char **undo)
{
	struct trig_ctx c = { .func = func };
	char *text;
	int ret;

	if (*value != '!') {
		char *rm = ftc_trigger_removal(value, func);

		if (!rm)
			return -1;
		*undo = NULL;
		ret = ftc_str_addline(undo, rm);
		free(rm);
		return ret;
	}
	c.want = ftc_trigger_removal(value, func);
	if (!c.want)
		return -1;
	ret = read_for_save(instance, file, &text);
	if (ret == 0) {
		ret = ftc_lines_each(text, match_trigger, &c);
		free(text);
	}
	free((char *)c.want);
	*undo = c.out;
	return ret;
}

/* "p:GROUP/EVENT ..." is undone by "-:GROUP/EVENT"; a removal ("-:...")
 * is not journaled: nothing would bring the definition back. */
static int save_probe(const char *value, char **undo)
{
	const char *colon = strchr(value, ':'), *end;

	if (*value == '-' || !colon || !strchr(colon, '/'))
		return ftc_error(EINVAL, "'%s': give a probe definition TYPE:GROUP/EVENT ...",
				 value);
	end = colon + strcspn(colon, " \t");
	if (asprintf(undo, "-%.*s", (int)(end - colon), colon) < 0) {
		*undo = NULL;
		return ftc_error(ENOMEM, "out of memory");
	}
	return 0;
}

static int save_old(struct journal_entry *e)
{
	switch (e->kind) {
	case KNOB_LIST:
		return save_list(e->instance, e->undo_file, &e->undo);
	case KNOB_CLOCK:
		return save_clock(e->instance, &e->undo);
	case KNOB_FILTER:
		return save_filter(e->instance, e->file, &e->undo);
	case KNOB_BUFSIZE:
		return save_bufsize(e->instance, e->file, &e->undo);
	case KNOB_TRIGGER:
	case KNOB_FUNC_TRIGGER:
		return save_trigger(e->instance, e->file, e->value,
				    e->kind == KNOB_FUNC_TRIGGER, &e->undo);
	case KNOB_PLAIN:
		return read_for_save(e->instance, e->file, &e->undo);
	case KNOB_PROBE:
		return save_probe(e->value, &e->undo);
	case KNOB_INSTANCE:
		break;
	}
	return 0;
}

static bool already_saved(const struct ftc_state *st, const struct journal_entry *e)
{
	if (e->kind == KNOB_TRIGGER || e->kind == KNOB_FUNC_TRIGGER || e->kind == KNOB_PROBE)
		return false;
	for (size_t i = 0; i < st->n; i++) {
		const struct journal_entry *o = &st->e[i];

		if (o->kind == e->kind && same_instance(o->instance, e->instance) &&
		    !strcmp(o->undo_file, e->undo_file))
			return true;
	}
	return false;
}

static void entry_free(struct journal_entry *e)
{
	free(e->instance);
	free(e->file);
	free(e->value);
	free(e->undo_file);
	free(e->undo);
}

void ftc_journal_entry_free(struct journal_entry *e)
{
	entry_free(e);
}

static int entry_room(struct ftc_state *st)
{
	size_t cap = st->cap ? st->cap * 2 : 16;
	struct journal_entry *bigger;

	if (st->n < st->cap)
		return 0;
	bigger = realloc(st->e, cap * sizeof(*bigger));
	if (!bigger)
		return ftc_error(ENOMEM, "out of memory");
	st->e = bigger;
	st->cap = cap;
	return 0;
}

int ftc_journal_push(struct ftc_state *st, struct journal_entry *e)
{
	if (entry_room(st) < 0)
		return -1;
	st->e[st->n++] = *e;
	return 0;
}

static struct journal_entry *entry_add(struct ftc_state *st, const char *instance,
				       const char *file, const char *value)
{
	struct journal_entry *e;

	if (entry_room(st) < 0)
		return NULL;
	e = &st->e[st->n];
	memset(e, 0, sizeof(*e));
	e->instance = instance && *instance ? strdup(instance) : NULL;
	e->file = strdup(file);
	e->value = strdup(value ? value : "");
	if ((instance && *instance && !e->instance) || !e->file || !e->value) {
		entry_free(e);
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	return e;
}

/* A new entry with the knob's old value saved; not yet counted in st. */
static struct journal_entry *entry_prepare(struct ftc_state *st, const char *instance,
					   const char *file, const char *value)
{
	struct journal_entry *e;

	if (!st || !file || !value) {
		ftc_error(EINVAL, "ftc_knob_write: no journal, file or value");
		return NULL;
	}
	e = entry_add(st, instance, file, value);
	if (!e)
		return NULL;
	e->kind = kind_of(file, value);
	e->undo_file = strdup(is_enable_tree(file) ? "set_event" : file);
	if (!e->undo_file) {
		entry_free(e);
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	e->dup = already_saved(st, e);
	saving_value = *value ? value : NULL;
	if (!e->dup && save_old(e) < 0) {
		saving_value = NULL;
		entry_free(e);
		return NULL;
	}
	saving_value = NULL;
	return e;
}

int ftc_knob_save(struct ftc_state *st, const char *instance, const char *file)
{
	struct journal_entry *e;

	if (kind_of(file, "") == KNOB_TRIGGER)
		return ftc_error(EINVAL, "%s: triggers are saved by the write that changes them", file);
	e = entry_prepare(st, instance, file, "");
	if (!e)
		return -1;
	e->saved_only = true;
	if (ftc_journal_file_append(st, e) < 0) {
		entry_free(e);
		return -1;
	}
	st->n++;
	return 0;
}

static int journal_write(struct ftc_state *st, const char *instance, const char *file,
			 const char *value, bool append)
{
	struct journal_entry *e = entry_prepare(st, instance, file, value);
	int ret;

	if (!e)
		return -1;
	/* On disk before the kernel sees the write: a kill in between leaves
	 * an entry that restores the value it just read, which is harmless. */
	if (ftc_journal_file_append(st, e) < 0) {
		entry_free(e);
		return -1;
	}
	e->append = append;
	/* function triggers live in set_ftrace_filter: appending keeps the filter */
	if (e->kind == KNOB_FUNC_TRIGGER || e->kind == KNOB_TRIGGER || e->kind == KNOB_PROBE)
		append = true;
	ret = ftc_knob_set(instance, file, value, append);
	/* A failed write of a single value or trigger changed nothing, and
	 * restoring it would write a knob for nothing; a list or a filter may
	 * have half-applied (truncated, or left holding the error): keep them. */
	if (ret < 0 && e->kind != KNOB_LIST && e->kind != KNOB_FILTER) {
		int err = errno;

		ftc_journal_file_cut(st, e);
		entry_free(e);
		errno = err;
		return -1;
	}
	e->failed = ret < 0;
	st->n++;
	return ret;
}

int ftc_knob_write(struct ftc_state *st, const char *instance, const char *file,
		   const char *value)
{
	return journal_write(st, instance, file, value, false);
}

int ftc_knob_append(struct ftc_state *st, const char *instance, const char *file,
		    const char *value)
{
	return journal_write(st, instance, file, value, true);
}

int ftc_instance_create(struct ftc_state *st, const char *instance)
{
	struct tracefs_instance *ti;
	struct journal_entry *e;

	if (!instance || !*instance)
		return 0;
	if (strchr(instance, '/') || !strcmp(instance, ".") || !strcmp(instance, ".."))
		return ftc_error(EINVAL, "instance '%s': a name cannot contain '/'", instance);
	if (tracefs_instance_exists(instance))
		return 0;
	if (!ftc_knob_exists(NULL, "instances"))
		return ftc_error(ENOENT, "instances: absent: this kernel has no trace instances; run `ftc check`");
	e = st ? entry_add(st, instance, "instances", instance) : NULL;
	if (st && !e)
		return -1;
	if (e) {
		e->kind = KNOB_INSTANCE;
		e->undo_file = strdup("instances");
		if (!e->undo_file) {
			entry_free(e);
			return ftc_error(ENOMEM, "out of memory");
		}
		if (ftc_journal_file_append(st, e) < 0) {
			entry_free(e);
			return -1;
		}
	}
	ti = tracefs_instance_create(instance);
	if (!ti) {
		int err = errno;

		if (e) {
			ftc_journal_file_cut(st, e);
			entry_free(e);
		}
		return ftc_error(err, "instances/%s: cannot create the instance: %s", instance,
				 strerror(err));
	}
	tracefs_instance_free(ti);
	if (e)
		st->n++;
	return 1;
}

static int remove_instance(const char *name)
{
	struct tracefs_instance *ti;
	int ret, err;

	if (!tracefs_instance_exists(name))
		return 0;	/* removed already, by hand or by an earlier restore */
	ti = tracefs_instance_alloc(NULL, name);
	if (!ti)
		return ftc_error(errno, "instances/%s: %s", name, strerror(errno));
	/*
	 * A process that has one of its files open (a trace_marker writer, a
	 * reader) makes rmdir fail with EBUSY until it closes it: give such
	 * short-lived openers a second before giving up.
	 */
	for (int i = 0; (ret = tracefs_instance_destroy(ti)) < 0 && errno == EBUSY && i < 50; i++)
		usleep(20000);
	err = errno;
	tracefs_instance_free(ti);
	if (ret < 0 && err == ENOENT)
		return 0;	/* removed meanwhile */
	if (ret < 0)
		return ftc_error(err, "instances/%s: cannot remove the instance we created: %s%s%s%s",
				 name, strerror(err),
				 err == EBUSY ? " (a process still has one of its files open; "
						"`ftc reset -d -B " : "",
				 err == EBUSY ? name : "", err == EBUSY ? "` removes it later)" : "");
	return 0;
}

/* Gone already (removed by hand): nothing to do. */
static int remove_probe(const struct journal_entry *e)
{
	if (ftc_knob_set(NULL, e->undo_file, e->undo, true) == 0 || errno == ENOENT)
		return 0;
	return -1;
}

struct undo_ctx {
	const struct journal_entry *e;
};

static int undo_line(const char *line, void *arg)
{
	struct undo_ctx *c = arg;

	return ftc_knob_set(c->e->instance, c->e->undo_file, line, true);
}

static int undo_entry(const struct journal_entry *e)
{
	struct undo_ctx c = { e };
	char *copy;
	int ret;

	if (e->dup)
		return 0;
	/* Removed meanwhile (by hand, or an instance we created): nothing to put back in it. */
	if (e->instance && e->kind != KNOB_INSTANCE && !tracefs_instance_exists(e->instance))
		return 0;
	switch (e->kind) {
	case KNOB_INSTANCE:
		return remove_instance(e->instance);
	case KNOB_PROBE:
		return remove_probe(e);
	case KNOB_TRIGGER:
	case KNOB_FUNC_TRIGGER:
		if (!e->undo)
			return 0;
		copy = strdup(e->undo);
		if (!copy)
			return ftc_error(ENOMEM, "out of memory");
		ret = ftc_lines_each(copy, undo_line, &c);
		free(copy);
		return ret;
	default:
		return ftc_knob_set(e->instance, e->undo_file, e->undo ? e->undo : "", false);
	}
}

int ftc_state_restore(struct ftc_state *st)
{
	char first[512] = "";
	int first_err = 0;

	if (!st)
		return 0;
	while (st->n) {
		struct journal_entry *e = &st->e[--st->n];

		if (undo_entry(e) < 0 && !first_err) {
			first_err = errno ? errno : EIO;
			snprintf(first, sizeof(first), "%s", ftc_strerror());
		}
		/* what is undone leaves the file, so a kill now redoes only the rest */
		ftc_journal_file_cut(st, e);
		entry_free(e);
	}
	ftc_journal_file_done(st);
	ftc_journal_guard_done(st);
	if (first_err)
		return ftc_error(first_err, "restoring tracefs: %s", first);
	return 0;
}

void ftc_state_free(struct ftc_state *st)
{
	if (!st)
		return;
	/* Neither restored nor kept: the guardian restores from the file,
	 * once our descriptor (and its lock) is gone. */
	if (st->jf.fd >= 0)
		close(st->jf.fd);
	ftc_journal_guard_release(st);
	free(st->jf.path);
	for (size_t i = 0; i < st->n; i++)
		entry_free(&st->e[i]);
	free(st->e);
	free(st);
}

void ftc_state_print(const struct ftc_state *st, FILE *f)
{
	for (size_t i = 0; st && i < st->n; i++) {
		const struct journal_entry *e = &st->e[i];

		if (e->saved_only || e->failed)
			continue;
		if (e->kind == KNOB_INSTANCE) {
			fprintf(f, "instance %s: created\n", e->instance);
			continue;
		}
		if (e->instance)
			fprintf(f, "instances/%s/", e->instance);
		fprintf(f, "%s %s ", e->file, e->append ? "+=" : "=");
		/* list values are one item per line: show them on one */
		for (const char *v = e->value; *v; v++)
			if (*v != '\n' || v[1])
				fputc(*v == '\n' ? ' ' : *v, f);
		fputc('\n', f);
	}
}

void ftc_state_set_stop(struct ftc_state *st, const volatile sig_atomic_t *stop)
{
	if (st)
		st->stop = stop;
}

bool ftc_state_stopped(const struct ftc_state *st)
{
	return st && st->stop && *st->stop;
}
