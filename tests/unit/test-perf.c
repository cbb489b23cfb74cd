// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the perf bridge: event names, lists, scaling, statistics. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-perf.h"

static void test_names(void)
{
	struct perf_event_attr a;
	enum ftc_perf_kind k;

	CHECK("cycles resolves", !ftc_perf_event_resolve("cycles", &a, &k) &&
	      a.type == PERF_TYPE_HARDWARE && a.config == PERF_COUNT_HW_CPU_CYCLES &&
	      k == FTC_PERF_HARDWARE);
	CHECK("faults alias", !ftc_perf_event_resolve("faults", &a, &k) &&
	      a.type == PERF_TYPE_SOFTWARE && a.config == PERF_COUNT_SW_PAGE_FAULTS);
	CHECK("cache event", !ftc_perf_event_resolve("L1-dcache-load-misses", &a, &k) &&
	      a.type == PERF_TYPE_HW_CACHE && k == FTC_PERF_CACHE &&
	      a.config == (PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
			   (PERF_COUNT_HW_CACHE_RESULT_MISS << 16)));
	CHECK("LLC stores", !ftc_perf_event_resolve("LLC-stores", &a, &k) &&
	      a.config == (PERF_COUNT_HW_CACHE_LL | (PERF_COUNT_HW_CACHE_OP_WRITE << 8)));
	CHECK("raw event", !ftc_perf_event_resolve("r01c2", &a, &k) &&
	      a.type == PERF_TYPE_RAW && a.config == 0x1c2 && k == FTC_PERF_RAW);
	CHECK(":u excludes kernel and hv", !ftc_perf_event_resolve("page-faults:u", &a, &k) &&
	      !a.exclude_user && a.exclude_kernel && a.exclude_hv);
	CHECK(":k excludes user", !ftc_perf_event_resolve("task-clock:k", &a, &k) &&
	      a.exclude_user && !a.exclude_kernel);
	CHECK("no modifier excludes nothing", !ftc_perf_event_resolve("cs", &a, &k) &&
	      !a.exclude_user && !a.exclude_kernel);
	CHECK("unknown name is EINVAL", ftc_perf_event_resolve("cyclez", &a, &k) < 0 &&
	      errno == EINVAL);
	CHECK("unknown name is named", strstr(ftc_strerror(), "'cyclez'") != NULL);
	CHECK("bad modifier is EINVAL", ftc_perf_event_resolve("cycles:q", &a, &k) < 0 &&
	      errno == EINVAL);
	CHECK("bad raw is EINVAL", ftc_perf_event_resolve("rxyz", &a, &k) < 0);
	if (access("/sys/kernel/tracing/events/sched/sched_switch/id", R_OK)) {
		SKIP("tracepoint id", "no tracefs sched:sched_switch here");
		return;
	}
	CHECK("tracepoint resolves", !ftc_perf_event_resolve("sched:sched_switch", &a, &k) &&
	      a.type == PERF_TYPE_TRACEPOINT && a.config > 0 && k == FTC_PERF_TRACEPOINT);
	CHECK("tracepoint with modifier", !ftc_perf_event_resolve("sched:sched_switch:k", &a, &k) &&
	      a.exclude_user);
	CHECK("missing tracepoint is ENOENT",
	      ftc_perf_event_resolve("sched:no_such_event", &a, &k) < 0 && errno == ENOENT);
}

static void test_lists(void)
{
	struct ftc_perf_evlist *l = ftc_perf_evlist_new();
	const struct ftc_perf_event *e0, *e1, *e2, *e3;
	int n;

	n = ftc_perf_evlist_add(l, "task-clock,{page-faults,cs}:u,cycles");
	CHECK("list of 4", n == 4 && ftc_perf_evlist_count(l) == 4);
	e0 = ftc_perf_evlist_event(l, 0);
	e1 = ftc_perf_evlist_event(l, 1);
	e2 = ftc_perf_evlist_event(l, 2);
	e3 = ftc_perf_evlist_event(l, 3);
	CHECK("events 0 to 3, none past them", e0 && e1 && e2 && e3 &&
	      !ftc_perf_evlist_event(l, 4) && !ftc_perf_evlist_event(l, -1));
	if (!e0 || !e1 || !e2 || !e3) {
		ftc_perf_evlist_free(l);
		return;
	}
	CHECK("singletons lead themselves",
	      ftc_perf_event_leader(e0) == 0 && ftc_perf_event_leader(e3) == 3);
	CHECK("group leader", ftc_perf_event_leader(e1) == 1 && ftc_perf_event_leader(e2) == 1);
	CHECK_STR("group modifier on members", ftc_perf_event_name(e2), "cs:u");
	CHECK("group modifier applied", ftc_perf_event_attr(e2)->exclude_kernel);
	CHECK("kinds", ftc_perf_event_kind(e0) == FTC_PERF_SOFTWARE &&
	      ftc_perf_event_kind(e3) == FTC_PERF_HARDWARE);
	CHECK("task-clock is a clock", ftc_perf_event_is_clock(e0) && !ftc_perf_event_is_clock(e3));
	CHECK("not opened: no refusal", ftc_perf_event_open_errno(e3) == 0);
	CHECK("no target yet: no CPU slot",
	      ftc_perf_evlist_ncpus(l) == 0 && ftc_perf_evlist_cpu(l, 0) == -1);
	CHECK("a target's CPU slots",
	      ftc_perf_evlist_target(l, NULL, 0, (const int[]){ 2, 5 }, 2) == 0 &&
	      ftc_perf_evlist_ncpus(l) == 2 && ftc_perf_evlist_cpu(l, 1) == 5 &&
	      ftc_perf_evlist_cpu(l, 2) == -1);
	ftc_perf_evlist_free(l);
	ftc_perf_evlist_free(NULL);
	l = ftc_perf_evlist_new();
	CHECK("unclosed group", ftc_perf_evlist_add(l, "{cs,faults") < 0);
	ftc_perf_evlist_free(l);
	l = ftc_perf_evlist_new();
	CHECK("empty name", ftc_perf_evlist_add(l, "cs,,faults") < 0);
	ftc_perf_evlist_free(l);
	l = ftc_perf_evlist_new();
	CHECK("glob on a symbolic name", ftc_perf_evlist_add(l, "cyc*") < 0);
	ftc_perf_evlist_free(l);
	if (access("/sys/kernel/tracing/events/sched/sched_switch/id", R_OK)) {
		SKIP("tracepoint glob", "no tracefs here");
		return;
	}
	l = ftc_perf_evlist_new();
	n = ftc_perf_evlist_add(l, "{sched:sched_switc*,sched:sched_wakeup}");
	e0 = ftc_perf_evlist_event(l, 0);
	e1 = ftc_perf_evlist_event(l, 1);
	CHECK("glob in a group", n == 2 && e1 && ftc_perf_event_leader(e1) == 0);
	CHECK_STR("glob expands to the full name", e0 ? ftc_perf_event_name(e0) : NULL,
		  "sched:sched_switch");
	ftc_perf_evlist_free(l);
}

