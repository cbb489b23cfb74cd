/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal helpers shared by libftc's control files (not installed). */
#ifndef FTC_CONTROL_INTERNAL_H
#define FTC_CONTROL_INTERNAL_H

#include <stdbool.h>

/* Sets the error for a failed read or write of a knob: the file (with its
 * instance), the value, strerror(err) and what it means here. Returns -1. */
int ftc_knob_fail(const char *instance, const char *file, const char *value, int err,
		  const char *before_log, bool reading);

/* Splits text into lines in place; skips empty lines and '#' comments.
 * Calls fn for each; stops when it returns < 0 and returns that. */
int ftc_lines_each(char *text, int (*fn)(const char *line, void *ctx), void *ctx);

/* Appends "line\n" to a growing string; -1 on ENOMEM. */
int ftc_str_addline(char **buf, const char *line);

/* True when file ends with suffix. */
bool ftc_str_ends(const char *file, const char *suffix);

/* A function pattern that is a regex (ftc expands it against
 * available_filter_functions), not a glob the kernel matches. */
bool ftc_is_regex(const char *pattern);

/* Trigger lines as the kernel reads them back ("traceoff:count=3 if x > 1",
 * "stacktrace:unlimited", "vfs_read:traceon:count=5") turned into what adds
 * them again ("traceoff:3 if x > 1") and what removes them ("!traceoff").
 * func selects function triggers (set_ftrace_filter). Free the result. */
char *ftc_trigger_readd(const char *line, bool func);
char *ftc_trigger_removal(const char *line, bool func);

/* The caller's stop flag (ftc_state_set_stop) is set: a walk over many
 * knobs gives up between two of them. */
struct ftc_state;
bool ftc_state_stopped(const struct ftc_state *st);

#endif
