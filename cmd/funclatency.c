// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc funclatency: how long a function takes, as perf ftrace latency and
 * bcc's funclatency show it: per function (or function and task) the
 * calls, total, minimum, average and maximum, a log2 histogram with its
 * percentiles and the slowest calls with their times, or a heat map SVG.
 * One pass of the library's function latency analysis (libftc-funclat(3))
 * over function_graph's exits or probe pairs, on a file or live: -T FUNC
 * with -- COMMAND, -a or -p, recorded first (live-record.h) by
 * function_graph where the kernel has it, else a kprobe and kretprobe;
 * BINARY:FUNC by a uprobe and uretprobe.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "input.h"
#include "live-record.h"
#include "funclat-trees.h"
#include "log2-hist.h"
#include "options.h"
#include "output.h"
#include "pass.h"
#include "ftc.h"
#include "ftc-funclat.h"
#include "ftc-heat.h"
#include "ftc-probe.h"

enum { OPT_INSTANCE = 0x100, OPT_PER_TASK, OPT_MIN, OPT_SLOWEST, OPT_JSON, OPT_HEATMAP,
       OPT_PROBES, OPT_SUMMARY, OPT_TREES, OPT_FROM, OPT_TO };

#define MAX_TREES 20

static const struct cmd_option funclatency_options[] = {
	{ 'i', "input", "FILE", "the trace.dat to read (default trace.dat)", 0 },
	{ 0, "instance", "NAME", "read this buffer (default: the first with calls)",
	  OPT_INSTANCE },
	/* perf ftrace latency's letters and names (ftc(1), "for perf users") */
	{ 'T', "trace-funcs", "FUNCTION", "a kernel function, or BINARY:FUNC (live); a glob (file)",
	  0 },
	{ 'a', "all-cpus", NULL, "live: every task until Ctrl-C", 0 },
	{ 'p', "pid", "PID", "live: only this process and its children", 0 },
	{ 0, "probes", NULL, "live: a kprobe and kretprobe even where function_graph is usable",
	  OPT_PROBES },
	{ 0, "per-task", NULL, "a row per function and task", OPT_PER_TASK },
	{ 0, "min", "DURATION", "count only calls that took at least this (100us, 2ms)",
	  OPT_MIN },
	{ 0, "slowest", "N", "the N slowest calls of each function (default 5, at most 16)",
	  OPT_SLOWEST },
	{ 0, "summary", NULL, "a line per function, no histogram", OPT_SUMMARY },
	{ 0, "trees", NULL, "function_graph: each call's tree, if as long as --min (20 at most)",
	  OPT_TREES },
	{ 0, "heatmap", "FILE.svg", "a heat map SVG of the durations over the run", OPT_HEATMAP },
	{ 0, "json", NULL, "JSON instead of a table", OPT_JSON },
	{ 0, "from", "SECONDS", "only the calls made at or after this timestamp", OPT_FROM },
	{ 0, "to", "SECONDS", "only the calls that returned at or before this timestamp", OPT_TO },
	FTC_HELP_OPTION,
	{ 0 }
};

static int funclatency_run(int argc, char **argv);

const struct command cmd_funclatency = {
	.name = "funclatency",
	.summary = "how long a function takes: log2 histogram, slowest calls (perf ftrace latency)",
	.synopsis = "[-i FILE | FILE | -T FUNC [--probes] (-a | -p PID | -- COMMAND)]\n"
		    "                   [--instance NAME] [-T FUNC] [--per-task] [--min DURATION]\n"
		    "                   [--slowest N] [--summary] [--trees] [--heatmap FILE.svg]\n"
		    "                   [--from SECONDS] [--to SECONDS] [--json]",
	.options = funclatency_options,
	.run = funclatency_run,
};

struct fl_view {
	const char *input, *instance, *func, *heatmap;
	bool per_task, summary, json, all, probes, trees;
	int pid;
	uint64_t min_ns;
	unsigned int slowest;
	struct ftc_heat *heat;
	struct cmd_window win;		/* --from, --to */
	struct ftc_reader *r;
	char **live_argv;
	struct live_rec live;
};

