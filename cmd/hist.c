// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc hist: a hist trigger on one event for the time of a command (or
 * until Ctrl-C or --duration), read back from the event's hist file as a
 * table, then removed; or, with --show, the hist of the triggers already
 * set. The trigger goes through the journal, so that Ctrl-C, an error or a
 * SIGKILL (the guardian, `ftc reset --journal`) leaves tracefs as found.
 * trace-cmd has no such command: its `hist` reads a trace.dat's latency
 * histograms.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "control-opts.h"
#include "journal.h"
#include "hist.h"
#include "options.h"
#include "output.h"
#include "opt-values.h"
#include "rec-select.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-control.h"
#include "ftc-session.h"
#include "ftc-workload.h"

enum { OPT_KEY = 0x100, OPT_VALUE, OPT_SORT, OPT_SIZE, OPT_DURATION, OPT_RAW, OPT_SHOW };

#define SIZE_MAX_ENTRIES 131072	/* 2^TRACING_MAP_BITS_MAX */

static const struct cmd_option hist_options[] = {
	{ 'e', "event", "EVENT", "the event to count, SYSTEM:EVENT", 'e' },
	{ 0, "key", "KEYS", "key fields, FIELD[.TYPE],... (TYPE: sym, execname, log2...)",
	  OPT_KEY },
	{ 0, "value", "FIELDS", "fields to sum per key, besides the hitcount", OPT_VALUE },
	{ 0, "sort", "KEYS", "sort by one or two keys or values, NAME[.descending]",
	  OPT_SORT },
	{ 'f', "filter", "FILTER", "count only the events that match FILTER", 'f' },
	{ 'B', "instance", "NAME", "in instance NAME (made for the run when missing)", 'B' },
	{ 0, "size", "N", "the kernel's table size in entries (65 to 131072)", OPT_SIZE },
	{ 0, "duration", "SECS", "count for SECS seconds instead of until Ctrl-C",
	  OPT_DURATION },
	{ 0, "raw", NULL, "print the kernel's hist text unchanged", OPT_RAW },
	{ 0, "show", NULL, "print the hist of the triggers already set, set none", OPT_SHOW },
	{ 'o', "output", "FILE", "write the histogram to FILE", 'o' },
	{ 'q', "quiet", NULL, "no progress notes on stderr", 'q' },
	FTC_HELP_OPTION,
	{ 0 }
};

static int hist_run(int argc, char **argv);

const struct command cmd_hist = {
	.name = "hist",
	.summary = "count an event in a kernel hist trigger, print it as a table",
	.synopsis = "-e EVENT --key KEYS [--value FIELDS] [--sort KEYS] [-f FILTER] [-B NAME]\n"
		    "                [--size N] [--raw] [-o FILE] [--duration SECS | -- COMMAND]\n"
		    "   or: ftc hist --show -e EVENT [-B NAME] [--raw] [-o FILE]",
	.options = hist_options,
	.run = hist_run,
};

struct hist_args {
	struct hist_spec spec;
	const char *event_arg, *instance, *output;
	double duration;
	bool raw, show, quiet, size_set;
	char **argv;
	char *owned[3];		/* the list options' values, split in place */
	char sys_ev[512];	/* the event, "sys:event" */
	char trigger[600], hist[600];	/* its files, relative to the instance */
	FILE *out;
};

/* A list option's value is split in a copy of its own, kept until the end. */
static int add_list(struct hist_args *a, int which, const char **list, int *n, const char *arg)
{
	char *copy = strdup(arg), *joined = NULL;

	if (!copy)
		return cmd_bad_value("out of memory");
	/* repeated options add up: keep one buffer per option */
	if (a->owned[which]) {
		if (asprintf(&joined, "%s,%s", a->owned[which], copy) < 0)
			joined = NULL;
		free(copy);
		if (!joined)
			return cmd_bad_value("out of memory");
		copy = joined;
		*n = 0;
	}
	free(a->owned[which]);
	a->owned[which] = copy;
	return hist_spec_add(list, n, copy);
}

