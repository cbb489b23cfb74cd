// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc boot-args: turns record-style options into the kernel's boot
 * parameters (Documentation/admin-guide/kernel-parameters.txt), so a kernel
 * that dies before userspace still traces. Writes nothing anywhere.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "boot-names.h"
#include "options.h"
#include "output.h"
#include "ftc.h"

#define MAX_ITEMS 64
/* COMMAND_LINE_SIZE on x86 and arm64, with its terminating NUL */
#define CMDLINE_MAX 2048
/* MAX_BOOT_TRIGGERS in kernel/trace/trace_events.c: the rest are dropped */
#define BOOT_TRIGGERS_MAX 32
/* MAX_TRACER_SIZE: the buffer trace_options= is copied into, cut beyond */
#define BOOT_OPTIONS_MAX 100
/* RESERVE_MEM_NAME_SIZE in mm/mm_init.c, with its NUL */
#define RESERVE_NAME_MAX 16
/* a persistent buffer's default: some seconds of sched events on a few CPUs */
#define PERSISTENT_DEFAULT (8ULL << 20)

struct item_list {
	const char *v[MAX_ITEMS];
	int n;
};

struct boot_args {
	const char *tracer, *clock, *depth, *kernel, *events_from;
	const char *persistent;		/* a persistent instance's name (and reserve_mem's) */
	unsigned long long buf_kb, persistent_size;
	bool persistent_off;		/* ^traceoff: it starts with tracing off */
	unsigned long long persistent_at;	/* memmap='s fixed address (0: reserve_mem=) */
	struct item_list filter, notrace, graph, events, triggers, opts;
	bool dump, dump_orig, traceoff_warn, lines;
	char trigger_text[MAX_ITEMS][512];
	int trigger_event[MAX_ITEMS];	/* the index in events of each trigger's -e */
};