/* "100us", "2ms", "1.5s", "250ns"; a bare number is microseconds, as perf's. */
static int parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e3 },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v >= 0) || v > 1e12)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*ns = (uint64_t)(v * units[i].ns);
			return 0;
		}
	return -1;
}

static int funclatency_opt(int id, const char *arg, void *ctx)
{
	struct fl_view *v = ctx;
	unsigned long long n;

	switch (id) {
	case 'i': v->input = arg; break;
	case OPT_INSTANCE: v->instance = arg; break;
	case 'T': v->func = arg; break;
	case 'a': v->all = true; break;
	case 'p':
		if (cmd_parse_u64(arg, &n) < 0 || !n || n > 4194304)
			return cmd_bad_value("not a pid");
		v->pid = (int)n;
		break;
	case OPT_PER_TASK: v->per_task = true; break;
	case OPT_PROBES: v->probes = true; break;
	case OPT_MIN:
		if (parse_duration(arg, &v->min_ns) < 0)
			return cmd_bad_value("say a duration: 250ns, 100us, 2ms, 1.5s");
		break;
	case OPT_SLOWEST:
		if (cmd_parse_u64(arg, &n) < 0 || !n || n > FTC_FUNCLAT_SLOWEST)
			return cmd_bad_value("say 1 to %d", FTC_FUNCLAT_SLOWEST);
		v->slowest = (unsigned int)n;
		break;
	case OPT_SUMMARY: v->summary = true; break;
	case OPT_TREES: v->trees = true; break;
	case OPT_HEATMAP: v->heatmap = arg; break;
	case OPT_JSON: v->json = true; break;
	case OPT_FROM:
	case OPT_TO: return cmd_window_opt(&v->win, id == OPT_FROM, arg);
	}
	return 0;
}

/* ---- printing ---- */

static void on_call(const struct ftc_funclat_call *c, void *ctx)
{
	struct fl_view *v = ctx;

	if (v->heat)
		ftc_heat_add(v->heat, c->start, c->ns);
}

static const char *task_name(const struct fl_view *v, int pid)
{
	const char *comm = tep_data_comm_from_pid(ftc_reader_tep(v->r), pid);

	return comm ? comm : "<...>";
}

