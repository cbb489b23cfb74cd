// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc list: what tracefs offers, one item per line: tracers, events (with
 * their fields, triggers or filters), options, clocks, instances,
 * filterable functions, and the compressions ftc writes. Events and
 * functions are selected by trace-cmd's REGEX (list-re.c), and by
 * --module NAME to one loaded module's (list-module.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "list-module.h"
#include "list-re.h"
#include "options.h"
#include "output.h"
#include "ftc.h"
#include "ftc-tracefs-info.h"
#include "ftc-writer.h"

enum {
	SEL_TRACERS = 1 << 0,
	SEL_EVENTS = 1 << 1,
	SEL_OPTIONS = 1 << 2,
	SEL_CLOCKS = 1 << 3,
	SEL_INSTANCES = 1 << 4,
	SEL_FUNCTIONS = 1 << 5,
	SEL_COMPRESSION = 1 << 6,
	SEL_DEFAULT = SEL_TRACERS | SEL_EVENTS | SEL_OPTIONS | SEL_CLOCKS | SEL_INSTANCES,
};

enum { OPT_INSTANCE = 0x100, OPT_MODULE };

struct list_args {
	unsigned int sel;
	bool fields, triggers, filters;
	const char *instance;
	const char *regex;
	const char *module;
	struct list_module mod;
};

static const struct cmd_option list_options[] = {
	{ 't', "tracers", NULL, "list the tracers", 't' },
	{ 'e', "events", NULL, "list the events (system:event) matching REGEX, all without one", 'e' },
	{ 'F', "format", NULL, "with -e: show each event's fields from its format file", 'F' },
	{ 'R', "triggers", NULL, "with -e: show each event's trigger file", 'R' },
	{ 'l', "filters", NULL, "with -e: show each event's filter file", 'l' },
	{ 'o', "options", NULL, "list the trace options as trace_options takes them "
	  "(name or noname)", 'o' },
	{ 'C', "clocks", NULL, "list the trace clocks, the current one in brackets", 'C' },
	{ 'B', "instances", NULL, "list the instances", 'B' },
	{ 'f', "functions", NULL, "list the functions set_ftrace_filter takes that match REGEX", 'f' },
	{ 'c', "compression", NULL, "list the compressions ftc writes trace.dat files with",
	  'c' },
	{ 0, "instance", "NAME", "read tracers, options, clocks, triggers, filters there",
	  OPT_INSTANCE },
	{ 0, "module", "NAME", "with -e, -f (both without them): only loaded module NAME's",
	  OPT_MODULE },
	FTC_HELP_OPTION,
	{ 0 }
};

static int list_run(int argc, char **argv);

const struct command cmd_list = {
	.name = "list",
	.summary = "list tracers, events and fields, options, clocks, instances, "
		   "filterable functions",
	.synopsis = "[-t] [-e [-FRl]] [-o] [-C] [-B] [-f] [-c] [--instance NAME] [--module NAME] "
		    "[REGEX]",
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
	case 'R': a->sel |= SEL_EVENTS; a->triggers = true; break;
	case 'l': a->sel |= SEL_EVENTS; a->filters = true; break;
	case 'c': a->sel |= SEL_COMPRESSION; break;
	case 'o': a->sel |= SEL_OPTIONS; break;
	case 'C': a->sel |= SEL_CLOCKS; break;
	case 'B': a->sel |= SEL_INSTANCES; break;
	case 'f': a->sel |= SEL_FUNCTIONS; break;
	case OPT_INSTANCE: a->instance = arg; break;
	case OPT_MODULE: a->module = arg; break;
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

/* An event's file as trace-cmd list -R and -l show it: as is, then a blank line. */
static int print_event_file(const struct list_args *a, const char *sys, const char *ev,
			    const char *name)
{
	char file[600], *text = NULL;

	snprintf(file, sizeof(file), "events/%s/%s/%s", sys, ev, name);
	if (ftc_tracefs_read(a->instance, file, &text, NULL) < 0) {
		fprintf(stderr, "ftc list: %s\n", ftc_strerror());
		return -1;
	}
	fputs(text, stdout);
	if (*text && text[strlen(text) - 1] != '\n')
		putchar('\n');
	putchar('\n');
	free(text);
	return 0;
}

static int event_details(const struct list_args *a, const char *sys, const char *ev)
{
	int ret = 0;

	if (a->fields && ftc_info_event_fields(sys, ev, print_field, NULL) < 0) {
		fprintf(stderr, "ftc list: %s\n", ftc_strerror());
		ret = -1;
	}
	if (a->triggers && print_event_file(a, sys, ev, "trigger") < 0)
		ret = -1;
	if (a->filters && print_event_file(a, sys, ev, "filter") < 0)
		ret = -1;
	return ret;
}

static int list_events(const struct list_args *a)
{
	char **events = ftc_info_events(NULL), why[256];
	struct list_re re;
	int ret = 0;

	if (!events)
		return -1;
	if (list_re_compile(&re, a->regex, true, why, sizeof(why)) < 0) {
		ftc_list_free(events);
		return ftc_error(EINVAL, "'%s': not a regular expression: %s", a->regex, why);
	}
	for (int i = 0; events[i]; i++) {
		char *colon = strchr(events[i], ':');

		if (!colon)
			continue;
		*colon = '\0';
		if (!list_re_event(&re, events[i], colon + 1))
			continue;
		if (a->module && !list_module_event(&a->mod, colon + 1))
			continue;
		printf("%s:%s\n", events[i], colon + 1);
		if (event_details(a, events[i], colon + 1) < 0)
			ret = -1;
	}
	list_re_free(&re);
	ftc_list_free(events);
	return ret < 0 ? -2 : 0;	/* -2: said already */
}

static int list_functions(const struct list_args *a)
{
	char **funcs = ftc_info_filter_functions(NULL), why[256];
	struct list_re re;

	if (!funcs)
		return -1;
	if (list_re_compile(&re, a->regex, false, why, sizeof(why)) < 0) {
		ftc_list_free(funcs);
		return ftc_error(EINVAL, "'%s': not a regular expression: %s", a->regex, why);
	}
	for (int i = 0; funcs[i]; i++)
		if (list_re_line(&re, funcs[i]) &&
		    (!a->module || list_module_function(&a->mod, funcs[i])))
			puts(funcs[i]);
	list_re_free(&re);
	ftc_list_free(funcs);
	return 0;
}

/* What ftc can write, with the library's version, as trace-cmd list -c. */
static int list_compression(void)
{
	static const enum ftc_compression algs[] = { FTC_COMPRESS_ZSTD, FTC_COMPRESS_ZLIB };

	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		printf("%s, %s\n", ftc_compression_name(algs[i]), ftc_compression_version(algs[i]));
	return 0;
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
	cmd_output_flush();
	switch (sel) {
	case SEL_TRACERS: ret = print_list(ftc_info_tracers(a->instance)); break;
	case SEL_EVENTS: ret = list_events(a); break;
	case SEL_OPTIONS: ret = list_options_of(a); break;
	case SEL_CLOCKS: ret = list_clocks(a); break;
	case SEL_INSTANCES: ret = print_list(ftc_info_instances()); break;
	case SEL_FUNCTIONS: ret = list_functions(a); break;
	default: ret = list_compression(); break;
	}
	if (ret == 0)
		return;
	cmd_output_flush();
	if (ret == -2) {	/* each failure was told where it happened */
		if (*status == FTC_EXIT_OK)
			*status = FTC_EXIT_FAIL;
		return;
	}
	fprintf(stderr, "ftc list: %s\n", ftc_strerror());
	if (*status == FTC_EXIT_OK)
		*status = (errno == EPERM || errno == EACCES || errno == ENOENT) ?
			  FTC_EXIT_REFUSED : FTC_EXIT_FAIL;
}

/* Options may come before or after the REGEX: parse around it. */
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
		if (a->regex) {
			cmd_error(&cmd_list, "one REGEX only, got '%s' and '%s'",
				  a->regex, argv[at]);
			return -1;
		}
		a->regex = argv[at];
	}
	return 0;
}

