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
	FTC_OPT_TRACER_OPT,
};

extern const struct cmd_option control_options[];

/*
 * The options collect into a session (ftc-session.h): each -B NAME opens
 * a section, the per-buffer options that follow apply to its instance;
 * options before the first -B belong to the first section.
 * --cmdlines-size is global.
 */
struct ftc_session;
/* A session with the test hook FTC_CONTROL_STEP_DELAY_MS passed on. */
struct ftc_session *control_session_new(void);
/* 1: the option was a control option and is stored; 0: not a control
 * option; -1: bad value, or a -B NAME given twice (error already printed).
 * Call it first from the command's handler. */
int control_session_opt(struct ftc_session *s, int id, const char *arg);

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
