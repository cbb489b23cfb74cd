/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc sched's views (sched-print.c): the pass over the file, then the
 * latency table, the timehist lines, the off-CPU stacks or the delays'
 * histogram.
 */
#ifndef FTC_CMD_SCHED_PRINT_H
#define FTC_CMD_SCHED_PRINT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "live-record.h"
#include "pass.h"
#include "options.h"

struct ftc_reader;
struct ftc_heat;
struct ftc_sched;
struct ftc_sched_task;
struct ftc_sched_switch;
struct sched_map;

enum sched_view {
	SCHED_LATENCY, SCHED_TIMEHIST, SCHED_OFFCPU, SCHED_HIST, SCHED_MAP, SCHED_NVIEWS
};

enum sched_sort {
	SCHED_SORT_DEFAULT, SCHED_SORT_RUN, SCHED_SORT_SWITCHES, SCHED_SORT_DELAY,
	SCHED_SORT_MAX, SCHED_SORT_SLEEP, SCHED_SORT_BLOCK, SCHED_SORT_PID, SCHED_SORT_COMM,
};

struct sched_print {
	const char *input, *instance, *comm, *flame, *heatmap;
	int pid;
	int view;			/* enum sched_view */
	int sort;			/* enum sched_sort */
	unsigned long long limit;
	bool json, folded, per_task;
	struct cmd_window win;		/* --from, --to */
	struct ftc_reader *r;
	struct ftc_heat *heat;		/* with heatmap */
	struct sched_map *map;		/* the map view's */
	/* live (sched-live.c): -- COMMAND, or -a; recorded into live.path */
	char **live_argv;
	const char *duration;
	bool all;
	struct live_rec live;
};

/* KEY of --sort; -1 when it is none. */
int sched_print_sort_key(const char *key, int *sort);
/* A time as the line views print it: seconds and microseconds, as trace-cmd rounds them. */
void sched_print_ts(uint64_t ns);
/* Whether a task is in the -p/--comm selection. */
bool sched_print_selected(const struct sched_print *p, int pid, const char *comm);
/* Every record of r (of w's window; NULL: all) through s in time order, then finished: 0 or -1. */
int sched_print_pass(struct ftc_reader *r, struct ftc_sched *s, struct cmd_window *w);
/* Runs the pass and prints the view: an exit status. */
int sched_print_run(const struct command *cmd, struct sched_print *p);

/* Records what the view reads, then points p->input at it: an exit status. */
int sched_live_record(struct sched_print *p);
/* Removes what the recording left. */
void sched_live_clean(struct sched_print *p);
/* hist (sched-hist.c): the histograms, and the heat map fed by each delay. */
void sched_hist_print(const struct sched_print *p, const struct ftc_sched *s);
void sched_hist_heat_delay(const struct ftc_sched_task *t, uint64_t ts, uint64_t ns, void *ctx);
int sched_hist_heat_write(const struct command *cmd, const struct sched_print *p);
/* map (sched-map.c): a line per switch, fed by the pass (ctx: the sched_print). */
struct sched_map *sched_map_new(const struct sched_print *p, int ncpus);
void sched_map_free(struct sched_map *m);
void sched_map_head(const struct sched_map *m);
void sched_map_switch(const struct ftc_sched_switch *sw, void *ctx);
/* errno of a failure in the callbacks (out of memory), else 0 */
int sched_map_failed(const struct sched_map *m);

#endif
