// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The timeline pass (ftc-timeline.h): the fields of sched_switch,
 * sched_wakeup(_new), ftrace print, and ftc_perf's sample and counter
 * records, read at their offsets and fed to the state machine
 * (timeline-model.c). Slices come from sched_switch alone: a task's
 * other records do not start one, so that each slice is one switch-in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "pass-util.h"
#include "timeline-model.h"

enum tl_kind { K_SWITCH, K_WAKEUP, K_WAKEUP_NEW, K_WAKING, K_PRINT, K_SAMPLE, K_COUNTER, NKINDS };

static const struct { const char *sys, *name; } events[NKINDS] = {
	[K_SWITCH] = { "sched", "sched_switch" }, [K_WAKEUP] = { "sched", "sched_wakeup" },
	[K_WAKEUP_NEW] = { "sched", "sched_wakeup_new" }, [K_WAKING] = { "sched", "sched_waking" },
	[K_PRINT] = { "ftrace", "print" }, [K_SAMPLE] = { "ftc_perf", "sample" },
	[K_COUNTER] = { "ftc_perf", "counter" },
};

enum tl_field {
	F_PREV_PID, F_PREV_STATE, F_PREV_COMM, F_NEXT_PID, F_NEXT_COMM,
	F_WAKE_PID, F_WAKE_CPU, F_NEW_PID, F_NEW_CPU, F_WAKING_PID, F_WAKING_CPU, F_BUF,
	F_SAMPLE_TID, F_SAMPLE_CPU, F_SAMPLE_PERIOD, F_COUNTER_VALUE, F_COUNTER_NAME, NFIELDS
};

static const struct { enum tl_kind kind; const char *name; } fields[NFIELDS] = {
	[F_PREV_PID] = { K_SWITCH, "prev_pid" }, [F_PREV_STATE] = { K_SWITCH, "prev_state" },
	[F_PREV_COMM] = { K_SWITCH, "prev_comm" }, [F_NEXT_PID] = { K_SWITCH, "next_pid" },
	[F_NEXT_COMM] = { K_SWITCH, "next_comm" }, [F_WAKE_PID] = { K_WAKEUP, "pid" },
	[F_WAKE_CPU] = { K_WAKEUP, "target_cpu" }, [F_NEW_PID] = { K_WAKEUP_NEW, "pid" },
	[F_NEW_CPU] = { K_WAKEUP_NEW, "target_cpu" }, [F_WAKING_PID] = { K_WAKING, "pid" },
	[F_WAKING_CPU] = { K_WAKING, "target_cpu" }, [F_BUF] = { K_PRINT, "buf" },
	[F_SAMPLE_TID] = { K_SAMPLE, "tid" }, [F_SAMPLE_CPU] = { K_SAMPLE, "cpu" },
	[F_SAMPLE_PERIOD] = { K_SAMPLE, "period" }, [F_COUNTER_VALUE] = { K_COUNTER, "value" },
	[F_COUNTER_NAME] = { K_COUNTER, "name" },
};

struct ftc_timeline {
	struct ftc_reader *r;
	struct tep_handle *tep;
	struct tl_model m;
	int buffer;			/* the buffer read, -1 until chosen */
	int id[NKINDS];			/* each event's id, -1 when the file has no format */
	struct tep_format_field *f[NFIELDS];
	uint64_t lost;
	bool wakeup_seen;		/* a sched_wakeup was read: no sched_waking stands in */
};

static int look_up(struct ftc_timeline *t)
{
	for (int k = 0; k < NKINDS; k++) {
		struct tep_event *e = ftc_reader_find_event(t->r, events[k].sys, events[k].name);

		t->id[k] = e ? e->id : -1;
	}
	for (int i = 0; i < NFIELDS; i++) {
		int id = t->id[fields[i].kind];
		struct tep_event *e = id >= 0 ? tep_find_event(t->tep, id) : NULL;

		t->f[i] = e ? tep_find_field(e, fields[i].name) : NULL;
	}
	if (!t->f[F_PREV_PID] || !t->f[F_PREV_STATE] || !t->f[F_NEXT_PID])
		return ftc_error(ENOENT, "the file has no sched:sched_switch with its prev_pid, "
				 "prev_state and next_pid fields: record it (ftc record -e "
				 "sched:sched_switch -e sched:sched_wakeup ...)");
	return 0;
}

struct ftc_timeline *ftc_timeline_new(struct ftc_reader *r, const struct ftc_timeline_opts *o)
{
	struct ftc_timeline *t = calloc(1, sizeof(*t));

	if (!t) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	t->r = r;
	t->tep = ftc_reader_tep(r);
	t->buffer = -1;
	if (ftc_tl_init(&t->m, o) < 0 || look_up(t) < 0) {
		ftc_timeline_free(t);
		return NULL;
	}
	return t;
}

void ftc_timeline_free(struct ftc_timeline *t)
{
	if (!t)
		return;
	ftc_tl_free(&t->m);
	free(t);
}

static long long num(const struct ftc_timeline *t, enum tl_field f, const struct tep_record *rec)
{
	return ftc_pass_int(t->f[f], rec);
}

/* A fixed char array (a comm) into buf, which holds 17. */
static const char *text(const struct ftc_timeline *t, enum tl_field f,
			const struct tep_record *rec, char *buf)
{
	return ftc_pass_comm(t->f[f], rec, buf) ? buf : NULL;
}

