// SPDX-License-Identifier: GPL-2.0-or-later
/* ftc check: what this kernel and this user allow, one line per capability. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "output.h"
#include "ftc.h"
#include "ftc-control.h"
#include "ftc-probe.h"

struct check_args {
	const char *instance;
	bool quiet;
	bool json;
	bool only[FTC_CAP_COUNT];
	bool some;	/* capabilities were named */
};

enum { OPT_JSON = 0x100 };

static const struct cmd_option check_options[] = {
	{ 'B', "instance", "NAME", "probe this instance instead of the top level", 'B' },
	{ 0, "capability", "NAME", "probe only NAME (repeatable, or as arguments); "
	  "exit 3 unless all ok", 'c' },
	{ 'q', "quiet", NULL, "print nothing; the exit status tells", 'q' },
	{ 0, "json", NULL, "print a JSON array of {name, state, errno, why}", OPT_JSON },
	FTC_HELP_OPTION,
	{ 0 }
};

static int check_run(int argc, char **argv);

const struct command cmd_check = {
	.name = "check",
	.summary = "probe what this kernel and this user allow; test writes go to a private instance",
	.synopsis = "[-B NAME] [-q | --json] [CAPABILITY...]",
	.options = check_options,
	.run = check_run,
};

static int check_opt(int id, const char *arg, void *ctx)
{
	struct check_args *a = ctx;
	int cap;

	switch (id) {
	case 'B':
		a->instance = arg;
		break;
	case 'c':
		cap = ftc_cap_lookup(arg);
		if (cap < 0)
			return cmd_bad_value("no such capability; 'ftc check' prints their "
					     "names in its first column");
		a->only[cap] = true;
		a->some = true;
		break;
	case 0:	/* an argument: a capability as --capability takes it */
		cap = ftc_cap_lookup(arg);
		if (cap < 0) {
			cmd_error(&cmd_check, "'%s': no such capability; 'ftc check' prints "
				  "their names in its first column", arg);
			return -1;
		}
		a->only[cap] = true;
		a->some = true;
		break;
	case 'q':
		a->quiet = true;
		break;
	case OPT_JSON:
		a->json = true;
		break;
	}
	return 0;
}

static void print_cap(const struct check_args *a, const struct ftc_cap *c, bool first)
{
	if (a->quiet)
		return;
	if (!a->json) {
		printf("%-26s %-8s %s\n", ftc_cap_name(c->id), ftc_cap_state_name(c->state),
		       c->why);
		return;
	}
	printf("%s\n  {\"name\": ", first ? "[" : ",");
	cmd_json_string(stdout, ftc_cap_name(c->id));
	printf(", \"state\": \"%s\", \"errno\": %d, \"why\": ",
	       ftc_cap_state_name(c->state), c->err);
	cmd_json_string(stdout, c->why);
	putchar('}');
}

/*
 * The private instance goes through a guarded journal, so even a SIGKILL
 * leaves none behind. Without a place for the journal (a read-only /run
 * and /tmp) check still runs, as it did before journals had files.
 */
static struct ftc_state *guarded_journal(void)
{
	struct ftc_state *st = ftc_state_new();

	if (st && ftc_state_guard(st, "check") < 0) {
		ftc_state_free(st);
		st = NULL;
	}
	return st;
}

/* Probes with SIGINT/SIGTERM held back, so the private instance is always removed. */
static int probe_all(const struct check_args *a, struct ftc_cap *caps)
{
	sigset_t block, old;
	struct ftc_probe *p;
	struct ftc_state *st = guarded_journal();

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	p = ftc_probe_open(a->instance);
	if (p) {
		ftc_probe_journal(p, st);
		for (int i = 0; i < FTC_CAP_COUNT; i++)
			if (!a->some || a->only[i])
				ftc_probe_cap(p, i, &caps[i]);
		ftc_probe_close(p);
	}
	ftc_state_restore(st);
	ftc_state_free(st);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return p ? 0 : -1;
}

static int check_run(int argc, char **argv)
{
	struct check_args a = { 0 };
	struct ftc_cap caps[FTC_CAP_COUNT];
	bool first = true, all_ok = true;
	int ret = cmd_options_parse(&cmd_check, argc, argv, check_opt, &a);

	if (ret < 0)
		return cmd_options_exit(ret);
	for (; ret < argc; ret++)
		if (check_opt(0, argv[ret], &a) < 0)
			return FTC_EXIT_USAGE;
	if (a.instance && ftc_tracefs_dir() && !ftc_info_instance_exists(a.instance)) {
		cmd_error(&cmd_check, "no instance '%s' in %s/instances; 'ftc list -B' "
			  "lists them", a.instance, ftc_tracefs_dir());
		return FTC_EXIT_REFUSED;	/* as stop, show and snapshot */
	}
	memset(caps, 0, sizeof(caps));
	if (probe_all(&a, caps) < 0) {
		cmd_error(&cmd_check, "%s", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	for (int i = 0; i < FTC_CAP_COUNT; i++) {
		if (a.some && !a.only[i])
			continue;
		print_cap(&a, &caps[i], first);
		first = false;
		if (caps[i].state != FTC_CAP_OK)
			all_ok = false;
	}
	if (a.json && !a.quiet)
		printf("%s]\n", first ? "[" : "\n");
	if (a.some)
		return all_ok ? FTC_EXIT_OK : FTC_EXIT_REFUSED;
	if (!a.some && caps[FTC_CAP_TRACEFS].state != FTC_CAP_OK)
		return FTC_EXIT_FAIL;
	return FTC_EXIT_OK;
}
