// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the scheduling pass's tables (libftc/analysis/
 * sched-tables.c): tasks found again by pid across the index's growth,
 * stacks interned once, off-CPU time summed per task, state and stack.
 * The pass itself is tested against the kernel and trace-cmd
 * (tests/host/sched.sh).
 */
#include <string.h>

#include "check.h"
#include "ftc.h"
#include "sched-tables.h"

static void test_tasks(void)
{
	struct sched_tasks t = { 0 };
	bool all = true, same = true;

	for (int pid = 1; pid <= 5000; pid++) {
		struct sched_task *k = ftc_sched_task_get(&t, pid * 7919);

		all &= k && k->t.pid == pid * 7919 && k->stack == -1;
		if (k)
			k->t.switches = (uint64_t)pid;
	}
	CHECK("5000 tasks added through the index's growth", all && t.n == 5000);
	for (int pid = 1; pid <= 5000; pid++) {
		struct sched_task *k = ftc_sched_task_get(&t, pid * 7919);

		same &= k && k->t.switches == (uint64_t)pid;
	}
	CHECK("each found again, none added twice", same && t.n == 5000);
	CHECK("a negative pid is a key like another", ftc_sched_task_get(&t, -5) &&
	      ftc_sched_task_get(&t, -5) == &t.v[5000] && t.n == 5001);
	ftc_sched_tasks_free(&t);
	CHECK("freed, empty", !t.n && !t.v);
}

static void test_stacks(void)
{
	struct sched_stacks s = { 0 };
	uint64_t a[] = { 1, 2, 3 }, b[] = { 1, 2, 4 }, c[] = { 1, 2 };
	int ia = ftc_sched_stack_id(&s, a, 3), ib = ftc_sched_stack_id(&s, b, 3);
	int ic = ftc_sched_stack_id(&s, c, 2);
	bool many = true;

	CHECK("three stacks, three ids", ia == 0 && ib == 1 && ic == 2);
	CHECK("the same stack again is the same id", ftc_sched_stack_id(&s, a, 3) == ia &&
	      ftc_sched_stack_id(&s, c, 2) == ic && s.n == 3);
	CHECK("a stack keeps its addresses", s.v[ib].n == 3 && s.ips[s.v[ib].off + 2] == 4);
	for (uint64_t i = 0; i < 3000; i++) {
		uint64_t d[] = { i, i + 1, 0xffffffff81000000ULL + i };

		many &= ftc_sched_stack_id(&s, d, 3) == (int)(3 + i);
	}
	CHECK("3000 more, each new, through the growth", many && s.n == 3003 &&
	      ftc_sched_stack_id(&s, b, 3) == ib);
	ftc_sched_stacks_free(&s);
}

static void test_offcpu(void)
{
	struct sched_offcpus o = { 0 };

	CHECK("a first entry", !ftc_sched_offcpu_add(&o, 0, 10, 'S', 4, -1, 100) && o.n == 1);
	CHECK("the same task, state and stack add up",
	      !ftc_sched_offcpu_add(&o, 0, 10, 'S', 4, -1, 50) && o.n == 1 && o.v[0].pub.ns == 150 &&
	      o.v[0].pub.count == 2);
	CHECK("another state is another entry", !ftc_sched_offcpu_add(&o, 0, 10, 'D', 4, -1, 7) &&
	      o.n == 2);
	CHECK("no stack (-1) is a key too", !ftc_sched_offcpu_add(&o, 0, 10, 'S', -1, -1, 1) &&
	      !ftc_sched_offcpu_add(&o, 0, 10, 'S', -1, -1, 1) && o.n == 3 && o.v[2].pub.ns == 2);
	for (size_t task = 1; task < 2000; task++)
		ftc_sched_offcpu_add(&o, task, (int)task, 'S', 1, -1, 1);
	CHECK("2000 tasks' entries", o.n == 3 + 1999);
	ftc_sched_offcpus_free(&o);
}

int main(void)
{
	test_tasks();
	test_stacks();
	test_offcpu();
	return CHECK_DONE();
}
