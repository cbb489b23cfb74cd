// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc boot-args: turns record-style options into the kernel's boot
 * parameters (Documentation/admin-guide/kernel-parameters.txt), so a kernel
 * that dies before userspace still traces. Writes nothing anywhere.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "options.h"
#include "output.h"
#include "ftc.h"

#define MAX_ITEMS 64

struct item_list {
	const char *v[MAX_ITEMS];
	int n;
};

struct boot_args {
	const char *tracer, *clock, *buf_kb, *depth, *kernel;
	struct item_list filter, notrace, graph, events, triggers, opts;
	bool dump, dump_orig, traceoff_warn, lines;
	char trigger_text[MAX_ITEMS][512];
};

enum {
	OPT_DEPTH = 0x100, OPT_DUMP, OPT_DUMP_ORIG, OPT_TRACEOFF_WARN, OPT_LINES, OPT_KERNEL,
};

static const struct cmd_option boot_options[] = {
	{ 'p', "tracer", "TRACER", "the tracer to start at boot (ftrace=)", 'p' },
	{ 'e', "event", "EVENT", "an event, system or glob to enable (trace_event=); "
	  "repeatable", 'e' },
	{ 'R', "trigger", "TRIGGER", "trace_trigger= on the last -e, e.g. 'stacktrace "
	  "if prev_state == 2'", 'R' },
	{ 'l', "func", "FUNC", "trace only this function or glob (ftrace_filter=); "
	  "repeatable", 'l' },
	{ 'n', "notrace", "FUNC", "never trace this function (ftrace_notrace=); "
	  "repeatable", 'n' },
	{ 'g', "graph-func", "FUNC", "graph only from this function (ftrace_graph_filter=); "
	  "repeatable", 'g' },
	{ 0, "max-graph-depth", "N", "graph depth limit (ftrace_graph_max_depth=)", OPT_DEPTH },
	{ 'b', "buffer-size", "KB", "per-CPU buffer size in KiB (trace_buf_size=)", 'b' },
	{ 'C', "clock", "CLOCK", "the trace clock (trace_clock=)", 'C' },
	{ 'O', "option", "OPTION", "a trace option, 'name' or 'noname' (trace_options=); "
	  "repeatable", 'O' },
	{ 0, "dump-on-oops", NULL, "dump every CPU's buffer to the console on oops "
	  "(ftrace_dump_on_oops)", OPT_DUMP },
	{ 0, "dump-orig-cpu", NULL, "dump only the oopsing CPU's buffer "
	  "(ftrace_dump_on_oops=orig_cpu)", OPT_DUMP_ORIG },
	{ 0, "traceoff-on-warning", NULL, "stop tracing at the first WARN "
	  "(traceoff_on_warning)", OPT_TRACEOFF_WARN },
	{ 0, "lines", NULL, "print one parameter per line instead of one line", OPT_LINES },
	{ 0, "kernel", "VERSION", "the target kernel, to warn of what it lacks (default: uname -r)",
	  OPT_KERNEL },
	FTC_HELP_OPTION,
	{ 0 }
};

static int boot_run(int argc, char **argv);

const struct command cmd_boot_args = {
	.name = "boot-args",
	.summary = "turn record-style options into kernel boot parameters for boot-time "
		   "tracing",
	.synopsis = "[-p TRACER] [-e EVENT [-R TRIGGER]]... [-l FUNC]... [-g FUNC]... "
		    "[options]",
	.options = boot_options,
	.run = boot_run,
};

static int item_add(struct item_list *l, const char *what, const char *s)
{
	if (!*s || strchr(s, '"') || strchr(s, ' ') || strchr(s, ',')) {
		return cmd_bad_value("a boot parameter cannot hold an empty value, a space, "
				     "a comma or a quote");
	}
	if (l->n == MAX_ITEMS)
		return cmd_bad_value("more than %d %s values", MAX_ITEMS, what);
	l->v[l->n++] = s;
	return 0;
}

