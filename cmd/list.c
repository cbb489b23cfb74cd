// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc list: what tracefs offers, one item per line: tracers, events (with
 * their fields), options, clocks, instances, filterable functions.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "options.h"
#include "ftc.h"
#include "ftc-tracefs-info.h"

enum {
	SEL_TRACERS = 1 << 0,
	SEL_EVENTS = 1 << 1,
	SEL_OPTIONS = 1 << 2,
	SEL_CLOCKS = 1 << 3,
	SEL_INSTANCES = 1 << 4,
	SEL_FUNCTIONS = 1 << 5,
	SEL_DEFAULT = SEL_TRACERS | SEL_EVENTS | SEL_OPTIONS | SEL_CLOCKS | SEL_INSTANCES,
};

enum { OPT_INSTANCE = 0x100 };

struct list_args {
	unsigned int sel;
	bool fields;
	const char *instance;
	const char *glob;
};

static const struct cmd_option list_options[] = {
	{ 't', "tracers", NULL, "list the tracers", 't' },
	{ 'e', "events", NULL, "list the events (system:event) matching GLOB, "
	  "or all of them", 'e' },
	{ 'F', "format", NULL, "with -e: show each event's fields from its format file", 'F' },
	{ 'o', "options", NULL, "list the trace options as trace_options takes them "
	  "(name or noname)", 'o' },
	{ 'C', "clocks", NULL, "list the trace clocks, the current one in brackets", 'C' },
	{ 'B', "instances", NULL, "list the instances", 'B' },
	{ 'f', "functions", NULL, "list the functions set_ftrace_filter accepts that "
	  "match GLOB", 'f' },
	{ 0, "instance", "NAME", "read options, clocks and tracers of this instance",
	  OPT_INSTANCE },
	FTC_HELP_OPTION,
	{ 0 }
};

static int list_run(int argc, char **argv);

const struct command cmd_list = {
	.name = "list",
	.summary = "list tracers, events and fields, options, clocks, instances, "
		   "filterable functions",
	.synopsis = "[-t] [-e [-F]] [-o] [-C] [-B] [-f] [--instance NAME] [GLOB]",
	.options = list_options,
	.run = list_run,
};

static int list_opt(int id, const char *arg, void *ctx)
{
	struct list_args *a = ctx;

	switch (id) {
	case 't': a->sel |= SEL_TRACERS; break;
	case 'e': a->sel |= SEL_EVENTS; break;
	case 'F': a->sel |= SEL_EVENTS; a->fields = true; break;
	case 'o': a->sel |= SEL_OPTIONS; break;
	case 'C': a->sel |= SEL_CLOCKS; break;
	case 'B': a->sel |= SEL_INSTANCES; break;
	case 'f': a->sel |= SEL_FUNCTIONS; break;
	case OPT_INSTANCE: a->instance = arg; break;
	}
	return 0;
}

static void header(const struct list_args *a, const char *what)
{
	/* Only when several lists are printed: a single list stays bare. */
	if (a->sel & (a->sel - 1))
		printf("# %s\n", what);
}

static int print_list(char **list)
{
	if (!list)
		return -1;
	for (int i = 0; list[i]; i++)
		puts(list[i]);
	ftc_list_free(list);
	return 0;
}

static int print_field(const struct ftc_event_field *f, void *ctx)
{
	const char *bracket = strchr(f->type, '[');

	if (f->is_common)
		return 0;
	/* The format file's own spelling: "char prev_comm[16]", "__data_loc char[] name". */
	if (f->arraylen && bracket && strncmp(f->type, "__", 2))
		printf("\t%.*s %s%s;", (int)(bracket - f->type), f->type, f->name, bracket);
	else
		printf("\t%s %s;", f->type, f->name);
	printf("\toffset:%d;\tsize:%d;\tsigned:%d;\n", f->offset, f->size, f->is_signed);
	return 0;
}

