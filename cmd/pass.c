// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One pass of an analysis over a file's merged records (pass.h).
 */
#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-merge.h"
#include "options.h"
#include "output.h"
#include "pass.h"

bool cmd_window_before(const struct cmd_window *w, unsigned long long ts)
{
	return w && w->have_from && ts < w->from;
}

bool cmd_window_after(const struct cmd_window *w, unsigned long long ts)
{
	return w && w->have_to && ts > w->to;
}

int cmd_pass(struct ftc_reader *r, int (*add)(void *pass, const struct ftc_merge_record *mr),
	     void *pass, struct cmd_window *w)
{
	struct ftc_merge *m = ftc_merge_open(r, NULL);
	struct ftc_merge_record mr;
	int ret;

	if (!m)
		return -1;
	while ((ret = ftc_merge_next(m, &mr)) == 1 && !cmd_output_failed()) {
		if (w && !w->first_ts)
			w->first_ts = mr.rec->ts;
		if (w)
			w->last_ts = mr.rec->ts;
		if (cmd_window_after(w, mr.rec->ts)) {
			w->skipped++;
			w->stopped = true;
			break;	/* the merge gives them in time order: none comes back */
		}
		if (cmd_window_before(w, mr.rec->ts)) {
			w->skipped++;
			continue;
		}
		if (add(pass, &mr) < 0) {
			ret = -1;
			break;
		}
	}
	ftc_merge_close(m);
	return ret < 0 ? -1 : 0;
}

int cmd_window_opt(struct cmd_window *w, bool from, const char *arg)
{
	if (cmd_parse_time(arg, from ? &w->from : &w->to) < 0)
		return cmd_bad_value("not a time (SECONDS[.FRACTION], as printed in the TIMESTAMP "
				     "column)");
	if (from)
		w->have_from = true;
	else
		w->have_to = true;
	return 0;
}

int cmd_window_check(const struct command *cmd, const struct cmd_window *w)
{
	if (!w->have_from || !w->have_to || w->from <= w->to)
		return 0;
	cmd_error(cmd, "--from %llu.%09llu is after --to %llu.%09llu: no record lies between "
		  "(give the earlier time to --from)", w->from / 1000000000ULL,
		  w->from % 1000000000ULL, w->to / 1000000000ULL, w->to % 1000000000ULL);
	return -1;
}

/* "--from 12.000000000", or none when that end was not given */
static void end_text(char *buf, size_t size, const char *opt, bool have, unsigned long long ns,
		     const char *none)
{
	if (have)
		snprintf(buf, size, "%s %llu.%09llu", opt, ns / 1000000000ULL, ns % 1000000000ULL);
	else
		snprintf(buf, size, "%s", none);
}

int cmd_window_empty(const struct command *cmd, const struct cmd_window *w, const char *input,
		     const char *what)
{
	char from[48], to[48], last[48];

	if (!w->skipped)
		return 0;	/* the window left nothing out: the file lacks them */
	end_text(from, sizeof(from), "--from", w->have_from, w->from, "the start");
	end_text(to, sizeof(to), "--to", w->have_to, w->to, "the end");
	/* stopped at --to: what lies past it was not read */
	end_text(last, sizeof(last), " to", !w->stopped, w->last_ts, " on");
	cmd_error(cmd, "%s: no %s record lies between %s and %s; the capture's records run from "
		  "%llu.%09llu%s", input, what, from, to, w->first_ts / 1000000000ULL,
		  w->first_ts % 1000000000ULL, last);
	return FTC_EXIT_REFUSED;
}
