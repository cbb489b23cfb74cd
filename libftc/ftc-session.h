/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A tracing session (libftc/session/): what to trace, described once, then
 * applied to tracefs in the kernel's order and, for a capture, recorded
 * into a trace.dat while an optional command runs, or running processes
 * are watched. ftc record, start, stream, top, stat and profile are its
 * clients; so is Documentation/examples/ftc-graph.c. A session with no
 * section configured touches no tracefs file: stat and profile use it
 * for the command and its end alone, their counters beside it.
 *
 * A session holds buffer sections: the first is the top level until
 * ftc_session_instance() names it; each later ftc_session_instance() opens
 * the next section, and the settings that follow apply to that instance.
 * Applying writes every knob through a journal (struct ftc_state), so that
 * ftc_state_restore() puts everything back.
 */
#ifndef FTC_SESSION_H
#define FTC_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ftc-api.h"
#include "ftc-capture.h"
#include "ftc-capture-perf.h"
#include "ftc-control.h"
#include "ftc-workload.h"
#include "ftc-writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Settings of the current section that take a string; the list ones repeat. */
enum ftc_session_knob {
	FTC_SESSION_TRACER,		/* current_tracer */
	FTC_SESSION_CLOCK,		/* trace_clock */
	FTC_SESSION_CPUMASK,		/* tracing_cpumask, in hex */
	FTC_SESSION_OPTION,		/* list: trace option, noOPTION clears */
	FTC_SESSION_FUNC,		/* list: set_ftrace_filter */
	FTC_SESSION_NOTRACE,		/* list: set_ftrace_notrace */
	FTC_SESSION_GRAPH_FUNC,		/* list: set_graph_function */
	FTC_SESSION_GRAPH_NOTRACE,	/* list: set_graph_notrace */
	FTC_SESSION_FUNC_TRIGGER,	/* list: FUNC:COMMAND[:COUNT] */
	FTC_SESSION_PID,		/* list: set_event_pid (and set_ftrace_pid) */
	FTC_SESSION_PROBE,		/* list: a probe SPEC (ftc-probe.h) */
	FTC_SESSION_EVENT,		/* list: SYSTEM, SYSTEM:EVENT, a glob, or all */
	FTC_SESSION_EVENT_FILTER,	/* the filter of the last event (one) */
	FTC_SESSION_EVENT_TRIGGER,	/* list: a trigger of the last event */
	FTC_SESSION_TRACER_OPT,		/* list: FILE=VALUE, FILE in osnoise/ or hwlat_detector/ (global) */
};

/* Settings that take a number; 0 is refused for the sizes. */
enum ftc_session_number {
	FTC_SESSION_BUFFER_KB,		/* buffer_size_kb, per CPU */
	FTC_SESSION_SUBBUF_KB,		/* buffer_subbuf_size_kb */
	FTC_SESSION_MAX_GRAPH_DEPTH,	/* max_graph_depth (0: no limit) */
	FTC_SESSION_CMDLINES_SIZE,	/* saved_cmdlines_size: global */
};

/* Settings that are on once set. */
enum ftc_session_flag {
	FTC_SESSION_STACKTRACE,		/* option stacktrace */
	FTC_SESSION_EVENT_FORK,		/* pid filters follow children */
	FTC_SESSION_NO_TRACING_ON,	/* configure, leave tracing_on 0 */
};

struct ftc_session;

FTC_API struct ftc_session *ftc_session_new(void);
/* Frees the session; a recording not stopped is stopped first. */
FTC_API void ftc_session_free(struct ftc_session *s);

/* Names the first section, then opens one more per call; a name given twice is refused. */
FTC_API int ftc_session_instance(struct ftc_session *s, const char *name);
/* Each checks its value as far as it can without tracefs: -1 with the reason. */
FTC_API int ftc_session_set(struct ftc_session *s, enum ftc_session_knob knob, const char *value);
FTC_API int ftc_session_set_number(struct ftc_session *s, enum ftc_session_number what,
				   unsigned long long value);
FTC_API int ftc_session_set_flag(struct ftc_session *s, enum ftc_session_flag flag);
/*
 * Traces only pid (and its children once any section has EVENT_FORK) in
 * every section that has events, probes or a tracer, or in all when none has.
 */
FTC_API int ftc_session_follow(struct ftc_session *s, pid_t pid);
/* Sleeps ms before each write to tracefs, so that a test can interrupt half-way. */
FTC_API void ftc_session_set_step_delay(struct ftc_session *s, unsigned int ms);

/* Whether the session asks for nothing at all. */
FTC_API bool ftc_session_empty(const struct ftc_session *s);
/* Its sections (at least one) and their instance names (NULL: the top level). */
FTC_API size_t ftc_session_count(const struct ftc_session *s);
FTC_API const char *ftc_session_instance_at(const struct ftc_session *s, size_t i);

/*
 * Applies it in the kernel's order: saved_cmdlines_size and the probes,
 * then per section the instance, tracing_on 0, buffer, clock, cpumask,
 * options, pid filters, function filters and triggers, the tracer, and
 * the events with their filters and triggers. Stops between two writes
 * once ftc_state_set_stop()'s flag is set (EINTR). With several sections
 * an error names the instance.
 */
FTC_API int ftc_session_configure(struct ftc_session *s, struct ftc_state *st);
/* tracing_on 1 in each section without NO_TRACING_ON, once all are configured. */
FTC_API int ftc_session_tracing_on(struct ftc_session *s, struct ftc_state *st);
/* Both, in that order. */
FTC_API int ftc_session_apply(struct ftc_session *s, struct ftc_state *st);

