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

#include "control-opts.h"
#include "options.h"
#include "ftc.h"
#include "ftc-control.h"
#include "ftc-dynprobe.h"

static const struct cmd_option reset_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", "reset this instance instead of the top level (repeatable)", 'B' },
	{ 'a', "all", NULL, "reset every instance (the top level too with -t)", 'a' },
	{ 't', "top", NULL, "reset the top level too, with -B or -a", 't' },
	{ 'd', "delete", NULL, "with -B: remove the instances afterwards", 'd' },
	{ 'b', "buffer-size", "KB", "then set each reset buffer's per-CPU size to KB", 'b' },
	{ 'q', "quiet", NULL, "do not list the knobs that were reset", 'q' },
	{ 0, "keep-probes", NULL, "leave ftc's probes (ftc:*, synthetic:ftc_*) defined", 'K' },
	{ 'j', "journal", NULL, "restore the journals left by killed ftc processes "
	  "(or only the FILEs)", 'j' },
	{ 0 }
};

struct reset_cmd {
	struct buffer_choice buffers;
	const char *instance;	/* the one being reset */
	char buffer_kb[24];	/* -b, in KB as buffer_size_kb takes it; "" when not given */
	bool delete, quiet, journal, keep_probes;
	/* knobs no one could read, said once at the end (unchecked_say) */
	char unchecked[512];
	char unchecked_why[512];
	int unchecked_n;
	const char *unchecked_last;	/* the instance of the last one counted */
	int unchecked_buffers;
};

static int reset_opt(int id, const char *arg, void *arg_ctx)
{
	struct reset_cmd *c = arg_ctx;

	int ret = buffer_choice_opt(&c->buffers, id, arg);

	if (ret)
		return ret < 0 ? -1 : 0;
	if (id == 'b') {
		unsigned long long kb;

		/* the size type takes K/M/G; buffer_size_kb takes plain KB */
		if (cmd_parse_u64(arg, &kb) < 0 || !kb || kb > (1ULL << 40))
			return cmd_bad_value("not a size (use a number of KB from 1, e.g. 4096)");
		snprintf(c->buffer_kb, sizeof(c->buffer_kb), "%llu", kb);
	}
	else if (id == 'd')
		c->delete = true;
	else if (id == 'q')
		c->quiet = true;
	else if (id == 'j')
		c->journal = true;
	else if (id == 'K')
		c->keep_probes = true;
	return 0;
}

static int reset_run(int argc, char **argv);

const struct command cmd_reset = {
	.name = "reset",
	.summary = "return tracefs (or instances) to the kernel's defaults",
	.synopsis = "[-B NAME [-d]]... [-a] [-t] [-b KB] [-q] [--keep-probes] | --journal [FILE...]",
	.options = reset_options,
	.run = reset_run,
};

/* Adds file (its name, not its instance) to the knobs that were not checked. */
static void unchecked_add(struct reset_cmd *c, const char *file, const char *why)
{
	size_t len = strlen(c->unchecked);
	char word[300], padded[sizeof(c->unchecked) + 4];

	if (!c->unchecked_n++ || c->unchecked_last != c->instance)
		c->unchecked_buffers++;
	c->unchecked_last = c->instance;
	if (!*c->unchecked_why)
		snprintf(c->unchecked_why, sizeof(c->unchecked_why), "%s", why);
	/* whole names only: set_ftrace_notrace is not in set_ftrace_notrace_pid */
	snprintf(padded, sizeof(padded), ", %s,", c->unchecked);
	snprintf(word, sizeof(word), ", %s,", file);
	if (strstr(padded, word))
		return;
	snprintf(word, sizeof(word), "%s%s", len ? ", " : "", file);
	if (len + strlen(word) + 4 < sizeof(c->unchecked))
		strcat(c->unchecked, word);
	else if (!strstr(c->unchecked, "..."))
		strcat(c->unchecked, ", ...");
}

/*
 * Once, at the end: a knob the kernel lets no one read (function filtering
 * on a kernel that refuses it) cannot have been changed, so it was not
 * reset; a line for each, in each instance, would bury what was.
 */
