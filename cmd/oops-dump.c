// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc oops-dump: /proc/sys/kernel/ftrace_dump_on_oops, whether an oops
 * dumps the trace buffers to the console (all CPUs or the oopsing one).
 * Its purpose is to leave the setting as asked, so nothing is restored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "ftc.h"

#define DUMP_NAME "ftrace_dump_on_oops"
#define DUMP_SYSCTL "/proc/sys/kernel/" DUMP_NAME

static const struct cmd_option oops_options[] = {
	FTC_HELP_OPTION,
	{ 0 }
};

static int oops_run(int argc, char **argv);

const struct command cmd_oops_dump = {
	.name = "oops-dump",
	.summary = "set or show whether an oops dumps the trace buffers to the console",
	.synopsis = "on | off | orig_cpu | status",
	.options = oops_options,
	.run = oops_run,
};

static int no_opt(int id, const char *arg, void *ctx)
{
	return 0;
}

/* The kernel's value in words. 6.8+ may also name instances. */
static const char *describe(const char *val)
{
	if (!strcmp(val, "0"))
		return "off";
	if (!strcmp(val, "1"))
		return "on (all CPUs)";
	if (!strcmp(val, "2") || !strcmp(val, "orig_cpu"))
		return "orig_cpu (the oopsing CPU only)";
	return "on (as the kernel's value says)";
}

static int show(void)
{
	char *val = NULL;
	int err = -ftc_sysctl_read(DUMP_NAME, &val);

	if (err) {
		cmd_error(&cmd_oops_dump, "%s: %s%s", DUMP_SYSCTL, strerror(err),
			  err == ENOENT ? " (kernel without ftrace)" : "");
		return err == ENOENT || err == EPERM || err == EACCES ?
		       FTC_EXIT_REFUSED : FTC_EXIT_FAIL;
	}
	printf("ftrace_dump_on_oops %s: %s\n", val, describe(val));
	free(val);
	return FTC_EXIT_OK;
}

static int set(const char *val)
{
	int err = -ftc_sysctl_write(DUMP_NAME, val);

	if (!err)
		return show();
	if (err == EPERM || err == EACCES || err == EROFS || err == ENOENT) {
		cmd_error(&cmd_oops_dump, "writing '%s' to %s: %s: the kernel refuses "
			  "this setting here%s; the boot parameter ftrace_dump_on_oops "
			  "(see ftc boot-args --dump-on-oops) is the other way", val,
			  DUMP_SYSCTL, strerror(err),
			  err == ENOENT ? "" : " (a container, a lockdown or a "
			  "read-only sysctl)");
		return FTC_EXIT_REFUSED;
	}
	cmd_error(&cmd_oops_dump, "writing '%s' to %s: %s", val, DUMP_SYSCTL,
		  strerror(err));
	return FTC_EXIT_FAIL;
}

static int oops_run(int argc, char **argv)
{
	int ret = cmd_options_parse(&cmd_oops_dump, argc, argv, no_opt, NULL);
	const char *what;

	if (ret < 0)
		return cmd_options_exit(ret);
	if (ret != argc - 1) {
		cmd_error(&cmd_oops_dump, "say on, off, orig_cpu or status "
			  "(see 'ftc oops-dump --help')");
		return FTC_EXIT_USAGE;
	}
	what = argv[ret];
	if (!strcmp(what, "status"))
		return show();
	if (!strcmp(what, "on"))
		return set("1");
	if (!strcmp(what, "off"))
		return set("0");
	/* 2 is orig_cpu in every kernel, older ones take only numbers. */
	if (!strcmp(what, "orig_cpu"))
		return set("2");
	cmd_error(&cmd_oops_dump, "'%s' is not on, off, orig_cpu or status", what);
	return FTC_EXIT_USAGE;
}
