// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the timeline's state machine (libftc/analysis/
 * timeline-model.c), fed switches and wakeups by hand: a slice per
 * switch-in and one head per CPU for the task running from before, the
 * states of a task through preemption, sleep, wakeup and block, and the
 * window and selection clipping and dropping what they should. The pass
 * over real records is tested against trace-cmd (tests/host/timeline.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ftc.h"
#include "timeline-model.h"

#define MAXGOT 64

struct got {
	struct ftc_timeline_slice sl[MAXGOT];
	struct ftc_timeline_state st[MAXGOT];
	struct ftc_timeline_mark mk[MAXGOT];
	int nsl, nst, nmk, npt;
};

static void on_slice(const struct ftc_timeline_slice *s, void *ctx)
{
	struct got *g = ctx;

	if (g->nsl < MAXGOT)
		g->sl[g->nsl++] = *s;
}

static void on_state(const struct ftc_timeline_state *s, void *ctx)
{
	struct got *g = ctx;

	if (g->nst < MAXGOT)
		g->st[g->nst++] = *s;
}

static void on_mark(const struct ftc_timeline_mark *m, void *ctx)
{
	struct got *g = ctx;

	if (g->nmk < MAXGOT)
		g->mk[g->nmk++] = *m;
}

static void on_point(const struct ftc_timeline_point *p, void *ctx)
{
	((struct got *)ctx)->npt++;
}

static void start(struct tl_model *m, struct got *g, struct ftc_timeline_opts *o)
{
	memset(g, 0, sizeof(*g));
	o->size = sizeof(*o);
	o->on_slice = on_slice;
	o->on_state = on_state;
	o->on_mark = on_mark;
	o->on_point = on_point;
	o->ctx = g;
	if (ftc_tl_init(m, o) < 0)
		abort();
}

/* A switch on cpu at ts, the record seen first as the pass does. */
static void sw(struct tl_model *m, int cpu, uint64_t ts, int prev, char state, int next)
{
	char pn[16], nn[16];

	snprintf(pn, sizeof(pn), "t%d", prev);
	snprintf(nn, sizeof(nn), "t%d", next);
	ftc_tl_seen(m, cpu, ts);
	ftc_tl_switch(m, cpu, ts, prev, pn, state, next, nn);
}

static int pid_of(struct tl_model *m, size_t task)
{
	return m->tasks[task].pub.pid;
}

/* CPU 0: 10 runs from before, 20 at 100, idle at 150, 10 at 200; ends at 300. */
static void test_slices(void)
{
	struct ftc_timeline_opts o = { 0 };
	struct tl_model m;
	struct got g;

	start(&m, &g, &o);
	ftc_tl_seen(&m, 0, 50);		/* the CPU's first record */
	sw(&m, 0, 100, 10, 'R', 20);
	sw(&m, 0, 150, 20, 'S', 0);
	sw(&m, 0, 200, 0, 'R', 10);
	ftc_tl_seen(&m, 0, 300);
	ftc_tl_finish(&m);
	CHECK("three slices: a head and two switch-ins", g.nsl == 3);
	CHECK("the head: 10 from the CPU's first record to its switch-out, preempted",
	      g.sl[0].head && pid_of(&m, g.sl[0].task) == 10 && g.sl[0].start == 50 &&
	      g.sl[0].end == 100 && g.sl[0].end_state == 'R');
	CHECK("20 from 100 to 150, left sleeping", !g.sl[1].head &&
	      pid_of(&m, g.sl[1].task) == 20 &&
	      g.sl[1].start == 100 && g.sl[1].end == 150 && g.sl[1].end_state == 'S');
	CHECK("idle draws nothing; 10 again from 200, running at the end", !g.sl[2].head &&
	      g.sl[2].start == 200 && g.sl[2].end == 300 && g.sl[2].end_state == 0);
	CHECK_STR("a task keeps the name of its switch", m.tasks[g.sl[1].task].pub.comm, "t20");
	CHECK("run time and slices per task", m.tasks[g.sl[0].task].pub.run_ns == 150 &&
	      m.tasks[g.sl[0].task].pub.slices == 2);
	ftc_tl_free(&m);
}

static const struct ftc_timeline_state *state_at(const struct got *g, int i)
{
	return i < g->nst ? &g->st[i] : NULL;
}

/* Task 7: running, preempted, back, sleeping, woken, running, blocked, woken. */
static void test_states(void)
{
	struct ftc_timeline_opts o = { 0 };
	const struct ftc_timeline_state *s, *sleep = NULL, *block = NULL;
	struct tl_model m;
	struct got g;
	char seq[16] = "";
	size_t n = 0;
	int last = -1;

	start(&m, &g, &o);
	sw(&m, 1, 10, 0, 'R', 7);
	sw(&m, 1, 20, 7, 'R', 8);	/* preempted */
	sw(&m, 1, 30, 8, 'S', 7);
	sw(&m, 1, 40, 7, 'S', 0);	/* to sleep */
	ftc_tl_seen(&m, 0, 55);
	ftc_tl_wakeup(&m, 7, 0, 55);	/* woken to CPU 0 */
	sw(&m, 0, 60, 0, 'R', 7);
	sw(&m, 0, 70, 7, 'D', 0);
	ftc_tl_seen(&m, 0, 90);
	ftc_tl_wakeup(&m, 7, 0, 90);
	ftc_tl_seen(&m, 0, 100);
	ftc_tl_finish(&m);
	for (int i = 0; i < g.nst && n + 1 < sizeof(seq); i++)
		if (pid_of(&m, g.st[i].task) == 7) {
			seq[n++] = g.st[i].state;
			last = i;
		}
	CHECK_STR("7's states in order", seq, "RWRSWRDW");
	s = state_at(&g, 0);
	CHECK("running from its switch-in to its preemption", s && s->start == 10 && s->end == 20);
	for (int i = 0; i < g.nst; i++) {
		if (pid_of(&m, g.st[i].task) == 7 && g.st[i].state == 'S')
			sleep = &g.st[i];
		if (pid_of(&m, g.st[i].task) == 7 && g.st[i].state == 'D')
			block = &g.st[i];
	}
	CHECK("asleep from its switch-out to its wakeup, on the CPU it left", sleep &&
	      sleep->start == 40 && sleep->end == 55 && sleep->cpu == 1);
	CHECK("blocked from 70 to 90", block && block->start == 70 && block->end == 90);
	CHECK("the last wakeup stays runnable to the end", last >= 0 &&
	      g.st[last].state == 'W' && g.st[last].start == 90 && g.st[last].end == 100);
	ftc_tl_free(&m);
}

/* Window [100, 200]: a slice across its start is a head, one after its end is not given. */
static void test_window(void)
{
	struct ftc_timeline_opts o = { .from = 100, .to = 200 };
	struct tl_model m;
	struct got g;
	bool inside = true;
	int past;

	start(&m, &g, &o);
	sw(&m, 0, 10, 0, 'R', 1);
	sw(&m, 0, 50, 1, 'S', 2);	/* 1: before the window, dropped */
	sw(&m, 0, 120, 2, 'S', 3);	/* 2: 50-120, a head from 100 */
	sw(&m, 0, 150, 3, 'R', 4);	/* 3: inside */
	ftc_tl_mark(&m, 0, 90, 4, "early", 5);
	ftc_tl_mark(&m, 0, 160, 4, "inside", 6);
	ftc_tl_lost(&m, 0, 170, 12);
	past = ftc_tl_seen(&m, 0, 250);
	ftc_tl_finish(&m);
	CHECK("a record past the window says so", past == 1);
	CHECK("three slices: a head and two switch-ins", g.nsl == 3);
	CHECK("the head is clipped to the window's start", g.sl[0].head && g.sl[0].start == 100 &&
	      g.sl[0].end == 120 && pid_of(&m, g.sl[0].task) == 2);
	CHECK("the one running at the end is clipped to the window's end", !g.sl[2].head &&
	      g.sl[2].start == 150 && g.sl[2].end == 200 && pid_of(&m, g.sl[2].task) == 4);
	CHECK("the marker inside and the lost events, not the one before", g.nmk == 2 &&
	      g.mk[0].len == 6 && !memcmp(g.mk[0].text, "inside", 6) && !g.mk[1].text &&
	      g.mk[1].missed == 12);
	for (int i = 0; i < g.nst; i++)
		inside &= g.st[i].start >= 100 && g.st[i].end <= 200;
	CHECK("each state inside the window", g.nst > 0 && inside);
	ftc_tl_free(&m);
}

/* --cpu 1 and --pid 5: the slices of the others are not given. */
static void test_select(void)
{
	uint64_t mask[16] = { 1u << 1 };
	int pids[] = { 5 };
	struct ftc_timeline_opts o = { .cpu_mask = mask, .pids = pids, .npids = 1 };
	struct tl_model m;
	struct got g;
	bool only = true;

	start(&m, &g, &o);
	sw(&m, 0, 10, 0, 'R', 5);
	sw(&m, 1, 11, 0, 'R', 6);
	sw(&m, 1, 20, 6, 'S', 5);
	sw(&m, 0, 21, 5, 'S', 6);
	ftc_tl_point(&m, 1, 25, 5, NULL, 1);
	ftc_tl_point(&m, 1, 26, 6, NULL, 1);
	ftc_tl_point(&m, 0, 27, 5, NULL, 1);
	ftc_tl_point(&m, 1, 28, 0, "cycles", 1000);
	ftc_tl_seen(&m, 1, 30);
	ftc_tl_finish(&m);
	CHECK("one slice: 5 on CPU 1", g.nsl == 1 && g.sl[0].cpu == 1 &&
	      pid_of(&m, g.sl[0].task) == 5 && g.sl[0].start == 20);
	for (int i = 0; i < g.nst; i++)
		only &= pid_of(&m, g.st[i].task) == 5 && g.st[i].cpu == 1;
	CHECK("the states given are 5's on CPU 1", g.nst > 0 && only);
	CHECK("samples of 5 on CPU 1, and the counter", g.npt == 2);
	CHECK("6 is not shown", !m.tasks[ftc_keytab_find(&m.keys, 6)].pub.shown);
	ftc_tl_free(&m);
}

/* Lost events between: a switch-out of another task than the one switched in. */
static void test_mismatch(void)
{
	struct ftc_timeline_opts o = { 0 };
	struct tl_model m;
	struct got g;

	start(&m, &g, &o);
	sw(&m, 0, 10, 0, 'R', 1);
	sw(&m, 0, 20, 2, 'S', 3);	/* 1's switch-out and 2's switch-in were lost */
	ftc_tl_seen(&m, 0, 30);
	ftc_tl_finish(&m);
	CHECK("1's slice ends at the next switch, how it left not known", g.nsl == 2 &&
	      pid_of(&m, g.sl[0].task) == 1 && g.sl[0].end == 20 && !g.sl[0].end_state);
	CHECK("2's is not drawn: its start is not known", pid_of(&m, g.sl[1].task) == 3);
	ftc_tl_free(&m);
}

static void test_opts(void)
{
	struct ftc_timeline_opts o = { .size = sizeof(o), .from = 20, .to = 10 };
	struct tl_model m;

	CHECK("a window that starts after it ends is refused", ftc_tl_init(&m, &o) < 0);
}

int main(void)
{
	test_slices();
	test_states();
	test_window();
	test_select();
	test_mismatch();
	test_opts();
	return CHECK_DONE();
}
