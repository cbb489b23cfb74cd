/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracing-control options shared by ftc start and ftc record: one
 * table (set as a command's .shared_options), a spec that collects them,
 * and the function that writes the spec into tracefs through the journal.
 */
#ifndef FTC_CMD_CONTROL_OPTS_H
#define FTC_CMD_CONTROL_OPTS_H

#include "options.h"

struct ftc_state;

/* Long-only control options (ids >= 1000, below the commands' own). */
enum {
	FTC_OPT_MAX_GRAPH_DEPTH = 1000,
	FTC_OPT_FUNC_TRIGGER,
	FTC_OPT_SUBBUF_SIZE,
	FTC_OPT_EVENT_FORK,
	FTC_OPT_GRAPH_NOTRACE,
	FTC_OPT_NO_TRACING_ON,
	FTC_OPT_CMDLINES_SIZE,
};

extern const struct ftc_option ftc_control_options[];

struct ftc_control_spec;
struct ftc_control_spec *ftc_control_spec_new(void);
/* 1: the option was a control option and is stored; 0: not a control
 * option; -1: bad value (error already printed). Call it first from the
 * command's handler. */
int ftc_control_spec_opt(struct ftc_control_spec *spec, int id, const char *arg);
/* Creates the instance if asked, writes every knob (journaled in st), and
 * enables tracing_on last; -1 with ftc_strerror() naming the file, value
 * and kernel reason. */
int ftc_control_spec_apply(struct ftc_control_spec *spec, struct ftc_state *st);
const char *ftc_control_spec_instance(const struct ftc_control_spec *spec); /* NULL = top */
void ftc_control_spec_free(struct ftc_control_spec *spec);

/* True when the spec asks for nothing at all. */
int ftc_control_spec_empty(const struct ftc_control_spec *spec);
/* The exit status for a failed apply, from errno: 3 when the kernel refused
 * or lacks what was asked for, 130 when interrupted, else 1. */
int ftc_control_exit_status(int err);

/* Calls fn for one instance (NULL: top level) or, with all, for the top
 * level and every instance. An instance that does not exist is an error.
 * Returns the first failure (-1) after trying them all. */
int ftc_control_each_instance(const char *instance, int all,
			      int (*fn)(const char *instance, void *ctx), void *ctx);

/* The options of commands that act on one buffer or all (-B NAME | -a). */
extern const struct ftc_option ftc_instance_options[];

/*
 * The whole run of such a command (stop, restart, clear): parses
 * ftc_instance_options, then calls fn for the chosen buffers.
 * Returns the exit status.
 */
int ftc_instance_command_run(const struct ftc_command *cmd, int argc, char **argv,
			     int (*fn)(const char *instance, void *ctx));

#endif
