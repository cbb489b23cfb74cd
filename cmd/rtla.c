// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc rtla: what rtla's timerlat top/hist and osnoise top show, from a
 * trace.dat recorded with the timerlat or osnoise tracer (ftc record -p
 * timerlat), or live (-- COMMAND, -a). One pass of the library's
 * real-time latency analysis (libftc-rtla(3)).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "live-record.h"
#include "log2-hist.h"
#include "options.h"
#include "output.h"
#include "pass.h"
#include "ftc.h"
#include "ftc-rtla.h"

/* rtla's letters are its own (-a is its auto analysis): ftc rtla's options are long */
enum { OPT_INSTANCE = 0x100, OPT_JSON, OPT_HIST, OPT_DURATION, OPT_FROM, OPT_TO, OPT_ALL };

static const struct cmd_option rtla_options[] = {
	{ 'i', "input", "FILE", "the trace.dat to read (default trace.dat)", 0 },
	{ 0, "instance", "NAME", "read this buffer (default: the first with their records)", OPT_INSTANCE },
	{ 0, "hist", NULL, "timerlat: each CPU's latencies as a log2 histogram",
	  OPT_HIST },
	{ 0, "from", "SECONDS", "only records at or after this timestamp", OPT_FROM },
	{ 0, "to", "SECONDS", "only records at or before this timestamp", OPT_TO },
	{ 0, "all-cpus", NULL, "live: trace every CPU until Ctrl-C (or --duration)", OPT_ALL },
	{ 0, "duration", "SECS", "live: stop after SECS seconds", OPT_DURATION },
	{ 0, "json", NULL, "JSON instead of a table", OPT_JSON },
	FTC_HELP_OPTION,
	{ 0 }
};

static int rtla_run(int argc, char **argv);

const struct command cmd_rtla = {
	.name = "rtla",
	.summary = "timerlat and osnoise per CPU: timer latency, OS noise and its sources (rtla)",
	.synopsis = "[timerlat|osnoise] [-i FILE | FILE | --all-cpus | -- COMMAND] [--instance NAME]\n"
		    "                   [--hist] [--from SECONDS] [--to SECONDS] [--duration SECS]\n"
		    "                   [--json]",
	.options = rtla_options,
	.run = rtla_run,
};

struct rt_view {
	const char *input, *instance;
	bool osnoise, json, hist;
	struct cmd_window win;
	struct live_target live;
	struct live_rec rec;
};

static int rtla_opt(int id, const char *arg, void *ctx)
{
	struct rt_view *v = ctx;

	switch (id) {
	case 'i': v->input = arg; break;
	case OPT_INSTANCE: v->instance = arg; break;
	case OPT_HIST: v->hist = true; break;
	case OPT_JSON: v->json = true; break;
	case OPT_FROM:
	case OPT_TO: return cmd_window_opt(&v->win, id == OPT_FROM, arg);
	case OPT_ALL: v->live.all = true; break;
	case OPT_DURATION: return live_duration_opt(&v->live.duration, arg);
	}
	return 0;
}

/* ---- timerlat ---- */

static void latency_json(const struct ftc_rtla_latency *l)
{
	printf("{\"count\":%llu,\"min_ns\":%llu,\"avg_ns\":%llu,\"max_ns\":%llu,\"max_at_ns\":%llu,"
	       "\"buckets_us_log2\":[", (unsigned long long)l->count,
	       (unsigned long long)l->min_ns,
	       (unsigned long long)(l->count ? l->sum_ns / l->count : 0),
	       (unsigned long long)l->max_ns, (unsigned long long)l->max_at);
	for (int b = 0; b < FTC_RTLA_BUCKETS; b++)
		printf("%s%llu", b ? "," : "", (unsigned long long)l->buckets[b]);
	printf("]}");
}

static void timerlat_row(const struct ftc_rtla_cpu *c, int ctx)
{
	const struct ftc_rtla_latency *l = &c->timerlat[ctx];

	printf("  %4d %-7s %9llu %10.3f %10.3f %10.3f %16.6f\n", c->cpu,
	       ftc_rtla_context_name(ctx), (unsigned long long)l->count, (double)l->min_ns / 1e3,
	       (double)l->sum_ns / (double)l->count / 1e3, (double)l->max_ns / 1e3,
	       (double)l->max_at / 1e9);
}

