// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tracing-control options (trace-cmd's letters) and the order in which
 * they reach tracefs: buffers and filters first, the tracer and the events
 * after them (so nothing unfiltered is recorded), tracing_on last.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "control-opts.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-control.h"
#include "ftc-dynprobe.h"
#include "rec-select.h"

const struct cmd_option control_options[] = {
	{ 'p', "tracer", "TRACER", "current_tracer (function, function_graph, nop, ...)", 'p' },
	{ 'e', "event", "EVENT", "enable SYSTEM, SYSTEM:EVENT, EVENT or all; globs: 'sched:*', '*:irq*'", 'e' },
	{ 'f', "filter", "FILTER", "filter for the preceding -e (e.g. 'prev_pid == 1')", 'f' },
	{ 'R', "trigger", "TRIGGER", "trigger for the last -e (traceoff:3, 'stacktrace if prev_pid == 1')", 'R' },
	{ 'T', "stacktrace", NULL, "record a stack trace with every event (option stacktrace)", 'T' },
	{ 'l', "func", "FUNC", "trace only FUNC (set_ftrace_filter): glob, regex or FUNC:mod:MODULE", 'l' },
	{ 'n', "notrace", "FUNC", "never trace FUNC (set_ftrace_notrace)", 'n' },
	{ 'g', "graph-func", "FUNC", "graph only from FUNC (set_graph_function)", 'g' },
	{ 'O', "option", "OPTION", "set a trace option; noOPTION clears it", 'O' },
	{ 'C', "clock", "CLOCK", "trace_clock (local, global, mono, ...)", 'C' },
	{ 'b', "buffer-size", "KB", "per-CPU ring buffer size in KB (buffer_size_kb)", 'b' },
	{ 'B', "instance", "NAME", "use instance NAME (created if missing) for the "
	  "options after this -B", 'B' },
	{ 'M', "cpumask", "MASK", "trace only the CPUs of this hex mask (tracing_cpumask)", 'M' },
	{ 'P', "pid", "PID", "trace only PID (set_event_pid; set_ftrace_pid for function tracers)", 'P' },
	{ 'c', "children", NULL, "with -P or -F: trace their children too (options/event-fork)", 'c' },
	{ 0, "max-graph-depth", "N", "function_graph depth limit (max_graph_depth)",
	  FTC_OPT_MAX_GRAPH_DEPTH },
	{ 0, "func-trigger", "FUNC:CMD[:N]", "function trigger (vfs_read:traceoff:5); !FUNC:CMD[:0] removes one",
	  FTC_OPT_FUNC_TRIGGER },
	{ 0, "subbuf-size", "KB", "ring buffer sub-buffer size (buffer_subbuf_size_kb)",
	  FTC_OPT_SUBBUF_SIZE },
	{ 0, "graph-notrace", "FUNC", "do not graph FUNC (set_graph_notrace)", FTC_OPT_GRAPH_NOTRACE },
	{ 0, "no-tracing-on", NULL, "configure but leave tracing_on 0 (a traceon trigger starts it)",
	  FTC_OPT_NO_TRACING_ON },
	{ 0, "cmdlines-size", "N", "remember N task names (saved_cmdlines_size; global, not per instance)",
	  FTC_OPT_CMDLINES_SIZE },
	{ 0, "probe", "SPEC", "a dynamic probe for this run: './prog:f n s:string' "
	  "(ftc-probe(1))", FTC_OPT_PROBE },
	{ 0 }
};

struct strlist {
	char **v;
	size_t n;
};

struct event_item {
	char *spec;
	char *filter;
	struct strlist triggers;
};

/* What one -B section asks of one buffer (the top level when no -B). */
struct section {
	char *tracer, *clock, *cpumask, *instance;
	unsigned long long buffer_kb, subbuf_kb, max_depth;
	bool has_max_depth, stacktrace, event_fork, no_tracing_on;
	struct event_item *events;
	size_t nevents;
	struct strlist options, funcs, notrace, graph, graph_notrace, func_triggers, pids;
	struct strlist probes;
};