/* trace_trigger= names an event without its system: "<event>.<trigger>". */
static int trigger_add(struct boot_args *a, const char *trigger)
{
	const char *ev = a->events.n ? a->events.v[a->events.n - 1] : NULL;
	const char *name = ev && strchr(ev, ':') ? strchr(ev, ':') + 1 : ev;
	char *text = a->trigger_text[a->triggers.n];

	if (!ev || !*name || strpbrk(name, "*?["))
		return cmd_bad_value("needs a preceding -e naming one event (trace_trigger= "
				     "takes <event>.<trigger>), got %s%s%s",
				     ev ? "'" : "none", ev ? ev : "", ev ? "'" : "");
	if (a->triggers.n == MAX_ITEMS || !*trigger || strpbrk(trigger, ",\"") ||
	    strlen(name) + strlen(trigger) + 2 > sizeof(a->trigger_text[0]))
		return cmd_bad_value("a boot trigger cannot be empty, longer than %zu bytes "
				     "with its event, or hold a comma or a quote",
				     sizeof(a->trigger_text[0]) - 2);
	/* "<event>.<trigger>", whose length was checked above */
	memcpy(text, name, strlen(name));
	text[strlen(name)] = '.';
	strcpy(text + strlen(name) + 1, trigger);
	a->triggers.v[a->triggers.n++] = text;
	return 0;
}

static int number_arg(const char *arg)
{
	unsigned long long v;

	if (strpbrk(arg, "kKmMgG") || cmd_parse_u64(arg, &v) < 0)
		return cmd_bad_value("not a plain number (no K, M or G)");
	return 0;
}

static int single_arg(const char **slot, const char *arg)
{
	if (!*arg || strpbrk(arg, " ,\""))
		return cmd_bad_value("a boot parameter cannot hold an empty value, a space, "
				     "a comma or a quote");
	*slot = arg;
	return 0;
}

static int boot_opt(int id, const char *arg, void *ctx)
{
	struct boot_args *a = ctx;

	switch (id) {
	case 'p': return single_arg(&a->tracer, arg);
	case 'e': return item_add(&a->events, "-e", arg);
	case 'R': return trigger_add(a, arg);
	case 'l': return item_add(&a->filter, "-l", arg);
	case 'n': return item_add(&a->notrace, "-n", arg);
	case 'g': return item_add(&a->graph, "-g", arg);
	case 'O': return item_add(&a->opts, "-O", arg);
	case 'C': return single_arg(&a->clock, arg);
	case 'b': a->buf_kb = arg; return number_arg(arg);
	case OPT_DEPTH: a->depth = arg; return number_arg(arg);
	case OPT_DUMP: a->dump = true; break;
	case OPT_DUMP_ORIG: a->dump_orig = true; break;
	case OPT_TRACEOFF_WARN: a->traceoff_warn = true; break;
	case OPT_LINES: a->lines = true; break;
	case OPT_KERNEL: {
		unsigned int major, minor;

		if (sscanf(arg, "%u.%u", &major, &minor) != 2)
			return cmd_bad_value("not a kernel version such as 6.1 or 6.1.0-56-amd64");
		a->kernel = arg;
		break;
	}
	}
	return 0;
}

struct out {
	bool lines;
	int n;
};

static void emit_start(struct out *o)
{
	if (o->n++)
		putchar(o->lines ? '\n' : ' ');
}

static void emit(struct out *o, const char *key, const char *val)
{
	emit_start(o);
	fputs(key, stdout);
	if (val)
		printf("=%s", val);
}

/* "key=a,b,c", quoted when a value holds a space (trigger filters do). */
static void emit_list(struct out *o, const char *key, const struct item_list *l)
{
	bool quote = false;

	if (!l->n)
		return;
	for (int i = 0; i < l->n; i++)
		quote |= strchr(l->v[i], ' ') != NULL;
	emit_start(o);
	printf("%s=%s", key, quote ? "\"" : "");
	for (int i = 0; i < l->n; i++)
		printf("%s%s", i ? "," : "", l->v[i]);
	if (quote)
		putchar('"');
}