static int on_switch(struct ftc_timeline *t, const struct tep_record *rec, int cpu)
{
	char prev[17], next[17];

	return ftc_tl_switch(&t->m, cpu, rec->ts, (int)num(t, F_PREV_PID, rec),
			     text(t, F_PREV_COMM, rec, prev),
			     ftc_pass_state_letter(num(t, F_PREV_STATE, rec)),
			     (int)num(t, F_NEXT_PID, rec), text(t, F_NEXT_COMM, rec, next));
}

static int on_wakeup(struct ftc_timeline *t, const struct tep_record *rec, int cpu,
		     enum tl_field pid, enum tl_field target)
{
	int to = t->f[target] ? (int)num(t, target, rec) : cpu;

	return ftc_tl_wakeup(&t->m, (int)num(t, pid, rec), to, rec->ts);
}

/* A print's text: its buf runs to the record's end; the NUL and newline are not text. */
static int on_print(struct ftc_timeline *t, const struct tep_record *rec, int cpu)
{
	const struct tep_format_field *f = t->f[F_BUF];
	const char *s;
	size_t len;

	if (!f || f->offset < 0 || rec->size <= f->offset)
		return 0;
	s = (const char *)rec->data + f->offset;
	len = strnlen(s, (size_t)(rec->size - f->offset));
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	return ftc_tl_mark(&t->m, cpu, rec->ts, tep_data_pid(t->tep, (struct tep_record *)rec),
			   s, len);
}

/* A counter's name: a __data_loc string. */
static int on_counter(struct ftc_timeline *t, const struct tep_record *rec, int cpu)
{
	const struct tep_format_field *f = t->f[F_COUNTER_NAME];
	char name[64];
	size_t len = 0;
	const char *s = f && (f->flags & TEP_FIELD_IS_DYNAMIC) ? ftc_pass_bytes(f, rec, &len) : NULL;

	if (!s || !len)
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)len, s);
	return ftc_tl_point(&t->m, cpu, rec->ts, 0, name, (uint64_t)num(t, F_COUNTER_VALUE, rec));
}

static int on_sample(struct ftc_timeline *t, const struct tep_record *rec, int cpu)
{
	if (t->f[F_SAMPLE_CPU])
		cpu = (int)num(t, F_SAMPLE_CPU, rec);
	return ftc_tl_point(&t->m, cpu, rec->ts, (int)num(t, F_SAMPLE_TID, rec), NULL,
			    (uint64_t)num(t, F_SAMPLE_PERIOD, rec));
}

static enum tl_kind kind_of(const struct ftc_timeline *t, int type)
{
	for (int k = 0; k < NKINDS; k++)
		if (t->id[k] == type)
			return (enum tl_kind)k;
	return NKINDS;
}

static int dispatch(struct ftc_timeline *t, enum tl_kind kind, const struct tep_record *rec,
		    int cpu)
{
	switch (kind) {
	case K_SWITCH: return on_switch(t, rec, cpu);
	case K_WAKEUP:
		t->wakeup_seen = true;
		return on_wakeup(t, rec, cpu, F_WAKE_PID, F_WAKE_CPU);
	case K_WAKEUP_NEW: return on_wakeup(t, rec, cpu, F_NEW_PID, F_NEW_CPU);
	case K_WAKING:
		return t->wakeup_seen ? 0 : on_wakeup(t, rec, cpu, F_WAKING_PID, F_WAKING_CPU);
	case K_PRINT: return on_print(t, rec, cpu);
	default: return 0;
	}
}

int ftc_timeline_add(struct ftc_timeline *t, const struct ftc_merge_record *mr)
{
	const struct tep_record *rec = mr->rec;
	enum tl_kind kind = kind_of(t, tep_data_type(t->tep, (struct tep_record *)rec));
	bool ours = kind == K_SWITCH || kind == K_WAKEUP || kind == K_WAKEUP_NEW ||
		    kind == K_WAKING || kind == K_PRINT;

	/* ftc_perf's buffer: not the one read, but of its tasks and CPUs */
	if (kind == K_SAMPLE || kind == K_COUNTER) {
		if (rec->ts > t->m.to)
			return 1;
		if (rec->ts > t->m.last)
			t->m.last = rec->ts;	/* drawn to the last sample, too */
		return kind == K_SAMPLE ? on_sample(t, rec, mr->cpu) : on_counter(t, rec, mr->cpu);
	}
	if (!ftc_pass_buffer(t->r, t->m.o.instance, ours, mr, &t->buffer, &t->lost))
		return 0;
	if (ftc_tl_seen(&t->m, mr->cpu, rec->ts) > 0)
		return 1;
	if (mr->missed)
		ftc_tl_lost(&t->m, mr->cpu, rec->ts, mr->missed);
	return dispatch(t, kind, rec, mr->cpu);
}

void ftc_timeline_finish(struct ftc_timeline *t)
{
	ftc_tl_finish(&t->m);
}

size_t ftc_timeline_ntasks(const struct ftc_timeline *t)
{
	return t->m.keys.n;
}

const struct ftc_timeline_task *ftc_timeline_task_at(const struct ftc_timeline *t, size_t i)
{
	return i < t->m.keys.n ? &t->m.tasks[i].pub : NULL;
}

uint64_t ftc_timeline_start(const struct ftc_timeline *t)
{
	return t->m.first > t->m.o.from ? t->m.first : t->m.o.from;
}

uint64_t ftc_timeline_end(const struct ftc_timeline *t)
{
	return t->m.done ? t->m.to : t->m.last;
}

const char *ftc_timeline_instance(const struct ftc_timeline *t)
{
	const struct ftc_dat_buffer *b = t->buffer >= 0 ? ftc_reader_buffer(t->r, t->buffer) : NULL;

	return b && *b->name ? b->name : NULL;
}