static int hist_opt(int id, const char *arg, void *ctx)
{
	struct hist_args *a = ctx;
	struct hist_spec *s = &a->spec;
	unsigned long long n;

	switch (id) {
	case 'e': a->event_arg = arg; break;
	case OPT_KEY: return add_list(a, 0, s->keys, &s->nkeys, arg);
	case OPT_VALUE: return add_list(a, 1, s->vals, &s->nvals, arg);
	case OPT_SORT: return add_list(a, 2, s->sort, &s->nsort, arg);
	case 'f':
		if (rec_filter_kernel(arg) < 0)
			return -1;
		s->filter = arg;
		break;
	case 'B': a->instance = arg; break;
	case OPT_SIZE:
		if (cmd_parse_u64(arg, &n) < 0 || n <= 64 || n > SIZE_MAX_ENTRIES)
			return cmd_bad_value("not a size the kernel takes (65 to %d entries; it "
					     "rounds up to a power of 2, 128 at least)",
					     SIZE_MAX_ENTRIES);
		s->size = n;
		a->size_set = true;
		break;
	case OPT_DURATION:
		return cmd_opt_duration(arg, &a->duration);
	case OPT_RAW: a->raw = true; break;
	case OPT_SHOW: a->show = true; break;
	case 'o': a->output = arg; break;
	case 'q': a->quiet = true; break;
	}
	return 0;
}

/* Mistakes of the command line alone, before tracefs is looked at. */
static int check_usage(const struct hist_args *a)
{
	const struct hist_spec *s = &a->spec;
	const char *extra = s->nkeys ? "--key" : s->nvals ? "--value" : s->nsort ? "--sort" :
			    s->filter ? "-f" : a->size_set ? "--size" : a->duration > 0 ?
			    "--duration" : a->argv ? "a COMMAND" : NULL;

	if (!a->event_arg) {
		cmd_error(&cmd_hist, "give the event with -e SYSTEM:EVENT (see 'ftc list -e')");
		return -1;
	}
	if (a->show && extra) {
		cmd_error(&cmd_hist, "--show prints the triggers already set: it takes no %s",
			  extra);
		return -1;
	}
	if (!a->show && !s->nkeys) {
		cmd_error(&cmd_hist, "give the keys to count by with --key FIELD[,FIELD...] "
			  "('ftc list -e -F %s' lists the fields)", a->event_arg);
		return -1;
	}
	if (a->duration > 0 && a->argv) {
		cmd_error(&cmd_hist, "--duration or a COMMAND, not both: the histogram ends "
			  "with the command");
		return -1;
	}
	return 0;
}

/* The one event -e names; 3 when there is none, 2 when several match. */
static int resolve_event(struct hist_args *a)
{
	char **m = NULL, *colon;
	int n = ftc_events_resolve(a->event_arg, &m);

	if (n < 0) {
		cmd_error(&cmd_hist, "%s", ftc_strerror());
		return control_exit_status(errno);
	}
	if (n > 1) {
		cmd_error(&cmd_hist, "-e '%s' matches %d events (%s, %s...): a histogram counts "
			  "one, give SYSTEM:EVENT", a->event_arg, n, m[0], m[1]);
		ftc_list_free(m);
		return FTC_EXIT_USAGE;
	}
	snprintf(a->sys_ev, sizeof(a->sys_ev), "%s", m[0]);
	ftc_list_free(m);
	colon = strchr(a->sys_ev, ':');
	if (!colon) {
		cmd_error(&cmd_hist, "-e '%s': no SYSTEM:EVENT", a->event_arg);
		return FTC_EXIT_USAGE;
	}
	*colon = '\0';
	a->spec.system = a->sys_ev;
	a->spec.event = colon + 1;
	snprintf(a->trigger, sizeof(a->trigger), "events/%s/%s/trigger", a->spec.system,
		 a->spec.event);
	snprintf(a->hist, sizeof(a->hist), "events/%s/%s/hist", a->spec.system, a->spec.event);
	return 0;
}

