// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace options of an instance, the kernel's defaults for them, and the
 * names mainline kernels register (tracers, clocks, options, triggers).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "ftc.h"
#include "ftc-tracefs-info.h"
#include "tracefs-layer.h"

/*
 * Options on by default, from the kernel's TRACE_DEFAULT_FLAGS and the
 * tracers' own flag defaults (function_graph's). The kernel offers no file
 * with defaults, and an instance copies the top level's current flags, so
 * a fresh instance cannot tell either. Everything not listed here and not
 * in off_by_default is unknown to ftc and always shown.
 */
static const char *const on_by_default[] = {
	"print-parent", "trace_printk", "annotate", "context-info", "record-cmd",
	"overwrite", "irq-info", "markers", "hash-ptr", "function-trace",
	"funcgraph-cpu", "funcgraph-overhead", "funcgraph-duration", "funcgraph-irqs",
	"sleep-time", "graph-time",
};

/* On by default only at the top level: instances start with them cleared. */
static const char *const on_at_top_level[] = {
	"trace_printk_dest", "copy_trace_marker",
};

static const char *const off_by_default[] = {
	"sym-offset", "sym-addr", "verbose", "raw", "hex", "bin", "block", "fields",
	"userstacktrace", "sym-userobj", "printk-msg-only", "latency-format",
	"record-tgid", "disable_on_free", "event-fork", "pause-on-trace", "function-fork",
	"display-graph", "stacktrace", "func_stack_trace", "func-no-repeats",
	"funcgraph-overrun", "funcgraph-proc", "funcgraph-abstime", "funcgraph-tail",
	"funcgraph-retval", "funcgraph-retval-hex", "funcgraph-args", "funcgraph-retaddr",
	"blk_classic", "blk_cgroup", "blk_cgname", "test_nop_accept", "test_nop_refuse",
	"trace_printk_dest", "copy_trace_marker",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static bool in(const char *const *table, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(table[i], name))
			return true;
	return false;
}

int ftc_info_option_default(const char *name, bool top_level)
{
	if (in(on_by_default, N(on_by_default), name))
		return 1;
	if (top_level && in(on_at_top_level, N(on_at_top_level), name))
		return 1;
	if (in(off_by_default, N(off_by_default), name))
		return 0;
	return -1;
}

/* register_tracer() calls in kernel/trace/ */
static const char *const mainline_tracers[] = {
	"nop", "function", "function_graph", "irqsoff", "preemptoff", "preemptirqsoff",
	"wakeup", "wakeup_rt", "wakeup_dl", "hwlat", "osnoise", "timerlat", "mmiotrace",
	"blk", "branch",
};

/* trace_clocks[] in kernel/trace/trace.c and the architectures' ARCH_TRACE_CLOCKS */
static const char *const mainline_clocks[] = {
	"local", "global", "counter", "uptime", "perf", "mono", "mono_raw", "boot", "tai",
	"x86-tsc", "ppc-tb",
};

static const char *const mainline_triggers[] = {
	"traceon", "traceoff", "snapshot", "stacktrace", "enable_event", "disable_event",
	"hist", "enable_hist", "disable_hist",
};

bool ftc_info_mainline(enum ftc_info_name kind, const char *name)
{
	char cmd[32];
	size_t len;

	switch (kind) {
	case FTC_INFO_TRACER:
		return in(mainline_tracers, N(mainline_tracers), name);
	case FTC_INFO_CLOCK:
		return in(mainline_clocks, N(mainline_clocks), name);
	case FTC_INFO_OPTION:
		return ftc_info_option_default(name, true) >= 0 ||
		       (!strncmp(name, "no", 2) && ftc_info_option_default(name + 2, true) >= 0);
	case FTC_INFO_TRIGGER:
		len = strcspn(name, ": ");
		if (len >= sizeof(cmd))
			return false;
		memcpy(cmd, name, len);
		cmd[len] = '\0';
		return in(mainline_triggers, N(mainline_triggers), cmd);
	}
	return false;
}

static int cmp_opt(const void *a, const void *b)
{
	return strcmp(((const struct ftc_trace_option *)a)->name,
		      ((const struct ftc_trace_option *)b)->name);
}

void ftc_info_options_free(struct ftc_trace_option *opts, int count)
{
	for (int i = 0; opts && i < count; i++)
		free(opts[i].name);
	free(opts);
}

static int option_add(const char *instance, const char *name,
		      struct ftc_trace_option **opts, int *n, int *cap)
{
	char file[300], *val;

	snprintf(file, sizeof(file), "options/%s", name);
	val = ftc_info_value(instance, file);
	if (!val)	/* an unreadable option is left out, not fatal */
		return errno == ENOMEM ? -1 : 0;
	if (*n == *cap) {
		int bigger_cap = *cap ? *cap * 2 : 64;
		struct ftc_trace_option *bigger = realloc(*opts, bigger_cap * sizeof(**opts));

		if (!bigger) {
			free(val);
			return ftc_error(ENOMEM, "out of memory");
		}
		*opts = bigger;
		*cap = bigger_cap;
	}
	(*opts)[*n].value = atoi(val);
	(*opts)[*n].name = strdup(name);
	free(val);
	if (!(*opts)[*n].name)
		return ftc_error(ENOMEM, "out of memory");
	(*n)++;
	return 0;
}

int ftc_info_options(const char *instance, struct ftc_trace_option **opts, int *count)
{
	struct ftc_trace_option *list = NULL;
	int n = 0, cap = 0, ret = 0;
	char **names;
	int nnames = ftc_tracefs_list(instance, "options", &names);

	if (nnames < 0)
		return -1;
	for (int i = 0; i < nnames && ret == 0; i++)
		ret = option_add(instance, names[i], &list, &n, &cap);
	tracefs_list_free(names);
	if (ret < 0) {
		ftc_info_options_free(list, n);
		return -1;
	}
	if (n)
		qsort(list, (size_t)n, sizeof(*list), cmp_opt);
	*opts = list;
	*count = n;
	return 0;
}
