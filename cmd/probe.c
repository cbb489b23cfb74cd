// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc probe: dynamic probes (uprobes, kprobes, fprobes, eprobes) in ftc's group
 * "ftc", and synthetic events named ftc_* (the kernel's group "synthetic"
 * is everyone's). `add` keeps what it makes (journaled while it works, so a kill
 * half-way leaves nothing); start, record and stream make theirs through
 * --probe and remove them when they end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control-opts.h"
#include "options.h"
#include "ftc.h"
#include "ftc-control.h"
#include "ftc-dynprobe.h"

static const struct cmd_option probe_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", "add: enable the new events in NAME; del: disable "
	  "them there first", 'B' },
	{ 'x', "exec", "FILE", "the binary or shared library of uprobes (perf probe -x)", 'x' },
	{ 'L', "line", "FUNC", "list the lines of FUNC that can be probed (needs -x)", 'L' },
	{ 'V', "vars", "FUNC", "list the variables at FUNC's probe point (needs -x)", 'V' },
	{ 0 }
};

struct probe_args {
	const char *instance, *binary, *lines, *vars;
};

static int probe_opt(int id, const char *arg, void *ctx)
{
	struct probe_args *a = ctx;

	switch (id) {
	case 'B': a->instance = arg; break;
	case 'x': a->binary = arg; break;
	case 'L': a->lines = arg; break;
	case 'V': a->vars = arg; break;
	}
	return 0;
}

static int probe_run(int argc, char **argv);

const struct command cmd_probe = {
	.name = "probe",
	.summary = "add, remove or list dynamic probes: u-, k-, f- and eprobes, synthetic events",
	.synopsis = "add|del|list [-B NAME] [-x BINARY] [SPEC...] | -x BINARY -L|-V FUNC",
	.options = probe_options,
	.run = probe_run,
};

static int fail(int err)
{
	cmd_error(&cmd_probe, "%s", ftc_strerror());
	if (err == ENOENT || err == EEXIST)
		return FTC_EXIT_FAIL;
	return control_exit_status(err);
}

/* perf's way: the words of one probe unquoted ("malloc size") make one
 * spec; several quoted specs ("f a" "g b") are one probe each. */
static char *next_spec(int *i, int argc, char **argv)
{
	bool quoted = false;
	char *spec = NULL;
	size_t len = 0;

	for (int j = *i; j < argc; j++)
		quoted |= strpbrk(argv[j], " \t") != NULL;
	if (quoted)
		return strdup(argv[(*i)++]);
	for (; *i < argc; (*i)++) {
		char *more = realloc(spec, len + strlen(argv[*i]) + 2);

		if (!more) {
			free(spec);
			return NULL;
		}
		spec = more;
		len += sprintf(spec + len, "%s%s", len ? " " : "", argv[*i]);
	}
	return spec;
}

static int add_one(struct ftc_state *st, const struct probe_args *a, const char *spec)
{
	struct ftc_probe_spec *ps;
	char *event;

	if (ftc_probe_spec_parse(spec, a->binary, &ps) < 0) {
		cmd_error(&cmd_probe, "%s", ftc_strerror());
		return FTC_EXIT_USAGE;
	}
	ftc_probe_spec_free(ps);
	if (ftc_probe_add(st, spec, a->binary, &event) < 0)
		return fail(errno);
	if (a->instance && ftc_event_enable(st, a->instance, event) < 0) {
		free(event);
		return fail(errno);
	}
	printf("%s\n", event);
	free(event);
	return FTC_EXIT_OK;
}

static int probe_add(const struct probe_args *a, int argc, char **argv)
{
	struct ftc_state *st = ftc_state_new();
	int ret = FTC_EXIT_OK;

	if (!argc) {
		cmd_error(&cmd_probe, "add: no SPEC (e.g. ftc probe add -x ./prog 'func count' or "
			  "ftc probe add ./prog:func)");
		ftc_state_free(st);
		return FTC_EXIT_USAGE;
	}
	if (!st || ftc_state_guard(st, "probe") < 0) {
		ftc_state_free(st);
		return fail(errno);
	}
	for (int i = 0; i < argc && ret == FTC_EXIT_OK;) {
		char *spec = next_spec(&i, argc, argv);

		ret = spec ? add_one(st, a, spec) : fail(ENOMEM);
		free(spec);
	}
	/* all or nothing: one bad spec removes the ones before it */
	if (ret != FTC_EXIT_OK)
		ftc_state_restore(st);
	else
		ftc_state_keep(st);
	ftc_state_free(st);
	return ret;
}

