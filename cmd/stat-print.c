// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc stat's output, laid out as perf stat prints it: a line per event
 * (value, unit, name, cgroup with -G, '#' and a derived value, spread with
 * -r, running percentage when multiplexed), CSV with -x, intervals prefixed
 * by their time; then the elapsed, user and system times.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/* -M metrics shown on one event's line, at most. */
#define MAX_NAMED 24

static const char *state_text(enum ftc_perf_state st)
{
	return st == FTC_PERF_UNSUPPORTED ? "<not supported>" : "<not counted>";
}

struct line {
	const char *prefix;		/* interval time and/or CPU, may be "" */
	const struct ftc_perf_event *e;	/* NULL: a further metric of the line before */
	enum ftc_perf_state st;
	double value;
	double pct;			/* running percentage */
	uint64_t run;
	double rel_stddev;		/* < 0 when not repeated */
	struct stat_value m;
};

static void print_value(struct stat_state *s, const struct line *ln, char *val, size_t size)
{
	bool clock = ftc_perf_event_is_clock(ln->e);

	/* The "'" flag groups thousands as LC_NUMERIC says, as perf's -B does. */
	if (ln->st != FTC_PERF_OK)
		snprintf(val, size, "%s", state_text(ln->st));
	else if (clock)
		snprintf(val, size, s->big ? "%'.2f" : "%.2f", ln->value / 1e6);
	else
		snprintf(val, size, s->big ? "%'.0f" : "%.0f", ln->value);
}

static void print_human(struct stat_state *s, const struct line *ln)
{
	bool clock = ln->e && ftc_perf_event_is_clock(ln->e);
	const char *cg = ln->e ? ftc_perf_event_cgroup(ln->e) : NULL;
	char val[64] = "";

	if (ln->e)
		print_value(s, ln, val, sizeof(val));
	fprintf(s->out, "%s%18s %-4s %-32s", ln->prefix, val, clock ? "msec" : "",
		ln->e ? ftc_perf_event_name(ln->e) : "");
	if (s->any_cgroup)
		fprintf(s->out, " %s", cg ? cg : "");
	if (ln->m.has)
		fprintf(s->out, " # %8.3f %-20s", ln->m.v, ln->m.unit);
	else if (ln->st == FTC_PERF_OK && (ln->rel_stddev > 0 || ln->pct < 100))
		fprintf(s->out, "   %8s %-20s", "", "");
	if (ln->e && ln->st == FTC_PERF_OK && ln->rel_stddev > 0)
		fprintf(s->out, "  ( +- %5.2f%% )", ln->rel_stddev);
	if (ln->e && ln->st == FTC_PERF_OK && ln->pct < 100)
		fprintf(s->out, "  (%.2f%%)", ln->pct);
	fputc('\n', s->out);
}

/* value, unit, event, [cgroup,] [spread,] run time, running %, metric, metric unit */
static void print_csv(struct stat_state *s, const struct line *ln)
{
	const char *x = s->o->sep;
	const char *cg = ln->e ? ftc_perf_event_cgroup(ln->e) : NULL;
	bool clock = ln->e && ftc_perf_event_is_clock(ln->e);

	fprintf(s->out, "%s", ln->prefix);
	if (!ln->e)
		;
	else if (ln->st != FTC_PERF_OK)
		fprintf(s->out, "%s", state_text(ln->st));
	else if (clock)
		fprintf(s->out, "%.2f", ln->value / 1e6);
	else
		fprintf(s->out, "%.0f", ln->value);
	fprintf(s->out, "%s%s%s%s", x, clock ? "msec" : "", x,
		ln->e ? ftc_perf_event_name(ln->e) : "");
	if (s->any_cgroup)
		fprintf(s->out, "%s%s", x, cg ? cg : "");
	if (s->o->repeat > 1 && ln->e)
		fprintf(s->out, "%s%.2f%%", x, ln->rel_stddev);
	else if (s->o->repeat > 1)
		fprintf(s->out, "%s", x);
	if (ln->e)
		fprintf(s->out, "%s%llu%s%.2f%s", x, (unsigned long long)ln->run, x, ln->pct, x);
	else
		fprintf(s->out, "%s%s%s", x, x, x);
	if (ln->m.has)
		fprintf(s->out, "%.3f%s%s", ln->m.v, x, ln->m.unit);
	else
		fprintf(s->out, "%s", x);
	fputc('\n', s->out);
}

static void print_line(struct stat_state *s, const struct line *ln)
{
	if (s->o->sep)
		print_csv(s, ln);
	else
		print_human(s, ln);
}