static void print_timerlat(const struct rt_view *v, const struct ftc_rtla *t)
{
	size_t n = ftc_rtla_ncpus(t);

	if (v->json) {
		printf("\"timerlat\":[");
		for (size_t i = 0; i < n; i++) {
			const struct ftc_rtla_cpu *c = ftc_rtla_cpu_at(t, i);

			printf("%s{\"cpu\":%d", i ? "," : "", c->cpu);
			for (int x = 0; x < FTC_RTLA_NCONTEXTS; x++)
				if (c->timerlat[x].count) {
					printf(",\"%s\":", ftc_rtla_context_name(x));
					latency_json(&c->timerlat[x]);
				}
			printf("}");
		}
		printf("]");
		return;
	}
	printf("  %4s %-7s %9s %10s %10s %10s %16s\n", "CPU", "CONTEXT", "COUNT", "MIN us",
	       "AVG us", "MAX us", "MAX AT");
	for (size_t i = 0; i < n && !cmd_output_failed(); i++)
		for (int x = 0; x < FTC_RTLA_NCONTEXTS; x++)
			if (ftc_rtla_cpu_at(t, i)->timerlat[x].count)
				timerlat_row(ftc_rtla_cpu_at(t, i), x);
	for (size_t i = 0; v->hist && i < n && !cmd_output_failed(); i++)
		for (int x = 0; x < FTC_RTLA_NCONTEXTS; x++) {
			const struct ftc_rtla_cpu *c = ftc_rtla_cpu_at(t, i);

			if (!c->timerlat[x].count)
				continue;
			printf("\ncpu %d, %s latency:\n", c->cpu, ftc_rtla_context_name(x));
			cmd_log2_hist(c->timerlat[x].buckets, FTC_RTLA_BUCKETS, 1000);
		}
}

/* ---- osnoise ---- */

static double avail(const struct ftc_rtla_cpu *c)
{
	if (!c->runtime_us)
		return 100.0;
	return 100.0 - 100.0 * (double)c->noise_us / (double)c->runtime_us;
}

static void print_osnoise(const struct rt_view *v, const struct ftc_rtla *t)
{
	size_t n = ftc_rtla_ncpus(t);

	if (v->json) {
		printf("\"osnoise\":[");
		for (size_t i = 0; i < n; i++) {
			const struct ftc_rtla_cpu *c = ftc_rtla_cpu_at(t, i);

			printf("%s{\"cpu\":%d,\"periods\":%llu,\"runtime_us\":%llu,\"noise_us\":%llu,"
			       "\"available_pct\":%.5f,\"max_noise_us\":%llu,\"max_single_us\":%llu,"
			       "\"hw\":%llu,\"nmi\":%llu,\"irq\":%llu,\"softirq\":%llu,\"thread\":%llu}",
			       i ? "," : "", c->cpu, (unsigned long long)c->periods,
			       (unsigned long long)c->runtime_us, (unsigned long long)c->noise_us,
			       avail(c), (unsigned long long)c->max_noise_us,
			       (unsigned long long)c->max_single_us, (unsigned long long)c->hw,
			       (unsigned long long)c->nmi, (unsigned long long)c->irq,
			       (unsigned long long)c->softirq, (unsigned long long)c->thread);
		}
		printf("]");
		return;
	}
	printf("  %4s %8s %12s %10s %9s %10s %10s %6s %6s %8s %8s %8s\n", "CPU", "PERIODS",
	       "RUNTIME us", "NOISE us", "% AVAIL", "MAX NOISE", "MAX SINGLE", "HW", "NMI", "IRQ",
	       "SOFTIRQ", "THREAD");
	for (size_t i = 0; i < n && !cmd_output_failed(); i++) {
		const struct ftc_rtla_cpu *c = ftc_rtla_cpu_at(t, i);

		if (!c->periods)
			continue;
		printf("  %4d %8llu %12llu %10llu %9.5f %10llu %10llu %6llu %6llu %8llu %8llu %8llu\n",
		       c->cpu, (unsigned long long)c->periods, (unsigned long long)c->runtime_us,
		       (unsigned long long)c->noise_us, avail(c),
		       (unsigned long long)c->max_noise_us, (unsigned long long)c->max_single_us,
		       (unsigned long long)c->hw, (unsigned long long)c->nmi,
		       (unsigned long long)c->irq, (unsigned long long)c->softirq,
		       (unsigned long long)c->thread);
	}
}

static void print_sources(const struct rt_view *v, const struct ftc_rtla *t)
{
	size_t n = ftc_rtla_nsources(t);

	if (v->json) {
		printf(",\"sources\":[");
		for (size_t i = 0; i < n; i++) {
			const struct ftc_rtla_source *s = ftc_rtla_source_at(t, i);

			printf("%s{\"cpu\":%d,\"kind\":\"%s\",\"id\":%llu,\"name\":", i ? "," : "",
			       s->cpu, ftc_rtla_source_kind_name(s->kind), (unsigned long long)s->id);
			cmd_json_string(stdout, s->name ? s->name : "");
			printf(",\"count\":%llu,\"total_ns\":%llu,\"max_ns\":%llu}",
			       (unsigned long long)s->count, (unsigned long long)s->total_ns,
			       (unsigned long long)s->max_ns);
		}
		printf("]");
		return;
	}
	if (!n)
		return;
	printf("\n  %4s %-8s %-24s %9s %11s %10s\n", "CPU", "SOURCE", "NAME", "COUNT", "TOTAL us",
	       "MAX us");
	for (size_t i = 0; i < n && !cmd_output_failed(); i++) {
		const struct ftc_rtla_source *s = ftc_rtla_source_at(t, i);
		char id[32];

		snprintf(id, sizeof(id), "%llu", (unsigned long long)s->id);
		printf("  %4d %-8s %-24s %9llu %11.3f %10.3f\n", s->cpu,
		       ftc_rtla_source_kind_name(s->kind), s->name ? s->name : id,
		       (unsigned long long)s->count, (double)s->total_ns / 1e3,
		       (double)s->max_ns / 1e3);
	}
}