/*
 * Each -B opens a section; options before the first -B belong to the
 * first section, so "-e x -B foo" means "-B foo -e x" as it always has.
 * saved_cmdlines_size is global and lives outside the sections.
 */
struct control_spec {
	struct section **secs;
	size_t n;
	unsigned long long cmdlines_size;
};

static int strlist_add(struct strlist *l, const char *s)
{
	char **bigger = realloc(l->v, (l->n + 1) * sizeof(char *));

	if (!bigger)
		return -1;
	l->v = bigger;
	l->v[l->n] = strdup(s);
	if (!l->v[l->n])
		return -1;
	l->n++;
	return 0;
}

static void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static void section_free(struct section *s)
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
		strlist_free(&s->events[i].triggers);
	}
	free(s->events);
	strlist_free(&s->options);
	strlist_free(&s->funcs);
	strlist_free(&s->notrace);
	strlist_free(&s->graph);
	strlist_free(&s->graph_notrace);
	strlist_free(&s->func_triggers);
	strlist_free(&s->pids);
	strlist_free(&s->probes);
	free(s);
}

static struct section *section_add(struct control_spec *spec)
{
	struct section **bigger = realloc(spec->secs, (spec->n + 1) * sizeof(*bigger));

	if (!bigger)
		return NULL;
	spec->secs = bigger;
	bigger[spec->n] = calloc(1, sizeof(struct section));
	if (!bigger[spec->n])
		return NULL;
	return bigger[spec->n++];
}

struct control_spec *control_spec_new(void)
{
	struct control_spec *spec = calloc(1, sizeof(*spec));

	if (spec && !section_add(spec)) {
		control_spec_free(spec);
		return NULL;
	}
	return spec;
}

void control_spec_free(struct control_spec *spec)
{
	if (!spec)
		return;
	for (size_t i = 0; i < spec->n; i++)
		section_free(spec->secs[i]);
	free(spec->secs);
	free(spec);
}

static bool section_empty(const struct section *s)
{
	return !s->tracer && !s->clock && !s->cpumask && !s->instance && !s->buffer_kb &&
	       !s->subbuf_kb && !s->has_max_depth && !s->stacktrace && !s->event_fork &&
	       !s->nevents && !s->options.n && !s->funcs.n && !s->notrace.n && !s->graph.n &&
	       !s->graph_notrace.n && !s->func_triggers.n && !s->pids.n && !s->probes.n;
}

int control_spec_empty(const struct control_spec *spec)
{
	for (size_t i = 0; i < spec->n; i++)
		if (!section_empty(spec->secs[i]))
			return 0;
	return !spec->cmdlines_size;
}

/* Names the option being parsed and its value (cmd_bad_value). */
static int bad(const char *why)
{
	return cmd_bad_value("%s", why);
}

static int set_str(char **slot, const char *arg)
{
	free(*slot);
	*slot = strdup(arg);
	return *slot ? 1 : bad("out of memory");
}

static int set_num(unsigned long long *slot, const char *arg)
{
	if (cmd_parse_u64(arg, slot) < 0)
		return bad("not a number (use a whole number, e.g. 10)");
	return 1;
}

/* A size: 0 would read as "not asked for", so it is refused. */
static int set_size(unsigned long long *slot, const char *arg)
{
	if (set_num(slot, arg) < 0)
		return -1;
	if (!*slot)
		return bad("must be at least 1");
	return 1;
}

static int add(struct strlist *l, const char *arg)
{
	return strlist_add(l, arg) < 0 ? bad("out of memory") : 1;
}

static struct event_item *last_event(struct section *s)
{
	if (!s->nevents) {
		bad(s->instance ?
		    "applies to the preceding -e EVENT of the same -B section; give -e first" :
		    "applies to the preceding -e EVENT; give -e first");
		return NULL;
	}
	return &s->events[s->nevents - 1];
}

