// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc start: configure tracing and leave it running. Its purpose is to
 * leave knobs set, so a success keeps them; a failure or an interruption
 * half-way puts back everything it had written.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include "control-opts.h"
#include "journal.h"
#include "options.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-control.h"

static const struct cmd_option start_options[] = {
	FTC_HELP_OPTION,
	{ 'q', "quiet", NULL, "do not list the knobs that were set", 'q' },
	{ 0 }
};

struct start_ctx {
	struct ftc_session *spec;
	bool quiet;
};

static int start_opt(int id, const char *arg, void *arg_ctx)
{
	struct start_ctx *c = arg_ctx;
	int ret = control_session_opt(c->spec, id, arg);

	if (ret)
		return ret < 0 ? -1 : 0;
	if (id == 'q')
		c->quiet = true;
	return 0;
}

static int start_run(int argc, char **argv);

const struct command cmd_start = {
	.name = "start",
	.summary = "configure tracing in tracefs and leave it running",
	.synopsis = "[options]",
	.options = start_options,
	.shared_options = control_options,
	.run = start_run,
};

static int start_apply(struct start_ctx *c)
{
	/* a kill half-way through leaves nothing half-configured */
	struct ftc_state *st = cmd_journal_open(&cmd_start);
	int ret = FTC_EXIT_OK;

	if (!st)
		return FTC_EXIT_FAIL;
	if (ftc_session_apply(c->spec, st) < 0) {
		int err = cmd_signal_caught() ? EINTR : errno;

		cmd_error(&cmd_start, "%s", ftc_strerror());
		if (ftc_state_restore(st) < 0)
			cmd_error(&cmd_start, "%s", ftc_strerror());
		ret = control_exit_status(err);
	} else {
		if (!c->quiet)
			ftc_state_print(st, stdout);
		/* the changes stay: no one may "restore" them later */
		ftc_state_keep(st);
	}
	ftc_state_free(st);
	return ret;
}

static int start_run(int argc, char **argv)
{
	struct start_ctx c = { control_session_new(), false };
	int ret;

	if (!c.spec) {
		cmd_error(&cmd_start, "out of memory");
		return FTC_EXIT_FAIL;
	}
	ret = cmd_options_parse(&cmd_start, argc, argv, start_opt, &c);
	if (ret < 0) {
		ftc_session_free(c.spec);
		return cmd_options_exit(ret);
	}
	if (ret < argc) {
		cmd_error(&cmd_start, "unexpected argument '%s': ftc start runs no command (use ftc record)",
			  argv[ret]);
		ftc_session_free(c.spec);
		return FTC_EXIT_USAGE;
	}
	ret = start_apply(&c);
	ftc_session_free(c.spec);
	return ret;
}