/* Kernels without CONFIG_HIST_TRIGGERS have no hist file (and no "hist" trigger). */
static int check_support(const struct hist_args *a)
{
	const char *dir = ftc_tracefs_dir();

	if (ftc_knob_exists(NULL, a->hist))
		return 0;
	cmd_error(&cmd_hist, "%s/%s%s%s%s: this kernel has no hist triggers ('hist' is not among "
		  "the triggers it offers, and there is no hist file beside it): it was built "
		  "without CONFIG_HIST_TRIGGERS; `ftc check` shows what it allows",
		  dir ? dir : "/sys/kernel/tracing", a->instance ? "instances/" : "",
		  a->instance ? a->instance : "", a->instance ? "/" : "", a->trigger);
	return FTC_EXIT_REFUSED;
}

static const char *where(const struct hist_args *a, char *buf, size_t size)
{
	if (a->instance)
		snprintf(buf, size, "# %s:%s in instance %s", a->spec.system, a->spec.event,
			 a->instance);
	else
		snprintf(buf, size, "# %s:%s", a->spec.system, a->spec.event);
	return buf;
}

static int read_hist(const struct hist_args *a, char **text)
{
	if (ftc_tracefs_read(a->instance, a->hist, text, NULL) == 0)
		return 0;
	cmd_error(&cmd_hist, "%s", ftc_strerror());
	return control_exit_status(errno);
}

static void print_section(const struct hist_args *a, const struct hist_section *s)
{
	char title[700];
	unsigned long long sum;

	if (a->raw) {
		fputs(s->raw, a->out);
		return;
	}
	if (!s->parsed && !a->quiet)
		cmd_error(&cmd_hist, "note: a histogram that ftc cannot read as a table is "
			  "shown as the kernel printed it");
	hist_print_table(a->out, s, where(a, title, sizeof(title)));
	if (s->dropped)
		cmd_error(&cmd_hist, "warning: the kernel dropped %llu events: its table was full "
			  "(raise --size)", s->dropped);
	if (hist_hitcount_sum(s, &sum) && s->totals && sum != s->hits && !a->quiet)
		cmd_error(&cmd_hist, "note: the entries add up to %llu hits, the kernel counted "
			  "%llu (events came in while the table was read)", sum, s->hits);
}

static int open_output(struct hist_args *a)
{
	a->out = stdout;
	if (!a->output)
		return 0;
	a->out = cmd_output_open(&cmd_hist, a->output);
	return a->out ? 0 : -1;
}

static int do_show(struct hist_args *a)
{
	struct hist_section *secs = NULL;
	size_t n = 0;
	char *text = NULL;
	int ret;

	/* the instance first: a kernel without hist triggers would be named instead */
	if (a->instance && !ftc_info_instance_exists(a->instance)) {
		cmd_error(&cmd_hist, "instance '%s' does not exist (see `ftc list -B`)",
			  a->instance);
		return FTC_EXIT_REFUSED;
	}
	ret = check_support(a);
	if (ret)
		return ret;
	if (open_output(a) < 0)
		return FTC_EXIT_FAIL;
	ret = read_hist(a, &text);
	if (ret)
		return ret;
	if (hist_parse(text, &secs, &n) < 0) {
		cmd_error(&cmd_hist, "out of memory");
		free(text);
		return FTC_EXIT_FAIL;
	}
	if (!n) {
		cmd_error(&cmd_hist, "%s%s%s: no hist trigger is set on %s:%s; ftc hist -e %s:%s "
			  "--key FIELD sets one", a->instance ? "instances/" : "",
			  a->instance ? a->instance : "", a->trigger, a->spec.system,
			  a->spec.event, a->spec.system, a->spec.event);
		ret = FTC_EXIT_FAIL;
	} else if (a->raw) {
		fputs(text, a->out);
	}
	for (size_t i = 0; !a->raw && i < n; i++) {
		if (i)
			fputc('\n', a->out);
		print_section(a, &secs[i]);
	}
	hist_sections_free(secs, n);
	free(text);
	return ret;
}

