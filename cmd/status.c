// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc status: the live state of tracefs (trace-cmd calls this stat). One
 * setting per line, "FILE VALUE", FILE named as in the instance's tracefs
 * directory. Reading only: a refused file is shown as refused.
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
#include "ftc-tracefs-info.h"

static const struct cmd_option status_options[] = {
	{ 'B', "instance", "NAME", "show this instance instead of the top level (repeatable)", 'B' },
	{ 'a', "all", NULL, "show the top level and every instance", 'a' },
	{ 't', "top", NULL, "show the top level too, with -B", 't' },
	FTC_HELP_OPTION,
	{ 0 }
};

static int status_run(int argc, char **argv);

const struct command cmd_status = {
	.name = "status",
	.summary = "show the live tracing state (tracer, events, filters, triggers, buffers, ...)",
	.synopsis = "[-B NAME]... [-t] | -a",
	.options = status_options,
	.run = status_run,
};

static int status_opt(int id, const char *arg, void *ctx)
{
	return buffer_choice_opt(ctx, id, arg) < 0 ? -1 : 0;
}

enum {
	MULTI = 1 << 0,		/* one line per value; '#' lines are comments */
	OMIT_EMPTY = 1 << 1,
};

/*
 * Prints "key value" for a file. A missing file is not shown (this kernel
 * lacks it); a refused one says so. Returns whether something was shown.
 */
static bool show_file(const char *inst, const char *file, const char *key, int flags)
{
	char *buf = NULL, *save = NULL;
	bool shown = false;

	if (ftc_tracefs_read(inst, file, &buf, NULL) < 0) {
		if (errno == ENOENT)
			return false;
		printf("%s refused (%s)\n", key, strerror(errno));
		return true;
	}
	if (!(flags & MULTI)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (*buf || !(flags & OMIT_EMPTY))
			printf("%s %s\n", key, *buf ? buf : "-");
		shown = *buf || !(flags & OMIT_EMPTY);
		free(buf);
		return shown;
	}
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (*l == '#')
			continue;
		printf("%s %s\n", key, l);
		shown = true;
	}
	if (!shown && !(flags & OMIT_EMPTY))
		printf("%s -\n", key);
	free(buf);
	return shown;
}

static void show_buffers(const char *inst)
{
	int *cpus = NULL, n = ftc_info_percpu_cpus(inst, &cpus);
	char file[64];

	show_file(inst, "buffer_size_kb", "buffer_size_kb", 0);
	for (int i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb", cpus[i]);
		show_file(inst, file, file, 0);
	}
	show_file(inst, "buffer_total_size_kb", "buffer_total_size_kb", 0);
	show_file(inst, "buffer_subbuf_size_kb", "buffer_subbuf_size_kb", 0);
	free(cpus);
}

/* One event's enable, filter and triggers, where they are not the defaults. */
static void show_event(const char *inst, const char *sys, const char *ev)
{
	char file[600], *val;

	snprintf(file, sizeof(file), "events/%s/%s/enable", sys, ev);
	val = ftc_info_value(inst, file);
	if (val && strcmp(val, "0"))
		printf("%s %s\n", file, val);
	free(val);
	snprintf(file, sizeof(file), "events/%s/%s/filter", sys, ev);
	val = ftc_info_value(inst, file);
	if (val && strcmp(val, "none"))
		printf("%s %s\n", file, val);
	free(val);
	snprintf(file, sizeof(file), "events/%s/%s/trigger", sys, ev);
	show_file(inst, file, file, MULTI | OMIT_EMPTY);
}

static void show_events(const char *inst)
{
	char **events = ftc_info_events(NULL);	/* "system:event" */

	for (int i = 0; events && events[i]; i++) {
		char *ev = strchr(events[i], ':');

		if (!ev)
			continue;
		*ev++ = '\0';
		show_event(inst, events[i], ev);
	}
	ftc_list_free(events);
}

static void show_options(const char *inst)
{
	struct ftc_trace_option *opts = NULL;
	int n = 0;

	if (ftc_info_options(inst, &opts, &n) < 0) {
		printf("options refused (%s)\n", ftc_strerror());
		return;
	}
	for (int i = 0; i < n; i++) {
		int def = ftc_info_option_default(opts[i].name, !inst);

		/* An option ftc has no default for is shown when it is on. */
		if (def < 0 ? opts[i].value != 0 : opts[i].value != def)
			printf("options/%s %d\n", opts[i].name, opts[i].value);
	}
	ftc_info_options_free(opts, n);
}

static void show_instance_names(void)
{
	char **list = ftc_info_instances();

	printf("instances");
	for (int i = 0; list && list[i]; i++)
		printf(" %s", list[i]);
	printf("%s\n", list && list[0] ? "" : " -");
	ftc_list_free(list);
}

