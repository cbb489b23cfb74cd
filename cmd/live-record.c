// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A record into a scratch folder for a view to read (live-record.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live-record.h"
#include "opt-values.h"
#include "ftc.h"

#define FIXED_ARGS 8

static int make_folder(const struct command *cmd, struct live_rec *lr)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(lr->dir, sizeof(lr->dir), "%s/ftc-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
		 cmd->name);
	if (!mkdtemp(lr->dir)) {
		cmd_error(cmd, "cannot make a scratch folder %s: %m (set TMPDIR to a writable "
			  "folder)", lr->dir);
		*lr->dir = '\0';
		return -1;
	}
	snprintf(lr->path, sizeof(lr->path), "%s/trace.dat", lr->dir);
	return 0;
}

/* "NAME -q -o PATH [-B INSTANCE] ARGS... [--duration S] [-- COMMAND...]" */
static char **record_args(const struct command *rec, struct live_rec *lr, const char *const *args,
			  int n, const char *duration, char **argv, int *count)
{
	int len = 0, k = 0;
	char **v;

	while (argv && argv[len])
		len++;
	v = calloc((size_t)(FIXED_ARGS + n + len + 1), sizeof(*v));
	if (!v)
		return NULL;
	v[k++] = (char *)rec->name;
	v[k++] = (char *)"-q";
	v[k++] = (char *)"-o";
	v[k++] = lr->path;
	if (!lr->top_level) {
		v[k++] = (char *)"-B";
		v[k++] = lr->instance;
	}
	if (n)	/* sched's views pass no args (NULL) */
		memcpy(v + k, args, (size_t)n * sizeof(*v));
	k += n;
	if (duration) {
		v[k++] = (char *)"--duration";
		v[k++] = (char *)duration;
	}
	if (len) {
		v[k++] = (char *)"--";
		memcpy(v + k, argv, (size_t)len * sizeof(*v));
		k += len;
	}
	*count = k;
	return v;
}

int live_record(const struct command *cmd, const struct command *rec, const char *const *args,
		int n, const char *duration, char **argv, struct live_rec *lr)
{
	const char *base;
	char **v;
	int count = 0;

	if (make_folder(cmd, lr) < 0)
		return FTC_EXIT_FAIL;
	snprintf(lr->instance, sizeof(lr->instance), "ftc_%.10s_%d", cmd->name, (int)getpid());
	v = record_args(rec, lr, args, n, duration, argv, &count);
	if (!v) {
		cmd_error(cmd, "out of memory");
		return FTC_EXIT_FAIL;
	}
	if (!argv)
		fprintf(stderr, "ftc %s: recording every task until Ctrl-C%s\n", cmd->name,
			duration ? " or --duration" : "");
	lr->status = rec->run(count, v);
	free(v);
	if (access(lr->path, R_OK) < 0)
		return lr->status ? lr->status : FTC_EXIT_FAIL;
	if (argv) {
		base = strrchr(argv[0], '/');
		snprintf(lr->comm, sizeof(lr->comm), "%.15s", base ? base + 1 : argv[0]);
	}
	return FTC_EXIT_OK;
}

void live_clean(struct live_rec *lr)
{
	if (!*lr->dir)
		return;
	unlink(lr->path);
	rmdir(lr->dir);
	*lr->dir = '\0';
}

int live_split(int argc, char **argv, char ***cmd_argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			if (i + 1 < argc)
				*cmd_argv = argv + i + 1;
			return i;
		}
	return argc;
}

bool live_cap_ok(enum ftc_cap_id id, struct ftc_cap *cap)
{
	return ftc_probe_one(NULL, id, cap) == 0 && cap->state == FTC_CAP_OK;
}

int live_duration_opt(const char **duration, const char *arg)
{
	double secs;

	if (cmd_opt_duration(arg, &secs) < 0)
		return -1;
	*duration = arg;
	return 0;
}

const char *live_target_check(const struct live_target *t, const char *input,
			      const char *instance)
{
	static char why[128];
	const char *a = t->all_name ? t->all_name : "-a";
	bool live = t->all || t->argv;

	if (live && (input || instance))
		snprintf(why, sizeof(why), "a file is read, or %s and -- COMMAND record one: not both",
			 a);
	else if (t->all && t->argv)
		snprintf(why, sizeof(why), "%s or -- COMMAND: not both", a);
	else if (t->duration && !live)
		snprintf(why, sizeof(why), "--duration goes with %s or -- COMMAND", a);
	else
		return NULL;
	return why;
}

int live_follow_args(const struct live_target *t, const char **args, char *pid, size_t size)
{
	int n = 0;

	if (t->argv) {
		args[n++] = "-F";
	} else if (t->pid) {
		snprintf(pid, size, "%d", t->pid);
		args[n++] = "-P";
		args[n++] = pid;
	} else {
		return 0;
	}
	args[n++] = "-c";
	return n;
}

extern const struct command cmd_record;

int live_view(const struct command *cmd, const struct live_target *t, const char *const *args,
	      int n, struct live_rec *lr, const char **input, cmd_view_fn view, void *ctx)
{
	int status;

	if (!t->all && !t->argv && !t->pid)
		return cmd_input_view(cmd, input, view, ctx);
	status = live_record(cmd, &cmd_record, args, n, t->duration, t->argv, lr);
	if (!status) {
		*input = lr->path;
		status = cmd_input_view(cmd, input, view, ctx);
	}
	live_clean(lr);
	return status ? status : lr->status;
}
