// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc record --sample / --count: the options of the perf side of a capture,
 * which the session opens on the trace's clock (ftc_session_record_start)
 * and drains with its own thread while the trace readers run.
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


const struct ftc_capture_perf_opts *record_sample_opts(struct record_sample *rs)
{
	rs->o.size = sizeof(rs->o);
	return rs->o.sample || rs->o.count ? &rs->o : NULL;
}

void record_sample_summary(struct record_sample *rs, struct ftc_capture_perf *cp)
{
	struct ftc_capture_perf_stats s = FTC_OPTS_INIT(ftc_capture_perf_stats);

	if (!cp || ftc_capture_perf_stats(cp, &s) < 0)
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
