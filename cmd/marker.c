// SPDX-License-Identifier: GPL-2.0-or-later
/* ftc marker: write a line into the trace, to line up events with user space. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control-opts.h"
#include "options.h"
#include "ftc.h"

static const struct cmd_option marker_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", "the instance NAME instead of the top-level buffer", 'B' },
	{ 0 }
};

static int marker_opt(int id, const char *arg, void *ctx)
{
	if (id == 'B')
		*(const char **)ctx = arg;
	return 0;
}

static int marker_run(int argc, char **argv);

const struct command cmd_marker = {
	.name = "marker",
	.summary = "write a line of text into the trace (trace_marker)",
	.synopsis = "[-B NAME] TEXT...",
	.options = marker_options,
	.run = marker_run,
	.stop_at_operand = true,
};

/* The words joined by spaces, as echo would write them. */
static char *join_words(int argc, char **argv)
{
	size_t len = 1;
	char *text;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	text = calloc(1, len);
	for (int i = 0; text && i < argc; i++) {
		if (i)
			strcat(text, " ");
		strcat(text, argv[i]);
	}
	return text;
}

static int marker_run(int argc, char **argv)
{
	const char *instance = NULL;
	int ret = cmd_options_parse(&cmd_marker, argc, argv, marker_opt, &instance);
	char *text;

	if (ret < 0)
		return cmd_options_exit(ret);
	if (ret >= argc) {
		cmd_error(&cmd_marker, "no text to write (usage: ftc marker [-B NAME] TEXT...)");
		return FTC_EXIT_USAGE;
	}
	text = join_words(argc - ret, argv + ret);
	if (!text) {
		cmd_error(&cmd_marker, "out of memory");
		return FTC_EXIT_FAIL;
	}
	ret = ftc_knob_set(instance, "trace_marker", text, true);
	free(text);
	if (ret < 0) {
		cmd_error(&cmd_marker, "%s", ftc_strerror());
		return control_exit_status(errno);
	}
	return FTC_EXIT_OK;
}