static void test_counts(void)
{
	struct ftc_perf_count c = { .val = 1000, .ena = 200, .run = 50 }, a, d;
	struct ftc_perf_stats s = { 0 };
	int *cpus = NULL;

	CHECK("multiplexed count is scaled", fabs(ftc_perf_count_scaled(&c) - 4000) < 1e-9);
	CHECK("running percentage", fabs(ftc_perf_count_running_pct(&c) - 25) < 1e-9);
	c.run = 200;
	CHECK("unmultiplexed count is exact", ftc_perf_count_scaled(&c) == 1000);
	c.run = 0;
	CHECK("never-run count stays raw", ftc_perf_count_scaled(&c) == 1000);
	a = (struct ftc_perf_count){ .val = 1500, .ena = 300, .run = 100 };
	ftc_perf_count_sub(&d, &a, &c);
	CHECK("interval delta", d.val == 500 && d.ena == 100 && d.run == 100);
	ftc_perf_stats_add(&s, 10);
	ftc_perf_stats_add(&s, 12);
	ftc_perf_stats_add(&s, 14);
	CHECK("mean", fabs(s.mean - 12) < 1e-9);
	/* sample stddev 2, of the mean 2/sqrt(3) */
	CHECK("stddev of the mean", fabs(ftc_perf_stats_stddev_mean(&s) - 2 / sqrt(3)) < 1e-9);
	CHECK("relative spread",
	      fabs(ftc_perf_stats_rel_stddev(&s) - 100 * 2 / sqrt(3) / 12) < 1e-9);
	CHECK("cpu list", ftc_perf_parse_cpus("0", &cpus) == 1 && cpus[0] == 0);
	free(cpus);
	CHECK("bad cpu list", ftc_perf_parse_cpus("1-0", &cpus) < 0);
	CHECK("cpu beyond the machine", ftc_perf_parse_cpus("100000", &cpus) < 0);
	CHECK("online cpus", ftc_perf_parse_cpus(NULL, &cpus) >= 1);
	free(cpus);
}

static void test_cgroups(void)
{
	struct ftc_perf_evlist *l = ftc_perf_evlist_new();
	pid_t self = getpid();

	if (!l || ftc_perf_evlist_add(l, "task-clock,page-faults") != 2) {
		CHECK("a list for the cgroup checks", 0);
		ftc_perf_evlist_free(l);
		return;
	}
	CHECK("no cgroup at first", !ftc_perf_event_cgroup(ftc_perf_evlist_event(l, 0)));
	CHECK("'..' climbs out of the mount: EINVAL",
	      ftc_perf_evlist_cgroup(l, 0, "a/../../etc") < 0 && errno == EINVAL);
	CHECK("a missing cgroup is ENOENT",
	      ftc_perf_evlist_cgroup(l, 0, "ftc-unit-no-such-cgroup") < 0 && errno == ENOENT);
	CHECK("... and named", strstr(ftc_strerror(), "'ftc-unit-no-such-cgroup'") != NULL);
	CHECK("an event out of range is EINVAL", ftc_perf_evlist_cgroup(l, 2, "/") < 0 &&
	      errno == EINVAL);
	if (ftc_perf_evlist_cgroup(l, 1, "/") < 0) {
		SKIP("the root cgroup", ftc_strerror());
		ftc_perf_evlist_free(l);
		return;
	}
	CHECK_STR("the root cgroup is set", ftc_perf_event_cgroup(ftc_perf_evlist_event(l, 1)), "/");
	CHECK("a cgroup event does not count per task: EINVAL",
	      !ftc_perf_evlist_target(l, &self, 1, NULL, 0) && ftc_perf_evlist_open(l, 0) < 0 &&
	      errno == EINVAL && strstr(ftc_strerror(), "cgroup '/'"));
	CHECK("NULL forgets the cgroup", !ftc_perf_evlist_cgroup(l, 1, NULL) &&
	      !ftc_perf_event_cgroup(ftc_perf_evlist_event(l, 1)));
	ftc_perf_evlist_free(l);
}

int main(void)
{
	test_names();
	test_lists();
	test_counts();
	test_cgroups();
	return CHECK_DONE();
}