static void unchecked_say(const struct reset_cmd *c)
{
	if (!c->unchecked_n)
		return;
	fprintf(stderr, "ftc reset: not checked, as the kernel lets no one read them (nor set "
		"them): %s, in %d buffer%s (%s)\n", c->unchecked, c->unchecked_buffers,
		c->unchecked_buffers > 1 ? "s" : "", c->unchecked_why);
}

static void report(const char *file, const char *why, bool unread, void *arg)
{
	struct reset_cmd *c = arg;

	if (unread)
		unchecked_add(c, file, why);
	else if (why)
		fprintf(stderr, "ftc reset: left as is: %s\n", why);
	else if (!c->quiet)
		printf("reset %s%s%s%s\n", c->instance ? "instances/" : "",
		       c->instance ? c->instance : "", c->instance ? "/" : "", file);
}

static int delete_instance(const char *name)
{
	if (ftc_instance_remove(name) < 0) {
		cmd_error(&cmd_reset, "instances/%s: cannot remove it: %s", name,
			  strerror(errno));
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

static int reset_one(const char *instance, void *ctx)
{
	struct reset_cmd *c = ctx;
	int ret;

	c->instance = instance;
	ret = ftc_reset(instance, report, c);
	if (ret >= 0 && *c->buffer_kb)
		ret = ftc_knob_set(instance, "buffer_size_kb", c->buffer_kb, false);
	if (ret < 0) {
		cmd_error(&cmd_reset, "%s", ftc_strerror());
		return -1;
	}
	if (c->delete && instance && delete_instance(instance) != FTC_EXIT_OK)
		return -1;
	return 0;
}

/*
 * The kernel's default has no dynamic events, but probes are global and
 * may be someone else's: only ftc's own group and synthetic prefix go, and
 * only with the top level. A probe the kernel keeps (an instance still
 * has it enabled, a hist action names it) is reported and left.
 */
static void remove_probes(const struct reset_cmd *c)
{
	int n = ftc_probe_del("*");

	if (n < 0 && errno != ENOENT)
		fprintf(stderr, "ftc reset: left as is: ftc's probes: %s\n", ftc_strerror());
	else if (n > 0 && !c->quiet)
		printf("removed %d of ftc's probes (ftc:*, synthetic:ftc_*)\n", n);
}

static bool top_chosen(const struct buffer_choice *b)
{
	return b->top || (!b->n && !b->all);
}

/* The combinations that cannot mean anything; a message and 2, or 0. */
static int check_combination(struct reset_cmd *c, int argc, char **argv, int first)
{
	const char *why = NULL;

	if (c->journal && (c->buffers.n || c->buffers.all || c->buffers.top || c->delete ||
			   *c->buffer_kb || c->keep_probes))
		why = "--journal restores what killed ftc processes changed and resets "
		      "nothing: give it without -B, -a, -t, -d, -b and --keep-probes";
	else if (!c->journal && first < argc)
		why = "unexpected argument (see 'ftc reset --help')";
	else if (c->delete && !c->buffers.n)
		why = "-d removes the instances given with -B NAME: give them";
	else if (c->buffers.all && c->buffers.n)
		why = "-a and -B exclude each other";
	if (!why)
		return 0;
	if (!c->journal && first < argc)
		cmd_error(&cmd_reset, "'%s': %s", argv[first], why);
	else
		cmd_error(&cmd_reset, "%s", why);
	return FTC_EXIT_USAGE;
}

static int reset_run(int argc, char **argv)
{
	struct reset_cmd c = { 0 };
	int ret = cmd_options_parse(&cmd_reset, argc, argv, reset_opt, &c);

	if (ret < 0) {
		ret = cmd_options_exit(ret);
		goto out;
	}
	if (check_combination(&c, argc, argv, ret)) {
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	if (c.journal) {
		ret = restore_journals(&c, argc, argv, ret);
		goto out;
	}
	if (buffer_choice_check(&c.buffers) < 0) {
		cmd_error(&cmd_reset, "%s", ftc_strerror());
		ret = control_exit_status(errno);
		goto out;
	}
	name_orphans();
	ret = FTC_EXIT_OK;
	if (buffer_choice_each(&c.buffers, false, reset_one, &c) < 0)
		ret = control_exit_status(errno);
	if (top_chosen(&c.buffers) && !c.keep_probes)
		remove_probes(&c);
	unchecked_say(&c);
out:
	buffer_choice_free(&c.buffers);
	return ret;
}
