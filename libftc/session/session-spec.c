// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a session asks for: sections of settings, checked as they are given
 * so that a typo fails before anything is written to tracefs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"
#include "ftc.h"
#include "ftc-dynprobe.h"
#include "ftc-filter.h"

static int list_add(struct ftc_session_list *l, const char *s)
{
	char **bigger = realloc(l->v, (l->n + 1) * sizeof(char *));

	if (!bigger)
		return ftc_error(ENOMEM, "out of memory");
	l->v = bigger;
	l->v[l->n] = strdup(s);
	if (!l->v[l->n])
		return ftc_error(ENOMEM, "out of memory");
	l->n++;
	return 0;
}

static void list_free(struct ftc_session_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static void section_free(struct ftc_session_section *s)
{
	if (!s)
		return;
	free(s->tracer);
	free(s->clock);
	free(s->cpumask);
	free(s->instance);
	for (size_t i = 0; i < s->nevents; i++) {
		free(s->events[i].spec);
		free(s->events[i].filter);
		list_free(&s->events[i].triggers);
	}
	free(s->events);
	list_free(&s->options);
	list_free(&s->funcs);
	list_free(&s->notrace);
	list_free(&s->graph);
	list_free(&s->graph_notrace);
	list_free(&s->func_triggers);
	list_free(&s->pids);
	list_free(&s->probes);
	list_free(&s->tracer_opts);
	free(s->cpus);
	free(s);
}

static struct ftc_session_section *section_add(struct ftc_session *s)
{
	struct ftc_session_section **bigger = realloc(s->secs, (s->n + 1) * sizeof(*bigger));

	if (!bigger)
		return NULL;
	s->secs = bigger;
	bigger[s->n] = calloc(1, sizeof(struct ftc_session_section));
	if (!bigger[s->n])
		return NULL;
	return bigger[s->n++];
}

struct ftc_session *ftc_session_new(void)
{
	struct ftc_session *s = calloc(1, sizeof(*s));

	if (s && !section_add(s)) {
		ftc_session_spec_free(s);
		s = NULL;
	}
	if (!s)
		ftc_error(ENOMEM, "out of memory");
	return s;
}

void ftc_session_spec_free(struct ftc_session *s)
{
	for (size_t i = 0; i < s->n; i++)
		section_free(s->secs[i]);
	free(s->secs);
	free(s);
}

static bool section_empty(const struct ftc_session_section *s)
{
	return !s->tracer && !s->clock && !s->cpumask && !s->instance && !s->buffer_kb &&
	       !s->subbuf_kb && !s->has_max_depth && !s->stacktrace && !s->event_fork &&
	       !s->nevents && !s->options.n && !s->funcs.n && !s->notrace.n && !s->graph.n &&
	       !s->graph_notrace.n && !s->func_triggers.n && !s->pids.n && !s->probes.n &&
	       !s->tracer_opts.n;
}

bool ftc_session_empty(const struct ftc_session *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (!section_empty(s->secs[i]))
			return false;
	return !s->cmdlines_size;
}

size_t ftc_session_count(const struct ftc_session *s)
{
	return s->n;
}

const char *ftc_session_instance_at(const struct ftc_session *s, size_t i)
{
	return i < s->n ? s->secs[i]->instance : NULL;
}

static struct ftc_session_section *current(struct ftc_session *s)
{
	return s->secs[s->n - 1];
}

int ftc_session_instance(struct ftc_session *s, const char *name)
{
	struct ftc_session_section *sec = current(s);
	char *copy;

	if (!*name || strchr(name, '/'))
		return ftc_error(EINVAL, "an instance name cannot be empty or contain '/'");
	for (size_t i = 0; i < s->n; i++)
		if (s->secs[i]->instance && !strcmp(s->secs[i]->instance, name))
			return ftc_error(EEXIST, "instance %s is already given: give each "
					 "instance once, followed by all of its settings", name);
	copy = strdup(name);
	if (!copy || (sec->instance && !(sec = section_add(s)))) {
		free(copy);
		return ftc_error(ENOMEM, "out of memory");
	}
	sec->instance = copy;
	return 0;
}

static int set_str(char **slot, const char *value)
{
	char *copy = strdup(value);

	if (!copy)
		return ftc_error(ENOMEM, "out of memory");
	free(*slot);
	*slot = copy;
	return 0;
}

static struct ftc_session_event *last_event(struct ftc_session_section *sec)
{
	if (!sec->nevents) {
		ftc_error(EINVAL, "%s", sec->instance ?
			  "applies to the preceding event of the same instance; give the event first" :
			  "applies to the preceding event; give the event first");
		return NULL;
	}
	return &sec->events[sec->nevents - 1];
}

static int add_event(struct ftc_session_section *sec, const char *spec)
{
	struct ftc_session_event *bigger = realloc(sec->events,
						   (sec->nevents + 1) * sizeof(*bigger));

	if (!bigger)
		return ftc_error(ENOMEM, "out of memory");
	sec->events = bigger;
	memset(&bigger[sec->nevents], 0, sizeof(*bigger));
	if (set_str(&bigger[sec->nevents].spec, spec) < 0)
		return -1;
	sec->nevents++;
	return 0;
}

static int set_filter(struct ftc_session_section *sec, const char *filter)
{
	struct ftc_session_event *ev = last_event(sec);
	struct ftc_filter_error err = { 0 };

	if (!ev)
		return -1;
	if (ev->filter)
		return ftc_error(EINVAL, "this event already has a filter: combine them "
				 "with && or ||");
	if (ftc_filter_check_kernel(filter, &err) < 0)
		return ftc_error(EINVAL, "%s", err.msg);
	return set_str(&ev->filter, filter);
}

/*
 * The latency tracers keep their settings in directories of their own,
 * global to tracefs: osnoise/ (osnoise and timerlat), hwlat_detector/.
 */
static int add_tracer_opt(struct ftc_session_section *sec, const char *opt)
{
	static const char *const dirs[] = { "osnoise/", "hwlat_detector/" };
	const char *eq = strchr(opt, '='), *file = NULL;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(opt, dirs[i], strlen(dirs[i])))
			file = opt + strlen(dirs[i]);
	if (!file || !eq || eq == file || !eq[1] || strcspn(file, "/.\n") < (size_t)(eq - file) ||
	    strchr(eq, '\n'))
		return ftc_error(EINVAL, "give FILE=VALUE with FILE in osnoise/ or hwlat_detector/ "
				 "(osnoise/period_us=1000, osnoise/stop_tracing_us=100)");
	return list_add(&sec->tracer_opts, opt);
}