enum {
	OPT_DEPTH = 0x100, OPT_DUMP, OPT_DUMP_ORIG, OPT_TRACEOFF_WARN, OPT_LINES, OPT_KERNEL,
	OPT_EVENTS_FROM, OPT_PERSISTENT, OPT_PERSISTENT_SIZE, OPT_NO_TRACING_ON, OPT_PERSISTENT_AT,
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
	{ 'b', "buffer-size", "KB", "per-CPU buffer size in KiB, K/M/G multiply it "
	  "(trace_buf_size=)", 'b' },
	{ 'C', "clock", "CLOCK", "the trace clock (trace_clock=)", 'C' },
	{ 'O', "option", "OPTION", "a trace option, 'name' or 'noname' (trace_options=); "
	  "repeatable", 'O' },
	{ 0, "dump-on-oops", NULL, "dump every CPU's buffer to the console on oops "
	  "(ftrace_dump_on_oops)", OPT_DUMP },
	{ 0, "dump-orig-cpu", NULL, "dump only the oopsing CPU's buffer "
	  "(ftrace_dump_on_oops=orig_cpu)", OPT_DUMP_ORIG },
	{ 0, "traceoff-on-warning", NULL, "stop tracing at the first WARN "
	  "(traceoff_on_warning)", OPT_TRACEOFF_WARN },
	{ 0, "persistent", "NAME", "instance NAME outlives a reboot, its -e events too (6.12+)",
	  OPT_PERSISTENT },
	{ 0, "persistent-size", "SIZE", "its memory, all CPUs together (default 8M; K/M/G)",
	  OPT_PERSISTENT_SIZE },
	{ 0, "no-tracing-on", NULL, "the persistent instance starts with tracing off (^traceoff)",
	  OPT_NO_TRACING_ON },
	{ 0, "persistent-at", "ADDR", "x86: its memory at this fixed address (memmap=), not KASLR's",
	  OPT_PERSISTENT_AT },
	{ 0, "lines", NULL, "print one parameter per line instead of one line", OPT_LINES },
	{ 0, "kernel", "VERSION", "the target kernel, to warn of what it lacks (default: uname -r)",
	  OPT_KERNEL },
	{ 0, "events-from", "FILE", "check -e against FILE (the target's available_events)",
	  OPT_EVENTS_FROM },
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
	if (!ftc_info_mainline(FTC_INFO_TRIGGER, trigger))
		return cmd_bad_value("not a trigger: it starts with traceon, traceoff, snapshot, "
				     "stacktrace, enable_event, disable_event, hist, enable_hist "
				     "or disable_hist (e.g. 'stacktrace if prev_state == 2')");
	a->trigger_event[a->triggers.n] = a->events.n - 1;
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

/*
 * reserve_mem= and trace_instance= take the name: letters, digits, '_' and
 * '-', 15 at most, and not a '-' first (a name that reads as an option)
 */
static int persistent_name(struct boot_args *a, const char *arg)
{
	size_t n = strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");

	if (!*arg || *arg == '-' || arg[n] || n >= RESERVE_NAME_MAX)
		return cmd_bad_value("an instance name of letters, digits, '_' and '-' (not "
				     "first), at most %d of them (reserve_mem= keeps %d)",
				     RESERVE_NAME_MAX - 1, RESERVE_NAME_MAX - 1);
	a->persistent = arg;
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
	case 'b':
		/* the kernel's memparse takes K/M/G too; the product must fit in bytes */
		if (cmd_parse_u64(arg, &a->buf_kb) < 0 || a->buf_kb > (~0ULL >> 10))
			return cmd_bad_value("not a size in KiB (e.g. 4096, or 4M for 4M KiB)");
		return 0;
	case OPT_EVENTS_FROM: a->events_from = arg; return 0;
	case OPT_PERSISTENT: return persistent_name(a, arg);
	case OPT_PERSISTENT_SIZE:
		/* the ring buffer needs pages for every CPU: under 1 MB is a typo */
		if (cmd_parse_u64(arg, &a->persistent_size) < 0 || a->persistent_size < (1 << 20) ||
		    a->persistent_size > (1ULL << 40))
			return cmd_bad_value("not a size from 1M to 1T in bytes (e.g. 8M)");
		return 0;
	case OPT_NO_TRACING_ON: a->persistent_off = true; break;
	case OPT_PERSISTENT_AT:
		/* the kernel maps whole pages: a page-aligned address above the first MB */
		if (cmd_parse_u64(arg, &a->persistent_at) < 0 || a->persistent_at < (1 << 20) ||
		    a->persistent_at & 4095)
			return cmd_bad_value("not a page-aligned physical address above 1M (e.g. "
					     "0x18000000: free RAM, see /proc/iomem)");
		return 0;
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
	FILE *f;
	bool lines;
	int n;
};

static void emit_start(struct out *o)
{
	if (o->n++)
		fputc(o->lines ? '\n' : ' ', o->f);
}

static void emit(struct out *o, const char *key, const char *val)
{
	emit_start(o);
	fputs(key, o->f);
	if (val)
		fprintf(o->f, "=%s", val);
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
	fprintf(o->f, "%s=%s", key, quote ? "\"" : "");
	for (int i = 0; i < l->n; i++)
		fprintf(o->f, "%s%s", i ? "," : "", l->v[i]);
	if (quote)
		fputc('"', o->f);
}

/* Parameters that appeared after the oldest kernels ftc runs on. */
static const struct {
	const char *param;
	unsigned int major, minor;
} param_since[] = {
	/* 6.1 passes it to init: "Unknown kernel command line parameters" */
	{ "trace_trigger", 6, 2 },
	/* reserve_mem= and the @ of trace_instance= map a buffer to memory kept over a boot */
	{ "reserve_mem", 6, 12 },
	{ "trace_instance", 6, 12 },
};

static bool printed(const struct boot_args *a, const char *param)
{
	if (!strcmp(param, "reserve_mem") || !strcmp(param, "trace_instance"))
		return a->persistent != NULL;
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
/*
 * reserve_mem= finds memory anew each boot: when KASLR puts the kernel where
 * the buffer was, the buffer lands elsewhere and the previous boot is lost
 * (the lab's 6.12 kept it in 1 reboot of 3). A fixed address does not move.
 */
static void warn_reserve_mem(const struct boot_args *a)
{
	if (!a->persistent || a->persistent_at)
		return;
	fprintf(stderr, "ftc boot-args: warning: reserve_mem= may find other memory at the next "
		"boot (KASLR can load the kernel over the buffer), and the previous boot's "
		"records are then lost; on x86, --persistent-at ADDR uses memmap='s fixed "
		"address instead (or boot with nokaslr)\n");
}

static void warn_clock(const struct boot_args *a)
{
	if (a->clock || (!a->tracer && !a->events.n))
		return;
	fprintf(stderr, "ftc boot-args: warning: no -C: a kernel whose sched_clock is "
		"unstable switches to the global clock late in boot, which empties the "
		"buffer (dmesg: \"Unstable clock detected\"); give -C local or -C global "
		"to keep the boot's records\n");
}

/*
 * Options that act only under a tracer: without it the kernel keeps a
 * filter nothing reads, and the boot traces none of what was asked.
 */
static int check_tracer_needs(const struct boot_args *a)
{
	static const char *const function_based[] = {
		"function", "function_graph", "irqsoff", "preemptoff", "preemptirqsoff",
		"wakeup", "wakeup_rt", "wakeup_dl",
	};
	const char *t = a->tracer;
	bool fn = false, graph = t && !strcmp(t, "function_graph");

	for (size_t i = 0; t && i < sizeof(function_based) / sizeof(function_based[0]); i++)
		fn |= !strcmp(t, function_based[i]);
	if ((a->filter.n || a->notrace.n) && !fn) {
		cmd_error(&cmd_boot_args, "%s (%s=) filters a function tracer, and %s%s%s: give "
			  "-p function or -p function_graph", a->filter.n ? "-l" : "-n",
			  a->filter.n ? "ftrace_filter" : "ftrace_notrace",
			  t ? "-p '" : "no -p was given", t ? t : "", t ? "' is none" : "");
		return -1;
	}
	if ((a->graph.n || a->depth) && !graph) {
		cmd_error(&cmd_boot_args, "%s (%s=) applies to the function_graph tracer, and "
			  "%s%s%s: give -p function_graph", a->graph.n ? "-g" : "--max-graph-depth",
			  a->graph.n ? "ftrace_graph_filter" : "ftrace_graph_max_depth",
			  t ? "-p is '" : "no -p was given", t ? t : "", t ? "'" : "");
		return -1;
	}
	return 0;
}

/* This machine's names of a kind; NULL when tracefs cannot tell. */
static char **machine_names(enum ftc_info_name kind)
{
	struct ftc_trace_option *opts;
	char **names;
	int n;

	if (kind == FTC_INFO_TRACER)
		return ftc_info_tracers(NULL);
	if (kind == FTC_INFO_CLOCK)
		return ftc_info_clocks(NULL, NULL);
	if (ftc_info_options(NULL, &opts, &n) < 0)
		return NULL;
	names = calloc((size_t)n + 1, sizeof(*names));
	for (int i = 0; names && i < n; i++) {
		names[i] = opts[i].name;
		opts[i].name = NULL;
	}
	ftc_info_options_free(opts, n);
	return names;
}

static bool listed(char **list, const char *name)
{
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/*
 * A tracer, clock or option that no mainline kernel and not this machine
 * knows is refused: most likely a typo, which would cost a reboot to find.
 * One only mainline knows is printed with a warning: the target may have
 * it where this machine does not.
 */
static int check_name(enum ftc_info_name kind, const char *opt, const char *value)
{
	static const char *const what[] = { "tracer", "clock", "trace option" };
	static const char *const file[] = { "available_tracers", "trace_clock", "options/" };
	char **mine = machine_names(kind);
	const char *bare = kind == FTC_INFO_OPTION && !strncmp(value, "no", 2) ? value + 2 : value;
	bool here = listed(mine, value) || listed(mine, bare);
	int ret = 0;

	if (here)
		goto out;
	if (ftc_info_mainline(kind, value)) {
		if (mine)
			fprintf(stderr, "ftc boot-args: warning: %s '%s': this machine's kernel has "
				"no such %s (%s); the target's must have it\n", opt, value,
				what[kind], file[kind]);
		goto out;
	}
	cmd_error(&cmd_boot_args, "%s '%s': neither mainline Linux nor this machine's kernel "
		  "(%s) has such a %s; a misspelt one would cost a reboot to find (for an "
		  "out-of-tree one, append the parameter by hand)", opt, value, file[kind],
		  what[kind]);
	ret = -1;
out:
	ftc_list_free(mine);
	return ret;
}

static int check_names(const struct boot_args *a)
{
	if (a->tracer && check_name(FTC_INFO_TRACER, "-p", a->tracer) < 0)
		return -1;
	if (a->clock && check_name(FTC_INFO_CLOCK, "-C", a->clock) < 0)
		return -1;
	for (int i = 0; i < a->opts.n; i++)
		if (check_name(FTC_INFO_OPTION, "-O", a->opts.v[i]) < 0)
			return -1;
	return 0;
}

#define EVENTS_FILE_MAX (64 << 20)	/* available_events is some 100 KB */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			char *nb = cap >= EVENTS_FILE_MAX ? NULL : realloc(buf, cap ? cap * 2 : 65536);

			if (!nb) {
				errno = cap >= EVENTS_FILE_MAX ? EFBIG : ENOMEM;
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

/*
 * The events to check -e against: --events-from's (then 1), this
 * machine's (0), or none (-1: warned). On a bad file, an exit status < -1.
 */
static int load_events(const struct boot_args *a, struct boot_events *ev)
{
	const char *src = a->events_from ? a->events_from : "available_events";
	size_t len = 0, bad;
	char *text;

	if (a->events_from)
		text = read_file(a->events_from, &len);
	else if (ftc_tracefs_read(NULL, "available_events", &text, &len) < 0)
		text = NULL;
	if (!text && a->events_from) {
		cmd_error(&cmd_boot_args, "--events-from '%s': %s", src, strerror(errno));
		return -FTC_EXIT_FAIL - 1;
	}
	if (!text) {
		fprintf(stderr, "ftc boot-args: warning: this machine's events cannot be read "
			"(%s): -e is not checked; give --events-from FILE (the target's "
			"available_events)\n", ftc_strerror());
		return -1;
	}
	if (boot_events_parse(ev, text, len, &bad) < 0) {
		free(text);
		if (!bad) {
			cmd_error(&cmd_boot_args, "out of memory reading %s", src);
			return -FTC_EXIT_FAIL - 1;
		}
		cmd_error(&cmd_boot_args, "--events-from '%s': line %zu is not system:event "
			  "(available_events' form, one a line)", src, bad);
		return -FTC_EXIT_USAGE - 1;
	}
	free(text);
	return a->events_from ? 1 : 0;
}

/* A trigger's -e must name one event: trace_trigger= takes <event>.<trigger>. */
static int check_trigger_event(const struct boot_args *a, const struct boot_events *ev, int t)
{
	const char *value = a->events.v[a->trigger_event[t]];
	bool is_system, event_too = false;
	size_t n = boot_events_match(ev, value, &is_system);

	if (!is_system || strchr(value, ':'))
		return 0;
	for (size_t i = 0; i < ev->n; i++)
		event_too |= !strcmp(strchr(ev->names[i], ':') + 1, value);
	if (event_too)
		return 0;
	cmd_error(&cmd_boot_args, "-R '%s': -e '%s' names a system (%zu events), and "
		  "trace_trigger= takes one event: give -e %s:EVENT before -R", a->triggers.v[t] +
		  strlen(value) + 1, value, n, value);
	return -1;
}

static int check_events(const struct boot_args *a)
{
	struct boot_events ev = { 0 };
	int from = a->events.n ? load_events(a, &ev) : -1, status = 0, missing = 0;
	char first[64] = "";

	if (from < -1)
		return -from - 1;
	for (int i = 0; from >= 0 && i < a->events.n && !status; i++) {
		bool is_system;

		if (boot_events_match(&ev, a->events.v[i], &is_system))
			continue;
		if (from) {
			cmd_error(&cmd_boot_args, "-e '%s': %s lists no such event or system "
				  "(trace_event= takes system:event, system, system:* or :event; "
				  "no other globs)", a->events.v[i], a->events_from);
			status = FTC_EXIT_REFUSED;
		} else if (!missing++) {
			snprintf(first, sizeof(first), "%s", a->events.v[i]);
		}
	}
	if (missing)
		fprintf(stderr, "ftc boot-args: warning: %d -e value%s (first '%s') match%s no "
			"event of this machine: check them against the target's with "
			"--events-from FILE (trace_event= takes no globs but '*')\n", missing,
			missing > 1 ? "s" : "", first, missing > 1 ? "" : "es");
	for (int t = 0; from >= 0 && t < a->triggers.n && !status; t++)
		if (check_trigger_event(a, &ev, t) < 0)
			status = FTC_EXIT_USAGE;
	boot_events_free(&ev);
	return status;
}

/* What the kernel would cut or drop without a word. */
static int check_sizes(const struct boot_args *a)
{
	size_t len = 0;

	if (a->triggers.n > BOOT_TRIGGERS_MAX) {
		cmd_error(&cmd_boot_args, "%d -R triggers: the kernel takes %d at boot "
			  "(MAX_BOOT_TRIGGERS) and drops the rest", a->triggers.n,
			  BOOT_TRIGGERS_MAX);
		return -1;
	}
	for (int i = 0; i < a->opts.n; i++)
		len += strlen(a->opts.v[i]) + (i > 0);
	if (len >= BOOT_OPTIONS_MAX) {
		cmd_error(&cmd_boot_args, "the -O options take %zu bytes as trace_options=, and "
			  "the kernel keeps %d (MAX_TRACER_SIZE with its end): give fewer",
			  len, BOOT_OPTIONS_MAX - 1);
		return -1;
	}
	return 0;
}

/* --persistent's companions, and what a persistent instance cannot take at boot. */
static int check_persistent(const struct boot_args *a)
{
	if (!a->persistent && (a->persistent_size || a->persistent_off || a->persistent_at)) {
		cmd_error(&cmd_boot_args, "%s goes with --persistent NAME",
			  a->persistent_size ? "--persistent-size" :
			  a->persistent_at ? "--persistent-at" : "--no-tracing-on");
		return -1;
	}
	if (a->persistent && a->triggers.n) {
		cmd_error(&cmd_boot_args, "-R: trace_trigger= arms the top-level buffer's events, "
			  "and with --persistent the -e events are the instance's: set its triggers "
			  "after the boot (ftc start -B %s -e EVENT -R TRIGGER)", a->persistent);
		return -1;
	}
	return 0;
}

/* Everything that can be known without the target; an exit status, 0 when fine. */
static int boot_check(const struct boot_args *a)
{
	int status;

	if (check_tracer_needs(a) < 0 || check_sizes(a) < 0 || check_persistent(a) < 0)
		return FTC_EXIT_USAGE;
	if (a->events_from && !a->events.n) {
		cmd_error(&cmd_boot_args, "--events-from checks -e values, and none was given");
		return FTC_EXIT_USAGE;
	}
	status = check_events(a);
	if (status)
		return status;
	if (check_names(a) < 0)
		return FTC_EXIT_REFUSED;
	return 0;
}

/* Memory as memparse reads it: the largest unit that divides it. */
static void size_text(char *buf, size_t size, unsigned long long bytes)
{
	static const char units[] = "KMG";
	int u = -1;

	while (u < 2 && bytes && !(bytes & 1023)) {
		bytes >>= 10;
		u++;
	}
	if (u < 0)
		snprintf(buf, size, "%llu", bytes);
	else
		snprintf(buf, size, "%llu%c", bytes, units[u]);
}

/*
 * "reserve_mem=SIZE:4096:NAME trace_instance=NAME[^traceoff]@NAME[,EVENT...]":
 * the memory is found again at the next boot by its name, and the instance
 * mapped onto it shows the previous boot's records until it is cleared.
 * With an address, "memmap=SIZE$ADDR trace_instance=NAME@ADDR:SIZE": the
 * same memory every boot, where reserve_mem's may move.
 */
static void emit_persistent(const struct boot_args *a, struct out *o)
{
	char size[32];

	size_text(size, sizeof(size), a->persistent_size ? a->persistent_size : PERSISTENT_DEFAULT);
	emit_start(o);
	if (a->persistent_at)
		fprintf(o->f, "memmap=%s$0x%llx", size, a->persistent_at);
	else
		fprintf(o->f, "reserve_mem=%s:4096:%s", size, a->persistent);
	emit_start(o);
	fprintf(o->f, "trace_instance=%s%s@", a->persistent, a->persistent_off ? "^traceoff" : "");
	if (a->persistent_at)
		fprintf(o->f, "0x%llx:%s", a->persistent_at, size);
	else
		fprintf(o->f, "%s", a->persistent);
	for (int i = 0; i < a->events.n; i++)
		fprintf(o->f, ",%s", a->events.v[i]);
}

/* Writes the parameters to o->f, in the order kernel-parameters.txt has them. */
static void emit_all(const struct boot_args *a, struct out *o)
{
	if (a->tracer)
		emit(o, "ftrace", a->tracer);
	emit_list(o, "ftrace_filter", &a->filter);
	emit_list(o, "ftrace_notrace", &a->notrace);
	emit_list(o, "ftrace_graph_filter", &a->graph);
	if (a->depth)
		emit(o, "ftrace_graph_max_depth", a->depth);
	if (a->persistent)
		emit_persistent(a, o);
	else
		emit_list(o, "trace_event", &a->events);
	emit_list(o, "trace_trigger", &a->triggers);
	if (a->buf_kb) {
		char size[64];

		snprintf(size, sizeof(size), "%lluK", a->buf_kb);
		emit(o, "trace_buf_size", size);
	}
	if (a->clock)
		emit(o, "trace_clock", a->clock);
	emit_list(o, "trace_options", &a->opts);
	if (a->dump || a->dump_orig)
		emit(o, "ftrace_dump_on_oops", a->dump_orig ? "orig_cpu" : NULL);
	if (a->traceoff_warn)
		emit(o, "traceoff_on_warning", NULL);
}

static int boot_run(int argc, char **argv)
{
	static struct boot_args a;
	struct out o = { 0 };
	char *text = NULL;
	size_t len = 0;
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
	ret = boot_check(&a);
	if (ret)
		return ret;
	o.lines = a.lines;
	o.f = open_memstream(&text, &len);
	if (!o.f) {
		cmd_error(&cmd_boot_args, "out of memory");
		return FTC_EXIT_FAIL;
	}
	emit_all(&a, &o);
	fclose(o.f);
	if (!o.n) {
		free(text);
		cmd_error(&cmd_boot_args, "nothing to turn into boot parameters; "
			  "give -p, -e, -l, ... (see 'ftc boot-args --help')");
		return FTC_EXIT_USAGE;
	}
	/* the kernel cuts the command line short and the cut parameter is garbled */
	if (len >= CMDLINE_MAX) {
		free(text);
		cmd_error(&cmd_boot_args, "the parameters take %zu bytes, past the kernel's "
			  "command line (%d bytes with its end, COMMAND_LINE_SIZE on x86 and "
			  "arm64, before root= and the rest): give fewer values, e.g. a "
			  "system (-e sched) for its events", len, CMDLINE_MAX);
		return FTC_EXIT_USAGE;
	}
	printf("%s\n", text);
	free(text);
	cmd_output_flush();
	warn_unknown(&a);
	warn_clock(&a);
	warn_reserve_mem(&a);
	return FTC_EXIT_OK;
}
