/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The session's parts, shared by its four files: what is asked
 * (session-spec.c), writing it to tracefs (session-apply.c), the command
 * or processes it runs or watches (session-run.c), and the recording
 * (session-record.c), each using only the ones before it.
 */
#ifndef FTC_SESSION_INTERNAL_H
#define FTC_SESSION_INTERNAL_H

#include "ftc-session.h"

struct ftc_session_list {
	char **v;
	size_t n;
};

struct ftc_session_event {
	char *spec;
	char *filter;
	struct ftc_session_list triggers;
};

/* What one section asks of one buffer (the top level when unnamed). */
struct ftc_session_section {
	char *tracer, *clock, *cpumask, *instance;
	unsigned long long buffer_kb, subbuf_kb, max_depth;
	bool has_max_depth, stacktrace, event_fork, no_tracing_on;
	struct ftc_session_event *events;
	size_t nevents;
	struct ftc_session_list options, funcs, notrace, graph, graph_notrace, func_triggers;
	struct ftc_session_list pids, probes, tracer_opts;
	/* while recording: its CPUs and its capture slots */
	int *cpus, ncpus, first_slot, nslots;
};

/* A process the session attached to; its end is looked for when it has no pidfd. */
struct ftc_session_target {
	pid_t id;
	int pidfd;
	bool ended;
};

struct ftc_session {
	struct ftc_session_section **secs;
	size_t n;
	unsigned long long cmdlines_size;
	unsigned int step_delay_ms;
	/* what it runs or watches */
	struct ftc_workload *command;
	bool released, forwarded;
	struct ftc_session_target *targets;
	size_t ntargets;
	/* the recording */
	struct ftc_state *st;
	struct ftc_writer *w;
	struct ftc_capture *cap;
	struct ftc_capture_perf *perf;
	enum ftc_session_stage stage;
	bool configured, recording;
};

/* session-spec.c: the sections' memory, for the recording's free. */
void ftc_session_spec_free(struct ftc_session *s);
/* session-apply.c: before each write; -1 (EINTR) once asked to stop. */
int ftc_session_step(const struct ftc_session *s, const struct ftc_state *st);
/* session-run.c: the attached processes' descriptors, for the session's free. */
void ftc_session_run_free(struct ftc_session *s);

#endif