/* A duration in the unit that keeps it short: "812.345 us", "2.961 ms", "1.230 s". */
static const char *dur(uint64_t ns, char *buf, size_t size)
{
	if (ns < 1000000)
		snprintf(buf, size, "%.3f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, size, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, size, "%.3f s", (double)ns / 1e9);
	return buf;
}

static void stat_title(const struct fl_view *v, const struct ftc_funclat_stat *s)
{
	char tot[24], lo[24], avg[24], hi[24];

	printf("# %s", s->func);
	if (v->per_task)
		printf(" in %s-%d", task_name(v, s->pid), s->pid);
	printf(": %llu call%s, total %s, min %s, avg %s, max %s\n", (unsigned long long)s->count,
	       s->count == 1 ? "" : "s", dur(s->total_ns, tot, sizeof(tot)),
	       dur(s->min_ns, lo, sizeof(lo)), dur(s->total_ns / s->count, avg, sizeof(avg)),
	       dur(s->max_ns, hi, sizeof(hi)));
}

static void stat_print(const struct fl_view *v, const struct ftc_funclat_stat *s)
{
	char p[3][24], d[24];
	static const double pct[3] = { 50, 90, 99 };

	stat_title(v, s);
	if (v->summary)
		return;
	cmd_log2_hist(s->hist, FTC_FUNCLAT_BUCKETS, 1);
	for (int i = 0; i < 3; i++)
		dur(ftc_heat_percentile(s->hist, s->count, s->max_ns, pct[i]), p[i], sizeof(p[i]));
	printf("p50 %s, p90 %s, p99 %s (log2 buckets' tops)\n", p[0], p[1], p[2]);
	printf("slowest:\n");
	for (size_t i = 0; i < s->nslow; i++)
		printf("  %.6f  %s-%d  %s\n", (double)s->slow[i].start / 1e9,
		       task_name(v, s->slow[i].pid), s->slow[i].pid, dur(s->slow[i].ns, d, sizeof(d)));
	printf("\n");
}

static void stat_json(const struct fl_view *v, const struct ftc_funclat_stat *s)
{
	printf("{\"func\":");
	cmd_json_string(stdout, s->func);
	if (v->per_task) {
		printf(",\"pid\":%d,\"comm\":", s->pid);
		cmd_json_string(stdout, task_name(v, s->pid));
	}
	printf(",\"calls\":%llu,\"total_ns\":%llu,\"min_ns\":%llu,\"max_ns\":%llu,"
	       "\"p50_ns\":%llu,\"p90_ns\":%llu,\"p99_ns\":%llu,\"hist\":[",
	       (unsigned long long)s->count, (unsigned long long)s->total_ns,
	       (unsigned long long)s->min_ns, (unsigned long long)s->max_ns,
	       (unsigned long long)ftc_heat_percentile(s->hist, s->count, s->max_ns, 50),
	       (unsigned long long)ftc_heat_percentile(s->hist, s->count, s->max_ns, 90),
	       (unsigned long long)ftc_heat_percentile(s->hist, s->count, s->max_ns, 99));
	for (int b = 0; b < FTC_FUNCLAT_BUCKETS; b++)
		printf("%s%llu", b ? "," : "", (unsigned long long)s->hist[b]);
	printf("],\"slowest\":[");
	for (size_t i = 0; i < s->nslow; i++)
		printf("%s{\"start_ns\":%llu,\"ns\":%llu,\"pid\":%d}", i ? "," : "",
		       (unsigned long long)s->slow[i].start, (unsigned long long)s->slow[i].ns,
		       s->slow[i].pid);
	printf("]}");
}

/* The functions by total time, the longest first. */
static int by_total(const void *a, const void *b)
{
	const struct ftc_funclat_stat *x = *(const struct ftc_funclat_stat *const *)a;
	const struct ftc_funclat_stat *y = *(const struct ftc_funclat_stat *const *)b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return strcmp(x->func, y->func);
}

static int print_stats(const struct fl_view *v, const struct ftc_funclat *f)
{
	size_t n = ftc_funclat_nstats(f);
	const struct ftc_funclat_stat **s = calloc(n + 1, sizeof(*s));

	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++)
		s[i] = ftc_funclat_stat_at(f, i);
	qsort(s, n, sizeof(*s), by_total);
	if (v->json) {
		printf("{\"file\":");
		cmd_json_string(stdout, v->input);
		printf(",\"lost_events\":%llu,\"unmatched\":%llu,\"functions\":[",
		       (unsigned long long)ftc_funclat_lost(f),
		       (unsigned long long)ftc_funclat_unmatched(f));
	}
	for (size_t i = 0; i < n && !cmd_output_failed(); i++) {
		if (v->json) {
			printf(i ? "," : "");
			stat_json(v, s[i]);
		} else {
			stat_print(v, s[i]);
		}
	}
	if (v->json)
		printf("]}\n");
	free(s);
	return 0;
}

/* ---- the pass ---- */

struct fl_pass {
	struct ftc_funclat *f;
	struct fl_trees *trees;		/* --trees */
};

static int funclat_add(void *pass, const struct ftc_merge_record *mr)
{
	struct fl_pass *p = pass;

	if (p->trees && fl_trees_add(p->trees, mr) < 0)
		return -1;
	return ftc_funclat_add(p->f, mr);
}

static int no_calls(const struct fl_view *v, struct ftc_funclat *f)
{
	if (cmd_window_empty(&cmd_funclatency, &v->win, v->input, "call"))
		return FTC_EXIT_REFUSED;
	if (ftc_funclat_sources(f)) {
		fprintf(stderr, "ftc funclatency: %s: no call of %s%s\n", v->input,
			v->func ? v->func : "any function",
			v->min_ns ? " as long as --min" : "");
		return FTC_EXIT_OK;
	}
	if (ftc_funclat_has_probes(f)) {
		fprintf(stderr, "ftc funclatency: %s: the return probes were recorded and no "
			"call returned%s\n", v->input, v->instance ? " in that instance" : "");
		return FTC_EXIT_OK;
	}
	cmd_error(&cmd_funclatency, "%s holds no funcgraph_exit record (function_graph) and no "
		  "return probe (kretprobe, fprobe exit, uretprobe): record -p function_graph "
		  "-g FUNC, or --probe 'FUNC' --probe 'FUNC%%return' (ftc funclatency --help)",
		  v->input);
	return FTC_EXIT_REFUSED;
}