static int disable_one(const char *instance, const char *group, const char *name)
{
	char file[300];

	snprintf(file, sizeof(file), "events/%s/%s/enable", group, name);
	if (!ftc_knob_exists(instance, file))
		return 0;
	return ftc_knob_set(instance, file, "0", false);
}

/* NAME, ftc:NAME or synthetic:ftc_NAME (a bare NAME: either group). */
static int disable_in(const char *instance, const char *glob)
{
	size_t slen = strlen(FTC_SYNTH_GROUP);
	bool synth = !strncmp(glob, FTC_SYNTH_GROUP ":", slen + 1);
	const char *name = synth ? glob + slen + 1 : strncmp(glob, "ftc:", 4) ? glob : glob + 4;

	if (strpbrk(name, "*?["))
		return 0;
	if (!synth && disable_one(instance, FTC_PROBE_GROUP, name) < 0)
		return -1;
	if (name != glob + 4 && !strncmp(name, FTC_SYNTH_PREFIX, strlen(FTC_SYNTH_PREFIX)))
		return disable_one(instance, FTC_SYNTH_GROUP, name);
	return 0;
}

static int probe_del(const struct probe_args *a, int argc, char **argv)
{
	int ret = FTC_EXIT_OK;

	if (!argc) {
		cmd_error(&cmd_probe, "del: name the events (ftc:NAME, synthetic:ftc_NAME, NAME "
			  "or a glob; see ftc probe list)");
		return FTC_EXIT_USAGE;
	}
	for (int i = 0; i < argc; i++) {
		if (a->instance && disable_in(a->instance, argv[i]) < 0) {
			ret = fail(errno);
			continue;
		}
		if (ftc_probe_del(argv[i]) < 0)
			ret = fail(errno);
	}
	return ret;
}

static int probe_list_info(const struct probe_args *a)
{
	const char *func = a->lines ? a->lines : a->vars;
	int ret;

	if (!a->binary) {
		cmd_error(&cmd_probe, "-%c %s: give the binary with -x (kernel functions need "
			  "kernel DWARF, which ftc does not read)", a->lines ? 'L' : 'V', func);
		return FTC_EXIT_USAGE;
	}
	ret = a->lines ? ftc_probe_lines(a->binary, func, stdout) :
			 ftc_probe_vars(a->binary, func, stdout);
	return ret < 0 ? fail(errno) : FTC_EXIT_OK;
}

static int probe_run(int argc, char **argv)
{
	struct probe_args a = { 0 };
	int ret = cmd_options_parse(&cmd_probe, argc, argv, probe_opt, &a);

	if (ret < 0)
		return cmd_options_exit(ret);
	/* checked first, as every command does: a typo changes nothing */
	if (a.instance && !ftc_knob_exists(a.instance, "tracing_on")) {
		cmd_error(&cmd_probe, "instance '%s' does not exist (see `ftc list -B`; ftc start -B "
			  "NAME makes one)", a.instance);
		return FTC_EXIT_REFUSED;
	}
	if (a.lines || a.vars) {
		if (ret < argc || (a.lines && a.vars)) {
			cmd_error(&cmd_probe, "-L and -V take one FUNC and no other words");
			return FTC_EXIT_USAGE;
		}
		return probe_list_info(&a);
	}
	if (ret >= argc) {
		cmd_error(&cmd_probe, "say add, del or list (ftc probe --help)");
		return FTC_EXIT_USAGE;
	}
	if (!strcmp(argv[ret], "add"))
		return probe_add(&a, argc - ret - 1, argv + ret + 1);
	if (!strcmp(argv[ret], "del"))
		return probe_del(&a, argc - ret - 1, argv + ret + 1);
	if (!strcmp(argv[ret], "list") && ret + 1 == argc)
		return ftc_probe_list(stdout) < 0 ? fail(errno) : FTC_EXIT_OK;
	cmd_error(&cmd_probe, "'%s': say add, del or list (list takes no more words)",
		  argv[ret]);
	return FTC_EXIT_USAGE;
}