/* Parameters that appeared after the oldest kernels ftc runs on. */
static const struct {
	const char *param;
	unsigned int major, minor;
} param_since[] = {
	/* 6.1 passes it to init: "Unknown kernel command line parameters" */
	{ "trace_trigger", 6, 2 },
};

static bool printed(const struct boot_args *a, const char *param)
{
	return !strcmp(param, "trace_trigger") && a->triggers.n;
}

/*
 * A parameter the target kernel does not know is passed to init, not
 * applied: say so. The target is --kernel's, else the running kernel's.
 */
static void warn_unknown(const struct boot_args *a)
{
	struct utsname u;
	const char *ver = a->kernel, *from = "--kernel";
	unsigned int major, minor;

	if (!ver) {
		if (uname(&u) < 0)
			return;
		ver = u.release, from = "uname -r";
	}
	if (sscanf(ver, "%u.%u", &major, &minor) != 2)
		return;
	for (size_t i = 0; i < sizeof(param_since) / sizeof(param_since[0]); i++) {
		if (!printed(a, param_since[i].param))
			continue;
		if (major > param_since[i].major ||
		    (major == param_since[i].major && minor >= param_since[i].minor))
			continue;
		fprintf(stderr, "ftc boot-args: warning: %s= needs Linux %u.%u or later; kernel "
			"%s (%s) ignores it and passes it to init (dmesg: \"Unknown kernel "
			"command line parameters\"); give --kernel VERSION for another "
			"target\n", param_since[i].param, param_since[i].major,
			param_since[i].minor, ver, from);
	}
}

/*
 * Without trace_clock=, a kernel that finds sched_clock unstable (virtual
 * machines often do) switches to the global clock at late_initcall_sync,
 * and switching clocks empties the buffer: the boot's records are lost.
 */
static void warn_clock(const struct boot_args *a)
{
	if (a->clock || (!a->tracer && !a->events.n))
		return;
	fprintf(stderr, "ftc boot-args: warning: no -C: a kernel whose sched_clock is "
		"unstable switches to the global clock late in boot, which empties the "
		"buffer (dmesg: \"Unstable clock detected\"); give -C local or -C global "
		"to keep the boot's records\n");
}

static int boot_run(int argc, char **argv)
{
	static struct boot_args a;
	struct out o = { 0 };
	int ret;

	memset(&a, 0, sizeof(a));
	ret = cmd_options_parse(&cmd_boot_args, argc, argv, boot_opt, &a);
	if (ret < 0)
		return cmd_options_exit(ret);
	if (ret < argc) {
		cmd_error(&cmd_boot_args, "unexpected argument '%s': boot-args runs "
			  "no command (see 'ftc boot-args --help')", argv[ret]);
		return FTC_EXIT_USAGE;
	}
	o.lines = a.lines;
	if (a.tracer)
		emit(&o, "ftrace", a.tracer);
	emit_list(&o, "ftrace_filter", &a.filter);
	emit_list(&o, "ftrace_notrace", &a.notrace);
	emit_list(&o, "ftrace_graph_filter", &a.graph);
	if (a.depth)
		emit(&o, "ftrace_graph_max_depth", a.depth);
	emit_list(&o, "trace_event", &a.events);
	emit_list(&o, "trace_trigger", &a.triggers);
	if (a.buf_kb) {
		char size[64];

		snprintf(size, sizeof(size), "%sK", a.buf_kb);
		emit(&o, "trace_buf_size", size);
	}
	if (a.clock)
		emit(&o, "trace_clock", a.clock);
	emit_list(&o, "trace_options", &a.opts);
	if (a.dump || a.dump_orig)
		emit(&o, "ftrace_dump_on_oops", a.dump_orig ? "orig_cpu" : NULL);
	if (a.traceoff_warn)
		emit(&o, "traceoff_on_warning", NULL);
	if (!o.n) {
		cmd_error(&cmd_boot_args, "nothing to turn into boot parameters; "
			  "give -p, -e, -l, ... (see 'ftc boot-args --help')");
		return FTC_EXIT_USAGE;
	}
	putchar('\n');
	cmd_output_flush();
	warn_unknown(&a);
	warn_clock(&a);
	return FTC_EXIT_OK;
}
