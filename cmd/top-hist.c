// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc top's hist-trigger source: where the kernel has hist triggers, the
 * syscall counts come from one on raw_syscalls:sys_enter keyed by
 * common_pid and id, so the kernel counts and ftc only reads the hist
 * file each refresh (parsed by ftc hist's parser). The event is then not
 * written to the ring buffer at all. The trigger goes through the
 * journal like every other knob, so every way out removes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-control.h"
#include "hist.h"
#include "top.h"

#define HIST_TRIGGER "hist:keys=common_pid,id:vals=hitcount:sort=hitcount:size=16384"
#define HIST_DIR "events/raw_syscalls/sys_enter/"

struct top_hist {
	char *instance;
};

struct top_hist *top_hist_start(struct ftc_state *st, const char *instance, char *why,
				size_t size)
{
	struct top_hist *h;
	char *text = NULL;

	/* kernels without CONFIG_HIST_TRIGGERS have no hist file */
	if (ftc_knob_read(instance, HIST_DIR "hist", &text) < 0) {
		snprintf(why, size, "no hist triggers in this kernel (%s)", ftc_strerror());
		return NULL;
	}
	free(text);
	if (ftc_knob_append(st, instance, HIST_DIR "trigger", HIST_TRIGGER) < 0) {
		snprintf(why, size, "hist trigger refused: %s", ftc_strerror());
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (h && instance && !(h->instance = strdup(instance))) {
		free(h);
		h = NULL;
	}
	return h;
}

static void add(struct top_model *m, uint64_t pid, uint64_t nr, uint64_t hits)
{
	struct top_entry *sc, *task;

	if (!top_model_pass(m, pid))
		return;
	sc = top_map_get(&m->map[TOP_VIEW_SYSCALL], nr);
	task = top_map_get(&m->map[TOP_VIEW_TASK], pid);
	if (sc)
		sc->count += hits;
	if (task)
		task->v[0] += hits;
}

/* The hist counts since the trigger was set (or cleared) replace the
 * syscall view's counts and the task view's syscall column. */
int top_hist_read(struct top_hist *h, struct top_model *m)
{
	struct hist_section *secs = NULL;
	struct top_map *map = &m->map[TOP_VIEW_SYSCALL];
	char *text = NULL;
	size_t n = 0, i, r;

	if (ftc_knob_read(h->instance, HIST_DIR "hist", &text) < 0 || hist_parse(text, &secs, &n) < 0) {
		free(text);
		return -1;
	}
	for (i = 0; i < map->cap; i++)
		map->e[i].count = 0;
	for (i = 0; i < m->map[TOP_VIEW_TASK].cap; i++)
		m->map[TOP_VIEW_TASK].e[i].v[0] = 0;
	for (i = 0; i < n; i++) {
		if (!secs[i].parsed || secs[i].nkeys != 2 || secs[i].nvals < 1 ||
		    !strstr(secs[i].info, "keys=common_pid,id:"))
			continue;
		for (r = 0; r < secs[i].nrows; r++) {
			struct hist_row *row = &secs[i].rows[r];

			add(m, strtoull(row->keys[0], NULL, 10), strtoull(row->keys[1], NULL, 10),
			    strtoull(row->vals[0], NULL, 10));
		}
	}
	hist_sections_free(secs, n);
	free(text);
	return 0;
}

void top_hist_clear(struct top_hist *h)
{
	/* ":clear" on the same trigger zeroes its table */
	ftc_knob_set(h->instance, HIST_DIR "trigger", HIST_TRIGGER ":clear", true);
}

void top_hist_free(struct top_hist *h)
{
	if (h)
		free(h->instance);
	free(h);
}
