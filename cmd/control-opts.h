/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracing-control options shared by ftc start and ftc record: one
 * table (set as a command's .shared_options), a spec that collects them,
 * and the function that writes the spec into tracefs through the journal.
 */
#ifndef FTC_CMD_CONTROL_OPTS_H
#define FTC_CMD_CONTROL_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

struct ftc_state;

/* Long-only control options (ids >= 1000, below the commands' own). */
enum {
	FTC_OPT_MAX_GRAPH_DEPTH = 1000,
	FTC_OPT_FUNC_TRIGGER,
	FTC_OPT_SUBBUF_SIZE,
	FTC_OPT_GRAPH_NOTRACE,
	FTC_OPT_NO_TRACING_ON,
	FTC_OPT_CMDLINES_SIZE,
	FTC_OPT_PROBE,
};

extern const struct cmd_option control_options[];

/*
 * A spec holds one section per -B NAME (one for the top level when no -B
 * is given): the per-buffer options that follow a -B apply to its
 * instance until the next -B; options before the first -B belong to the
 * first section. --cmdlines-size is global.
 */
struct control_spec;
struct control_spec *control_spec_new(void);
/* 1: the option was a control option and is stored; 0: not a control
 * option; -1: bad value, or a -B NAME given twice (error already printed).
 * Call it first from the command's handler. */
int control_spec_opt(struct control_spec *spec, int id, const char *arg);
/* Creates the instances if asked, writes every knob of every section
 * (journaled in st, so that one ftc_state_restore() undoes them all), and
 * enables tracing_on last, in each section, once all are configured; -1
 * with ftc_strerror() naming the file, value and kernel reason. */
int control_spec_apply(struct control_spec *spec, struct ftc_state *st);
/* The two halves of apply: every knob with tracing_on left 0, then
 * tracing_on 1 in each section that did not ask for --no-tracing-on. */
int control_spec_configure(struct control_spec *spec, struct ftc_state *st);
int control_spec_tracing_on(struct control_spec *spec, struct ftc_state *st);
/* Sections: at least one; their instance names (NULL = top level). */
size_t control_spec_count(const struct control_spec *spec);
const char *control_spec_instance_at(const struct control_spec *spec, size_t i);
const char *control_spec_instance(const struct control_spec *spec); /* the first */
/* Traces only PID (and, after a -c, its children) in every section that
 * has events or a tracer, or in all of them when none has. */
int control_spec_follow(struct control_spec *spec, const char *pid);
void control_spec_free(struct control_spec *spec);

/* True when the spec asks for nothing at all. */
int control_spec_empty(const struct control_spec *spec);
/* The exit status for a failed apply, from errno: 3 when the kernel refused
 * or lacks what was asked for, 130 when interrupted, else 1. */
int control_exit_status(int err);

/*
 * The buffers a command acts on, as trace-cmd chooses them: -B NAME
 * (repeatable), -a every instance, -t the top level as well; nothing
 * given means the top level.
 */
struct buffer_choice {
	const char **names;
	size_t n;
	bool all, top;
};

/* 1 when id is -B, -a or -t (taken), 0 when not ours, -1 when out of memory. */
int buffer_choice_opt(struct buffer_choice *c, int id, const char *arg);
void buffer_choice_free(struct buffer_choice *c);
/* tracefs is there and every -B instance exists: checked before anything
 * is done, so that a typo does not leave half the buffers changed. */
int buffer_choice_check(const struct buffer_choice *c);
/*
 * Calls fn for each chosen buffer (NULL: the top level), the top level
 * first; all_has_top: -a takes the top level too (trace-cmd clear).
 * Returns -1 after trying them all when one failed.
 */
int buffer_choice_each(const struct buffer_choice *c, bool all_has_top,
		       int (*fn)(const char *instance, void *ctx), void *ctx);

/* The options of stop and restart (-B NAME... | -a, -t), and of clear. */
extern const struct cmd_option instance_options[];
extern const struct cmd_option clear_options[];

/*
 * The whole run of such a command (stop, restart, clear): parses
 * instance_options, then calls fn for the chosen buffers.
 * Returns the exit status.
 */
int instance_command_run(const struct command *cmd, int argc, char **argv,
			 int (*fn)(const char *instance, void *ctx));

#endif
