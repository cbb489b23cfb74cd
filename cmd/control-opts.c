// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tracing-control options (trace-cmd's letters), read into a session
 * of libftc (ftc-session.h), which writes them in the kernel's order; and
 * the buffer choice of stop, restart and clear.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control-opts.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-control.h"
#include "ftc-dynprobe.h"
#include "rec-select.h"

const struct cmd_option control_options[] = {
	{ 'p', "tracer", "TRACER", "current_tracer (function, function_graph, nop, ...)", 'p' },
	{ 'e', "event", "EVENT", "enable SYSTEM, SYSTEM:EVENT, EVENT or all; globs: 'sched:*', '*:irq*'", 'e' },
	{ 'f', "filter", "FILTER", "filter for the preceding -e (e.g. 'prev_pid == 1')", 'f' },
	{ 'R', "trigger", "TRIGGER", "trigger for the last -e (traceoff:3, 'stacktrace if prev_pid == 1')", 'R' },
	{ 'T', "stacktrace", NULL, "record a stack trace with every event (option stacktrace)", 'T' },
	{ 'l', "func", "FUNC", "trace only FUNC (set_ftrace_filter): glob, regex or FUNC:mod:MODULE", 'l' },
	{ 'n', "notrace", "FUNC", "never trace FUNC (set_ftrace_notrace)", 'n' },
	{ 'g', "graph-func", "FUNC", "graph only from FUNC (set_graph_function)", 'g' },
	{ 'O', "option", "OPTION", "set a trace option; noOPTION clears it", 'O' },
	{ 'C', "clock", "CLOCK", "trace_clock (local, global, mono, ...)", 'C' },
	{ 'b', "buffer-size", "KB", "per-CPU ring buffer size in KB (buffer_size_kb)", 'b' },
	{ 'B', "instance", "NAME", "use instance NAME (created if missing) for the "
	  "options after this -B", 'B' },
	{ 'M', "cpumask", "MASK", "trace only the CPUs of this hex mask (tracing_cpumask)", 'M' },
	{ 'P', "pid", "PID", "trace only PID (set_event_pid; set_ftrace_pid for function tracers)", 'P' },
	{ 'c', "children", NULL, "with -P or -F: trace their children too (options/event-fork)", 'c' },
	{ 0, "max-graph-depth", "N", "function_graph depth limit (max_graph_depth)",
	  FTC_OPT_MAX_GRAPH_DEPTH },
	{ 0, "func-trigger", "FUNC:CMD[:N]", "function trigger (vfs_read:traceoff:5); !FUNC:CMD[:0] removes one",
	  FTC_OPT_FUNC_TRIGGER },
	{ 0, "subbuf-size", "KB", "ring buffer sub-buffer size (buffer_subbuf_size_kb)",
	  FTC_OPT_SUBBUF_SIZE },
	{ 0, "graph-notrace", "FUNC", "do not graph FUNC (set_graph_notrace)", FTC_OPT_GRAPH_NOTRACE },
	{ 0, "no-tracing-on", NULL, "configure but leave tracing_on 0 (a traceon trigger starts it)",
	  FTC_OPT_NO_TRACING_ON },
	{ 0, "cmdlines-size", "N", "remember N task names (saved_cmdlines_size; global, not per instance)",
	  FTC_OPT_CMDLINES_SIZE },
	{ 0, "probe", "SPEC", "a dynamic probe for this run: './prog:f n s:string' "
	  "(ftc-probe(1))", FTC_OPT_PROBE },
	{ 0, "tracer-opt", "FILE=VALUE", "a latency tracer's setting (osnoise/period_us=1000)", FTC_OPT_TRACER_OPT },
	{ 0 }
};

/* The session reads no environment: the command passes the test hook on. */
struct ftc_session *control_session_new(void)
{
	struct ftc_session *s = ftc_session_new();
	const char *delay = getenv("FTC_CONTROL_STEP_DELAY_MS");

	if (s && delay)
		ftc_session_set_step_delay(s, (unsigned int)strtoul(delay, NULL, 10));
	return s;
}

/* The library's reason, after the option and its value (cmd_bad_value). */
static int stored(int ret)
{
	return ret < 0 ? cmd_bad_value("%s", ftc_strerror()) : 1;
}

static int set_number(struct ftc_session *s, enum ftc_session_number what, const char *arg)
{
	unsigned long long v;

	if (cmd_parse_u64(arg, &v) < 0)
		return cmd_bad_value("not a number (use a whole number, e.g. 10)");
	return stored(ftc_session_set_number(s, what, v));
}

static const struct {
	int id;
	enum ftc_session_knob knob;
} knobs[] = {
	{ 'p', FTC_SESSION_TRACER }, { 'C', FTC_SESSION_CLOCK }, { 'M', FTC_SESSION_CPUMASK },
	{ 'O', FTC_SESSION_OPTION }, { 'l', FTC_SESSION_FUNC }, { 'n', FTC_SESSION_NOTRACE },
	{ 'g', FTC_SESSION_GRAPH_FUNC }, { FTC_OPT_GRAPH_NOTRACE, FTC_SESSION_GRAPH_NOTRACE },
	{ FTC_OPT_FUNC_TRIGGER, FTC_SESSION_FUNC_TRIGGER }, { 'P', FTC_SESSION_PID },
	{ FTC_OPT_PROBE, FTC_SESSION_PROBE }, { 'e', FTC_SESSION_EVENT },
	{ FTC_OPT_TRACER_OPT, FTC_SESSION_TRACER_OPT },
	{ 'f', FTC_SESSION_EVENT_FILTER }, { 'R', FTC_SESSION_EVENT_TRIGGER },
};

