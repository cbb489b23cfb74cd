/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the probe files: the session and the helpers they share. */
#ifndef FTC_PROBE_INTERNAL_H
#define FTC_PROBE_INTERNAL_H

#include <stdbool.h>

#include "ftc-probe.h"

struct ftc_probe {
	char *instance;		/* the instance asked about; NULL is the top level */
	/* The private instance write probes use: 0 not tried, 1 made, -1 failed. */
	int scratch_state;
	int scratch_err;
	char scratch[64];
	struct ftc_state *st;	/* journals the private instance; may be NULL */
	/*
	 * Older kernels (6.1) keep one global "buffers expanded" flag until
	 * tracing is first used, and a tracer switch, an event write or a
	 * snapshot even in an instance sets it: then the probes that would
	 * do so only check the files open for writing.
	 */
	bool unexpanded;
	/* The event the event probes use, "system/event", "" if none. */
	bool event_done;
	char event[256];
	/* A function from available_filter_functions, "" if none readable. */
	bool func_done;
	char func[256];
	/* The event-trigger write test, done once for all triggers. */
	bool trig_done;
	int trig_err;
	/* Results so far: some probes build on others. */
	bool done[FTC_CAP_COUNT];
	struct ftc_cap cache[FTC_CAP_COUNT];
	/* Probes one capability (ftc_probe_cap, set by ftc_probe_open): how
	 * ftc_probe_dep reaches the dispatch above the families. */
	int (*run)(struct ftc_probe *p, enum ftc_cap_id id, struct ftc_cap *cap);
};

/* Sets a result; returns 0 so probes can `return ftc_cap_set(...)`. */
int ftc_cap_set(struct ftc_cap *cap, enum ftc_cap_state state, int err,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* ok, or refused/absent chosen from the errno. */
int ftc_cap_from_errno(struct ftc_cap *cap, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ENOENT, ENODEV, EOPNOTSUPP... mean "not built in". */
bool ftc_errno_is_absent(int err);

/* The same capability's result, probing it first if needed. */
const struct ftc_cap *ftc_probe_dep(struct ftc_probe *p, enum ftc_cap_id id);

/* The private instance's name, made on first use; NULL if it cannot be
 * (probe-scratch.c). Removed by ftc_probe_scratch_remove, if made. */
const char *ftc_probe_scratch(struct ftc_probe *p);
void ftc_probe_scratch_remove(struct ftc_probe *p);
const char *ftc_probe_event(struct ftc_probe *p);
const char *ftc_probe_func(struct ftc_probe *p);

/*
 * File helpers on tracefs files of an instance (NULL: top level). They
 * return 0 or a negative errno and never print. ftc_probe_file_read reads at
 * most max bytes, NUL-terminated, into a malloc'ed *out.
 */
bool ftc_probe_file_exists(const char *instance, const char *file);
int ftc_probe_file_read(const char *instance, const char *file, size_t max, char **out);
int ftc_probe_file_write(const char *instance, const char *file, const char *val, bool append);
/* Opens for writing without truncating and closes: the file's write permission. */
int ftc_probe_file_open_write(const char *instance, const char *file);
/* The same on an absolute path (procfs). */
int ftc_probe_path_read(const char *path, size_t max, char **out);
int ftc_probe_path_write(const char *path, const char *val);

/* "instances/NAME/" or "" for the top level, to name files in messages. */
const char *ftc_probe_where(const struct ftc_probe *p, char *buf, size_t size);

/* Whether word appears as a whole word in a space/newline separated list. */
bool ftc_probe_word_in(const char *list, const char *word);

/* The probes, one per family, dispatched from probe.c. */
int ftc_probe_tracefs(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_instances(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_events(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_event_filter(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_trigger(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_tracer(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_ftrace_file(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_filter_functions(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_function_triggers(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_snapshot(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_dynevent_file(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_eprobes(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_fprobes(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_mmap_ring(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_persistent(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_listed_tracer(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_trace_clock(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_subbuf_size(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_trace_pipe_raw(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_trace_marker(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_event_pid(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_sysctl(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_kallsyms(struct ftc_probe *p, struct ftc_cap *cap);
int ftc_probe_perf(struct ftc_probe *p, struct ftc_cap *cap);

#endif
