// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A session written to tracefs in the kernel's order: buffers and filters
 * first, the tracer and the events after them (so nothing unfiltered is
 * recorded), tracing_on last, once every section is configured.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "session.h"
#include "control.h"
#include "ftc.h"
#include "ftc-dynprobe.h"

int ftc_session_step(const struct ftc_session *s, const struct ftc_state *st)
{
	if (s->step_delay_ms) {
		struct timespec ts = { s->step_delay_ms / 1000,
				       (long)(s->step_delay_ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
	}
	if (ftc_state_stopped(st))
		return ftc_error(EINTR, "interrupted: tracefs is being restored");
	return 0;
}

static bool function_tracer(const struct ftc_session_section *sec)
{
	return sec->tracer && !strncmp(sec->tracer, "function", 8);
}

struct apply {
	const struct ftc_session *s;
	struct ftc_state *st;
	const char *inst;
};

/* Each write is preceded by a step: a delay for tests, a stop on request. */
#define STEP(a, write) (ftc_session_step((a)->s, (a)->st) || (write))

static int apply_buffer(const struct apply *a, const struct ftc_session_section *sec)
{
	if (sec->buffer_kb && STEP(a, ftc_set_buffer_kb(a->st, a->inst, sec->buffer_kb)))
		return -1;
	if (sec->subbuf_kb && STEP(a, ftc_set_subbuf_kb(a->st, a->inst, sec->subbuf_kb)))
		return -1;
	if (sec->clock && STEP(a, ftc_set_clock(a->st, a->inst, sec->clock)))
		return -1;
	if (sec->cpumask && STEP(a, ftc_set_cpumask(a->st, a->inst, sec->cpumask)))
		return -1;
	for (size_t i = 0; i < sec->options.n; i++)
		if (STEP(a, ftc_set_option(a->st, a->inst, sec->options.v[i])))
			return -1;
	if (sec->stacktrace && STEP(a, ftc_set_option(a->st, a->inst, "stacktrace")))
		return -1;
	if (sec->event_fork && STEP(a, ftc_set_option(a->st, a->inst, "event-fork")))
		return -1;
	return 0;
}

static int apply_pids(const struct apply *a, const struct ftc_session_section *sec)
{
	const struct ftc_session_list *p = &sec->pids;

	if (!p->n)
		return 0;
	if (STEP(a, ftc_set_pids(a->st, a->inst, "set_event_pid", p->v, p->n)))
		return -1;
	/* set_ftrace_pid only matters to the function tracers */
	if (!function_tracer(sec))
		return 0;
	if (STEP(a, ftc_set_pids(a->st, a->inst, "set_ftrace_pid", p->v, p->n)))
		return -1;
	if (sec->event_fork && STEP(a, ftc_set_option(a->st, a->inst, "function-fork")))
		return -1;
	return 0;
}

static int apply_functions(const struct apply *a, const struct ftc_session_section *sec)
{
	const struct {
		const char *file;
		const struct ftc_session_list *l;
	} lists[] = {
		{ "set_ftrace_filter", &sec->funcs },
		{ "set_ftrace_notrace", &sec->notrace },
		{ "set_graph_function", &sec->graph },
		{ "set_graph_notrace", &sec->graph_notrace },
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const struct ftc_session_list *l = lists[i].l;

		if (l->n && STEP(a, ftc_set_functions(a->st, a->inst, lists[i].file, l->v, l->n)))
			return -1;
	}
	if (sec->has_max_depth &&
	    STEP(a, ftc_set_max_graph_depth(a->st, a->inst, sec->max_depth)))
		return -1;
	for (size_t i = 0; i < sec->func_triggers.n; i++)
		if (STEP(a, ftc_func_trigger(a->st, a->inst, sec->func_triggers.v[i])))
			return -1;
	return 0;
}

/*
 * Every probe is made before anything enables one, so that restoring
 * (newest first) has disabled them all by the time it removes them: the
 * kernel refuses to remove an enabled probe. The spec is replaced by the
 * event it made.
 */
static int make_probes(struct ftc_session *s, struct ftc_state *st)
{
	for (size_t i = 0; i < s->n; i++) {
		struct ftc_session_list *l = &s->secs[i]->probes;

		for (size_t j = 0; j < l->n; j++) {
			char *event;

			if (ftc_session_step(s, st) || ftc_probe_add(st, l->v[j], NULL, &event) < 0)
				return -1;
			free(l->v[j]);
			l->v[j] = event;
		}
	}
	return 0;
}

static int apply_events(const struct apply *a, const struct ftc_session_section *sec)
{
	for (size_t i = 0; i < sec->probes.n; i++)
		if (STEP(a, ftc_event_setup(a->st, a->inst, sec->probes.v[i], NULL, NULL, 0) < 0))
			return -1;
	for (size_t i = 0; i < sec->nevents; i++) {
		const struct ftc_session_event *ev = &sec->events[i];

		if (STEP(a, ftc_event_setup(a->st, a->inst, ev->spec, ev->filter,
					    ev->triggers.v, ev->triggers.n) < 0))
			return -1;
	}
	return 0;
}

/* osnoise/FILE=VALUE: written before the tracer starts, journaled as any knob. */
static int apply_tracer_opts(const struct apply *a, const struct ftc_session_section *sec)
{
	for (size_t i = 0; i < sec->tracer_opts.n; i++) {
		char file[256];
		const char *opt = sec->tracer_opts.v[i], *eq = strchr(opt, '=');

		snprintf(file, sizeof(file), "%.*s", (int)(eq - opt), opt);
		if (!ftc_knob_exists(NULL, file))
			return ftc_error(ENOENT, "--tracer-opt %s: this kernel has no %s (its latency "
					 "tracers' settings are the files in osnoise/ and "
					 "hwlat_detector/; `ftc check` names the tracers)", opt, file);
		if (STEP(a, ftc_knob_write(a->st, NULL, file, eq + 1)))
			return -1;
	}
	return 0;
}

/* Everything but tracing_on, which stays 0 in the section's buffer. */
static int section_configure(const struct apply *a, const struct ftc_session_section *sec)
{
	if (a->inst && ftc_instance_create(a->st, a->inst) < 0)
		return -1;
	/* quiet while configuring: a half-set filter records nothing */
	if (STEP(a, ftc_knob_write(a->st, a->inst, "tracing_on", "0")))
		return -1;
	if (apply_buffer(a, sec) || apply_pids(a, sec) || apply_functions(a, sec))
		return -1;
	if (apply_tracer_opts(a, sec))
		return -1;
	if (sec->tracer && STEP(a, ftc_set_tracer(a->st, a->inst, sec->tracer)))
		return -1;
	return apply_events(a, sec);
}

/* With several sections, an error says which one failed (unless the
 * message names its instance already, as a knob's path does). */
static int name_section(const struct ftc_session_section *sec)
{
	int err = errno;
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", ftc_strerror());
	if (!strstr(msg, sec->instance))
		ftc_error(err, "instance '%s': %s", sec->instance, msg);
	errno = err;
	return -1;
}

static int configure(struct ftc_session *s, struct ftc_state *st)
{
	if (s->cmdlines_size &&
	    (ftc_session_step(s, st) || ftc_set_cmdlines_size(st, s->cmdlines_size)))
		return -1;
	if (make_probes(s, st) < 0)
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		struct apply a = { s, st, s->secs[i]->instance };

		if (section_configure(&a, s->secs[i]) < 0)
			return s->n > 1 ? name_section(s->secs[i]) : -1;
	}
	return 0;
}

int ftc_session_configure(struct ftc_session *s, struct ftc_state *st)
{
	s->stage = FTC_SESSION_STAGE_NONE;
	if (configure(s, st) < 0) {
		s->stage = FTC_SESSION_STAGE_CONFIGURE;
		return -1;
	}
	s->configured = true;
	return 0;
}

int ftc_session_tracing_on(struct ftc_session *s, struct ftc_state *st)
{
	for (size_t i = 0; i < s->n; i++) {
		struct ftc_session_section *sec = s->secs[i];

		if (ftc_session_step(s, st) ||
		    (!sec->no_tracing_on && ftc_knob_write(st, sec->instance, "tracing_on", "1")))
			return -1;
	}
	return 0;
}

/* Every section is configured before any buffer starts recording, so a
 * failure in the last one leaves nothing traced half-way. */
int ftc_session_apply(struct ftc_session *s, struct ftc_state *st)
{
	if (ftc_session_configure(s, st) < 0)
		return -1;
	return ftc_session_tracing_on(s, st);
}