static int set_knob(struct ftc_session *s, int id, const char *arg)
{
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		if (knobs[i].id != id)
			continue;
		/* a filter's error gets a caret under the place */
		if (id == 'f' && rec_filter_kernel(arg) < 0)
			return -1;
		return stored(ftc_session_set(s, knobs[i].knob, arg));
	}
	return 0;
}

int control_session_opt(struct ftc_session *s, int id, const char *arg)
{
	switch (id) {
	case 'B': return stored(ftc_session_instance(s, arg));
	case 'b': return set_number(s, FTC_SESSION_BUFFER_KB, arg);
	case FTC_OPT_SUBBUF_SIZE: return set_number(s, FTC_SESSION_SUBBUF_KB, arg);
	case FTC_OPT_MAX_GRAPH_DEPTH: return set_number(s, FTC_SESSION_MAX_GRAPH_DEPTH, arg);
	case FTC_OPT_CMDLINES_SIZE: return set_number(s, FTC_SESSION_CMDLINES_SIZE, arg);
	case 'T': return stored(ftc_session_set_flag(s, FTC_SESSION_STACKTRACE));
	case 'c': return stored(ftc_session_set_flag(s, FTC_SESSION_EVENT_FORK));
	case FTC_OPT_NO_TRACING_ON: return stored(ftc_session_set_flag(s, FTC_SESSION_NO_TRACING_ON));
	default: return set_knob(s, id, arg);
	}
}

int control_exit_status(int err)
{
	if (err == EINTR)
		return FTC_EXIT_INTERRUPTED;
	return ftc_errno_refused(err) ? FTC_EXIT_REFUSED : FTC_EXIT_FAIL;
}

int buffer_choice_opt(struct buffer_choice *c, int id, const char *arg)
{
	const char **names;

	switch (id) {
	case 'B':
		names = realloc(c->names, (c->n + 1) * sizeof(*names));
		if (!names)
			return cmd_bad_value("out of memory");
		c->names = names;
		c->names[c->n++] = arg;
		return 1;
	case 'a': c->all = true; return 1;
	case 't': c->top = true; return 1;
	default: return 0;
	}
}

void buffer_choice_free(struct buffer_choice *c)
{
	free(c->names);
	c->names = NULL;
	c->n = 0;
}

int buffer_choice_check(const struct buffer_choice *c)
{
	char missing[512] = "";
	size_t len = 0, n = 0;

	if (!ftc_tracefs_dir())
		return ftc_error(ENODEV, "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	/* name every missing one: fixing them one run at a time is tedious */
	for (size_t i = 0; i < c->n; i++) {
		if (ftc_info_instance_exists(c->names[i]))
			continue;
		if (len < sizeof(missing))
			len += (size_t)snprintf(missing + len, sizeof(missing) - len, "%s'%s'",
						n ? ", " : "", c->names[i]);
		n++;
	}
	if (!n)
		return 0;
	return ftc_error(ENOENT, "instance%s %s do%s not exist (see `ftc list -B`)",
			 n > 1 ? "s" : "", missing, n > 1 ? "" : "es");
}

int buffer_choice_each(const struct buffer_choice *c, bool all_has_top,
		       int (*fn)(const char *instance, void *ctx), void *ctx)
{
	bool top = c->top || (!c->n && !c->all) || (c->all && all_has_top);
	char **names = NULL;
	int ret = 0;

	if (top && fn(NULL, ctx) < 0)
		ret = -1;
	if (c->all)
		names = ftc_info_instances();
	for (int i = 0; names && names[i]; i++)
		if (fn(names[i], ctx) < 0)
			ret = -1;
	ftc_list_free(names);
	for (size_t i = 0; !c->all && i < c->n; i++)
		if (fn(c->names[i], ctx) < 0)
			ret = -1;
	return ret;
}

#define BUFFER_B_HELP "this instance instead of the top level (repeatable)"

const struct cmd_option instance_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", BUFFER_B_HELP, 'B' },
	{ 'a', "all", NULL, "every instance (the top level too with -t)", 'a' },
	{ 't', "top", NULL, "the top level too, with -B or -a", 't' },
	{ 0 }
};

/* trace-cmd clear's -a takes the top level too. */
const struct cmd_option clear_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", BUFFER_B_HELP, 'B' },
	{ 'a', "all", NULL, "every instance and the top level", 'a' },
	{ 't', "top", NULL, "the top level too, with -B", 't' },
	{ 0 }
};

static int instance_opt(int id, const char *arg, void *ctx)
{
	return buffer_choice_opt(ctx, id, arg) < 0 ? -1 : 0;
}

int instance_command_run(const struct command *cmd, int argc, char **argv,
			 int (*fn)(const char *instance, void *ctx))
{
	struct buffer_choice c = { 0 };
	int ret = cmd_options_parse(cmd, argc, argv, instance_opt, &c);

	if (ret < 0) {
		ret = cmd_options_exit(ret);
		goto out;
	}
	if (ret < argc) {
		cmd_error(cmd, "unexpected argument '%s' (see 'ftc %s --help')",
			  argv[ret], cmd->name);
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	if (c.all && c.n) {
		cmd_error(cmd, "-a and -B exclude each other");
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	ret = FTC_EXIT_OK;
	if (buffer_choice_check(&c) < 0 ||
	    buffer_choice_each(&c, cmd->options == clear_options, fn, NULL) < 0) {
		cmd_error(cmd, "%s", ftc_strerror());
		ret = control_exit_status(errno);
	}
out:
	buffer_choice_free(&c);
	return ret;
}
