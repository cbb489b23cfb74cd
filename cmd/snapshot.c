// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc snapshot: the snapshot buffer (trace-cmd's letters): take one, clear
 * it, free it, allocate an empty one, or print it. Changing it is the
 * command's purpose, so nothing is restored afterwards.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control-opts.h"
#include "options.h"
#include "ftc.h"
#include "ftc-control.h"

enum { SNAP_OPT_ALLOC = 5100 };

static const struct cmd_option snapshot_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", "the instance NAME instead of the top-level buffer", 'B' },
	{ 's', "take", NULL, "take a snapshot (allocating the buffer if needed)", 's' },
	{ 'r', "clear", NULL, "empty the snapshot buffer, keep it allocated (trace-cmd: reset)", 'r' },
	{ 'f', "free", NULL, "free the snapshot buffer", 'f' },
	{ 0, "alloc", NULL, "allocate an empty snapshot buffer", SNAP_OPT_ALLOC },
	{ 'c', "cpu", "CPU", "only this CPU's snapshot (per_cpu/cpuN/snapshot)", 'c' },
	{ 0 }
};

struct snap_ctx {
	const char *instance;
	int op;		/* -1: print it */
	int nops;
	long cpu;
};

static int snapshot_opt(int id, const char *arg, void *arg_ctx)
{
	struct snap_ctx *c = arg_ctx;
	char *end;

	switch (id) {
	case 'B': c->instance = arg; return 0;
	case 's': c->op = FTC_SNAPSHOT_TAKE; break;
	case 'r': c->op = FTC_SNAPSHOT_CLEAR; break;
	case 'f': c->op = FTC_SNAPSHOT_FREE; break;
	case SNAP_OPT_ALLOC: c->op = FTC_SNAPSHOT_ALLOC; break;
	case 'c':
		c->cpu = strtol(arg, &end, 10);
		if (*end || c->cpu < 0 || c->cpu >= 8192)
			return cmd_bad_value("not a CPU number");
		return 0;
	default: return 0;
	}
	c->nops++;
	return 0;
}

static int snapshot_run(int argc, char **argv);

const struct command cmd_snapshot = {
	.name = "snapshot",
	.summary = "take, clear, free, allocate or print the snapshot buffer",
	.synopsis = "[-B NAME] [-c CPU] [-s | -r | -f | --alloc]",
	.options = snapshot_options,
	.run = snapshot_run,
};

static int print_snapshot(const struct snap_ctx *c)
{
	char file[64] = "snapshot", *text;

	if (c->cpu >= 0)
		snprintf(file, sizeof(file), "per_cpu/cpu%ld/snapshot", c->cpu);
	if (!ftc_knob_exists(c->instance, "snapshot")) {
		cmd_error(&cmd_snapshot, "snapshot: absent: this kernel has no snapshot buffer (CONFIG_TRACER_SNAPSHOT is off); run `ftc check`");
		return FTC_EXIT_REFUSED;
	}
	if (ftc_tracefs_read(c->instance, file, &text, NULL) < 0) {
		cmd_error(&cmd_snapshot, "%s", ftc_strerror());
		return control_exit_status(errno);
	}
	fputs(text, stdout);
	free(text);
	return FTC_EXIT_OK;
}

static int snapshot_run(int argc, char **argv)
{
	struct snap_ctx c = { NULL, -1, 0, -1 };
	int ret = cmd_options_parse(&cmd_snapshot, argc, argv, snapshot_opt, &c);

	if (ret < 0)
		return cmd_options_exit(ret);
	if (ret < argc || c.nops > 1) {
		cmd_error(&cmd_snapshot, "give at most one of -s, -r, -f, --alloc%s%s",
			  ret < argc ? "; unexpected " : "", ret < argc ? argv[ret] : "");
		return FTC_EXIT_USAGE;
	}
	if (c.instance && !ftc_knob_exists(c.instance, "trace")) {
		cmd_error(&cmd_snapshot, "instance '%s' does not exist (see `ftc list`)",
			  c.instance);
		return FTC_EXIT_REFUSED;
	}
	if (c.op < 0)
		return print_snapshot(&c);
	if (ftc_snapshot(c.instance, (int)c.cpu, c.op) < 0) {
		cmd_error(&cmd_snapshot, "%s", ftc_strerror());
		return control_exit_status(errno);
	}
	return FTC_EXIT_OK;
}