/* ---- the pass ---- */

static int rtla_add(void *t, const struct ftc_merge_record *mr)
{
	return ftc_rtla_add(t, mr);
}

static int notes(const struct rt_view *v, const struct ftc_rtla *t)
{
	const char *what = v->osnoise ? "osnoise" : "timerlat";
	uint64_t n = v->osnoise ? ftc_rtla_osnoise_records(t) : ftc_rtla_timerlat_records(t);

	if (!n && cmd_window_empty(&cmd_rtla, &v->win, v->input, what))
		return FTC_EXIT_REFUSED;
	if (!n) {
		cmd_error(&cmd_rtla, "%s has no %s record%s%s: record with -p %s (ftc rtla --help)",
			  v->input, what, v->instance ? " in instance " : "",
			  v->instance ? v->instance : "", what);
		return FTC_EXIT_REFUSED;
	}
	if (ftc_rtla_lost(t))
		fprintf(stderr, "ftc rtla: %llu events were lost: the counts are short\n",
			(unsigned long long)ftc_rtla_lost(t));
	return FTC_EXIT_OK;
}

static int view_run(void *view, struct ftc_reader *r, const char *input)
{
	struct rt_view *v = view;
	struct ftc_rtla_opts o = FTC_OPTS_INIT(ftc_rtla_opts, .instance = v->instance);
	struct ftc_rtla *t;
	int status;

	v->input = input;
	t = ftc_rtla_new(r, &o);
	if (!t) {
		cmd_error(&cmd_rtla, "%s: %s", v->input, ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	if (cmd_pass(r, rtla_add, t, &v->win) < 0) {
		cmd_error(&cmd_rtla, "%s", ftc_strerror());
		ftc_rtla_free(t);
		return FTC_EXIT_FAIL;
	}
	status = notes(v, t);
	if (!status) {
		if (v->json) {
			printf("{\"file\":");
			cmd_json_string(stdout, v->input);
			printf(",\"lost_events\":%llu,", (unsigned long long)ftc_rtla_lost(t));
		}
		if (v->osnoise) {
			print_osnoise(v, t);
			print_sources(v, t);
		} else {
			print_timerlat(v, t);
		}
		if (v->json)
			printf("}\n");
	}
	ftc_rtla_free(t);
	return status;
}

/* [timerlat|osnoise] [FILE] */
static const char *parse_words(struct rt_view *v, int argc, char **argv, int first)
{
	static const char *const views[] = { "timerlat", "osnoise" };
	int view = 0;
	const char *why = cmd_view_words(argc, argv, first, views, 2, &view, &v->input);

	if (why)
		return why;
	v->osnoise = view == 1;
	if (v->hist && v->osnoise)
		return "--hist goes with timerlat";
	return live_target_check(&v->live, v->input, v->instance);
}

/* Live: the tracer itself; osnoise also with the events that name its noise. */
static const char *const live_timerlat[] = { "-p", "timerlat" };
static const char *const live_osnoise[] = { "-p", "osnoise", "-e", "osnoise" };

static int rtla_run(int argc, char **argv)
{
	struct rt_view v = { .live.all_name = "--all-cpus" };
	const char *why;
	int ret;

	argc = live_split(argc, argv, &v.live.argv);
	ret = cmd_options_parse(&cmd_rtla, argc, argv, rtla_opt, &v);
	if (ret < 0)
		return cmd_options_exit(ret);
	why = parse_words(&v, argc, argv, ret);
	if (why) {
		cmd_error(&cmd_rtla, "%s (see 'ftc rtla --help')", why);
		return FTC_EXIT_USAGE;
	}
	if (cmd_window_check(&cmd_rtla, &v.win) < 0)
		return FTC_EXIT_USAGE;
	if (v.osnoise)
		return live_view(&cmd_rtla, &v.live, live_osnoise, 4, &v.rec, &v.input, view_run,
				 &v);
	return live_view(&cmd_rtla, &v.live, live_timerlat, 2, &v.rec, &v.input, view_run, &v);
}
