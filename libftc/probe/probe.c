// SPDX-License-Identifier: LGPL-2.1-or-later
/* Capability probing: the table of capabilities and the probe session. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-control.h"
#include "probe.h"
#include "tracefs-layer.h"

struct cap_def {
	const char *name;
	int (*fn)(struct ftc_probe *p, struct ftc_cap *cap);
};

static const struct cap_def caps[FTC_CAP_COUNT] = {
	[FTC_CAP_TRACEFS] = { "tracefs", ftc_probe_tracefs },
	[FTC_CAP_INSTANCES] = { "instances", ftc_probe_instances },
	[FTC_CAP_EVENTS] = { "events", ftc_probe_events },
	[FTC_CAP_EVENT_FILTER] = { "event-filter", ftc_probe_event_filter },
	[FTC_CAP_TRIGGER_TRACEON] = { "trigger-traceon", ftc_probe_trigger },
	[FTC_CAP_TRIGGER_TRACEOFF] = { "trigger-traceoff", ftc_probe_trigger },
	[FTC_CAP_TRIGGER_STACKTRACE] = { "trigger-stacktrace", ftc_probe_trigger },
	[FTC_CAP_TRIGGER_SNAPSHOT] = { "trigger-snapshot", ftc_probe_trigger },
	[FTC_CAP_TRIGGER_ENABLE_EVENT] = { "trigger-enable_event", ftc_probe_trigger },
	[FTC_CAP_TRIGGER_DISABLE_EVENT] = { "trigger-disable_event", ftc_probe_trigger },
	[FTC_CAP_TRIGGER_HIST] = { "trigger-hist", ftc_probe_trigger },
	[FTC_CAP_TRACER_FUNCTION] = { "function", ftc_probe_tracer },
	[FTC_CAP_TRACER_FUNCTION_GRAPH] = { "function_graph", ftc_probe_tracer },
	[FTC_CAP_FTRACE_FILTER] = { "set_ftrace_filter", ftc_probe_ftrace_file },
	[FTC_CAP_FTRACE_NOTRACE] = { "set_ftrace_notrace", ftc_probe_ftrace_file },
	[FTC_CAP_FTRACE_PID] = { "set_ftrace_pid", ftc_probe_ftrace_file },
	[FTC_CAP_FILTER_FUNCTIONS] = { "available_filter_functions", ftc_probe_filter_functions },
	[FTC_CAP_GRAPH_FUNCTION] = { "set_graph_function", ftc_probe_ftrace_file },
	[FTC_CAP_FUNCTION_TRIGGERS] = { "function-triggers", ftc_probe_function_triggers },
	[FTC_CAP_SNAPSHOT] = { "snapshot", ftc_probe_snapshot },
	[FTC_CAP_KPROBES] = { "kprobes", ftc_probe_dynevent_file },
	[FTC_CAP_UPROBES] = { "uprobes", ftc_probe_dynevent_file },
	[FTC_CAP_DYNAMIC_EVENTS] = { "dynamic_events", ftc_probe_dynevent_file },
	[FTC_CAP_EPROBES] = { "eprobes", ftc_probe_eprobes },
	[FTC_CAP_TRACE_CLOCK] = { "trace_clock", ftc_probe_trace_clock },
	[FTC_CAP_SUBBUF_SIZE] = { "buffer_subbuf_size_kb", ftc_probe_subbuf_size },
	[FTC_CAP_TRACE_PIPE_RAW] = { "trace_pipe_raw", ftc_probe_trace_pipe_raw },
	[FTC_CAP_TRACE_MARKER] = { "trace_marker", ftc_probe_trace_marker },
	[FTC_CAP_EVENT_PID] = { "set_event_pid", ftc_probe_event_pid },
	[FTC_CAP_FTRACE_ENABLED] = { "ftrace_enabled-write", ftc_probe_sysctl },
	[FTC_CAP_DUMP_ON_OOPS] = { "ftrace_dump_on_oops-write", ftc_probe_sysctl },
	[FTC_CAP_KALLSYMS] = { "kallsyms", ftc_probe_kallsyms },
	[FTC_CAP_PERF_SOFTWARE] = { "perf-software", ftc_probe_perf },
	[FTC_CAP_PERF_HARDWARE] = { "perf-hardware", ftc_probe_perf },
	[FTC_CAP_PERF_TRACEPOINT] = { "perf-tracepoint", ftc_probe_perf },
};

const char *ftc_cap_name(enum ftc_cap_id id)
{
	if ((unsigned int)id >= FTC_CAP_COUNT)
		return "unknown";
	return caps[id].name;
}

int ftc_cap_lookup(const char *name)
{
	for (int i = 0; i < FTC_CAP_COUNT; i++)
		if (name && !strcmp(caps[i].name, name))
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

struct ftc_probe *ftc_probe_open(const char *instance)
{
	struct ftc_probe *p = calloc(1, sizeof(*p));

	if (!p) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	if (instance && *instance) {
		p->instance = strdup(instance);
		if (!p->instance) {
			free(p);
			ftc_error(ENOMEM, "out of memory");
			return NULL;
		}
	}
	for (int i = 0; i < FTC_CAP_COUNT; i++)
		p->cache[i].id = i;
	return p;
}

static void scratch_remove(struct ftc_probe *p)
{
	if (p->scratch_state != 1)
		return;
	p->scratch_state = 0;
	if (p->st) {
		ftc_state_restore(p->st);
		return;
	}
	ftc_tracefs_rmdir(p->scratch);
}

void ftc_probe_journal(struct ftc_probe *p, struct ftc_state *st)
{
	if (p)
		p->st = st;
}

static int scratch_make(struct ftc_probe *p)
{
	int ret;

	if (p->st) {
		ret = ftc_instance_create(p->st, p->scratch);
		return ret > 0 ? 0 : ret == 0 ? -EEXIST : -(errno ? errno : EIO);
	}
	return ftc_tracefs_mkdir(p->scratch);
}

void ftc_probe_close(struct ftc_probe *p)
{
	if (!p)
		return;
	scratch_remove(p);
	free(p->instance);
	free(p);
}

/* The instance's buffer_size_kb says "7 (expanded: 1408)" until the flag is set. */
static bool scratch_unexpanded(const char *scratch)
{
	char *val = NULL;
	bool ret;

	if (ftc_probe_file_read(scratch, "buffer_size_kb", 256, &val) < 0)
		return false;
	ret = strstr(val, "expanded:") != NULL;
	free(val);
	return ret;
}