static void notes(const struct ftc_funclat *f)
{
	if (ftc_funclat_unmatched(f) || ftc_funclat_open_calls(f))
		fprintf(stderr, "ftc funclatency: %llu returns without their entry (before the "
			"capture), %llu calls still open at its end: not counted\n",
			(unsigned long long)ftc_funclat_unmatched(f),
			(unsigned long long)ftc_funclat_open_calls(f));
	if (ftc_funclat_lost(f))
		fprintf(stderr, "ftc funclatency: %llu events were lost: the counts are short\n",
			(unsigned long long)ftc_funclat_lost(f));
}

static int write_heat(const struct fl_view *v)
{
	char title[200];
	FILE *out = cmd_output_open(&cmd_funclatency, v->heatmap);

	if (!out)
		return -1;
	snprintf(title, sizeof(title), "Duration of %s in %s: %llu calls",
		 v->func ? v->func : "the functions", v->input,
		 (unsigned long long)ftc_heat_count(v->heat));
	ftc_heat_svg(out, v->heat, title);
	return cmd_output_close(&cmd_funclatency, out, v->heatmap);
}

static int view_run(void *view, struct ftc_reader *r, const char *input)
{
	struct fl_view *v = view;
	struct ftc_funclat_opts o = FTC_OPTS_INIT(ftc_funclat_opts, .instance = v->instance,
						  .func = v->func, .per_task = v->per_task,
						  .slowest = v->slowest, .min_ns = v->min_ns,
						  .on_call = on_call, .ctx = v);
	struct ftc_funclat *f;
	struct fl_pass pass = { NULL, NULL };
	int status = FTC_EXIT_OK;

	v->r = r;
	v->input = input;
	f = pass.f = ftc_funclat_new(r, &o);
	if (!f || (v->heatmap && !(v->heat = ftc_heat_new(0, 0))) ||
	    (v->trees && !(pass.trees = fl_trees_new(v->r, v->func, v->min_ns, MAX_TREES)))) {
		cmd_error(&cmd_funclatency, "%s: %s", v->input, f ? "out of memory" : ftc_strerror());
		status = FTC_EXIT_FAIL;
		goto out;
	}
	if (cmd_pass(v->r, funclat_add, &pass, &v->win) < 0) {
		cmd_error(&cmd_funclatency, "%s", ftc_strerror());
		status = FTC_EXIT_FAIL;
		goto out;
	}
	if (!ftc_funclat_nstats(f)) {
		status = no_calls(v, f);
		goto out;
	}
	notes(f);
	if (pass.trees && fl_trees_skipped(pass.trees))
		fprintf(stderr, "ftc funclatency: %u more calls as long as --min: their trees are not "
			"printed (narrow with -T or a larger --min)\n", fl_trees_skipped(pass.trees));
	if (pass.trees && !fl_trees_printed(pass.trees) && !(ftc_funclat_sources(f) &
							      FTC_FUNCLAT_GRAPH))
		fprintf(stderr, "ftc funclatency: --trees: %s has no function_graph records: probe "
			"pairs have no tree\n", v->input);
	if (print_stats(v, f) < 0) {
		cmd_error(&cmd_funclatency, "out of memory");
		status = FTC_EXIT_FAIL;
	}
	if (!status && v->heat && write_heat(v) < 0)
		status = FTC_EXIT_FAIL;
out:
	fl_trees_free(pass.trees);
	ftc_heat_free(v->heat);
	ftc_funclat_free(f);
	return status;
}

/* ---- live ---- */

extern const struct command cmd_record;

/* An entry and a return probe of -T's function. */
static int probe_args(struct fl_view *v, const char **args, int *n, char *ret, size_t size)
{
	snprintf(ret, size, "%s%%return", v->func);
	args[(*n)++] = "--probe";
	args[(*n)++] = v->func;
	args[(*n)++] = "--probe";
	args[(*n)++] = ret;
	v->func = NULL;	/* the file holds that function's calls alone */
	return 0;
}