static int add_event(struct section *s, const char *arg)
{
	struct event_item *bigger = realloc(s->events, (s->nevents + 1) * sizeof(*bigger));

	if (!bigger)
		return bad("out of memory");
	s->events = bigger;
	memset(&bigger[s->nevents], 0, sizeof(*bigger));
	bigger[s->nevents].spec = strdup(arg);
	if (!bigger[s->nevents].spec)
		return bad("out of memory");
	s->nevents++;
	return 1;
}

static int event_opt(struct section *s, int id, const char *arg)
{
	struct event_item *ev;

	if (id == 'e')
		return add_event(s, arg);
	ev = last_event(s);
	if (!ev)
		return -1;
	if (id == 'R')
		return add(&ev->triggers, arg);
	if (ev->filter)
		return bad("this event already has a filter: combine them with && or ||");
	if (rec_filter_kernel(arg) < 0)
		return -1;
	return set_str(&ev->filter, arg);
}

/* -B NAME: names the first section, or opens the next one. */
static int section_open(struct control_spec *spec, const char *arg)
{
	struct section *s = spec->secs[spec->n - 1];

	if (!*arg || strchr(arg, '/'))
		return bad("an instance name cannot be empty or contain '/'");
	for (size_t i = 0; i < spec->n; i++)
		if (spec->secs[i]->instance && !strcmp(spec->secs[i]->instance, arg))
			return bad("this instance is already given: give each -B NAME once, "
				   "followed by all of its options");
	if (s->instance) {
		s = section_add(spec);
		if (!s)
			return bad("out of memory");
	}
	return set_str(&s->instance, arg);
}

/* Parsed now, so that a typo fails before anything is written. */
static int probe_opt(struct section *s, const char *arg)
{
	struct ftc_probe_spec *ps;

	if (ftc_probe_spec_parse(arg, NULL, &ps) < 0)
		return bad(ftc_strerror());
	ftc_probe_spec_free(ps);
	return add(&s->probes, arg);
}

static int section_opt(struct section *s, int id, const char *arg)
{
	switch (id) {
	case 'p': return set_str(&s->tracer, arg);
	case 'e': case 'f': case 'R': return event_opt(s, id, arg);
	case 'T': s->stacktrace = true; return 1;
	case 'l': return add(&s->funcs, arg);
	case 'n': return add(&s->notrace, arg);
	case 'g': return add(&s->graph, arg);
	case 'O': return add(&s->options, arg);
	case 'C': return set_str(&s->clock, arg);
	case 'b': return set_size(&s->buffer_kb, arg);
	case 'M':
		if (!*arg || strspn(arg, "0123456789abcdefABCDEF,") != strlen(arg))
			return bad("give a hex CPU mask such as 3 (CPUs 0 and 1)");
		return set_str(&s->cpumask, arg);
	case 'P': return add(&s->pids, arg);
	case FTC_OPT_MAX_GRAPH_DEPTH:
		s->has_max_depth = true;
		return set_num(&s->max_depth, arg);
	case FTC_OPT_FUNC_TRIGGER:
		if (!ftc_is_func_trigger(arg))
			return bad("use FUNC:COMMAND[:COUNT], or !FUNC:COMMAND to remove one");
		return add(&s->func_triggers, arg);
	case FTC_OPT_SUBBUF_SIZE: return set_size(&s->subbuf_kb, arg);
	case 'c': s->event_fork = true; return 1;
	case FTC_OPT_GRAPH_NOTRACE: return add(&s->graph_notrace, arg);
	case FTC_OPT_NO_TRACING_ON: s->no_tracing_on = true; return 1;
	case FTC_OPT_PROBE: return probe_opt(s, arg);
	default: return 0;
	}
}

int control_spec_opt(struct control_spec *spec, int id, const char *arg)
{
	if (id == 'B')
		return section_open(spec, arg);
	if (id == FTC_OPT_CMDLINES_SIZE)
		return set_size(&spec->cmdlines_size, arg);
	return section_opt(spec->secs[spec->n - 1], id, arg);
}

size_t control_spec_count(const struct control_spec *spec)
{
	return spec->n;
}

const char *control_spec_instance_at(const struct control_spec *spec, size_t i)
{
	return i < spec->n ? spec->secs[i]->instance : NULL;
}

