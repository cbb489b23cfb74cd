// SPDX-License-Identifier: GPL-2.0-or-later
/* ftc clear: empty the ring buffer; the configuration stays. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "control-opts.h"
#include "options.h"
#include "ftc.h"
#include "ftc-control.h"

static const struct ftc_option clear_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", "the instance NAME instead of the top-level buffer", 'B' },
	{ 'a', "all", NULL, "the top-level buffer and every instance", 'a' },
	{ 0 }
};

struct clear_ctx {
	const char *instance;
	bool all;
};

static int clear_opt(int id, const char *arg, void *arg_ctx)
{
	struct clear_ctx *c = arg_ctx;

	if (id == 'B')
		c->instance = arg;
	else if (id == 'a')
		c->all = true;
	return 0;
}

static int clear_run(int argc, char **argv);

const struct ftc_command ftc_cmd_clear = {
	.name = "clear",
	.summary = "empty the ring buffer; the configuration stays",
	.synopsis = "[-B NAME | -a]",
	.options = clear_options,
	.run = clear_run,
};

static int clear_one(const char *instance, void *ctx)
{
	return ftc_buffer_clear(instance);
}

static int clear_run(int argc, char **argv)
{
	struct clear_ctx c = { NULL, false };
	int ret = ftc_options_parse(&ftc_cmd_clear, argc, argv, clear_opt, &c);

	if (ret < 0)
		return ftc_options_exit(ret);
	if (ret < argc) {
		ftc_cmd_error(&ftc_cmd_clear, "unexpected argument '%s' (see 'ftc clear --help')",
			      argv[ret]);
		return FTC_EXIT_USAGE;
	}
	if (c.all && c.instance) {
		ftc_cmd_error(&ftc_cmd_clear, "-a and -B exclude each other");
		return FTC_EXIT_USAGE;
	}
	if (ftc_control_each_instance(c.instance, c.all, clear_one, NULL) < 0) {
		ftc_cmd_error(&ftc_cmd_clear, "%s", ftc_strerror());
		return ftc_control_exit_status(errno);
	}
	return FTC_EXIT_OK;
}
