/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc stat's parts: the options and the runs (stat.c), the table it prints
 * (stat-print.c), and the derived values (stat-metrics.c): perf's ratios
 * after each count and the named metrics of -M.
 */
#ifndef FTC_CMD_STAT_H
#define FTC_CMD_STAT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "ftc-perf.h"
#include "ftc-workload.h"

/* -e and -G in command-line order: a -G names cgroups for the events before it. */
struct stat_item {
	bool cgroup;
	const char *arg;
};

struct stat_opts {
	struct stat_item *items;
	int nitems;
	bool has_events;		/* an -e was given */
	bool all_cpus, no_aggr, list, null_run;
	int detailed;			/* how many -d */
	int big_num;			/* -B 1, --no-big-num 0, neither -1 (on, as perf) */
	const char *cpu_list;
	const char *pid_arg, *tid_arg;	/* -p, -t as typed, for the header */
	pid_t *ids;			/* their processes or threads */
	int nids;
	unsigned long long interval_ms, repeat;
	const char *sep;
	const char *output;
	char *metrics;			/* every -M list, joined by ',' */
};

struct slot_result {
	struct ftc_perf_count *sum;	/* per event, summed over runs */
	struct ftc_perf_stats *stats;	/* per event, scaled values over runs */
};

struct stat_metrics;

struct stat_state {
	struct stat_opts *o;
	struct ftc_perf_evlist *l;
	struct stat_metrics *metrics;	/* -M's, NULL without it */
	char **argv;
	FILE *out;
	bool big;			/* thousands separators */
	bool any_cgroup;		/* -G: lines have a cgroup column */
	int nslots;			/* CPUs shown apart (-A) or 1 */
	struct slot_result *res;
	struct ftc_perf_count *prev;	/* nslots * n, last interval reading */
	struct ftc_perf_stats elapsed;
	struct timespec t0;
	struct ftc_session *session;	/* the command, or the -p/-t targets, and their end */
	struct ftc_workload *w;		/* this run's command, NULL for none */
	bool exec_failed;		/* the command could not be run */
};

/* stat-print.c */
void stat_print_interval_header(struct stat_state *s);
/* One interval: d holds nslots * n deltas, at since_ns from the start, over wall_ns. */
void stat_print_interval(struct stat_state *s, const struct ftc_perf_count *d, double since_ns,
			 double wall_ns);
/* The header, each event's total (mean with -r) and the elapsed times. */
void stat_print_totals(struct stat_state *s);

/* stat-metrics.c */

/* A derived value shown after a count's '#'. */
struct stat_value {
	double v;
	char unit[64];
	bool has;
};

/* The counts of every event at one place (a CPU, or all), for the ratios. */
struct stat_counts {
	const double *v;
	const bool *ok;			/* counted (not refused, not idle) */
	double wall_ns;			/* the time they were counted over */
};

/* Whether every name of an -M list is a metric or a group; -1 with the message. */
int stat_metrics_check(const char *list);
/* Resolves -M's metrics, adding the events they read that the list lacks. */
int stat_metrics_setup(struct stat_state *s);
void stat_metrics_free(struct stat_metrics *m);
/* Prints the metrics and groups for --list. */
void stat_metrics_list(FILE *f);
/* perf's ratio for event i (CPUs utilized, GHz, insn per cycle, a rate...). */
void stat_shadow_value(const struct stat_state *s, int i, const struct stat_counts *c,
		       struct stat_value *out);
/* The -M metrics shown on event i's line, into out[max]; how many. */
int stat_named_values(const struct stat_state *s, int i, const struct stat_counts *c,
		      struct stat_value *out, int max);

#endif