static void show_top_only(void)
{
	static const char *const sysctls[] = { "ftrace_enabled", "ftrace_dump_on_oops" };

	for (size_t i = 0; i < sizeof(sysctls) / sizeof(sysctls[0]); i++) {
		char *val = NULL;
		int err = -ftc_sysctl_read(sysctls[i], &val);

		if (err) {
			if (err != ENOENT)
				printf("/proc/sys/kernel/%s refused (%s)\n", sysctls[i],
				       strerror(err));
			continue;
		}
		printf("/proc/sys/kernel/%s %s\n", sysctls[i], val);
		free(val);
	}
	show_file(NULL, "kprobe_events", "kprobe_events", MULTI | OMIT_EMPTY);
	show_file(NULL, "uprobe_events", "uprobe_events", MULTI | OMIT_EMPTY);
	show_file(NULL, "dynamic_events", "dynamic_events", MULTI | OMIT_EMPTY);
	show_instance_names();
}

static void show_clock(const char *inst)
{
	char *cur = NULL;
	char **clocks = ftc_info_clocks(inst, &cur);

	if (!clocks)
		printf("trace_clock refused (%s)\n", strerror(errno));
	else
		printf("trace_clock %s\n", cur ? cur : "-");
	free(cur);
	ftc_list_free(clocks);
}

/* A persistent instance's previous boot: what it says, and how to keep it. */
static void show_last_boot(const char *inst)
{
	char *info = NULL, *save = NULL;

	if (!ftc_info_last_boot(inst, &info))
		return;
	printf("# holds the previous boot's records: 'ftc extract -B %s' saves them "
	       "(before anything clears or enables the instance)\n", inst);
	for (char *l = strtok_r(info, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		printf("last_boot_info %s\n", l);
	free(info);
}

/* Every instance with a previous boot's records, named before all else. */
static void show_last_boots(void)
{
	char **list = ftc_info_instances();

	for (int i = 0; list && list[i]; i++)
		if (ftc_info_last_boot(list[i], NULL))
			printf("instance %s holds the previous boot's records: 'ftc extract -B %s' "
			       "saves them\n", list[i], list[i]);
	ftc_list_free(list);
}

static void show_state(const char *inst)
{
	static const char *const plain[] = {
		"current_tracer", "tracing_on", "tracing_cpumask",
		"saved_cmdlines_size", "tracing_thresh", "max_graph_depth", "buffer_percent",
	};
	static const char *const lists[] = {
		"set_event_pid", "set_event_notrace_pid", "set_ftrace_filter",
		"set_ftrace_notrace", "set_ftrace_pid", "set_ftrace_notrace_pid",
		"set_graph_function", "set_graph_notrace",
	};

	if (inst)
		printf("# instance %s\n", inst);
	else
		printf("# top level\n");
	show_last_boot(inst);
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		show_file(inst, plain[i], plain[i], 0);
	show_clock(inst);
	show_buffers(inst);
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		show_file(inst, lists[i], lists[i], MULTI);
	show_events(inst);
	show_options(inst);
	if (!inst)
		show_top_only();
}

/*
 * Journals on disk. One whose owner is gone holds changes that no one will
 * put back (the owner and its guardian were both killed): name it and the
 * way to restore it. Running owners are shown too, so that a user sees
 * which ftc is changing tracefs right now.
 */
static void show_journals(void)
{
	struct ftc_journal_info *list;
	size_t n;

	if (ftc_journals_find(&list, &n) < 0) {
		printf("journal refused (%s)\n", ftc_strerror());
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct ftc_journal_info *j = &list[i];

		if (j->error)
			printf("journal %s: unreadable: %s\n", j->path, j->error);
		else if (j->owner_alive)
			printf("journal %s: owner pid %d (ftc %s) is running; %zu changes to "
			       "restore when it ends\n", j->path, (int)j->pid, j->command,
			       j->changes);
		else
			printf("journal %s: owner pid %d (ftc %s) is gone; %zu changes not "
			       "restored: run 'ftc reset --journal' to restore them\n", j->path,
			       (int)j->pid, j->command, j->changes);
	}
	ftc_journals_free(list, n);
}

static int show_one(const char *instance, void *ctx)
{
	show_state(instance);
	return 0;
}

static int status_run(int argc, char **argv)
{
	struct buffer_choice a = { 0 };
	int ret = cmd_options_parse(&cmd_status, argc, argv, status_opt, &a);

	if (ret < 0) {
		ret = cmd_options_exit(ret);
		goto out;
	}
	if (ret < argc) {
		cmd_error(&cmd_status, "unexpected argument '%s' (see 'ftc status "
			  "--help')", argv[ret]);
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	if (a.all && a.n) {
		cmd_error(&cmd_status, "-a and -B exclude each other");
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	/* the journals first: they matter most when tracefs is not as expected */
	show_journals();
	show_last_boots();
	if (buffer_choice_check(&a) < 0) {
		cmd_error(&cmd_status, "%s", ftc_strerror());
		ret = errno == ENODEV ? FTC_EXIT_FAIL : FTC_EXIT_REFUSED;
		goto out;
	}
	buffer_choice_each(&a, true, show_one, NULL);
	ret = FTC_EXIT_OK;
out:
	buffer_choice_free(&a);
	return ret;
}
