// SPDX-License-Identifier: GPL-2.0-or-later
/* ftc restart: resume writing into the ring buffer (tracing_on 1). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "control-opts.h"
#include "options.h"
#include "ftc.h"
#include "ftc-control.h"

static const struct ftc_option restart_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", "the instance NAME instead of the top-level buffer", 'B' },
	{ 'a', "all", NULL, "the top-level buffer and every instance", 'a' },
	{ 0 }
};

struct restart_ctx {
	const char *instance;
	bool all;
};

static int restart_opt(int id, const char *arg, void *arg_ctx)
{
	struct restart_ctx *c = arg_ctx;

	if (id == 'B')
		c->instance = arg;
	else if (id == 'a')
		c->all = true;
	return 0;
}

static int restart_run(int argc, char **argv);

const struct ftc_command ftc_cmd_restart = {
	.name = "restart",
	.summary = "resume writing into the ring buffer (tracing_on 1)",
	.synopsis = "[-B NAME | -a]",
	.options = restart_options,
	.run = restart_run,
};

static int restart_one(const char *instance, void *ctx)
{
	return ftc_knob_set(instance, "tracing_on", "1", false);
}

static int restart_run(int argc, char **argv)
{
	struct restart_ctx c = { NULL, false };
	int ret = ftc_options_parse(&ftc_cmd_restart, argc, argv, restart_opt, &c);

	if (ret < 0)
		return ftc_options_exit(ret);
	if (ret < argc) {
		ftc_cmd_error(&ftc_cmd_restart, "unexpected argument '%s' (see 'ftc restart --help')",
			      argv[ret]);
		return FTC_EXIT_USAGE;
	}
	if (c.all && c.instance) {
		ftc_cmd_error(&ftc_cmd_restart, "-a and -B exclude each other");
		return FTC_EXIT_USAGE;
	}
	if (ftc_control_each_instance(c.instance, c.all, restart_one, NULL) < 0) {
		ftc_cmd_error(&ftc_cmd_restart, "%s", ftc_strerror());
		return ftc_control_exit_status(errno);
	}
	return FTC_EXIT_OK;
}