/*
 * What records -T's calls: a user function (BINARY:FUNC) by a uprobe pair;
 * a kernel one by function_graph one call deep (as perf ftrace latency),
 * else (or with --probes) by a kprobe pair. args gets the record options;
 * 0, or an exit status.
 */
static int live_args(struct fl_view *v, const char **args, int *n, char *ret, size_t size)
{
	struct ftc_cap graph = { 0 }, kprobes = { 0 };

	if (strchr(v->func, ':'))
		return probe_args(v, args, n, ret, size);
	if (v->probes || !live_cap_ok(FTC_CAP_TRACER_FUNCTION_GRAPH, &graph)) {
		if (!live_cap_ok(FTC_CAP_KPROBES, &kprobes)) {
			cmd_error(&cmd_funclatency, "cannot time %s: this kernel lacks or refuses "
				  "function_graph (%s) and kprobes (%s); a user function, -T "
				  "BINARY:FUNC, is timed by uprobes", v->func,
				  v->probes ? "not tried: --probes" : graph.why, kprobes.why);
			return FTC_EXIT_REFUSED;
		}
		return probe_args(v, args, n, ret, size);
	}
	/* the graph tracer is the top level's alone before 6.x, as perf ftrace uses it */
	v->live.top_level = true;
	args[(*n)++] = "-p";
	args[(*n)++] = "function_graph";
	args[(*n)++] = "-g";
	args[(*n)++] = v->func;
	if (!v->trees) {	/* the call alone; --trees wants all it calls */
		args[(*n)++] = "--max-graph-depth";
		args[(*n)++] = "1";
	}
	return 0;
}

static int live(struct fl_view *v)
{
	struct live_target t = { .argv = v->live_argv, .pid = v->pid, .all = v->all };
	char pid[16], ret[512];
	const char *args[12];
	int n = 0, status;

	status = live_args(v, args, &n, ret, sizeof(ret));
	if (status)
		return status;
	n += live_follow_args(&t, args + n, pid, sizeof(pid));
	return live_view(&cmd_funclatency, &t, args, n, &v->live, &v->input, view_run, v);
}

static const char *check_words(struct fl_view *v, int argc, char **argv, int first)
{
	bool live = v->all || v->pid || v->live_argv;

	if (argc - first > 1 || (first < argc && v->input))
		return "one file only";
	if (first < argc)
		v->input = argv[first];
	if (live && (v->input || v->instance))
		return "a file is read, or -a, -p and -- COMMAND record one: not both";
	if ((v->all && v->live_argv) || (v->pid && v->live_argv))
		return "-a, -p or -- COMMAND: one of them";
	if (v->probes && !live)
		return "--probes goes with -a, -p or -- COMMAND";
	if (v->trees && (v->probes || (v->func && live && strchr(v->func, ':'))))
		return "--trees needs function_graph: not with --probes or BINARY:FUNC";
	if (v->trees && v->json)
		return "--trees prints text: not with --json";
	if (live && !v->func)
		return "say which function to time: -T FUNC (a kernel function) or -T BINARY:FUNC";
	if (v->json && (v->summary || v->heatmap))
		return "--json is the whole answer: not with --summary or --heatmap";
	return NULL;
}

static int funclatency_run(int argc, char **argv)
{
	struct fl_view v = { 0 };
	const char *why;
	int ret;

	argc = live_split(argc, argv, &v.live_argv);
	ret = cmd_options_parse(&cmd_funclatency, argc, argv, funclatency_opt, &v);
	if (ret < 0)
		return cmd_options_exit(ret);
	why = check_words(&v, argc, argv, ret);
	if (why) {
		cmd_error(&cmd_funclatency, "%s (see 'ftc funclatency --help')", why);
		return FTC_EXIT_USAGE;
	}
	if (cmd_window_check(&cmd_funclatency, &v.win) < 0)
		return FTC_EXIT_USAGE;
	if (!v.all && !v.pid && !v.live_argv)
		return cmd_input_view(&cmd_funclatency, &v.input, view_run, &v);
	return live(&v);
}
