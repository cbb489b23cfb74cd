// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Back to the kernel's defaults, one knob at a time. Only knobs that
 * differ from the default are written, so a kernel that refuses a feature
 * is only bothered when that feature is really in use; knobs that cannot
 * be read or written are reported and skipped, never fatal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "ftc.h"
#include "ftc-control.h"
#include "control.h"
#include "tracefs-layer.h"

struct reset_ctx {
	const char *instance;
	ftc_reset_report_fn report;
	void *arg;
	int refused;
};

/* Options the kernel turns on (TRACE_DEFAULT_FLAGS and the tracers' own
 * defaults); every other option defaults to off. The second group is on
 * only in the top-level buffer. */
static const char *const options_on[] = {
	"print-parent", "annotate", "context-info", "overwrite", "irq-info", "markers",
	"function-trace", "hash-ptr", "funcgraph-cpu", "funcgraph-overhead",
	"funcgraph-duration", "funcgraph-irqs", "sleep-time", "graph-time", NULL,
};
static const char *const top_options_on[] = {
	"trace_printk", "record-cmd", "copy_trace_marker", "trace_printk_dest", NULL,
};

static bool in_list(const char *const *list, const char *name)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static void trouble(struct reset_ctx *c, const char *file)
{
	c->refused++;
	if (c->report)
		c->report(file, ftc_strerror(), false, c->arg);
}

/*
 * A knob the kernel lets no one read (set_ftrace_filter where function
 * filtering is refused) no one can have set either: there is nothing to
 * reset, and the caller only learns that it was not checked.
 */
static void unread(struct reset_ctx *c, const char *file)
{
	if (c->report)
		c->report(file, ftc_strerror(), true, c->arg);
}

static void changed(struct reset_ctx *c, const char *file)
{
	if (c->report)
		c->report(file, NULL, false, c->arg);
}

/* Writes value unless the knob already reads want (NULL: always write). */
static void set_knob(struct reset_ctx *c, const char *file, const char *want,
		     const char *value)
{
	char *cur = NULL;

	if (!ftc_knob_exists(c->instance, file))
		return;
	if (want) {
		if (ftc_knob_read(c->instance, file, &cur) < 0) {
			ftc_knob_fail(c->instance, file, NULL, errno, NULL, true);
			unread(c, file);
			return;
		}
		if (!strcmp(cur, want)) {
			free(cur);
			return;
		}
		free(cur);
	}
	if (ftc_knob_set(c->instance, file, value, false) < 0)
		trouble(c, file);
	else
		changed(c, file);
}

enum list_mode {
	LIST_PLAIN,		/* set_event, set_*_pid, ...: items only */
	LIST_TRIGGERS,		/* an event's trigger file: triggers only */
	LIST_FUNC,		/* set_ftrace_filter: items and function triggers */
};

struct list_reset {
	struct reset_ctx *c;
	const char *file;
	enum list_mode mode;
	bool has_items;
};

static int remove_trigger_line(const char *line, void *arg)
{
	struct list_reset *l = arg;
	char *rm;

	if (l->mode == LIST_PLAIN || (l->mode == LIST_FUNC && !ftc_is_func_trigger(line))) {
		if (strcmp(line, "no pid"))
			l->has_items = true;
		return 0;
	}
	rm = ftc_trigger_removal(line, l->mode == LIST_FUNC);
	if (!rm)
		return 0;
	if (ftc_knob_set(l->c->instance, l->file, rm, true) < 0)
		trouble(l->c, l->file);
	else
		changed(l->c, l->file);
	free(rm);
	return 0;
}

/* Triggers are removed one by one; a list is emptied by truncation. */
static void reset_lines(struct reset_ctx *c, const char *file, enum list_mode mode)
{
	struct list_reset l = { c, file, mode, false };
	char *text;

	if (!ftc_knob_exists(c->instance, file))
		return;
	if (ftc_knob_read(c->instance, file, &text) < 0) {
		ftc_knob_fail(c->instance, file, NULL, errno, NULL, true);
		unread(c, file);
		return;
	}
	ftc_lines_each(text, remove_trigger_line, &l);
	free(text);
	if (!l.has_items)
		return;
	if (ftc_knob_set(c->instance, file, "", false) < 0)
		trouble(c, file);
	else
		changed(c, file);
}