static int add_trigger(struct ftc_session_section *sec, const char *trigger)
{
	struct ftc_session_event *ev = last_event(sec);

	return ev ? list_add(&ev->triggers, trigger) : -1;
}

static int add_probe(struct ftc_session_section *sec, const char *spec)
{
	struct ftc_probe_spec *ps;

	if (ftc_probe_spec_parse(spec, NULL, &ps) < 0)
		return -1;
	ftc_probe_spec_free(ps);
	return list_add(&sec->probes, spec);
}

static int set_cpumask(struct ftc_session_section *sec, const char *mask)
{
	if (!*mask || strspn(mask, "0123456789abcdefABCDEF,") != strlen(mask))
		return ftc_error(EINVAL, "give a hex CPU mask such as 3 (CPUs 0 and 1)");
	return set_str(&sec->cpumask, mask);
}

static int set_func_trigger(struct ftc_session_section *sec, const char *spec)
{
	if (!ftc_is_func_trigger(spec))
		return ftc_error(EINVAL, "use FUNC:COMMAND[:COUNT], or !FUNC:COMMAND to remove one");
	return list_add(&sec->func_triggers, spec);
}

int ftc_session_set(struct ftc_session *s, enum ftc_session_knob knob, const char *value)
{
	struct ftc_session_section *sec = current(s);

	if (!value)
		return ftc_error(EINVAL, "no value given");
	switch (knob) {
	case FTC_SESSION_TRACER: return set_str(&sec->tracer, value);
	case FTC_SESSION_CLOCK: return set_str(&sec->clock, value);
	case FTC_SESSION_CPUMASK: return set_cpumask(sec, value);
	case FTC_SESSION_OPTION: return list_add(&sec->options, value);
	case FTC_SESSION_FUNC: return list_add(&sec->funcs, value);
	case FTC_SESSION_NOTRACE: return list_add(&sec->notrace, value);
	case FTC_SESSION_GRAPH_FUNC: return list_add(&sec->graph, value);
	case FTC_SESSION_GRAPH_NOTRACE: return list_add(&sec->graph_notrace, value);
	case FTC_SESSION_FUNC_TRIGGER: return set_func_trigger(sec, value);
	case FTC_SESSION_PID: return list_add(&sec->pids, value);
	case FTC_SESSION_PROBE: return add_probe(sec, value);
	case FTC_SESSION_EVENT: return add_event(sec, value);
	case FTC_SESSION_EVENT_FILTER: return set_filter(sec, value);
	case FTC_SESSION_EVENT_TRIGGER: return add_trigger(sec, value);
	case FTC_SESSION_TRACER_OPT: return add_tracer_opt(sec, value);
	}
	return ftc_error(EINVAL, "unknown session setting %d", (int)knob);
}

