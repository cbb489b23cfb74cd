// SPDX-License-Identifier: LGPL-2.1-or-later
/* Capability probing: the dispatch to the probe families, and the probe session. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "probe.h"
#include "tracefs-layer.h"

static int (*const probes[FTC_CAP_COUNT])(struct ftc_probe *p, struct ftc_cap *cap) = {
	[FTC_CAP_TRACEFS] = ftc_probe_tracefs,
	[FTC_CAP_INSTANCES] = ftc_probe_instances,
	[FTC_CAP_EVENTS] = ftc_probe_events,
	[FTC_CAP_EVENT_FILTER] = ftc_probe_event_filter,
	[FTC_CAP_TRIGGER_TRACEON] = ftc_probe_trigger,
	[FTC_CAP_TRIGGER_TRACEOFF] = ftc_probe_trigger,
	[FTC_CAP_TRIGGER_STACKTRACE] = ftc_probe_trigger,
	[FTC_CAP_TRIGGER_SNAPSHOT] = ftc_probe_trigger,
	[FTC_CAP_TRIGGER_ENABLE_EVENT] = ftc_probe_trigger,
	[FTC_CAP_TRIGGER_DISABLE_EVENT] = ftc_probe_trigger,
	[FTC_CAP_TRIGGER_HIST] = ftc_probe_trigger,
	[FTC_CAP_TRACER_FUNCTION] = ftc_probe_tracer,
	[FTC_CAP_TRACER_FUNCTION_GRAPH] = ftc_probe_tracer,
	[FTC_CAP_FTRACE_FILTER] = ftc_probe_ftrace_file,
	[FTC_CAP_FTRACE_NOTRACE] = ftc_probe_ftrace_file,
	[FTC_CAP_FTRACE_PID] = ftc_probe_ftrace_file,
	[FTC_CAP_FILTER_FUNCTIONS] = ftc_probe_filter_functions,
	[FTC_CAP_GRAPH_FUNCTION] = ftc_probe_ftrace_file,
	[FTC_CAP_FUNCTION_TRIGGERS] = ftc_probe_function_triggers,
	[FTC_CAP_SNAPSHOT] = ftc_probe_snapshot,
	[FTC_CAP_KPROBES] = ftc_probe_dynevent_file,
	[FTC_CAP_UPROBES] = ftc_probe_dynevent_file,
	[FTC_CAP_DYNAMIC_EVENTS] = ftc_probe_dynevent_file,
	[FTC_CAP_EPROBES] = ftc_probe_eprobes,
	[FTC_CAP_TRACE_CLOCK] = ftc_probe_trace_clock,
	[FTC_CAP_SUBBUF_SIZE] = ftc_probe_subbuf_size,
	[FTC_CAP_TRACE_PIPE_RAW] = ftc_probe_trace_pipe_raw,
	[FTC_CAP_TRACE_MARKER] = ftc_probe_trace_marker,
	[FTC_CAP_EVENT_PID] = ftc_probe_event_pid,
	[FTC_CAP_FTRACE_ENABLED] = ftc_probe_sysctl,
	[FTC_CAP_DUMP_ON_OOPS] = ftc_probe_sysctl,
	[FTC_CAP_KALLSYMS] = ftc_probe_kallsyms,
	[FTC_CAP_PERF_SOFTWARE] = ftc_probe_perf,
	[FTC_CAP_PERF_HARDWARE] = ftc_probe_perf,
	[FTC_CAP_PERF_TRACEPOINT] = ftc_probe_perf,
	[FTC_CAP_FPROBES] = ftc_probe_fprobes,
	[FTC_CAP_MMAP_RING] = ftc_probe_mmap_ring,
	[FTC_CAP_PERSISTENT] = ftc_probe_persistent,
	[FTC_CAP_TIMERLAT] = ftc_probe_listed_tracer,
	[FTC_CAP_OSNOISE] = ftc_probe_listed_tracer,
};

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
	p->run = ftc_probe_cap;
	return p;
}

void ftc_probe_close(struct ftc_probe *p)
{
	if (!p)
		return;
	ftc_probe_scratch_remove(p);
	free(p->instance);
	free(p);
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
			probes[id](p, c);
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
