/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The analysis commands live (sched VIEW -- COMMAND, syscalls -a): what
 * the view reads is recorded first by a record command, into an instance
 * of its own so that the top-level buffer stays the user's, in a scratch
 * folder under $TMPDIR, while the command runs or until Ctrl-C or
 * --duration; the view then reads that file, and the folder goes.
 */
#ifndef FTC_CMD_LIVE_RECORD_H
#define FTC_CMD_LIVE_RECORD_H

#include <limits.h>
#include <stdbool.h>

#include "input.h"
#include "options.h"
#include "ftc-probe.h"

struct live_rec {
	char dir[PATH_MAX], path[PATH_MAX + 16];
	char instance[32];		/* the record's: ftc_NAME_PID */
	/* set by the caller: record the top-level buffer (a tracer only it has) */
	bool top_level;
	char comm[16];			/* the command's name as the kernel keeps it */
	int status;			/* the recording's: the command's exit */
};

/*
 * Runs rec with "-q -o PATH -B INSTANCE" (no -B with top_level), then args (n of them), then
 * "--duration SECS" when given and "-- COMMAND..." when argv is; cmd names
 * the messages. Returns an exit status (0: lr->path holds the capture).
 */
int live_record(const struct command *cmd, const struct command *rec, const char *const *args,
		int n, const char *duration, char **argv, struct live_rec *lr);
/* Whether this kernel's top level allows a feature (ftc_probe_one()); cap says why not. */
bool live_cap_ok(enum ftc_cap_id id, struct ftc_cap *cap);
/*
 * What a view records live: -- COMMAND while it runs, -p's process or with
 * -a every task until Ctrl-C or --duration; none of them: a file is read.
 */
struct live_target {
	char **argv;			/* -- COMMAND */
	int pid;			/* -p */
	bool all;			/* -a */
	const char *all_name;		/* how the command spells -a (NULL: "-a") */
	const char *duration;		/* --duration SECS */
};

/* --duration SECS into *duration (checked as record checks it): 0, or cmd_bad_value's -1. */
int live_duration_opt(const char **duration, const char *arg);
/* Why -a, -- COMMAND and --duration do not go with the other words (NULL: they do). */
const char *live_target_check(const struct live_target *t, const char *input,
			      const char *instance);
/*
 * Writes into args the record options that keep to the target's tasks and
 * their children: "-F -c" for -- COMMAND, "-P PID -c" for -p (its digits
 * in pid); none for -a alone. Returns how many.
 */
int live_follow_args(const struct live_target *t, const char **args, char *pid, size_t size);
/*
 * A view's run: over input when t records nothing, else over what
 * live_record records with args (kept in lr), which then goes. Returns the
 * view's status, else the recording's (the command's exit).
 */
int live_view(const struct command *cmd, const struct live_target *t, const char *const *args,
	      int n, struct live_rec *lr, const char **input, cmd_view_fn view, void *ctx);
/* Removes what the recording left. */
void live_clean(struct live_rec *lr);
/*
 * "--" ends the command's own words: *cmd_argv is what follows (NULL:
 * none). Returns the words before it.
 */
int live_split(int argc, char **argv, char ***cmd_argv);

#endif