int ftc_session_set_number(struct ftc_session *s, enum ftc_session_number what,
			   unsigned long long value)
{
	struct ftc_session_section *sec = current(s);

	if (!value && what != FTC_SESSION_MAX_GRAPH_DEPTH)
		return ftc_error(EINVAL, "must be at least 1");
	switch (what) {
	case FTC_SESSION_BUFFER_KB: sec->buffer_kb = value; return 0;
	case FTC_SESSION_SUBBUF_KB: sec->subbuf_kb = value; return 0;
	case FTC_SESSION_MAX_GRAPH_DEPTH:
		sec->max_depth = value;
		sec->has_max_depth = true;
		return 0;
	case FTC_SESSION_CMDLINES_SIZE: s->cmdlines_size = value; return 0;
	}
	return ftc_error(EINVAL, "unknown session number %d", (int)what);
}

int ftc_session_set_flag(struct ftc_session *s, enum ftc_session_flag flag)
{
	struct ftc_session_section *sec = current(s);

	switch (flag) {
	case FTC_SESSION_STACKTRACE: sec->stacktrace = true; return 0;
	case FTC_SESSION_EVENT_FORK: sec->event_fork = true; return 0;
	case FTC_SESSION_NO_TRACING_ON: sec->no_tracing_on = true; return 0;
	}
	return ftc_error(EINVAL, "unknown session flag %d", (int)flag);
}

void ftc_session_set_step_delay(struct ftc_session *s, unsigned int ms)
{
	s->step_delay_ms = ms;
}

/* Sections that trace something a pid filter narrows: events or a tracer. */
static bool section_traces(const struct ftc_session_section *s)
{
	return s->nevents || s->probes.n || (s->tracer && strcmp(s->tracer, "nop"));
}

int ftc_session_follow(struct ftc_session *s, pid_t pid)
{
	size_t tracing = 0;
	bool children = false;
	char text[24];

	snprintf(text, sizeof(text), "%d", (int)pid);
	/* EVENT_FORK anywhere means the followed command's children, in every buffer */
	for (size_t i = 0; i < s->n; i++) {
		tracing += section_traces(s->secs[i]);
		children |= s->secs[i]->event_fork;
	}
	for (size_t i = 0; i < s->n; i++) {
		struct ftc_session_section *sec = s->secs[i];

		if (tracing && !section_traces(sec))
			continue;
		if (list_add(&sec->pids, text) < 0)
			return -1;
		if (children)
			sec->event_fork = true;
	}
	return 0;
}
