// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc sched: the scheduling answers of a trace.dat, from one pass of the
 * library's scheduling analysis (libftc-sched(3)): per task run time,
 * switches, delays, sleep and block time (latency, as perf sched latency
 * and trace-cmd report --profile), one line per stretch on a CPU
 * (timehist, as perf sched timehist), and off-CPU time by kernel stack
 * (offcpu: a table, folded stacks or a flame graph), the delays' log2
 * histogram and heat map (hist), and what each CPU runs (map, as perf
 * sched map).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "live-record.h"
#include "options.h"
#include "output.h"
#include "sched-print.h"
#include "ftc.h"
#include "ftc-heat.h"

enum {
	OPT_JSON = 0x100, OPT_FOLDED, OPT_FLAME, OPT_LIMIT, OPT_COMM, OPT_INSTANCE, OPT_PER_TASK,
	OPT_HEATMAP, OPT_DURATION, OPT_FROM, OPT_TO,
};

static const struct cmd_option sched_options[] = {
	{ 'i', "input", "FILE", "the trace.dat to read (default trace.dat)", 0 },
	/* perf's letters (ftc(1), "for perf users"): -B is perf stat's --big-num */
	{ 0, "instance", "NAME", "read this buffer (default: the first with sched events)",
	  OPT_INSTANCE },
	{ 'p', "pid", "PID", "only this task", 0 },
	{ 0, "comm", "NAME", "only tasks of this name", OPT_COMM },
	{ 's', "sort", "KEY", "latency's order: run, switches, delay, max, sleep, block, pid, comm",
	  0 },
	{ 0, "limit", "N", "latency, offcpu: print at most N rows", OPT_LIMIT },
	{ 0, "json", NULL, "latency: JSON instead of a table", OPT_JSON },
	{ 0, "folded", NULL, "offcpu: folded stacks weighted in microseconds", OPT_FOLDED },
	{ 0, "flamegraph", "FILE.svg", "offcpu: an SVG flame graph of the off-CPU time", OPT_FLAME },
	{ 0, "per-task", NULL, "hist: a histogram per task too", OPT_PER_TASK },
	{ 0, "heatmap", "FILE.svg", "hist: a heat map SVG of the delays over the run", OPT_HEATMAP },
	{ 0, "from", "SECONDS", "only the records at or after this timestamp", OPT_FROM },
	{ 0, "to", "SECONDS", "only the records at or before this timestamp", OPT_TO },
	{ 'a', "all-cpus", NULL, "live: record every task (until Ctrl-C, or while -- COMMAND runs)",
	  0 },
	{ 0, "duration", "SECS", "live: stop recording after SECS seconds", OPT_DURATION },
	FTC_HELP_OPTION,
	{ 0 }
};

static int sched_run(int argc, char **argv);
extern const struct command cmd_sched_record;

const struct command cmd_sched = {
	.name = "sched",
	.summary = "scheduling answers: latency per task, timehist, off-CPU stacks, delays, CPU map",
	.synopsis = "[latency|timehist|offcpu|hist|map] [-i FILE | FILE | -a | -- COMMAND]\n"
		    "                   [--instance NAME] [-p PID] [--comm NAME] [-s KEY] [--limit N]\n"
		    "                   [--json | --folded | --flamegraph FILE.svg] [--per-task]\n"
		    "                   [--heatmap FILE.svg] [--from SECONDS] [--to SECONDS]\n"
		    "                   [--duration SECS]\n"
		    "       ftc sched record [record's options] [[--] COMMAND [ARGS]]",
	.options = sched_options,
	.run = sched_run,
};

static int sched_opt(int id, const char *arg, void *ctx)
{
	struct sched_print *p = ctx;
	unsigned long long v;

	switch (id) {
	case 'i': p->input = arg; break;
	case OPT_INSTANCE: p->instance = arg; break;
	case 'p':
		if (cmd_parse_u64(arg, &v) < 0 || !v || v > 4194304)
			return cmd_bad_value("not a pid");
		p->pid = (int)v;
		break;
	case OPT_COMM: p->comm = arg; break;
	case 's':
		if (sched_print_sort_key(arg, &p->sort) < 0)
			return cmd_bad_value("sort by run, switches, delay, max, sleep, block, pid "
					     "or comm");
		break;
	case OPT_LIMIT:
		if (cmd_parse_u64(arg, &v) < 0)
			return cmd_bad_value("not a number of rows");
		p->limit = v;
		break;
	case OPT_JSON: p->json = true; break;
	case OPT_FOLDED: p->folded = true; break;
	case OPT_FLAME: p->flame = arg; break;
	case OPT_PER_TASK: p->per_task = true; break;
	case OPT_HEATMAP: p->heatmap = arg; break;
	case 'a': p->all = true; break;
	case OPT_DURATION: return live_duration_opt(&p->duration, arg);
	case OPT_FROM:
	case OPT_TO: return cmd_window_opt(&p->win, id == OPT_FROM, arg);
	}
	return 0;
}