/* Prints event i at one slot, from the counts of every event there. */
static void print_event(struct stat_state *s, int i, int slot, const struct ftc_perf_count *c,
			const struct ftc_perf_stats *st, double wall_ns, const char *tprefix)
{
	int n = ftc_perf_evlist_count(s->l);
	double *v = calloc((size_t)n, sizeof(double));
	bool *ok = calloc((size_t)n, sizeof(bool));
	struct stat_value named[MAX_NAMED];
	struct stat_counts counts = { .v = v, .ok = ok, .wall_ns = wall_ns };
	char prefix[64] = "";
	struct line ln = {
		.prefix = prefix,
		.e = ftc_perf_evlist_event(s->l, i),
		.st = ftc_perf_evlist_state(s->l, i, &c[i]),
		.pct = ftc_perf_count_running_pct(&c[i]),
		.run = c[i].run,
		.rel_stddev = st && s->o->repeat > 1 ? ftc_perf_stats_rel_stddev(&st[i]) : -1,
	};
	int nn;

	if (!v || !ok)
		goto out;
	for (int k = 0; k < n; k++) {
		ok[k] = ftc_perf_evlist_state(s->l, k, &c[k]) == FTC_PERF_OK;
		v[k] = st ? st[k].mean : ftc_perf_count_scaled(&c[k]);
	}
	if (s->nslots > 1)
		snprintf(prefix, sizeof(prefix), s->o->sep ? "%sCPU%d%s" : "%sCPU%-4d",
			 tprefix, ftc_perf_evlist_cpu(s->l, slot), s->o->sep ? s->o->sep : "");
	else
		snprintf(prefix, sizeof(prefix), "%s", tprefix);
	ln.value = v[i];
	/* -M's metrics take the place of perf's ratio; more go on lines of their own. */
	nn = stat_named_values(s, i, &counts, named, MAX_NAMED);
	if (nn)
		ln.m = named[0];
	else
		stat_shadow_value(s, i, &counts, &ln.m);
	print_line(s, &ln);
	for (int k = 1; k < nn; k++) {
		struct line more = { .prefix = prefix, .rel_stddev = -1, .m = named[k] };

		print_line(s, &more);
	}
out:
	free(v);
	free(ok);
}

void stat_print_interval_header(struct stat_state *s)
{
	if (!s->o->sep)
		fprintf(s->out, "#%15s %s%18s %-4s %s\n", "time", s->nslots > 1 ? "CPU    " : "",
			"counts", "unit", "events");
}

void stat_print_interval(struct stat_state *s, const struct ftc_perf_count *d, double since_ns,
			 double wall_ns)
{
	int n = ftc_perf_evlist_count(s->l);
	char tprefix[48];

	snprintf(tprefix, sizeof(tprefix), s->o->sep ? "%.9f%s" : "%16.9f ", since_ns / 1e9,
		 s->o->sep ? s->o->sep : "");
	/* As perf -A: each event on every CPU, then the next event. */
	for (int i = 0; i < n; i++)
		for (int slot = 0; slot < s->nslots; slot++)
			print_event(s, i, slot, &d[slot * n], NULL, wall_ns, tprefix);
	fflush(s->out);
}

static void print_header(struct stat_state *s)
{
	FILE *f = s->out;

	fprintf(f, "\n Performance counter stats for ");
	if (s->o->cpu_list) {
		fprintf(f, "'CPU(s) %s'", s->o->cpu_list);
	} else if (s->o->all_cpus) {
		fprintf(f, "'system wide'");
	} else if (s->o->tid_arg) {
		fprintf(f, "thread id '%s'", s->o->tid_arg);
	} else if (s->o->pid_arg) {
		fprintf(f, "process id '%s'", s->o->pid_arg);
	} else {
		fprintf(f, "'");
		for (char **a = s->argv; *a; a++)
			fprintf(f, "%s%s", a == s->argv ? "" : " ", *a);
		fprintf(f, "'");
	}
	if (s->o->repeat > 1)
		fprintf(f, " (%llu runs)", s->o->repeat);
	fprintf(f, ":\n\n");
}

/* As perf: the mean with two more digits than its spread's first one. */
static int elapsed_precision(double spread_s)
{
	int p;

	if (spread_s <= 0)
		return 9;
	if (spread_s > 1)
		return 2;
	p = (int)ceil(-log10(spread_s)) + 2;
	return p > 9 ? 9 : p;
}

static void print_footer(struct stat_state *s)
{
	FILE *f = s->out;
	/* The command's own times, when it is what was counted. */
	bool own = s->w && !s->o->all_cpus && !s->o->nids && s->o->repeat <= 1;

	/* perf's null run prints no blank line after the (absent) counts. */
	if (!s->o->null_run)
		fputc('\n', f);
	if (s->o->repeat > 1) {
		double spread = ftc_perf_stats_stddev_mean(&s->elapsed) / 1e9;
		int p = elapsed_precision(spread);

		fprintf(f, " %17.*f +- %.*f seconds time elapsed  ( +- %5.2f%% )\n",
			p, s->elapsed.mean / 1e9, p, spread, ftc_perf_stats_rel_stddev(&s->elapsed));
	} else {
		fprintf(f, " %17.9f seconds time elapsed\n", s->elapsed.mean / 1e9);
	}
	if (own) {
		const struct rusage *ru = ftc_workload_rusage(s->w);

		fprintf(f, "\n %17.9f seconds user\n %17.9f seconds sys\n\n",
			ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6,
			ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6);
	}
	fputc('\n', f);
}

void stat_print_totals(struct stat_state *s)
{
	if (s->o->interval_ms)
		return;
	if (!s->o->sep)
		print_header(s);
	for (int i = 0; i < ftc_perf_evlist_count(s->l); i++)
		for (int slot = 0; slot < s->nslots; slot++)
			print_event(s, i, slot, s->res[slot].sum, s->res[slot].stats,
				    s->elapsed.mean, "");
	if (!s->o->sep)
		print_footer(s);
}
