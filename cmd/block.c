// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc block: is it the disk? From a trace.dat's block events, per device
 * the latency from issue to completion as a log2 histogram with its
 * percentiles (biolatency) and a heat map SVG over the run, the request
 * sizes (bitesize), or one line per request (biosnoop). One pass of the
 * library's block analysis (libftc-block(3)), over a file or live: every
 * CPU recorded while -- COMMAND runs, or with -a until Ctrl-C; a disk's
 * requests are the disk's whoever queued them (writeback runs in kworkers).
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
#include "ftc-block.h"
#include "ftc-heat.h"

enum { OPT_INSTANCE = 0x100, OPT_JSON, OPT_HEATMAP, OPT_DEV, OPT_DURATION, OPT_FROM, OPT_TO };

static const struct cmd_option block_options[] = {
	{ 'i', "input", "FILE", "the trace.dat to read (default trace.dat)", 0 },
	{ 0, "instance", "NAME", "read this buffer (default: the first with block events)",
	  OPT_INSTANCE },
	{ 0, "dev", "MAJOR:MINOR", "only this device", OPT_DEV },
	{ 'm', "milliseconds", NULL, "latency: buckets of milliseconds (biolatency -m), not ns", 0 },
	{ 0, "heatmap", "FILE.svg", "latency: a heat map SVG of the latencies over the run",
	  OPT_HEATMAP },
	{ 0, "json", NULL, "latency, size: JSON instead of a table", OPT_JSON },
	{ 0, "from", "SECONDS", "only requests issued at or after this timestamp", OPT_FROM },
	{ 0, "to", "SECONDS", "only what happened at or before this timestamp", OPT_TO },
	{ 'a', "all-cpus", NULL, "live: record every CPU until Ctrl-C (or --duration)", 0 },
	{ 0, "duration", "SECS", "live: stop recording after SECS seconds", OPT_DURATION },
	FTC_HELP_OPTION,
	{ 0 }
};

static int block_run(int argc, char **argv);

const struct command cmd_block = {
	.name = "block",
	.summary = "block I/O: latency per device, request sizes, a line per request",
	.synopsis = "[latency|size|snoop] [-i FILE | FILE | -a | -- COMMAND] [--instance NAME]\n"
		    "                   [--dev MAJOR:MINOR] [-m] [--heatmap FILE.svg] [--json]\n"
		    "                   [--from SECONDS] [--to SECONDS] [--duration SECS]",
	.options = block_options,
	.run = block_run,
};

enum bk_view_kind { V_LATENCY, V_SIZE, V_SNOOP };

struct bk_view {
	const char *input, *instance, *heatmap;
	int view;
	bool json, have_dev;
	uint32_t dev;
	uint64_t unit_ns;		/* the latency buckets': 1, or 1000000 with -m */
	struct ftc_heat *heat;
	struct cmd_window win;
	struct live_target live;
	struct live_rec rec;
	struct ftc_reader *r;
	uint64_t shown;
};

static int block_opt(int id, const char *arg, void *ctx)
{
	struct bk_view *v = ctx;
	unsigned int major, minor;
	char tail;

	switch (id) {
	case 'i': v->input = arg; break;
	case OPT_INSTANCE: v->instance = arg; break;
	case OPT_HEATMAP: v->heatmap = arg; break;
	case OPT_JSON: v->json = true; break;
	case 'm': v->unit_ns = 1000000; break;
	case OPT_DEV:
		if (sscanf(arg, "%u:%u%c", &major, &minor, &tail) != 2 || major > 4095 ||
		    minor > 0xfffff)
			return cmd_bad_value("say MAJOR:MINOR, as ls -l /dev shows them (254:0)");
		v->dev = major << 20 | minor;
		v->have_dev = true;
		break;
	case OPT_FROM:
	case OPT_TO: return cmd_window_opt(&v->win, id == OPT_FROM, arg);
	case 'a': v->live.all = true; break;
	case OPT_DURATION: return live_duration_opt(&v->live.duration, arg);
	}
	return 0;
}

static bool dev_selected(const struct bk_view *v, uint32_t dev)
{
	return !v->have_dev || dev == v->dev;
}

/* ---- snoop, and the heat map's feed ---- */