const char *control_spec_instance(const struct control_spec *spec)
{
	return control_spec_instance_at(spec, 0);
}

static bool function_tracer(const struct section *s)
{
	return s->tracer && !strncmp(s->tracer, "function", 8);
}

/* Sections that trace something a pid filter narrows: events or a tracer. */
static bool section_traces(const struct section *s)
{
	return s->nevents || s->probes.n || (s->tracer && strcmp(s->tracer, "nop"));
}

int control_spec_follow(struct control_spec *spec, const char *pid)
{
	size_t tracing = 0;
	bool children = false;

	/* -c anywhere means the followed command's children, in every buffer */
	for (size_t i = 0; i < spec->n; i++) {
		tracing += section_traces(spec->secs[i]);
		children |= spec->secs[i]->event_fork;
	}
	for (size_t i = 0; i < spec->n; i++) {
		struct section *s = spec->secs[i];

		if (tracing && !section_traces(s))
			continue;
		if (section_opt(s, 'P', pid) < 0)
			return -1;
		if (children)
			s->event_fork = true;
	}
	return 0;
}

int control_exit_status(int err)
{
	if (err == EINTR)
		return FTC_EXIT_INTERRUPTED;
	return ftc_errno_refused(err) ? FTC_EXIT_REFUSED : FTC_EXIT_FAIL;
}

/*
 * FTC_CONTROL_STEP_DELAY_MS slows every step down, so that tests (and
 * people watching tracefs) can interrupt a configuration half-way.
 */
