// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A capability's result and name, shared by the probe families
 * (probe-*.c) below the dispatch (probe.c). A family consults another
 * capability through ftc_probe_dep, which runs it through the session's
 * dispatcher.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "probe.h"

static const char *const cap_names[FTC_CAP_COUNT] = {
	[FTC_CAP_TRACEFS] = "tracefs",
	[FTC_CAP_INSTANCES] = "instances",
	[FTC_CAP_EVENTS] = "events",
	[FTC_CAP_EVENT_FILTER] = "event-filter",
	[FTC_CAP_TRIGGER_TRACEON] = "trigger-traceon",
	[FTC_CAP_TRIGGER_TRACEOFF] = "trigger-traceoff",
	[FTC_CAP_TRIGGER_STACKTRACE] = "trigger-stacktrace",
	[FTC_CAP_TRIGGER_SNAPSHOT] = "trigger-snapshot",
	[FTC_CAP_TRIGGER_ENABLE_EVENT] = "trigger-enable_event",
	[FTC_CAP_TRIGGER_DISABLE_EVENT] = "trigger-disable_event",
	[FTC_CAP_TRIGGER_HIST] = "trigger-hist",
	[FTC_CAP_TRACER_FUNCTION] = "function",
	[FTC_CAP_TRACER_FUNCTION_GRAPH] = "function_graph",
	[FTC_CAP_FTRACE_FILTER] = "set_ftrace_filter",
	[FTC_CAP_FTRACE_NOTRACE] = "set_ftrace_notrace",
	[FTC_CAP_FTRACE_PID] = "set_ftrace_pid",
	[FTC_CAP_FILTER_FUNCTIONS] = "available_filter_functions",
	[FTC_CAP_GRAPH_FUNCTION] = "set_graph_function",
	[FTC_CAP_FUNCTION_TRIGGERS] = "function-triggers",
	[FTC_CAP_SNAPSHOT] = "snapshot",
	[FTC_CAP_KPROBES] = "kprobes",
	[FTC_CAP_UPROBES] = "uprobes",
	[FTC_CAP_DYNAMIC_EVENTS] = "dynamic_events",
	[FTC_CAP_EPROBES] = "eprobes",
	[FTC_CAP_TRACE_CLOCK] = "trace_clock",
	[FTC_CAP_SUBBUF_SIZE] = "buffer_subbuf_size_kb",
	[FTC_CAP_TRACE_PIPE_RAW] = "trace_pipe_raw",
	[FTC_CAP_TRACE_MARKER] = "trace_marker",
	[FTC_CAP_EVENT_PID] = "set_event_pid",
	[FTC_CAP_FTRACE_ENABLED] = "ftrace_enabled-write",
	[FTC_CAP_DUMP_ON_OOPS] = "ftrace_dump_on_oops-write",
	[FTC_CAP_KALLSYMS] = "kallsyms",
	[FTC_CAP_PERF_SOFTWARE] = "perf-software",
	[FTC_CAP_PERF_HARDWARE] = "perf-hardware",
	[FTC_CAP_PERF_TRACEPOINT] = "perf-tracepoint",
	[FTC_CAP_FPROBES] = "fprobes",
	[FTC_CAP_MMAP_RING] = "mmap-ring-buffer",
	[FTC_CAP_PERSISTENT] = "persistent-buffer",
	[FTC_CAP_TIMERLAT] = "timerlat",
	[FTC_CAP_OSNOISE] = "osnoise",
};

const char *ftc_cap_name(enum ftc_cap_id id)
{
	if ((unsigned int)id >= FTC_CAP_COUNT)
		return "unknown";
	return cap_names[id];
}

int ftc_cap_lookup(const char *name)
{
	for (int i = 0; i < FTC_CAP_COUNT; i++)
		if (name && !strcmp(cap_names[i], name))
			return i;
	errno = EINVAL;
	return -1;
}

const char *ftc_cap_state_name(enum ftc_cap_state state)
{
	switch (state) {
	case FTC_CAP_OK:
		return "ok";
	case FTC_CAP_REFUSED:
		return "refused";
	case FTC_CAP_ABSENT:
		return "absent";
	}
	return "unknown";
}

int ftc_cap_set(struct ftc_cap *cap, enum ftc_cap_state state, int err, const char *fmt, ...)
{
	va_list ap;

	cap->state = state;
	cap->err = err;
	va_start(ap, fmt);
	vsnprintf(cap->why, sizeof(cap->why), fmt, ap);
	va_end(ap);
	return 0;
}

bool ftc_errno_is_absent(int err)
{
	return err == ENOENT || err == ENODEV || err == EOPNOTSUPP || err == ENOSYS ||
	       err == ENXIO;
}

int ftc_cap_from_errno(struct ftc_cap *cap, int err, const char *fmt, ...)
{
	enum ftc_cap_state state = FTC_CAP_OK;
	va_list ap;
	int n;

	if (err)
		state = ftc_errno_is_absent(err) ? FTC_CAP_ABSENT : FTC_CAP_REFUSED;
	cap->state = state;
	cap->err = err;
	va_start(ap, fmt);
	n = vsnprintf(cap->why, sizeof(cap->why), fmt, ap);
	va_end(ap);
	if (err && n >= 0 && (size_t)n < sizeof(cap->why))
		snprintf(cap->why + n, sizeof(cap->why) - n, ": %s", strerror(err));
	return 0;
}

const struct ftc_cap *ftc_probe_dep(struct ftc_probe *p, enum ftc_cap_id id)
{
	struct ftc_cap tmp;

	if (!p->done[id])
		p->run(p, id, &tmp);
	return &p->cache[id];
}