static void on_io(const struct ftc_block_io *io, void *ctx)
{
	struct bk_view *v = ctx;
	uint64_t ns = io->complete > io->issue ? io->complete - io->issue : 0;

	if (!dev_selected(v, io->dev) || cmd_output_failed())
		return;
	if (v->heat)
		ftc_heat_add(v->heat, io->issue, ns);
	if (v->view != V_SNOOP)
		return;
	v->shown++;
	printf("%8llu.%06llu %-16s %7d %4u:%-4u %-5s %14llu %8u %10.3f%s\n",
	       (unsigned long long)(io->issue / 1000000000),
	       (unsigned long long)(io->issue % 1000000000 / 1000), *io->comm ? io->comm : "?",
	       io->pid, io->dev >> 20, io->dev & 0xfffff, io->rwbs,
	       (unsigned long long)io->sector, io->bytes, (double)ns / 1e6,
	       io->error ? " error" : "");
}

/* ---- the histograms ---- */

static void dev_json(const struct ftc_block_dev *d)
{
	printf("{\"dev\":\"%u:%u\",\"bio_based\":%s,\"requests\":%llu,\"reads\":%llu,"
	       "\"writes\":%llu,\"errors\":%llu,\"bytes\":%llu,\"lat_ns\":%llu,"
	       "\"lat_max_ns\":%llu,\"lat_max_at_ns\":%llu,\"lat_hist\":[", d->major, d->minor,
	       d->bio_based ? "true" : "false", (unsigned long long)d->count,
	       (unsigned long long)d->reads, (unsigned long long)d->writes,
	       (unsigned long long)d->errors, (unsigned long long)d->bytes,
	       (unsigned long long)d->lat_ns, (unsigned long long)d->lat_max_ns,
	       (unsigned long long)d->lat_max_at);
	for (int b = 0; b < FTC_BLOCK_BUCKETS; b++)
		printf("%s%llu", b ? "," : "", (unsigned long long)d->lat_hist[b]);
	printf("],\"size_hist\":[");
	for (int b = 0; b < FTC_BLOCK_BUCKETS; b++)
		printf("%s%llu", b ? "," : "", (unsigned long long)d->size_hist[b]);
	printf("]}");
}

static void print_devs(const struct bk_view *v, const struct ftc_block *b)
{
	bool first = true;

	if (v->json)
		printf("{\"file\":");
	if (v->json) {
		cmd_json_string(stdout, v->input);
		printf(",\"lat_unit_ns\":%llu,\"lost_events\":%llu,\"unmatched\":%llu,\"devices\":[",
		       (unsigned long long)v->unit_ns, (unsigned long long)ftc_block_lost(b),
		       (unsigned long long)ftc_block_unmatched(b));
	}
	for (size_t i = 0; i < ftc_block_ndevs(b) && !cmd_output_failed(); i++) {
		const struct ftc_block_dev *d = ftc_block_dev_at(b, i);

		if (!dev_selected(v, d->dev))
			continue;
		if (v->json) {
			printf(first ? "" : ",");
			dev_json(d);
		} else {
			printf("%s# device %u:%u%s: %llu %s (%llu reads, %llu writes, %llu errors), "
			       "%.1f MB; latency: average %.3f ms, longest %.3f ms issued at %.6f\n",
			       first ? "" : "\n", d->major, d->minor,
			       d->bio_based ? " (bio-based: bios queued to completed)" : "",
			       (unsigned long long)d->count, d->bio_based ? "bios" : "requests",
			       (unsigned long long)d->reads, (unsigned long long)d->writes,
			       (unsigned long long)d->errors, (double)d->bytes / 1e6,
			       d->count ? (double)d->lat_ns / (double)d->count / 1e6 : 0.0,
			       (double)d->lat_max_ns / 1e6, (double)d->lat_max_at / 1e9);
			cmd_log2_hist(v->view == V_SIZE ? d->size_hist : d->lat_hist, FTC_BLOCK_BUCKETS,
				      v->view == V_SIZE ? LOG2_BYTES : v->unit_ns);
		}
		first = false;
	}
	if (v->json)
		printf("]}\n");
}

/* ---- the pass ---- */

static int block_add(void *b, const struct ftc_merge_record *mr)
{
	return ftc_block_add(b, mr);
}

