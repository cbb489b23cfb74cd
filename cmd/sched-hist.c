// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc sched hist: the scheduling delays (woken or preempted, to switched
 * in) as a log2 histogram with percentiles, over the selected tasks or per
 * task, and as a heat map SVG over the run (time across, delay up).
 */
#include <stdio.h>
#include <string.h>

#include "log2-hist.h"
#include "output.h"
#include "sched-print.h"
#include "ftc.h"
#include "ftc-heat.h"
#include "ftc-sched.h"

static void add_task(struct ftc_sched_task *sum, const struct ftc_sched_task *t)
{
	for (int b = 0; b < FTC_SCHED_BUCKETS; b++)
		sum->hist[b] += t->hist[b];
	sum->delays += t->delays;
	if (t->lost_gaps > sum->lost_gaps)
		sum->lost_gaps = t->lost_gaps;
	sum->delay_ns += t->delay_ns;
	if (t->delay_max_ns >= sum->delay_max_ns) {
		sum->delay_max_ns = t->delay_max_ns;
		sum->delay_max_at = t->delay_max_at;
	}
}

static void histogram(const char *what, const struct ftc_sched_task *t)
{
	printf("# %s: %llu delays (woken or preempted, to switched in)\n", what,
	       (unsigned long long)t->delays);
	if (t->lost_gaps)
		printf("# ! events were lost while followed (%llu gaps): counts may be short\n",
		       (unsigned long long)t->lost_gaps);
	if (!t->delays)
		return;
	cmd_log2_hist(t->hist, FTC_SCHED_BUCKETS, 1);
	printf("p50 %.1f us, p90 %.1f us, p99 %.1f us, max %.1f us at %.6f, average %.1f us\n\n",
	       (double)ftc_sched_percentile(t, 50) / 1e3, (double)ftc_sched_percentile(t, 90) / 1e3,
	       (double)ftc_sched_percentile(t, 99) / 1e3, (double)t->delay_max_ns / 1e3,
	       (double)t->delay_max_at / 1e9, (double)t->delay_ns / 1e3 / (double)t->delays);
}

void sched_hist_print(const struct sched_print *p, const struct ftc_sched *s)
{
	struct ftc_sched_task sum = { .pid = -1 };
	char what[64];

	for (size_t i = 0; i < ftc_sched_ntasks(s); i++) {
		const struct ftc_sched_task *t = ftc_sched_task_at(s, i);

		if (!sched_print_selected(p, t->pid, t->comm))
			continue;
		add_task(&sum, t);
		if (p->per_task && t->delays) {
			snprintf(what, sizeof(what), "%s[%d]", t->comm, t->pid);
			histogram(what, t);
		}
	}
	if (p->pid || p->comm)
		snprintf(what, sizeof(what), "the selected tasks");
	else
		snprintf(what, sizeof(what), "all tasks");
	histogram(what, &sum);
}

void sched_hist_heat_delay(const struct ftc_sched_task *t, uint64_t ts, uint64_t ns, void *ctx)
{
	struct sched_print *p = ctx;

	if (sched_print_selected(p, t->pid, t->comm))
		ftc_heat_add(p->heat, ts, ns);
}

int sched_hist_heat_write(const struct command *cmd, const struct sched_print *p)
{
	char title[160];
	FILE *f = cmd_output_open(cmd, p->heatmap);

	if (!f)
		return -1;
	snprintf(title, sizeof(title), "Scheduling delay of %s in %s: %llu delays",
		 p->pid || p->comm ? "the selected tasks" : "all tasks", p->input,
		 (unsigned long long)ftc_heat_count(p->heat));
	/* a failed write shows in the stream: the close reports it */
	ftc_heat_svg(f, p->heat, title);
	if (cmd_output_close(cmd, f, p->heatmap) < 0)
		return -1;
	fprintf(stderr, "ftc sched: %llu delays drawn into %s\n",
		(unsigned long long)ftc_heat_count(p->heat), p->heatmap);
	return 0;
}