/* Which options go with the view: the rest would be ignored without a word. */
static const char *check_view(const struct sched_print *p)
{
	if (p->view != SCHED_OFFCPU && (p->folded || p->flame))
		return "--folded and --flamegraph go with offcpu";
	if (p->view != SCHED_HIST && (p->per_task || p->heatmap))
		return "--per-task and --heatmap go with hist";
	if (p->view == SCHED_HIST && (p->sort != SCHED_SORT_DEFAULT || p->limit))
		return "hist prints the buckets in order: no --sort or --limit";
	if (p->view != SCHED_LATENCY && p->json)
		return "--json goes with latency (offcpu has --folded)";
	if (p->view == SCHED_TIMEHIST && (p->sort != SCHED_SORT_DEFAULT || p->limit))
		return "timehist prints every stretch in time order: no --sort or --limit";
	if (p->view == SCHED_MAP && (p->sort != SCHED_SORT_DEFAULT || p->limit))
		return "map prints every switch in time order: no --sort or --limit";
	if (p->view == SCHED_OFFCPU && p->sort != SCHED_SORT_DEFAULT)
		return "offcpu sorts by time: no --sort";
	return NULL;
}

/* A word that is no view and has no '.' or '/' is a misspelt view, not a file. */
static bool looks_like_file(const char *w)
{
	return strchr(w, '.') || strchr(w, '/') || !strcmp(w, "-");
}

/* [VIEW] [FILE]: the view is latency unless named. */
static int parse_words(struct sched_print *p, int argc, char **argv, int first)
{
	static const char *const views[SCHED_NVIEWS] = { "latency", "timehist", "offcpu", "hist",
							  "map" };
	bool named = false;

	p->view = SCHED_LATENCY;
	for (int v = 0; first < argc && v < SCHED_NVIEWS && !named; v++)
		if (!strcmp(argv[first], views[v])) {
			p->view = v;
			named = true;
			first++;
		}
	if (argc - first > 1 || (first < argc && !named && !looks_like_file(argv[first]))) {
		cmd_error(&cmd_sched, "'%s': say latency, timehist, offcpu, hist or map, then the "
			  "file (ftc sched --help)", argv[first]);
		return -1;
	}
	if (first < argc && p->input) {
		cmd_error(&cmd_sched, "two files: '%s' and -i %s", argv[first], p->input);
		return -1;
	}
	if (first < argc)
		p->input = argv[first];
	return 0;
}

/* Live: a file is not read but recorded, so none may be named. */
static const char *check_live(const struct sched_print *p)
{
	bool live = p->all || p->live_argv;

	if (live && p->input)
		return "a file is read, or -a and -- COMMAND record one: not both";
	if (live && p->instance)
		return "--instance reads a file's instance; live, ftc sched records its own";
	if (p->duration && !live)
		return "--duration goes with -a or -- COMMAND";
	return NULL;
}

static int read_file(struct sched_print *p)
{
	char stdin_path[64];
	int status;

	p->r = cmd_input_open(&cmd_sched, &p->input, true, stdin_path, sizeof(stdin_path));
	if (!p->r)
		return FTC_EXIT_FAIL;
	status = sched_print_run(&cmd_sched, p);
	ftc_heat_free(p->heat);
	sched_map_free(p->map);
	ftc_reader_close(p->r);
	return status;
}

static int sched_run(int argc, char **argv)
{
	struct sched_print p = { .sort = SCHED_SORT_DEFAULT };
	const char *why;
	int ret, status;

	if (argc > 1 && !strcmp(argv[1], "record"))
		return cmd_sched_record.run(argc - 1, argv + 1);
	argc = live_split(argc, argv, &p.live_argv);
	ret = cmd_options_parse(&cmd_sched, argc, argv, sched_opt, &p);
	if (ret < 0)
		return cmd_options_exit(ret);
	if (parse_words(&p, argc, argv, ret) < 0)
		return FTC_EXIT_USAGE;
	why = check_view(&p);
	if (!why)
		why = check_live(&p);
	if (why) {
		cmd_error(&cmd_sched, "%s (see 'ftc sched --help')", why);
		return FTC_EXIT_USAGE;
	}
	if (cmd_window_check(&cmd_sched, &p.win) < 0)
		return FTC_EXIT_USAGE;
	if (!p.all && !p.live_argv)
		return read_file(&p);
	status = sched_live_record(&p);
	if (!status)
		status = read_file(&p);
	sched_live_clean(&p);
	return status ? status : p.live.status;
}
