/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capability probing: what this kernel and this user allow.
 *
 * Every answer comes from the running kernel. A probe reads files, or, where
 * only a write can tell, writes in a private temporary instance that it then
 * removes, or writes a knob's current value back. Nothing is left changed.
 */
#ifndef FTC_PROBE_H
#define FTC_PROBE_H

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ftc_cap_state {
	FTC_CAP_OK,
	FTC_CAP_REFUSED,	/* present, but the kernel said no (EPERM, EACCES, EINVAL...) */
	FTC_CAP_ABSENT,		/* not built into this kernel */
};

/* The order is the order of `ftc check`'s lines. */
enum ftc_cap_id {
	FTC_CAP_TRACEFS,
	FTC_CAP_INSTANCES,
	FTC_CAP_EVENTS,
	FTC_CAP_EVENT_FILTER,
	FTC_CAP_TRIGGER_TRACEON,
	FTC_CAP_TRIGGER_TRACEOFF,
	FTC_CAP_TRIGGER_STACKTRACE,
	FTC_CAP_TRIGGER_SNAPSHOT,
	FTC_CAP_TRIGGER_ENABLE_EVENT,
	FTC_CAP_TRIGGER_DISABLE_EVENT,
	FTC_CAP_TRIGGER_HIST,
	FTC_CAP_TRACER_FUNCTION,
	FTC_CAP_TRACER_FUNCTION_GRAPH,
	FTC_CAP_FTRACE_FILTER,
	FTC_CAP_FTRACE_NOTRACE,
	FTC_CAP_FTRACE_PID,
	FTC_CAP_FILTER_FUNCTIONS,
	FTC_CAP_GRAPH_FUNCTION,
	FTC_CAP_FUNCTION_TRIGGERS,
	FTC_CAP_SNAPSHOT,
	FTC_CAP_KPROBES,
	FTC_CAP_UPROBES,
	FTC_CAP_DYNAMIC_EVENTS,
	FTC_CAP_EPROBES,
	FTC_CAP_TRACE_CLOCK,
	FTC_CAP_SUBBUF_SIZE,
	FTC_CAP_TRACE_PIPE_RAW,
	FTC_CAP_TRACE_MARKER,
	FTC_CAP_EVENT_PID,
	FTC_CAP_FTRACE_ENABLED,
	FTC_CAP_DUMP_ON_OOPS,
	FTC_CAP_KALLSYMS,
	FTC_CAP_PERF_SOFTWARE,
	FTC_CAP_PERF_HARDWARE,
	FTC_CAP_PERF_TRACEPOINT,
	FTC_CAP_FPROBES,
	FTC_CAP_MMAP_RING,
	FTC_CAP_PERSISTENT,
	FTC_CAP_TIMERLAT,
	FTC_CAP_OSNOISE,
	FTC_CAP_COUNT
};

struct ftc_cap {
	enum ftc_cap_id id;
	enum ftc_cap_state state;
	int err;		/* the errno behind a refusal or absence, 0 if none */
	char why[256];		/* the file (or call) and the kernel's answer */
};

/* "tracefs", "trigger-traceon", "function", ... as `ftc check` prints it. */
FTC_API const char *ftc_cap_name(enum ftc_cap_id id);
/* The id of a name, or -1 with errno EINVAL. */
FTC_API int ftc_cap_lookup(const char *name);
/* "ok", "refused", "absent". */
FTC_API const char *ftc_cap_state_name(enum ftc_cap_state state);

struct ftc_probe;

/*
 * A probe session for one instance (NULL or "" for the top level). The
 * private instance that write probes need is made on first use and removed
 * by ftc_probe_close(), which must be called (block signals around the
 * session if it must survive SIGINT).
 */
FTC_API struct ftc_probe *ftc_probe_open(const char *instance);
FTC_API void ftc_probe_close(struct ftc_probe *probe);
/*
 * The private instance goes through this journal (see ftc_state_guard),
 * so that a probe killed half-way leaves nothing behind: its guardian
 * removes the instance. Call before the first probe; the journal is
 * restored by ftc_probe_close.
 */
struct ftc_state;
FTC_API void ftc_probe_journal(struct ftc_probe *probe, struct ftc_state *st);

/* Fills *cap for one capability. Returns 0, or -1 if id is not valid. */
FTC_API int ftc_probe_cap(struct ftc_probe *probe, enum ftc_cap_id id, struct ftc_cap *cap);

/* One-shot: probes a single capability of an instance. */
FTC_API int ftc_probe_one(const char *instance, enum ftc_cap_id id, struct ftc_cap *cap);

#ifdef __cplusplus
}
#endif

#endif