/* An options structure (FTC_OPTS_INIT). */
struct ftc_session_record_opts {
	size_t size;			/* sizeof(struct ftc_session_record_opts) */
	const char *output;		/* the file to write; with fd, its name in messages */
	int fd;				/* > 0: stream to this descriptor instead (ftc listen) */
	int version;			/* trace.dat version, 6 or 7 (0: 7) */
	enum ftc_compression compression;
	unsigned long long max_bytes;	/* > 0: keep only the newest (ftc_writer_set_max) */
	unsigned int wake_usecs;	/* the readers' wake interval (0: the default) */
	/* the readers' SCHED_FIFO priority, 1-99; 0: the capture's default;
	 * FTC_CAPTURE_NO_RT: not real-time */
	int rt_priority;
	/* perf samples or counters beside the trace, on the first section's
	 * clock and CPUs (.instance and .pid, the command's, are filled in);
	 * NULL: none */
	const struct ftc_capture_perf_opts *perf;
	/* read the ring buffers through their memory maps where the kernel lets
	 * it (ftc_capture_use_mmap()), splice elsewhere */
	bool mmap;
};

/* Where ftc_session_record_start() (or ftc_session_configure()) failed. */
enum ftc_session_stage {
	FTC_SESSION_STAGE_NONE,
	FTC_SESSION_STAGE_CONFIGURE,	/* the kernel refused a knob: see errno */
	FTC_SESSION_STAGE_FILE,		/* the file or the capture could not be set up */
	FTC_SESSION_STAGE_PERF,		/* perf refused an event (EOPNOTSUPP: no PMU) */
	FTC_SESSION_STAGE_TRACING_ON,
	FTC_SESSION_STAGE_EXEC,		/* the command could not be run: errno is exec's */
};

/*
 * Configures the session with tracing off (unless ftc_session_configure()
 * did, for a caller with something to do in between), writes the file's head, starts
 * a reader per CPU and buffer (and perf), keeps the recorder's own threads
 * out of the trace (set_event_notrace_pid, where the kernel has it), turns
 * tracing on and releases the command (ftc_session_set_command()). The
 * file's buffer i is section i.
 * On failure: -1, ftc_session_stage() says where, and a file already begun
 * is finished (empty).
 */
FTC_API int ftc_session_record_start(struct ftc_session *s, struct ftc_state *st,
				     const struct ftc_session_record_opts *o);
FTC_API enum ftc_session_stage ftc_session_stage(const struct ftc_session *s);
/* Once a second while recording: syncs what was written (ftc_capture_checkpoint). */
FTC_API int ftc_session_checkpoint(struct ftc_session *s);
/* A reader failed (a full disk): the recording should stop; its message. */
FTC_API bool ftc_session_failed(const struct ftc_session *s);
FTC_API const char *ftc_session_error(const struct ftc_session *s);
/* Turns tracing off in every section, drains the readers and perf, finishes the file. */
FTC_API int ftc_session_record_stop(struct ftc_session *s);

/*
 * The command the session runs: spawned and held by the caller
 * (ftc_workload_spawn()), released by ftc_session_release() or the
 * recording's start once everything is on. The caller still owns it
 * (its exit code, its rusage, its free: after setting another, or NULL).
 * Refused (EBUSY) while recording.
 */
FTC_API int ftc_session_set_command(struct ftc_session *s, struct ftc_workload *w);
/* Or a process (or thread) already running: the wait ends once every attached one has. */
FTC_API int ftc_session_attach(struct ftc_session *s, pid_t id);
/* Lets the command exec: -1 with exec's errno and stage EXEC when it cannot. */
FTC_API int ftc_session_release(struct ftc_session *s);
/* Passes sig on to the released command, once (it decides how to end): 1 when sent. */
FTC_API int ftc_session_forward(struct ftc_session *s, int sig);

/* What ended ftc_session_wait(). */
enum ftc_session_wake {
	FTC_SESSION_WAKE_TIMEOUT,	/* the time given is up */
	FTC_SESSION_WAKE_ENDED,		/* the command ended (reaped), or every attached process */
	FTC_SESSION_WAKE_STOP,		/* stop_fd is readable: the caller drains it */
	FTC_SESSION_WAKE_FAILED,	/* the recording failed: ftc_session_error() */
	FTC_SESSION_WAKE_SIGNAL,	/* a signal handler ran (EINTR): the caller looks at its flags */
};
/*
 * Sleeps until one of those, timeout_ns at most (-1: no limit); stop_fd
 * (-1: none) is the caller's signal pipe. With neither a command nor an
 * attached process, only stop_fd or the time ends it. -1 on error.
 */
FTC_API int ftc_session_wait(struct ftc_session *s, int stop_fd, long long timeout_ns);

/* What the recording runs on, for its figures (NULL before the start). */
FTC_API struct ftc_writer *ftc_session_writer(const struct ftc_session *s);
FTC_API struct ftc_capture *ftc_session_capture(const struct ftc_session *s);
FTC_API struct ftc_capture_perf *ftc_session_perf(const struct ftc_session *s);
/* Section i's capture slots, [*first, *first + *n) of ftc_capture_cpu_stats(). */
FTC_API int ftc_session_slots(const struct ftc_session *s, size_t i, int *first, int *n);

#ifdef __cplusplus
}
#endif

#endif
