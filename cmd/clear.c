// SPDX-License-Identifier: GPL-2.0-or-later
/* ftc clear: empty the ring buffer; the configuration stays. */
#include "control-opts.h"
#include "options.h"
#include "ftc.h"

static int clear_run(int argc, char **argv);

const struct command cmd_clear = {
	.name = "clear",
	.summary = "empty the ring buffer; the configuration stays",
	.synopsis = "[-B NAME]... [-a] [-t]",
	.options = clear_options,
	.run = clear_run,
};

static int clear_one(const char *instance, void *ctx)
{
	return ftc_buffer_clear(instance);
}

static int clear_run(int argc, char **argv)
{
	return instance_command_run(&cmd_clear, argc, argv, clear_one);
}
