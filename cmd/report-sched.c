// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc report --profile: trace-cmd's profile of the scheduler's events, in
 * its layout, from the library's scheduling pass: per task (by pid), the
 * time from each switch-out to the next switch-in by the state it left in
 * (sched_switch:R, :S, :D) with the kernel stacks of the S and D ones,
 * and from each wakeup to the switch-in (sched_wakeup:PID). Times in ns,
 * the ts of a maximum or minimum is the switch-in that ended it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <traceevent/event-parse.h>

#include "output.h"
#include "report-sched.h"
#include "sched-print.h"
#include "ftc.h"
#include "ftc-sched.h"

extern const struct command cmd_report;

/* As trace-cmd prints a time: the microseconds rounded, without a carry. */
static void ts(uint64_t t)
{
	printf("(ts:%" PRIu64 ".%06" PRIu64 ")", t / 1000000000, (t % 1000000000 + 500) / 1000);
}

static void event_line(const char *name, const struct ftc_sched_span *sp)
{
	printf("  Event: %s (%" PRIu64 ") Total: %" PRIu64 " Avg: %" PRIu64 " Max: %" PRIu64, name,
	       sp->count, sp->total_ns, sp->total_ns / sp->count, sp->max_ns);
	ts(sp->max_at);
	printf(" Min:%" PRIu64, sp->min_ns);
	ts(sp->min_at);
	printf("\n");
}

/* The off-CPU time of one task in one state, under any stack. */
static uint64_t offcpu_ns(const struct ftc_sched *s, int pid, char state)
{
	uint64_t ns = 0;

	for (size_t i = 0; i < ftc_sched_noffcpu(s); i++) {
		const struct ftc_sched_offcpu *o = ftc_sched_offcpu_at(s, i);

		if (o->pid == pid && o->state == state)
			ns += o->ns;
	}
	return ns;
}

/*
 * The S or D entries of one task: a branch per stack, with its share of
 * the task's off-CPU time in that state (switch-out to switch-in), then
 * its frames.
 */
static void stacks(struct tep_handle *tep, const struct ftc_sched *s, int pid, char state)
{
	uint64_t all = offcpu_ns(s, pid, state);
	bool head = false;

	for (size_t i = 0; i < ftc_sched_noffcpu(s); i++) {
		const struct ftc_sched_offcpu *o = ftc_sched_offcpu_at(s, i);

		if (o->pid != pid || o->state != state || !o->nips)
			continue;
		if (!head)
			printf("          | \n");
		head = true;
		for (size_t k = 0; k < o->nips; k++) {
			const char *f = tep_find_function(tep, o->ips[k]);

			printf(k ? "               " : "          + ");
			printf(f ? "%s (0x%" PRIx64 ")\n" : "%s0x%" PRIx64 "\n", f ? f : "",
			       o->ips[k]);
			if (!k)
				printf("              %d%% (%" PRIu64 ") time:%" PRIu64 " avg:%" PRIu64
				       "\n", all ? (int)(o->ns * 100 / all) : 0,
				       o->count, o->ns, o->ns / o->count);
		}
		printf("            \n");
	}
}

static int by_pid(const void *a, const void *b)
{
	int x = (*(const struct ftc_sched_task *const *)a)->pid;
	int y = (*(const struct ftc_sched_task *const *)b)->pid;

	return (x > y) - (x < y);
}

static void task(struct tep_handle *tep, const struct ftc_sched *s, const struct ftc_sched_task *t)
{
	char name[40];

	printf("\ntask: %s-%d\n", t->comm, t->pid);
	if (t->off_r.count)
		event_line("sched_switch:R", &t->off_r);
	if (t->off_s.count) {
		event_line("sched_switch:S", &t->off_s);
		stacks(tep, s, t->pid, 'S');
	}
	if (t->off_d.count) {
		event_line("sched_switch:D", &t->off_d);
		stacks(tep, s, t->pid, 'D');
	}
	/* trace-cmd prints the pid, its value, in hex */
	snprintf(name, sizeof(name), "sched_wakeup:0x%x", (unsigned int)t->pid);
	if (t->woken.count)
		event_line(name, &t->woken);
}

static int print(struct ftc_reader *r, const struct ftc_sched *s)
{
	size_t n = ftc_sched_ntasks(s);
	const struct ftc_sched_task **v = calloc(n + 1, sizeof(*v));

	if (!v)
		return ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		v[i] = ftc_sched_task_at(s, i);
	qsort(v, n, sizeof(*v), by_pid);
	for (size_t i = 0; i < n && !cmd_output_failed(); i++)
		task(ftc_reader_tep(r), s, v[i]);
	free(v);
	return 0;
}

int report_sched_profile(struct ftc_reader *r, const char *path, const char *instance)
{
	struct ftc_sched_opts o = FTC_OPTS_INIT(ftc_sched_opts, .instance = instance);
	struct ftc_sched *s = ftc_sched_new(r, &o);
	int status = FTC_EXIT_FAIL;

	if (!s) {
		cmd_error(&cmd_report, "--profile: %s: %s", path, ftc_strerror());
		return errno == ENOENT ? FTC_EXIT_REFUSED : FTC_EXIT_FAIL;
	}
	if (sched_print_pass(r, s, NULL) < 0 || print(r, s) < 0) {
		cmd_error(&cmd_report, "%s", ftc_strerror());
		goto out;
	}
	if (!ftc_sched_seen(s, "sched_switch")) {
		cmd_error(&cmd_report, "--profile: %s has no sched_switch record: record it (ftc "
			  "sched record)", path);
		status = FTC_EXIT_REFUSED;
		goto out;
	}
	if (!ftc_sched_seen(s, "sched_wakeup") && !ftc_sched_seen(s, "sched_waking"))
		fprintf(stderr, "ftc report: %s has no sched_wakeup: no wakeup latency\n", path);
	if (ftc_sched_total(s)->lost_gaps)
		fprintf(stderr, "ftc report: %llu events were lost (%llu gaps): the times that "
			"depend on them are short\n", (unsigned long long)ftc_sched_lost(s),
			(unsigned long long)ftc_sched_total(s)->lost_gaps);
	status = FTC_EXIT_OK;
out:
	ftc_sched_free(s);
	return status;
}