static int step(void)
{
	static long delay_ms = -1;

	if (delay_ms < 0) {
		const char *env = getenv("FTC_CONTROL_STEP_DELAY_MS");

		delay_ms = env ? strtol(env, NULL, 10) : 0;
	}
	if (delay_ms > 0) {
		struct timespec ts = { delay_ms / 1000, (delay_ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
	}
	if (cmd_signal_caught())
		return ftc_error(EINTR, "interrupted: tracefs is being restored");
	return 0;
}

static int apply_buffer(struct section *s, struct ftc_state *st, const char *inst)
{
	if (s->buffer_kb && (step() || ftc_set_buffer_kb(st, inst, s->buffer_kb)))
		return -1;
	if (s->subbuf_kb && (step() || ftc_set_subbuf_kb(st, inst, s->subbuf_kb)))
		return -1;
	if (s->clock && (step() || ftc_set_clock(st, inst, s->clock)))
		return -1;
	if (s->cpumask && (step() || ftc_set_cpumask(st, inst, s->cpumask)))
		return -1;
	for (size_t i = 0; i < s->options.n; i++)
		if (step() || ftc_set_option(st, inst, s->options.v[i]))
			return -1;
	if (s->stacktrace && (step() || ftc_set_option(st, inst, "stacktrace")))
		return -1;
	if (s->event_fork && (step() || ftc_set_option(st, inst, "event-fork")))
		return -1;
	return 0;
}

static int apply_pids(struct section *s, struct ftc_state *st, const char *inst)
{
	if (!s->pids.n)
		return 0;
	if (step() || ftc_set_pids(st, inst, "set_event_pid", s->pids.v, s->pids.n))
		return -1;
	/* set_ftrace_pid only matters to the function tracers */
	if (!function_tracer(s))
		return 0;
	if (step() || ftc_set_pids(st, inst, "set_ftrace_pid", s->pids.v, s->pids.n))
		return -1;
	if (s->event_fork && (step() || ftc_set_option(st, inst, "function-fork")))
		return -1;
	return 0;
}

static int apply_functions(struct section *s, struct ftc_state *st, const char *inst)
{
	static const struct {
		const char *file;
		size_t off;
	} lists[] = {
		{ "set_ftrace_filter", offsetof(struct section, funcs) },
		{ "set_ftrace_notrace", offsetof(struct section, notrace) },
		{ "set_graph_function", offsetof(struct section, graph) },
		{ "set_graph_notrace", offsetof(struct section, graph_notrace) },
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct strlist *l = (struct strlist *)((char *)s + lists[i].off);

		if (l->n && (step() || ftc_set_functions(st, inst, lists[i].file, l->v, l->n)))
			return -1;
	}
	if (s->has_max_depth && (step() || ftc_set_max_graph_depth(st, inst, s->max_depth)))
		return -1;
	for (size_t i = 0; i < s->func_triggers.n; i++)
		if (step() || ftc_func_trigger(st, inst, s->func_triggers.v[i]))
			return -1;
	return 0;
}

/*
 * Every probe is made before anything enables one, so that restoring
 * (newest first) has disabled them all by the time it removes them: the
 * kernel refuses to remove an enabled probe. The spec is replaced by the
 * event it made.
 */
static int make_probes(struct control_spec *spec, struct ftc_state *st)
{
	for (size_t i = 0; i < spec->n; i++) {
		struct strlist *l = &spec->secs[i]->probes;

		for (size_t j = 0; j < l->n; j++) {
			char *event;

			if (step() || ftc_probe_add(st, l->v[j], NULL, &event) < 0)
				return -1;
			free(l->v[j]);
			l->v[j] = event;
		}
	}
	return 0;
}

static int apply_probes(struct section *s, struct ftc_state *st, const char *inst)
{
	for (size_t i = 0; i < s->probes.n; i++)
		if (step() || ftc_event_setup(st, inst, s->probes.v[i], NULL, NULL, 0) < 0)
			return -1;
	return 0;
}

static int apply_events(struct section *s, struct ftc_state *st, const char *inst)
{
	if (apply_probes(s, st, inst) < 0)
		return -1;
	for (size_t i = 0; i < s->nevents; i++) {
		struct event_item *ev = &s->events[i];

		if (step() || ftc_event_setup(st, inst, ev->spec, ev->filter, ev->triggers.v,
					      ev->triggers.n) < 0)
			return -1;
	}
	return 0;
}

/* Everything but tracing_on, which stays 0 in the section's buffer. */
static int section_configure(struct section *s, struct ftc_state *st)
{
	const char *inst = s->instance;

	if (inst && ftc_instance_create(st, inst) < 0)
		return -1;
	/* quiet while configuring: a half-set filter records nothing */
	if (step() || ftc_knob_write(st, inst, "tracing_on", "0"))
		return -1;
	if (apply_buffer(s, st, inst) || apply_pids(s, st, inst) ||
	    apply_functions(s, st, inst))
		return -1;
	if (s->tracer && (step() || ftc_set_tracer(st, inst, s->tracer)))
		return -1;
	return apply_events(s, st, inst);
}

/* With several sections, an error says which one failed (unless the
 * message names its instance already, as a knob's path does). */
static int name_section(const struct section *s)
{
	int err = errno;
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", ftc_strerror());
	if (!strstr(msg, s->instance))
		ftc_error(err, "instance '%s': %s", s->instance, msg);
	errno = err;
	return -1;
}

int control_spec_configure(struct control_spec *spec, struct ftc_state *st)
{
	/* a glob of events stops between its events on Ctrl-C */
	ftc_state_set_stop(st, cmd_signal_flag());
	if (spec->cmdlines_size && (step() || ftc_set_cmdlines_size(st, spec->cmdlines_size)))
		return -1;
	if (make_probes(spec, st) < 0)
		return -1;
	for (size_t i = 0; i < spec->n; i++)
		if (section_configure(spec->secs[i], st) < 0)
			return spec->n > 1 ? name_section(spec->secs[i]) : -1;
	return 0;
}

int control_spec_tracing_on(struct control_spec *spec, struct ftc_state *st)
{
	for (size_t i = 0; i < spec->n; i++) {
		struct section *s = spec->secs[i];

		if (step() || (!s->no_tracing_on &&
			       ftc_knob_write(st, s->instance, "tracing_on", "1")))
			return -1;
	}
	return 0;
}

/* Every section is configured before any buffer starts recording, so a
 * failure in the last one leaves nothing traced half-way. */
int control_spec_apply(struct control_spec *spec, struct ftc_state *st)
{
	if (control_spec_configure(spec, st) < 0)
		return -1;
	return control_spec_tracing_on(spec, st);
}

int buffer_choice_opt(struct buffer_choice *c, int id, const char *arg)
{
	const char **names;

	switch (id) {
	case 'B':
		names = realloc(c->names, (c->n + 1) * sizeof(*names));
		if (!names)
			return cmd_bad_value("out of memory");
		c->names = names;
		c->names[c->n++] = arg;
		return 1;
	case 'a': c->all = true; return 1;
	case 't': c->top = true; return 1;
	default: return 0;
	}
}

void buffer_choice_free(struct buffer_choice *c)
{
	free(c->names);
	c->names = NULL;
	c->n = 0;
}

int buffer_choice_check(const struct buffer_choice *c)
{
	char missing[512] = "";
	size_t len = 0, n = 0;

	if (!ftc_tracefs_dir())
		return ftc_error(ENODEV, "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	/* name every missing one: fixing them one run at a time is tedious */
	for (size_t i = 0; i < c->n; i++) {
		if (ftc_info_instance_exists(c->names[i]))
			continue;
		if (len < sizeof(missing))
			len += (size_t)snprintf(missing + len, sizeof(missing) - len, "%s'%s'",
						n ? ", " : "", c->names[i]);
		n++;
	}
	if (!n)
		return 0;
	return ftc_error(ENOENT, "instance%s %s do%s not exist (see `ftc list -B`)",
			 n > 1 ? "s" : "", missing, n > 1 ? "" : "es");
}

int buffer_choice_each(const struct buffer_choice *c, bool all_has_top,
		       int (*fn)(const char *instance, void *ctx), void *ctx)
{
	bool top = c->top || (!c->n && !c->all) || (c->all && all_has_top);
	char **names = NULL;
	int ret = 0;

	if (top && fn(NULL, ctx) < 0)
		ret = -1;
	if (c->all)
		names = ftc_info_instances();
	for (int i = 0; names && names[i]; i++)
		if (fn(names[i], ctx) < 0)
			ret = -1;
	ftc_list_free(names);
	for (size_t i = 0; !c->all && i < c->n; i++)
		if (fn(c->names[i], ctx) < 0)
			ret = -1;
	return ret;
}

#define BUFFER_B_HELP "this instance instead of the top level (repeatable)"

const struct cmd_option instance_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", BUFFER_B_HELP, 'B' },
	{ 'a', "all", NULL, "every instance (the top level too with -t)", 'a' },
	{ 't', "top", NULL, "the top level too, with -B or -a", 't' },
	{ 0 }
};

/* trace-cmd clear's -a takes the top level too. */
const struct cmd_option clear_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", BUFFER_B_HELP, 'B' },
	{ 'a', "all", NULL, "every instance and the top level", 'a' },
	{ 't', "top", NULL, "the top level too, with -B", 't' },
	{ 0 }
};

static int instance_opt(int id, const char *arg, void *ctx)
{
	return buffer_choice_opt(ctx, id, arg) < 0 ? -1 : 0;
}

int instance_command_run(const struct command *cmd, int argc, char **argv,
			 int (*fn)(const char *instance, void *ctx))
{
	struct buffer_choice c = { 0 };
	int ret = cmd_options_parse(cmd, argc, argv, instance_opt, &c);

	if (ret < 0) {
		ret = cmd_options_exit(ret);
		goto out;
	}
	if (ret < argc) {
		cmd_error(cmd, "unexpected argument '%s' (see 'ftc %s --help')",
			  argv[ret], cmd->name);
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	if (c.all && c.n) {
		cmd_error(cmd, "-a and -B exclude each other");
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	ret = FTC_EXIT_OK;
	if (buffer_choice_check(&c) < 0 ||
	    buffer_choice_each(&c, cmd->options == clear_options, fn, NULL) < 0) {
		cmd_error(cmd, "%s", ftc_strerror());
		ret = control_exit_status(errno);
	}
out:
	buffer_choice_free(&c);
	return ret;
}
