// SPDX-License-Identifier: GPL-2.0-or-later
/* ftc stop: stop writing into the ring buffer (tracing_on 0); the configuration stays. */
#include "control-opts.h"
#include "options.h"
#include "ftc.h"

static int stop_run(int argc, char **argv);

const struct command cmd_stop = {
	.name = "stop",
	.summary = "stop writing into the ring buffer (tracing_on 0); the configuration stays",
	.synopsis = "[-B NAME]... [-a] [-t]",
	.options = instance_options,
	.run = stop_run,
};

static int stop_one(const char *instance, void *ctx)
{
	return ftc_knob_set(instance, "tracing_on", "0", false);
}

static int stop_run(int argc, char **argv)
{
	return instance_command_run(&cmd_stop, argc, argv, stop_one);
}
