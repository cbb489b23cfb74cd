// SPDX-License-Identifier: GPL-2.0-or-later
/* ftc restart: resume writing into the ring buffer (tracing_on 1). */
#include "control-opts.h"
#include "options.h"
#include "ftc.h"

static int restart_run(int argc, char **argv);

const struct command cmd_restart = {
	.name = "restart",
	.summary = "resume writing into the ring buffer (tracing_on 1)",
	.synopsis = "[-B NAME]... [-a] [-t]",
	.options = instance_options,
	.run = restart_run,
};

static int restart_one(const char *instance, void *ctx)
{
	return ftc_knob_set(instance, "tracing_on", "1", false);
}

static int restart_run(int argc, char **argv)
{
	return instance_command_run(&cmd_restart, argc, argv, restart_one);
}
