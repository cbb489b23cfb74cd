// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading and writing one tracefs knob, with errors a user can act on: the
 * file, the value, the kernel's reason, and the kernel's own error_log entry
 * when it left one (event filters, triggers and probe definitions do).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "ftc.h"
#include "ftc-control.h"
#include "control.h"
#include "tracefs-layer.h"

bool ftc_errno_refused(int err)
{
	return err == EPERM || err == EACCES || err == ENOENT || err == ENODEV ||
	       err == EOPNOTSUPP;
}

bool ftc_knob_exists(const char *instance, const char *file)
{
	return ftc_tracefs_exists(instance, file);
}

int ftc_knob_read(const char *instance, const char *file, char **value)
{
	size_t len;

	if (ftc_tracefs_read(instance, file, value, &len) < 0)
		return -1;
	while (len && (*value)[len - 1] == '\n')
		(*value)[--len] = '\0';
	return 0;
}

char *ftc_error_log_last(const char *instance)
{
	struct tracefs_instance *ti = NULL;
	char *last;

	if (instance && *instance) {
		ti = tracefs_instance_alloc(NULL, instance);
		if (!ti)
			return NULL;
	}
	last = tracefs_error_last(ti);
	tracefs_instance_free(ti);
	if (last && !*last) {
		free(last);
		last = NULL;
	}
	return last;
}

static bool is_function_knob(const char *file)
{
	return !strncmp(file, "set_ftrace_", 11) || !strncmp(file, "set_graph_", 10) ||
	       !strcmp(file, "max_graph_depth") || !strcmp(file, "available_filter_functions");
}

/* What the errno means for this file, in the user's terms. */
static bool is_probe_file(const char *file)
{
	return !strcmp(file, "uprobe_events") || !strcmp(file, "kprobe_events") ||
	       !strcmp(file, "dynamic_events");
}

/* A probe definition's errors are about its symbol, event or fetchargs,
 * which the kernel's error_log entry points at. */
static const char *probe_hint(int err)
{
	switch (err) {
	case ENOENT:
		return "no such symbol, event or field (see the error_log entry)";
	case EINVAL:
		return "the kernel rejected the definition";
	case EBUSY:
		return "the probe's event is enabled or open somewhere";
	case EEXIST:
		return "an event of that name exists already";
	default:
		return NULL;
	}
}

static const char *reason_hint(const char *file, const char *value, int err)
{
	bool func_tracer = !strcmp(file, "current_tracer") && value &&
			   !strncmp(value, "function", 8);

	if (is_probe_file(file) && probe_hint(err))
		return probe_hint(err);
	switch (err) {
	case EPERM:
	case EACCES:
		if (is_function_knob(file))
			return "this kernel refuses function filtering (lockdown?); run `ftc check`";
		if (func_tracer)
			return "this kernel refuses the function tracers (lockdown?); run `ftc check`";
		return "the kernel refuses this knob (lockdown, or not root?); run `ftc check`";
	case ENOENT:
	case ENODEV:
		return "absent: this kernel lacks the feature; run `ftc check`";
	case EINVAL:
		if (!strcmp(file, "current_tracer"))
			return "not an available tracer (see `ftc list` or available_tracers)";
		if (!strcmp(file, "trace_clock"))
			return "not an available clock (see trace_clock)";
		if (is_function_knob(file))
			return "no traceable function matches (see available_filter_functions)";
		return "the kernel rejected the value";
	case EEXIST:
		return "already set (remove it first with '!')";
	case EBUSY:
		return "busy (a reader or another tracer holds it)";
	default:
		return NULL;
	}
}

bool ftc_str_ends(const char *file, const char *suffix)
{
	size_t n = strlen(file), m = strlen(suffix);

	return n >= m && !strcmp(file + n - m, suffix);
}

static bool logs_errors(const char *file)
{
	return ftc_str_ends(file, "/filter") || ftc_str_ends(file, "/trigger") ||
	       is_probe_file(file);
}

int ftc_lines_each(char *text, int (*fn)(const char *line, void *ctx), void *ctx)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		int ret;

		if (!*l || *l == '#')
			continue;
		ret = fn(l, ctx);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int ftc_str_addline(char **buf, const char *line)
{
	size_t old = *buf ? strlen(*buf) : 0, add = strlen(line);
	char *p = realloc(*buf, old + add + 2);

	if (!p)
		return ftc_error(ENOMEM, "out of memory");
	memcpy(p + old, line, add);
	p[old + add] = '\n';
	p[old + add + 1] = '\0';
	*buf = p;
	return 0;
}

/*
 * The value goes out newline-terminated: list files such as
 * set_ftrace_filter only act on (and report errors for) a word when its
 * end is seen; an unterminated last word is applied at close, where the
 * kernel drops errors and, for function commands, the command itself.
 * A write of nothing still tells list files to truncate (at open).
 */
static int put_line(const char *instance, const char *file, const char *value, bool append)
{
	size_t len = strlen(value);
	char *buf = malloc(len + 2);
	int ret;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, value, len + 1);
	if (len && buf[len - 1] != '\n')
		buf[len++] = '\n';
	ret = ftc_tracefs_put(instance, file, buf, len, append);
	free(buf);
	return ret;
}

int ftc_knob_fail(const char *instance, const char *file, const char *value,
		  int err, const char *before, bool reading)
{
	const char *hint = reason_hint(file, value, err);
	/* only a write that saved the log's last entry before can tell a new
	 * entry (about it) from an old one */
	char *log = !reading && before && logs_errors(file) ? ftc_error_log_last(instance) : NULL;
	char where[256];

	if (instance && *instance)
		snprintf(where, sizeof(where), "instances/%s/%s", instance, file);
	else
		snprintf(where, sizeof(where), "%s", file);
	if (log && !strcmp(log, before)) {
		free(log);	/* an old entry, not about this write */
		log = NULL;
	}
	ftc_error(err, "%s: cannot %s%s%s: %s%s%s%s%s", where,
		  reading ? (value ? "save its value before writing '" : "read it") : "write '",
		  value ? value : "", value ? "'" : "",
		  strerror(err), hint ? ": " : "", hint ? hint : "",
		  log ? "\nkernel error_log:\n" : "", log ? log : "");
	free(log);
	return -1;
}

int ftc_knob_set(const char *instance, const char *file, const char *value, bool append)
{
	char *before = NULL;
	int err;

	if (!ftc_tracefs_dir())
		return ftc_error(ENODEV, "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	/* "" when the log is empty, so that any entry after the write is new */
	if (logs_errors(file)) {
		before = ftc_error_log_last(instance);
		if (!before)
			before = strdup("");
	}
	err = -put_line(instance, file, value, append);
	if (err)
		ftc_knob_fail(instance, file, value, err, before, false);
	free(before);
	return err ? -1 : 0;
}