static int notes(const struct bk_view *v, const struct ftc_block *b)
{
	/* enabled and silent is an answer: nothing went to the disk */
	if (!ftc_block_records(b) && cmd_window_empty(&cmd_block, &v->win, v->input, "block"))
		return FTC_EXIT_REFUSED;
	if (!ftc_block_records(b) &&
	    ftc_reader_event_enabled(v->r, v->instance, "block", "block_rq_issue") == 1) {
		fprintf(stderr, "ftc block: %s: the block events were enabled and no request was "
			"issued\n", v->input);
		return -1;
	}
	if (!ftc_block_records(b)) {
		cmd_error(&cmd_block, "%s has no block record%s%s: record -e block (ftc block --help)",
			  v->input, v->instance ? " in instance " : "",
			  v->instance ? v->instance : "");
		return FTC_EXIT_REFUSED;
	}
	if (ftc_block_unmatched(b) || ftc_block_in_flight(b))
		fprintf(stderr, "ftc block: %llu completions without their issue (before the "
			"capture), %llu requests still in flight at its end: not counted\n",
			(unsigned long long)ftc_block_unmatched(b),
			(unsigned long long)ftc_block_in_flight(b));
	if (ftc_block_lost(b))
		fprintf(stderr, "ftc block: %llu events were lost: the counts are short\n",
			(unsigned long long)ftc_block_lost(b));
	return FTC_EXIT_OK;
}

static int write_heat(const struct bk_view *v)
{
	char title[160];
	FILE *f = cmd_output_open(&cmd_block, v->heatmap);

	if (!f)
		return -1;
	snprintf(title, sizeof(title), "Block I/O latency in %s: %llu requests", v->input,
		 (unsigned long long)ftc_heat_count(v->heat));
	ftc_heat_svg(f, v->heat, title);
	return cmd_output_close(&cmd_block, f, v->heatmap);
}

static int view_run(void *view, struct ftc_reader *r, const char *input)
{
	struct bk_view *v = view;
	struct ftc_block_opts o = FTC_OPTS_INIT(ftc_block_opts, .instance = v->instance,
						.on_io = on_io, .ctx = v, .lat_unit_ns = v->unit_ns);
	struct ftc_block *b;
	int status;

	v->r = r;
	v->input = input;
	b = ftc_block_new(r, &o);
	if (!b || (v->heatmap && !(v->heat = ftc_heat_new(0, 0)))) {
		cmd_error(&cmd_block, "%s: %s", v->input, ftc_strerror());
		ftc_block_free(b);
		return FTC_EXIT_FAIL;
	}
	if (v->view == V_SNOOP)
		printf("%15s %-16s %7s %9s %-5s %14s %8s %10s\n", "issued", "task", "pid", "dev",
		       "rwbs", "sector", "bytes", "ms");
	if (cmd_pass(r, block_add, b, &v->win) < 0) {
		cmd_error(&cmd_block, "%s", ftc_strerror());
		status = FTC_EXIT_FAIL;
		goto out;
	}
	status = notes(v, b);
	if (status < 0) {	/* nothing to print */
		status = FTC_EXIT_OK;
		goto out;
	}
	if (!status && v->view != V_SNOOP)
		print_devs(v, b);
	if (!status && v->heat && write_heat(v) < 0)
		status = FTC_EXIT_FAIL;
out:
	ftc_heat_free(v->heat);
	ftc_block_free(b);
	return status;
}

/* [latency|size|snoop] [FILE]; which options go with the view */
static const char *parse_words(struct bk_view *v, int argc, char **argv, int first)
{
	static const char *const views[] = { "latency", "size", "snoop" };
	const char *why = cmd_view_words(argc, argv, first, views, 3, &v->view, &v->input);

	if (why)
		return why;
	if (v->heatmap && v->view != V_LATENCY)
		return "--heatmap goes with latency";
	if (v->unit_ns > 1 && v->view != V_LATENCY)
		return "-m goes with latency";
	if (v->json && v->view == V_SNOOP)
		return "--json goes with latency and size";
	return live_target_check(&v->live, v->input, v->instance);
}

/* Live: every CPU's block events (a request completes on whichever CPU the interrupt hits). */
static const char *const live_args[] = { "-e", "block" };

static int block_run(int argc, char **argv)
{
	struct bk_view v = { .unit_ns = 1 };
	const char *why;
	int ret;

	argc = live_split(argc, argv, &v.live.argv);
	ret = cmd_options_parse(&cmd_block, argc, argv, block_opt, &v);
	if (ret < 0)
		return cmd_options_exit(ret);
	why = parse_words(&v, argc, argv, ret);
	if (why) {
		cmd_error(&cmd_block, "%s (see 'ftc block --help')", why);
		return FTC_EXIT_USAGE;
	}
	if (cmd_window_check(&cmd_block, &v.win) < 0)
		return FTC_EXIT_USAGE;
	return live_view(&cmd_block, &v.live, live_args, 2, &v.rec, &v.input, view_run, &v);
}
