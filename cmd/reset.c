// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc reset: tracefs, or one instance, back to the kernel's defaults. A
 * knob the kernel refuses is reported and skipped: a reset that stops
 * half-way would leave more behind than one that goes on.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <tracefs.h>

#include "control-opts.h"
#include "options.h"
#include "ftc.h"
#include "ftc-control.h"

static const struct ftc_option reset_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", "reset the instance NAME instead of the top-level buffer", 'B' },
	{ 'd', "delete", NULL, "with -B: remove the instance afterwards", 'd' },
	{ 'q', "quiet", NULL, "do not list the knobs that were reset", 'q' },
	{ 0 }
};

struct reset_cmd {
	const char *instance;
	bool delete, quiet;
	int refused;
};

static int reset_opt(int id, const char *arg, void *arg_ctx)
{
	struct reset_cmd *c = arg_ctx;

	if (id == 'B')
		c->instance = arg;
	else if (id == 'd')
		c->delete = true;
	else if (id == 'q')
		c->quiet = true;
	return 0;
}

static int reset_run(int argc, char **argv);

const struct ftc_command ftc_cmd_reset = {
	.name = "reset",
	.summary = "return tracefs (or one instance) to the kernel's defaults",
	.synopsis = "[-B NAME [-d]] [-q]",
	.options = reset_options,
	.run = reset_run,
};

static void report(const char *file, const char *why, void *arg)
{
	struct reset_cmd *c = arg;

	if (why)
		fprintf(stderr, "ftc reset: left as is: %s\n", why);
	else if (!c->quiet)
		printf("reset %s%s%s%s\n", c->instance ? "instances/" : "",
		       c->instance ? c->instance : "", c->instance ? "/" : "", file);
}

static int delete_instance(const char *name)
{
	struct tracefs_instance *ti = tracefs_instance_alloc(NULL, name);
	int ret = ti ? tracefs_instance_destroy(ti) : -1;
	int err = errno;

	tracefs_instance_free(ti);
	if (ret < 0) {
		ftc_cmd_error(&ftc_cmd_reset, "instances/%s: cannot remove it: %s", name,
			      strerror(err));
		return FTC_EXIT_FAIL;
	}
	return FTC_EXIT_OK;
}

static int reset_run(int argc, char **argv)
{
	struct reset_cmd c = { 0 };
	int ret = ftc_options_parse(&ftc_cmd_reset, argc, argv, reset_opt, &c);

	if (ret < 0)
		return ftc_options_exit(ret);
	if (ret < argc) {
		ftc_cmd_error(&ftc_cmd_reset, "unexpected argument '%s' (see 'ftc reset --help')",
			      argv[ret]);
		return FTC_EXIT_USAGE;
	}
	if (c.delete && !c.instance) {
		ftc_cmd_error(&ftc_cmd_reset, "-d removes an instance: give it with -B NAME");
		return FTC_EXIT_USAGE;
	}
	ret = ftc_reset(c.instance, report, &c);
	if (ret < 0) {
		ftc_cmd_error(&ftc_cmd_reset, "%s", ftc_strerror());
		return ftc_control_exit_status(errno);
	}
	if (c.delete)
		return delete_instance(c.instance);
	return FTC_EXIT_OK;
}
