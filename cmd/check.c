// SPDX-License-Identifier: GPL-2.0-or-later
/* ftc check: what this kernel and this user allow. */
#include <stdio.h>
#include <stdlib.h>

#include "options.h"
#include "ftc.h"

static const struct ftc_option check_options[] = {
	FTC_HELP_OPTION,
	{ 0 }
};

static int check_opt(int id, const char *arg, void *ctx)
{
	return 0;
}

static int check_run(int argc, char **argv);

const struct ftc_command ftc_cmd_check = {
	.name = "check",
	.summary = "report what this kernel and this user allow, one line per capability",
	.synopsis = "[options]",
	.options = check_options,
	.run = check_run,
};

static int check_run(int argc, char **argv)
{
	int ret = ftc_options_parse(&ftc_cmd_check, argc, argv, check_opt, NULL);
	char *tracers;

	if (ret < 0)
		return ftc_options_exit(ret);
	if (ftc_tracefs_read(NULL, "available_tracers", &tracers, NULL) < 0) {
		ftc_cmd_error(&ftc_cmd_check, "%s", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	printf("tracefs       ok       %s\n", ftc_tracefs_dir());
	printf("tracers       ok       %s", tracers);
	free(tracers);
	return FTC_EXIT_OK;
}