static void reset_event_files(struct reset_ctx *c)
{
	const char *top = ftc_tracefs_dir();
	char **systems = top ? tracefs_event_systems(top) : NULL;

	for (int i = 0; systems && systems[i]; i++) {
		char **events = tracefs_system_events(top, systems[i]);

		for (int j = 0; events && events[j]; j++) {
			char file[512];

			snprintf(file, sizeof(file), "events/%s/%s/trigger", systems[i], events[j]);
			reset_lines(c, file, LIST_TRIGGERS);
			snprintf(file, sizeof(file), "events/%s/%s/filter", systems[i], events[j]);
			set_knob(c, file, "none", "0");
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
}

static void reset_options(struct reset_ctx *c)
{
	bool top = !c->instance || !*c->instance;
	char **names;
	int n = ftc_tracefs_list(c->instance, "options", &names);

	for (int i = 0; i < n; i++) {
		bool on = in_list(options_on, names[i]) ||
			  (top && in_list(top_options_on, names[i]));
		char file[300];

		snprintf(file, sizeof(file), "options/%s", names[i]);
		set_knob(c, file, on ? "1" : "0", on ? "1" : "0");
	}
	tracefs_list_free(names);
}

/* Every CPU the instance has a per_cpu directory for, as a hex mask in the
 * kernel's format (32-bit groups separated by commas). */
static char *all_cpus_mask(const char *instance)
{
	int *cpus = NULL, n = ftc_info_percpu_cpus(instance, &cpus);
	char *mask = n > 0 ? ftc_cpumask_format(cpus, n) : NULL;

	free(cpus);
	return mask;
}

static void reset_buffers(struct reset_ctx *c)
{
	char *mask = all_cpus_mask(c->instance), *size = NULL;

	if (mask)
		set_knob(c, "tracing_cpumask", mask, mask);
	free(mask);
	/* sub-buffer first: the buffer size is rounded to sub-buffers */
	set_knob(c, "buffer_subbuf_size_kb", "4", "4");
	/* the kernel's default is 1408 KB, which reads back rounded up to
	 * whole sub-buffers (1410 here); only a real change is written */
	if (ftc_knob_exists(c->instance, "buffer_size_kb") &&
	    ftc_knob_read(c->instance, "buffer_size_kb", &size) == 0) {
		const char *num = strstr(size, "expanded: ");
		unsigned long kb = strtoul(num ? num + 10 : size, NULL, 10);

		if (kb < 1408 || kb > 1424)
			set_knob(c, "buffer_size_kb", NULL, "1408");
	}
	free(size);
	set_knob(c, "tracing_thresh", "0", "0");
	set_knob(c, "buffer_percent", "50", "50");
}

static void reset_clock(struct reset_ctx *c)
{
	char *clk, *sel;

	if (!ftc_knob_exists(c->instance, "trace_clock") ||
	    ftc_knob_read(c->instance, "trace_clock", &clk) < 0)
		return;
	sel = ftc_tracefs_selected(clk);
	if (!sel || strcmp(sel, "local"))
		set_knob(c, "trace_clock", NULL, "local");
	free(sel);
	free(clk);
}

static void reset_snapshot(struct reset_ctx *c)
{
	char *text = NULL;
	int fd_ok;

	if (!ftc_knob_exists(c->instance, "snapshot"))
		return;
	/* reading a freed snapshot says so in its header */
	fd_ok = ftc_knob_read(c->instance, "snapshot", &text) == 0;
	if (fd_ok && !strstr(text, "Snapshot is freed"))
		set_knob(c, "snapshot", NULL, "0");
	free(text);
}

int ftc_reset(const char *instance, ftc_reset_report_fn report, void *arg)
{
	struct reset_ctx c = { instance, report, arg, 0 };
	static const char *const func_lists[] = {
		"set_ftrace_filter", "set_ftrace_notrace", "set_graph_function",
		"set_graph_notrace", "set_ftrace_pid", "set_ftrace_notrace_pid", NULL,
	};

	if (instance && *instance && !tracefs_instance_exists(instance))
		return ftc_error(ENOENT, "instance '%s' does not exist (see `ftc list`)", instance);
	if (!ftc_tracefs_dir())
		return ftc_error(ENODEV, "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	set_knob(&c, "current_tracer", "nop", "nop");
	reset_lines(&c, "set_event", LIST_PLAIN);
	reset_event_files(&c);
	reset_lines(&c, "set_event_pid", LIST_PLAIN);
	reset_lines(&c, "set_event_notrace_pid", LIST_PLAIN);
	for (int i = 0; func_lists[i]; i++)
		reset_lines(&c, func_lists[i], i == 0 ? LIST_FUNC : LIST_PLAIN);
	set_knob(&c, "max_graph_depth", "0", "0");
	reset_options(&c);
	reset_clock(&c);
	reset_buffers(&c);
	reset_snapshot(&c);
	set_knob(&c, "tracing_on", "1", "1");
	if (ftc_buffer_clear(instance) < 0)
		trouble(&c, "trace");
	return c.refused;
}

int ftc_instance_remove(const char *instance)
{
	int err = instance && *instance ? -ftc_tracefs_rmdir(instance) : EINVAL;

	if (!err)
		return 0;
	return ftc_error(err, "instances/%s: cannot remove it: %s", instance ? instance : "",
			 strerror(err));
}