/* The lines of the trigger file, "" when it cannot be read. */
static char *trigger_lines(const struct hist_args *a)
{
	char *text = NULL;

	if (a->instance && !ftc_info_instance_exists(a->instance))
		return strdup("");
	if (ftc_knob_read(a->instance, a->trigger, &text) < 0)
		return strdup("");
	return text;
}

static bool has_line(const char *text, const char *line, size_t n)
{
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* The line the kernel shows for our trigger: new, with our keys. */
static char *find_ours(const char *before, const char *after, const char *start)
{
	size_t keys = strcspn(start + strlen("hist:keys="), ": ") + strlen("hist:keys=");

	for (const char *l = after; *l; ) {
		size_t n = strcspn(l, "\n");

		if (!strncmp(l, start, keys) && (l[keys] == ':' || l[keys] == ' ') &&
		    !has_line(before, l, n))
			return strndup(l, n);
		l += n + (l[n] == '\n');
	}
	return NULL;
}

/* Adds the trigger through the journal; *before keeps the trigger file's
 * lines from before, to tell ours from the others afterwards. */
static int add_trigger(struct hist_args *a, struct ftc_state *st, const char *start,
		       char **before)
{
	int err;

	if (ftc_instance_create(st, a->instance) < 0) {
		cmd_error(&cmd_hist, "%s", ftc_strerror());
		return control_exit_status(errno);
	}
	*before = trigger_lines(a);
	if (ftc_knob_append(st, a->instance, a->trigger, start) == 0)
		return 0;
	err = errno;
	if (err == EEXIST)
		cmd_error(&cmd_hist, "%s%s%s%s: a hist trigger with these keys, values, sort and "
			  "filter is already set there; 'ftc hist --show -e %s:%s%s%s' prints it",
			  a->instance ? "instances/" : "", a->instance ? a->instance : "",
			  a->instance ? "/" : "", a->trigger, a->spec.system, a->spec.event,
			  a->instance ? " -B " : "", a->instance ? a->instance : "");
	else
		cmd_error(&cmd_hist, "%s", ftc_strerror());
	return err == EEXIST ? FTC_EXIT_FAIL : control_exit_status(err);
}

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * Until the command exits, the time is up or a signal comes (the signal
 * pipe wakes the wait: none slips in between a check and the sleep). The
 * wait itself is silent, with no polling that the histogram of
 * sched_switch would count. Returns 1 when interrupted.
 */
static int wait_end(const struct hist_args *a, struct ftc_session *ss, struct ftc_workload *w,
		    int *child_status)
{
	struct timespec t0;
	int wake;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		double left = a->duration > 0 ? a->duration - since(&t0) : -1;

		if (a->duration > 0 && left <= 0)
			return 0;
		wake = ftc_session_wait(ss, cmd_signal_fd(), left < 0 ? -1 : (long long)(left * 1e9));
	} while (wake == FTC_SESSION_WAKE_SIGNAL && !cmd_signal_caught());
	if (wake == FTC_SESSION_WAKE_ENDED)
		*child_status = ftc_workload_exit_code(w);
	return wake == FTC_SESSION_WAKE_ENDED || wake == FTC_SESSION_WAKE_TIMEOUT ? 0 : 1;
}

/* The trigger line the kernel shows for ours, read once it is paused (a
 * read while it counts would count in kmalloc's histogram). */
static char *our_line(const struct hist_args *a, const char *before, const char *start)
{
	char *after = trigger_lines(a), *ours;

	ours = before && after ? find_ours(before, after, start) : NULL;
	free(after);
	if (!ours)
		cmd_error(&cmd_hist, "%s: the kernel took '%s' but does not show it", a->trigger,
			  start);
	return ours;
}

