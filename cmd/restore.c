// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc restore: finish a capture file that ftc record could not finish
 * (killed, crashed, power lost). Such a file is already readable up to its
 * last checkpoint; restore adds the chunks completed after it and removes
 * the gaps between the CPU regions, in place.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "options.h"
#include "ftc.h"
#include "ftc-writer.h"

static const struct cmd_option restore_options[] = {
	FTC_HELP_OPTION,
	{ 'q', "quiet", NULL, "print nothing on success", 'q' },
	{ 0 }
};

static int quiet;

static int restore_opt(int id, const char *arg, void *ctx)
{
	if (id == 'q')
		quiet = 1;
	return 0;
}

static int restore_run(int argc, char **argv);

const struct command cmd_restore = {
	.name = "restore",
	.summary = "finish a trace.dat that an interrupted ftc record left",
	.synopsis = "[options] FILE...",
	.options = restore_options,
	.run = restore_run,
};

static int restore_run(int argc, char **argv)
{
	int first = cmd_options_parse(&cmd_restore, argc, argv, restore_opt, NULL);
	int ret = FTC_EXIT_OK;

	if (first < 0)
		return cmd_options_exit(first);
	if (first >= argc) {
		cmd_error(&cmd_restore, "name the file to finish (see 'ftc restore --help')");
		return FTC_EXIT_USAGE;
	}
	for (int i = first; i < argc; i++) {
		struct stat before, after;
		int changed = 0;

		if (stat(argv[i], &before) < 0) {
			cmd_error(&cmd_restore, "%s: %s", argv[i], strerror(errno));
			ret = FTC_EXIT_FAIL;
			continue;
		}
		if (ftc_writer_repair(argv[i], &changed) < 0) {
			cmd_error(&cmd_restore, "%s", ftc_strerror());
			ret = FTC_EXIT_FAIL;
			continue;
		}
		if (quiet)
			continue;
		if (!changed) {
			printf("%s: complete already\n", argv[i]);
			continue;
		}
		stat(argv[i], &after);
		printf("%s: finished (%.1f MB, was %.1f MB with gaps)\n", argv[i],
		       (double)after.st_size / 1e6, (double)before.st_size / 1e6);
	}
	return ret;
}