static bool compiles(const char *regex, bool events, char *why, size_t size)
{
	struct list_re re;

	if (list_re_compile(&re, regex, events, why, size) < 0)
		return false;
	list_re_free(&re);
	return true;
}

/* A REGEX that does not compile is the command line's mistake. */
static int check_regex(const struct list_args *a)
{
	char why[256];

	if ((!(a->sel & SEL_EVENTS) || compiles(a->regex, true, why, sizeof(why))) &&
	    (!(a->sel & SEL_FUNCTIONS) || compiles(a->regex, false, why, sizeof(why))))
		return 0;
	cmd_error(&cmd_list, "'%s': not a regular expression (trace-cmd's: POSIX basic, "
		  "case-insensitive): %s", a->regex, why);
	return -1;
}

static bool module_loaded(const char *name)
{
	char path[300];

	snprintf(path, sizeof(path), "/sys/module/%s/sections", name);
	return access(path, F_OK) == 0;
}

static int list_run(int argc, char **argv)
{
	struct list_args a = { 0 };
	int status = FTC_EXIT_OK, ret = parse_all(argc, argv, &a);

	if (ret < 0)
		return cmd_options_exit(ret);
	if (a.regex && !(a.sel & (SEL_EVENTS | SEL_FUNCTIONS))) {
		cmd_error(&cmd_list, "a REGEX ('%s') goes with -e or -f", a.regex);
		return FTC_EXIT_USAGE;
	}
	if (a.regex && check_regex(&a) < 0)
		return FTC_EXIT_USAGE;
	if (a.instance && !ftc_info_instance_exists(a.instance)) {
		cmd_error(&cmd_list, "no instance '%s'; 'ftc list -B' lists them",
			  a.instance);
		return FTC_EXIT_REFUSED;	/* as stop, show and snapshot */
	}
	if (a.module && (a.sel & ~(SEL_EVENTS | SEL_FUNCTIONS))) {
		cmd_error(&cmd_list, "--module %s goes with -e and -f only", a.module);
		return FTC_EXIT_USAGE;
	}
	if (a.module && !a.sel)
		a.sel = SEL_EVENTS | SEL_FUNCTIONS;
	if (a.module && !module_loaded(a.module)) {
		cmd_error(&cmd_list, "--module %s: no such module is loaded (/proc/modules "
			  "lists them)", a.module);
		return FTC_EXIT_REFUSED;
	}
	if (a.module && list_module_load(&a.mod, a.module) < 0) {
		fprintf(stderr, "ftc list: %s\n", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	if (!a.sel)
		a.sel = SEL_DEFAULT;
	run_one(&a, SEL_TRACERS, "tracers", &status);
	run_one(&a, SEL_EVENTS, "events", &status);
	run_one(&a, SEL_OPTIONS, "options", &status);
	run_one(&a, SEL_CLOCKS, "clocks", &status);
	run_one(&a, SEL_INSTANCES, "instances", &status);
	run_one(&a, SEL_FUNCTIONS, "functions", &status);
	run_one(&a, SEL_COMPRESSION, "compression", &status);
	if (a.module)
		list_module_free(&a.mod);
	return status;
}