/* Pauses our trigger (so that the table adds up), reads and prints it. */
static int report(struct hist_args *a, const char *start, const char *pause,
		  const char *before)
{
	struct hist_section *secs = NULL;
	char want[4096], got[4096], *text = NULL, *ours;
	size_t n = 0;
	int ret;

	if (ftc_knob_set(a->instance, a->trigger, pause, true) < 0 && !a->quiet)
		cmd_error(&cmd_hist, "warning: the histogram could not be paused, so it may not "
			  "add up: %s", ftc_strerror());
	ret = read_hist(a, &text);
	if (ret)
		return ret;
	ours = our_line(a, before, start);
	if (!ours || hist_parse(text, &secs, &n) < 0) {
		if (ours)
			cmd_error(&cmd_hist, "out of memory");
		free(ours);
		free(text);
		return FTC_EXIT_FAIL;
	}
	hist_info_stateless(ours, want, sizeof(want));
	free(ours);
	ret = FTC_EXIT_FAIL;
	for (size_t i = 0; i < n; i++) {
		hist_info_stateless(secs[i].info ? secs[i].info : "", got, sizeof(got));
		if (!strcmp(want, got)) {
			print_section(a, &secs[i]);
			ret = FTC_EXIT_OK;
			break;
		}
	}
	if (ret)
		cmd_error(&cmd_hist, "%s: no histogram of the trigger '%s' in it", a->hist, want);
	hist_sections_free(secs, n);
	free(text);
	return ret;
}

/* Sets the trigger, runs the command or waits, prints, and puts tracefs back. */
static int count(struct hist_args *a, struct ftc_state *st, const char *start,
		 const char *pause)
{
	struct ftc_session *ss = ftc_session_new();
	struct ftc_workload *w = NULL;
	char *before = NULL;
	int child = 0, stop, ret;

	if (!ss || (a->argv && !(w = ftc_workload_spawn(a->argv))) ||
	    ftc_session_set_command(ss, w) < 0) {
		cmd_error(&cmd_hist, "%s", ftc_strerror());
		ftc_workload_free(w);
		ftc_session_free(ss);
		return FTC_EXIT_FAIL;
	}
	ret = add_trigger(a, st, start, &before);
	if (!ret && ftc_session_release(ss) < 0) {
		cmd_error(&cmd_hist, "%s", ftc_strerror());
		ret = FTC_EXIT_FAIL;
	}
	if (ret) {
		ftc_workload_reap(w);	/* unreleased, it reads EOF instead of "go" and exits */
		ftc_workload_free(w);
		ftc_session_free(ss);
		free(before);
		return ret;
	}
	if (!w && !a->quiet)
		fprintf(stderr, "ftc hist: counting %s:%s %s\n", a->spec.system, a->spec.event,
			a->duration > 0 ? "for the given duration" : "until Ctrl-C");
	stop = wait_end(a, ss, w, &child);
	ret = report(a, start, pause, before);
	free(before);
	/* interrupted: the command, if any, got the signal too and runs on */
	ftc_session_free(ss);
	ftc_workload_free(w);
	if (ret)
		return ret;
	if (stop)
		return a->argv ? FTC_EXIT_INTERRUPTED : FTC_EXIT_OK;
	return child;
}

static int do_hist(struct hist_args *a)
{
	char *start = NULL, *pause = NULL;
	struct ftc_state *st;
	int ret;

	if (hist_spec_build(&a->spec, &start, &pause, &ret) < 0)
		return ret;
	ret = check_support(a);
	if (ret)
		goto out;
	if (open_output(a) < 0) {
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	st = cmd_journal_open(&cmd_hist);
	if (!st) {
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	ret = cmd_journal_close(&cmd_hist, st, count(a, st, start, pause));
out:
	free(start);
	free(pause);
	return ret;
}

static int hist_run(int argc, char **argv)
{
	struct hist_args a = { 0 };
	int ret = cmd_options_parse(&cmd_hist, argc, argv, hist_opt, &a);

	if (ret < 0) {
		ret = cmd_options_exit(ret);
		goto out;
	}
	if (ret < argc)
		a.argv = argv + ret;
	if (check_usage(&a) < 0) {
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	ret = resolve_event(&a);
	if (ret)
		goto out;
	ret = a.show ? do_show(&a) : do_hist(&a);
	if (cmd_output_close(&cmd_hist, a.out, a.output) < 0 && !ret)
		ret = FTC_EXIT_FAIL;
out:
	for (int i = 0; i < 3; i++)
		free(a.owned[i]);
	return ret;
}