static int list_events(const struct list_args *a)
{
	char **events = ftc_info_events(a->glob);
	int ret = 0;

	if (!events)
		return -1;
	for (int i = 0; events[i]; i++) {
		char *colon = strchr(events[i], ':');

		puts(events[i]);
		if (!a->fields || !colon)
			continue;
		*colon = '\0';
		if (ftc_info_event_fields(events[i], colon + 1, print_field, NULL) < 0) {
			fprintf(stderr, "ftc list: %s\n", ftc_strerror());
			ret = -1;
		}
	}
	ftc_list_free(events);
	return ret;
}

static int list_options_of(const struct list_args *a)
{
	struct ftc_trace_option *opts = NULL;
	int n = 0;

	if (ftc_info_options(a->instance, &opts, &n) < 0)
		return -1;
	for (int i = 0; i < n; i++)
		printf("%s%s\n", opts[i].value ? "" : "no", opts[i].name);
	ftc_info_options_free(opts, n);
	return 0;
}

static int list_clocks(const struct list_args *a)
{
	char *cur = NULL;
	char **clocks = ftc_info_clocks(a->instance, &cur);

	if (!clocks)
		return -1;
	for (int i = 0; clocks[i]; i++) {
		bool is_cur = cur && !strcmp(cur, clocks[i]);

		printf("%s%s%s\n", is_cur ? "[" : "", clocks[i], is_cur ? "]" : "");
	}
	free(cur);
	ftc_list_free(clocks);
	return 0;
}

/* Runs one list; a failure prints its message and sets *status. */
static void run_one(const struct list_args *a, unsigned int sel, const char *what,
		    int *status)
{
	int ret;

	if (!(a->sel & sel))
		return;
	header(a, what);
	fflush(stdout);
	switch (sel) {
	case SEL_TRACERS: ret = print_list(ftc_info_tracers(a->instance)); break;
	case SEL_EVENTS: ret = list_events(a); break;
	case SEL_OPTIONS: ret = list_options_of(a); break;
	case SEL_CLOCKS: ret = list_clocks(a); break;
	case SEL_INSTANCES: ret = print_list(ftc_info_instances()); break;
	default: ret = print_list(ftc_info_filter_functions(a->glob)); break;
	}
	if (ret == 0)
		return;
	fflush(stdout);
	fprintf(stderr, "ftc list: %s\n", ftc_strerror());
	if (*status == FTC_EXIT_OK)
		*status = (errno == EPERM || errno == EACCES || errno == ENOENT) ?
			  FTC_EXIT_REFUSED : FTC_EXIT_FAIL;
}

/* Options may come before or after the GLOB: parse around it. */
static int parse_all(int argc, char **argv, struct list_args *a)
{
	int at = 0;

	while (at < argc) {
		int ret = cmd_options_parse(&cmd_list, argc - at, argv + at, list_opt, a);

		if (ret < 0)
			return ret;
		at += ret;
		if (at >= argc)
			break;
		if (a->glob) {
			cmd_error(&cmd_list, "one GLOB only, got '%s' and '%s'",
				  a->glob, argv[at]);
			return -1;
		}
		a->glob = argv[at];
	}
	return 0;
}

static int list_run(int argc, char **argv)
{
	struct list_args a = { 0 };
	int status = FTC_EXIT_OK, ret = parse_all(argc, argv, &a);

	if (ret < 0)
		return cmd_options_exit(ret);
	if (a.glob && !(a.sel & (SEL_EVENTS | SEL_FUNCTIONS))) {
		cmd_error(&cmd_list, "a GLOB ('%s') goes with -e or -f", a.glob);
		return FTC_EXIT_USAGE;
	}
	if (a.instance && !tracefs_instance_exists(a.instance)) {
		cmd_error(&cmd_list, "no instance '%s'; 'ftc list -B' lists them",
			  a.instance);
		return FTC_EXIT_REFUSED;	/* as stop, show and snapshot */
	}
	if (!a.sel)
		a.sel = SEL_DEFAULT;
	run_one(&a, SEL_TRACERS, "tracers", &status);
	run_one(&a, SEL_EVENTS, "events", &status);
	run_one(&a, SEL_OPTIONS, "options", &status);
	run_one(&a, SEL_CLOCKS, "clocks", &status);
	run_one(&a, SEL_INSTANCES, "instances", &status);
	run_one(&a, SEL_FUNCTIONS, "functions", &status);
	return status;
}
