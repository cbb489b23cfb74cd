// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc record --sample / --count: the perf side of a capture. The events
 * are opened before the trace file's head is written (their event system
 * and buffer must be in it), on the clock the trace uses, and drained by
 * their own thread while the trace readers run.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "call-graph.h"
#include "options.h"
#include "record-sample.h"

extern const struct command cmd_record;

/* An unknown name is the user's to fix: say so now, not after the capture began. */
static bool events_known(const char *spec)
{
	struct ftc_perf_evlist *l = ftc_perf_evlist_new();
	bool ok = l && ftc_perf_evlist_add(l, spec) > 0;

	ftc_perf_evlist_free(l);
	return ok;
}

int record_sample_opt(struct record_sample *rs, int id, const char *arg)
{
	unsigned long long v;

	switch (id) {
	case OPT_RS_SAMPLE:
	case OPT_RS_COUNT:
		if (!events_known(arg))
			return cmd_bad_value("%s", ftc_strerror());
		if (id == OPT_RS_SAMPLE)
			rs->o.sample = arg;
		else
			rs->o.count = arg;
		return 1;
	case OPT_RS_CALLGRAPH:
		rs->o.callchain = true;
		return cmd_parse_call_graph(arg, &rs->o.dwarf_stack) < 0 ? -1 : 1;
	case OPT_RS_FREQ:
	case OPT_RS_PERIOD:
	case OPT_RS_INTERVAL:
		break;
	default:
		return 0;
	}
	if (cmd_parse_u64(arg, &v) < 0 || !v || (id == OPT_RS_INTERVAL && v > 3600000))
		return cmd_bad_value("not a positive number%s", id == OPT_RS_INTERVAL ?
				     " of milliseconds, an hour (3600000) at most" : "");
	if (id == OPT_RS_FREQ) {
		rs->o.freq = v;
		rs->freq_set = true;
	} else if (id == OPT_RS_PERIOD) {
		rs->o.period = v;
	} else {
		rs->o.interval_ms = (unsigned int)v;
	}
	return 1;
}

int record_sample_check(struct record_sample *rs)
{
	const char *err = NULL;

	if (rs->freq_set && rs->o.period)
		err = "--freq and --count exclude each other: give one";
	else if (!rs->o.sample && (rs->freq_set || rs->o.period || rs->o.callchain))
		err = "--freq, --count and --call-graph need --sample EVENT";
	else if (!rs->o.count && rs->o.interval_ms)
		err = "--interval-print needs --counters EVENTS";
	if (err)
		cmd_error(&cmd_record, "%s", err);
	return err ? -1 : 0;
}


int record_sample_setup(struct record_sample *rs, struct ftc_writer *w, const char *instance,
			int ncpus, const int *cpus, pid_t child)
{
	char *clock;

	if (!rs->o.sample && !rs->o.count)
		return 0;
	clock = ftc_tracefs_clock(instance);	/* perf must stamp with it too */
	if (!clock)
		return -1;
	rs->o.size = sizeof(rs->o);
	rs->o.pid = child;
	rs->o.instance = instance;
	rs->cp = ftc_capture_perf_new(w, &rs->o, clock, ncpus, cpus);
	free(clock);
	return rs->cp ? 0 : -1;
}

int record_sample_start(struct record_sample *rs)
{
	return rs->cp ? ftc_capture_perf_start(rs->cp) : 0;
}

int record_sample_tids(struct record_sample *rs, pid_t *tids, int max)
{
	pid_t tid = ftc_capture_perf_tid(rs->cp);

	if (!tid || max < 1)
		return 0;
	tids[0] = tid;
	return 1;
}

void record_sample_command_started(struct record_sample *rs)
{
	ftc_capture_perf_command_started(rs->cp);
}

int record_sample_stop(struct record_sample *rs)
{
	return rs->cp ? ftc_capture_perf_stop(rs->cp) : 0;
}

void record_sample_summary(struct record_sample *rs)
{
	struct ftc_capture_perf_stats s = FTC_OPTS_INIT(ftc_capture_perf_stats);

	if (!rs->cp || ftc_capture_perf_stats(rs->cp, &s) < 0)
		return;
	if (*s.note)
		fprintf(stderr, "ftc record: %s\n", s.note);
	if (rs->o.sample)
		fprintf(stderr, "ftc record: %llu samples of %s, %llu lost",
			(unsigned long long)s.samples, s.event, (unsigned long long)s.lost);
	if (rs->o.count)
		fprintf(stderr, "%s%llu counter readings", rs->o.sample ? ", " : "ftc record: ",
			(unsigned long long)s.readings);
	/* "local" is sched_clock(), perf's is local_clock(): an offset apart. */
	if (strcmp(s.clock, "local"))
		fprintf(stderr, " in instance %s, on trace clock '%s' (perf uses the same "
			"clockid)\n", FTC_CAPTURE_PERF_INSTANCE, s.clock);
	else
		fprintf(stderr, " in instance %s, on trace clock 'local' (perf's local_clock "
			"moved by %+.6f s onto it)\n", FTC_CAPTURE_PERF_INSTANCE,
			(double)-s.perf_shift / 1e9);
}

void record_sample_free(struct record_sample *rs)
{
	ftc_capture_perf_free(rs->cp);
	rs->cp = NULL;
}
