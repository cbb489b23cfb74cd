/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The loop of the analysis commands (sched, syscalls, kwork, block,
 * funclatency): every record of a file, in timestamp order, through one
 * pass of the library; or those of a window of time (--from, --to).
 */
#ifndef FTC_CMD_PASS_H
#define FTC_CMD_PASS_H

#include <stdbool.h>

struct command;
struct ftc_reader;
struct ftc_merge_record;

/* Timestamps in ns, both ends included; an end not given is open. */
struct cmd_window {
	unsigned long long from, to;
	bool have_from, have_to;
	/* what cmd_pass saw: records left out, the first and last timestamps, an early stop */
	unsigned long long skipped, first_ts, last_ts;
	bool stopped;
};

/*
 * Gives every record of r (of w's window: NULL for all) to add, in
 * timestamp order, until add fails or standard output does. Returns 0, or
 * -1 (ftc_strerror() says why).
 */
int cmd_pass(struct ftc_reader *r, int (*add)(void *pass, const struct ftc_merge_record *mr),
	     void *pass, struct cmd_window *w);

/* --from and --to into w (the commands' option callbacks): 0, or cmd_bad_value's -1. */
int cmd_window_opt(struct cmd_window *w, bool from, const char *arg);

/* Whether ts is before w's start, after its end (w NULL: neither). */
bool cmd_window_before(const struct cmd_window *w, unsigned long long ts);
bool cmd_window_after(const struct cmd_window *w, unsigned long long ts);

/*
 * When the pass saw none of its records (what names them: "block") and w
 * left records out, says that the window holds none and where the
 * capture's records are, and returns 3 (FTC_EXIT_REFUSED); else 0, and the
 * caller says what the file lacks.
 */
int cmd_window_empty(const struct command *cmd, const struct cmd_window *w, const char *input,
		     const char *what);

/* A reversed window is refused with a message naming cmd: -1 (exit 2), else 0. */
int cmd_window_check(const struct command *cmd, const struct cmd_window *w);

#endif
