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

static const struct cmd_option reset_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", "reset the instance NAME instead of the top-level buffer", 'B' },
	{ 'd', "delete", NULL, "with -B: remove the instance afterwards", 'd' },
	{ 'q', "quiet", NULL, "do not list the knobs that were reset", 'q' },
	{ 'j', "journal", NULL, "instead: restore what killed ftc processes changed, from their "
	  "journals (all whose owner is gone, or the FILEs given)", 'j' },
	{ 0 }
};

struct reset_cmd {
	const char *instance;
	bool delete, quiet, journal;
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
	else if (id == 'j')
		c->journal = true;
	return 0;
}

static int reset_run(int argc, char **argv);

const struct command cmd_reset = {
	.name = "reset",
	.summary = "return tracefs (or one instance) to the kernel's defaults",
	.synopsis = "[-B NAME [-d]] [-q] | --journal [FILE...]",
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
		cmd_error(&cmd_reset, "instances/%s: cannot remove it: %s", name,
			  strerror(err));
		return FTC_EXIT_FAIL;
	}
	return FTC_EXIT_OK;
}

static int restore_one(struct reset_cmd *c, const char *path)
{
	struct ftc_journal_info info;
	int ret = ftc_journal_restore(path, false, 0, &info);

	if (ret < 0)
		cmd_error(&cmd_reset, "%s", ftc_strerror());
	else if (!c->quiet)
		printf("restored %zu changes of pid %d (ftc %s) from %s\n", info.changes,
		       (int)info.pid, info.command, path);
	ftc_journal_info_free(&info);
	return ret;
}

/* The FILEs given, or every journal whose owner is gone. */
static int restore_journals(struct reset_cmd *c, int argc, char **argv, int first)
{
	struct ftc_journal_info *list;
	size_t n, done = 0;
	int ret = FTC_EXIT_OK;

	for (int i = first; i < argc; i++)
		if (restore_one(c, argv[i]) < 0)
			ret = FTC_EXIT_FAIL;
	if (first < argc)
		return ret;
	if (ftc_journals_find(&list, &n) < 0) {
		cmd_error(&cmd_reset, "%s", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		if (list[i].error)
			cmd_error(&cmd_reset, "journal %s: %s", list[i].path, list[i].error);
		if (list[i].error || list[i].owner_alive)
			continue;
		done++;
		if (restore_one(c, list[i].path) < 0)
			ret = FTC_EXIT_FAIL;
	}
	if (!done && !c->quiet)
		printf("no journal left by a killed ftc: nothing to restore\n");
	ftc_journals_free(list, n);
	return ret;
}

/* A plain reset writes the defaults, not what a killed ftc found: say that
 * its journal can put that back. */
static void name_orphans(void)
{
	struct ftc_journal_info *list;
	size_t n;

	if (ftc_journals_find(&list, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (!list[i].error && !list[i].owner_alive)
			fprintf(stderr, "ftc reset: journal %s: owner pid %d (ftc %s) is gone; %zu "
				"changes not restored: run 'ftc reset --journal' to restore them\n",
				list[i].path, (int)list[i].pid, list[i].command, list[i].changes);
	ftc_journals_free(list, n);
}

static int reset_run(int argc, char **argv)
{
	struct reset_cmd c = { 0 };
	int ret = cmd_options_parse(&cmd_reset, argc, argv, reset_opt, &c);

	if (ret < 0)
		return cmd_options_exit(ret);
	if (c.journal && (c.instance || c.delete)) {
		cmd_error(&cmd_reset, "--journal restores what killed ftc processes "
			  "changed and resets nothing: give it without -B and -d");
		return FTC_EXIT_USAGE;
	}
	if (c.journal)
		return restore_journals(&c, argc, argv, ret);
	if (ret < argc) {
		cmd_error(&cmd_reset, "unexpected argument '%s' (see 'ftc reset --help')",
			  argv[ret]);
		return FTC_EXIT_USAGE;
	}
	if (c.delete && !c.instance) {
		cmd_error(&cmd_reset, "-d removes an instance: give it with -B NAME");
		return FTC_EXIT_USAGE;
	}
	name_orphans();
	ret = ftc_reset(c.instance, report, &c);
	if (ret < 0) {
		cmd_error(&cmd_reset, "%s", ftc_strerror());
		return control_exit_status(errno);
	}
	if (c.delete)
		return delete_instance(c.instance);
	return FTC_EXIT_OK;
}