const char *ftc_probe_scratch(struct ftc_probe *p)
{
	int ret;

	if (p->scratch_state)
		return p->scratch_state > 0 ? p->scratch : NULL;
	p->scratch_state = -1;
	if (!ftc_tracefs_dir()) {
		p->scratch_err = ENODEV;
		return NULL;
	}
	snprintf(p->scratch, sizeof(p->scratch), "ftc-probe-%d", (int)getpid());
	ret = scratch_make(p);
	if (ret < 0) {
		p->scratch_err = -ret;
	} else {
		p->scratch_state = 1;
		p->unexpanded = scratch_unexpanded(p->scratch);
	}
	return p->scratch_state > 0 ? p->scratch : NULL;
}

const struct ftc_cap *ftc_probe_dep(struct ftc_probe *p, enum ftc_cap_id id)
{
	struct ftc_cap tmp;

	if (!p->done[id])
		ftc_probe_cap(p, id, &tmp);
	return &p->cache[id];
}

int ftc_probe_cap(struct ftc_probe *p, enum ftc_cap_id id, struct ftc_cap *cap)
{
	if (!p || (unsigned int)id >= FTC_CAP_COUNT) {
		ftc_error(EINVAL, "no such capability (%d)", (int)id);
		return -1;
	}
	if (!p->done[id]) {
		struct ftc_cap *c = &p->cache[id];

		memset(c, 0, sizeof(*c));
		c->id = id;
		/* Mark first: a probe that consults another must not loop. */
		p->done[id] = true;
		ftc_cap_set(c, FTC_CAP_ABSENT, ENOENT, "not probed");
		if (id != FTC_CAP_TRACEFS && !ftc_tracefs_dir() && id < FTC_CAP_FTRACE_ENABLED)
			ftc_cap_set(c, FTC_CAP_ABSENT, ENODEV, "tracefs is not mounted");
		else
			caps[id].fn(p, c);
	}
	*cap = p->cache[id];
	return 0;
}

int ftc_probe_one(const char *instance, enum ftc_cap_id id, struct ftc_cap *cap)
{
	struct ftc_probe *p = ftc_probe_open(instance);
	int ret;

	if (!p)
		return -1;
	ret = ftc_probe_cap(p, id, cap);
	ftc_probe_close(p);
	return ret;
}
