/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc record's perf options (--sample, --counters and friends): samples and
 * counter readings into an extra instance of the same trace.dat.
 */
#ifndef FTC_RECORD_SAMPLE_H
#define FTC_RECORD_SAMPLE_H

#include <stdbool.h>
#include <sys/types.h>

#include "ftc-capture-perf.h"
#include "ftc-writer.h"

enum {
	OPT_RS_SAMPLE = 2100,
	OPT_RS_FREQ,
	OPT_RS_PERIOD,
	OPT_RS_CALLGRAPH,
	OPT_RS_COUNT,
	OPT_RS_INTERVAL,
};

/* Entries for record's option table. */
#define FTC_RECORD_SAMPLE_OPTIONS \
	{ 0, "sample", "EVENT", "also sample EVENT with perf (cpu-clock, ...) into " \
	  "instance ftc_perf", OPT_RS_SAMPLE }, \
	{ 0, "freq", "HZ", "with --sample: samples per second (default 4000; perf -F)", \
	  OPT_RS_FREQ }, \
	{ 0, "count", "N", "with --sample: one sample every N events (perf -c, --count)", \
	  OPT_RS_PERIOD }, \
	{ 0, "call-graph", "MODE", "with --sample: call chains: fp, dwarf or dwarf,SIZE (stack bytes)", \
	  OPT_RS_CALLGRAPH }, \
	{ 0, "counters", "EVENTS", "also count EVENTS with perf, read every --interval-print", \
	  OPT_RS_COUNT }, \
	{ 0, "interval-print", "MS", "with --counters: ms between readings (default 1000; perf -I)", \
	  OPT_RS_INTERVAL }

struct record_sample {
	struct ftc_capture_perf_opts o;
	bool freq_set;
};

/* 1 when id is one of ours (handled), 0 when not, -1 on a bad value. */
int record_sample_opt(struct record_sample *rs, int id, const char *arg);
/* Checks the combination; 0 or -1 with a message printed. */
int record_sample_check(struct record_sample *rs);
/* The options for ftc_session_record_opts.perf; NULL when none was given. */
const struct ftc_capture_perf_opts *record_sample_opts(struct record_sample *rs);
void record_sample_summary(struct record_sample *rs, struct ftc_capture_perf *cp);

#endif
