// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One record as an FtraceEvent of its CPU's bundle: the events Perfetto
 * parses into its tables as their typed messages (each field read at its
 * offset and written under Perfetto's number; a field this kernel's format
 * lacks is left out), sched_switch and sched_waking into the compact
 * arrays, and every other event as a generic event carrying all its
 * fields, so that nothing recorded is dropped. Kernel addresses that
 * Perfetto names (funcgraph and workqueue functions) are interned symbols.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-merge.h"
#include "ftc-reader.h"
#include "pass-util.h"
#include "perfetto.h"

enum pf_val { V_NUM, V_STR, V_KSYM };

struct pf_field_map {
	const char *name;
	unsigned int num;
	enum pf_val val;
};

struct pf_typed {
	const char *sys, *name;
	unsigned int num;		/* FtraceEvent's field for the event */
	struct pf_field_map f[PF_MAX_FIELDS];
};

#define WAKEUP_FIELDS { { "comm", 1, V_STR }, { "pid", 2, V_NUM }, { "prio", 3, V_NUM }, \
			{ "success", 4, V_NUM }, { "target_cpu", 5, V_NUM } }
#define WORK_FIELDS { { "work", 1, V_NUM }, { "function", 2, V_KSYM } }

static const struct pf_typed typed[] = {
	{ "ftrace", "print", 3, { { "ip", 1, V_NUM }, { "buf", 2, V_STR } } },
	{ "sched", "sched_switch", 4, { { "prev_comm", 1, V_STR }, { "prev_pid", 2, V_NUM },
	  { "prev_prio", 3, V_NUM }, { "prev_state", 4, V_NUM }, { "next_comm", 5, V_STR },
	  { "next_pid", 6, V_NUM }, { "next_prio", 7, V_NUM } } },
	{ "power", "cpu_frequency", 11, { { "state", 1, V_NUM }, { "cpu_id", 2, V_NUM } } },
	{ "power", "cpu_idle", 13, { { "state", 1, V_NUM }, { "cpu_id", 2, V_NUM } } },
	{ "sched", "sched_wakeup", 17, WAKEUP_FIELDS },
	{ "sched", "sched_waking", 20, WAKEUP_FIELDS },
	{ "irq", "softirq_entry", 24, { { "vec", 1, V_NUM } } },
	{ "irq", "softirq_exit", 25, { { "vec", 1, V_NUM } } },
	{ "irq", "softirq_raise", 26, { { "vec", 1, V_NUM } } },
	{ "irq", "irq_handler_entry", 36, { { "irq", 1, V_NUM }, { "name", 2, V_STR } } },
	{ "irq", "irq_handler_exit", 37, { { "irq", 1, V_NUM }, { "ret", 2, V_NUM } } },
	{ "workqueue", "workqueue_activate_work", 56, WORK_FIELDS },
	{ "workqueue", "workqueue_execute_end", 57, WORK_FIELDS },
	{ "workqueue", "workqueue_execute_start", 58, WORK_FIELDS },
	{ "workqueue", "workqueue_queue_work", 59, { { "work", 1, V_NUM },
	  { "function", 2, V_KSYM }, { "req_cpu", 4, V_NUM }, { "cpu", 5, V_NUM },
	  { "workqueue", 6, V_STR } } },
	{ "sched", "sched_wakeup_new", 114, WAKEUP_FIELDS },
	{ "task", "task_newtask", 235, { { "pid", 1, V_NUM }, { "comm", 2, V_STR },
	  { "clone_flags", 3, V_NUM }, { "oom_score_adj", 4, V_NUM } } },
	{ "task", "task_rename", 236, { { "pid", 1, V_NUM }, { "oldcomm", 2, V_STR },
	  { "newcomm", 3, V_STR }, { "oom_score_adj", 4, V_NUM } } },
	{ "sched", "sched_process_exec", 237, { { "filename", 1, V_STR }, { "pid", 2, V_NUM },
	  { "old_pid", 3, V_NUM } } },
	{ "sched", "sched_process_exit", 238, { { "comm", 1, V_STR }, { "pid", 2, V_NUM },
	  { "tgid", 3, V_NUM }, { "prio", 4, V_NUM } } },
	{ "sched", "sched_process_fork", 239, { { "parent_comm", 1, V_STR },
	  { "parent_pid", 2, V_NUM }, { "child_comm", 3, V_STR }, { "child_pid", 4, V_NUM } } },
	{ "sched", "sched_process_free", 240, { { "comm", 1, V_STR }, { "pid", 2, V_NUM },
	  { "prio", 3, V_NUM } } },
	{ "sched", "sched_process_wait", 242, { { "comm", 1, V_STR }, { "pid", 2, V_NUM },
	  { "prio", 3, V_NUM } } },
	{ "ftrace", "funcgraph_entry", 437, { { "depth", 1, V_NUM }, { "func", 2, V_KSYM } } },
	{ "ftrace", "funcgraph_exit", 438, { { "calltime", 1, V_NUM }, { "depth", 2, V_NUM },
	  { "func", 3, V_KSYM }, { "overrun", 4, V_NUM }, { "rettime", 5, V_NUM } } },
	{ "sched", "sched_migrate_task", 491, { { "comm", 1, V_STR }, { "pid", 2, V_NUM },
	  { "prio", 3, V_NUM }, { "orig_cpu", 4, V_NUM }, { "dest_cpu", 5, V_NUM } } },
};

#define NTYPED (sizeof(typed) / sizeof(typed[0]))
#define CLONE_THREAD_FLAG 0x00010000

/* The typed fields a compact entry takes, by their index in the table row. */
enum { SW_STATE = 3, SW_COMM = 4, SW_PID = 5, SW_PRIO = 6 };
enum { WK_COMM = 0, WK_PID = 1, WK_PRIO = 2, WK_CPU = 4 };

static bool is_string(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) ||
	       ((f->flags & TEP_FIELD_IS_ARRAY) && strstr(f->type, "char"));
}

static struct pf_kind *kind_of(struct ftc_perfetto *p, struct tep_record *rec, int id)
{
	int added = 0;
	struct pf_kind *k = ftc_keytab_value(&p->kinds_by_id, (uint64_t)id, (void **)&p->kinds,
					     sizeof(*k), &added);

	if (!k || !added)
		return k;
	k->typed = -1;
	k->ev = ftc_reader_event(p->r, rec);
	if (!k->ev)
		return k;
	for (size_t t = 0; t < NTYPED; t++) {
		if (strcmp(k->ev->name, typed[t].name) || !k->ev->system ||
		    strcmp(k->ev->system, typed[t].sys))
			continue;
		k->typed = (int)t;
		for (int i = 0; i < PF_MAX_FIELDS && typed[t].f[i].name; i++)
			k->f[i] = tep_find_field(k->ev, typed[t].f[i].name);
	}
	if (k->typed >= 0 && !p->o.no_compact_sched) {
		const char *n = typed[k->typed].name;

		if (!strcmp(n, "sched_switch") && k->f[SW_STATE] && k->f[SW_COMM] &&
		    k->f[SW_PID] && k->f[SW_PRIO])
			k->compact = PF_COMPACT_SWITCH;
		else if (!strcmp(n, "sched_waking") && k->f[WK_COMM] && k->f[WK_PID] &&
			 k->f[WK_PRIO] && k->f[WK_CPU])
			k->compact = PF_COMPACT_WAKING;
	}
	return k;
}

static void typed_fields(struct ftc_perfetto *p, struct ftc_pb *pb, const struct pf_kind *k,
			 const struct tep_record *rec)
{
	const struct pf_typed *t = &typed[k->typed];
	size_t len;
	const char *s;

	for (int i = 0; i < PF_MAX_FIELDS && t->f[i].name; i++) {
		if (!k->f[i])
			continue;
		switch (t->f[i].val) {
		case V_NUM:
			ftc_pb_int(pb, t->f[i].num, ftc_pass_num(k->f[i], rec));
			break;
		case V_KSYM:
			ftc_pb_uint(pb, t->f[i].num,
				    ftc_pf_ksym(p, (uint64_t)ftc_pass_num(k->f[i], rec)));
			break;
		case V_STR:
			s = ftc_pass_str(k->f[i], rec, &len);
			if (s)
				ftc_pb_bytes(pb, t->f[i].num, s, len);
			break;
		}
	}
}

/* An array that is not a string: its elements, in hex. */
static void array_text(struct ftc_pb *pb, const struct tep_format_field *f,
		       const struct tep_record *rec)
{
	size_t len, esz = f->elementsize > 0 && f->elementsize <= 8 ? (size_t)f->elementsize : 1;
	const unsigned char *b = (const unsigned char *)ftc_pass_bytes(f, rec, &len);
	char text[512];
	size_t at = 0;

	text[at++] = '{';
	for (size_t i = 0; b && i + esz <= len && at < sizeof(text) - 24; i += esz) {
		uint64_t v = 0;

		memcpy(&v, b + i, esz);	/* the file's byte order is this machine's */
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s0x%" PRIx64,
				       i ? "," : "", v);
	}
	text[at++] = '}';
	ftc_pb_bytes(pb, GEN_FIELD_STR, text, at);
}

static void generic_field(struct ftc_pb *pb, const struct tep_format_field *f,
			  const struct tep_record *rec)
{
	size_t m = ftc_pb_open(pb, GEN_FIELD), len;
	const char *s;

	ftc_pb_str(pb, GEN_FIELD_NAME, f->name);
	if (is_string(f)) {
		s = ftc_pass_str(f, rec, &len);
		ftc_pb_bytes(pb, GEN_FIELD_STR, s ? s : "", s ? len : 0);
	} else if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		array_text(pb, f, rec);
	} else if (f->flags & TEP_FIELD_IS_SIGNED) {
		ftc_pb_int(pb, GEN_FIELD_INT, ftc_pass_num(f, rec));
	} else {
		ftc_pb_uint(pb, GEN_FIELD_UINT, (uint64_t)ftc_pass_num(f, rec));
	}
	ftc_pb_close(pb, m);
}

static void generic(struct ftc_pb *pb, const struct tep_event *ev, const struct tep_record *rec)
{
	size_t m = ftc_pb_open(pb, EV_GENERIC);

	ftc_pb_str(pb, GEN_EVENT_NAME, ev->name);
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		generic_field(pb, f, rec);
	ftc_pb_close(pb, m);
}

/* Index (from 0) of comm in the bundle's intern table. */
static uint64_t comm_index(struct pf_compact *cs, const struct tep_format_field *f,
			   const struct tep_record *rec)
{
	size_t len = 0;
	const char *s = ftc_pass_str(f, rec, &len);
	uint64_t id = ftc_pf_strings_id(&cs->comms, s ? s : "", s ? len : 0);

	return id ? id - 1 : 0;
}

static void compact_switch(struct pf_compact *cs, const struct pf_kind *k,
			   const struct tep_record *rec)
{
	ftc_pb_raw_varint(&cs->sw_ts, rec->ts - cs->sw_last);
	cs->sw_last = rec->ts;
	ftc_pb_raw_varint(&cs->sw_state, (uint64_t)ftc_pass_num(k->f[SW_STATE], rec));
	ftc_pb_raw_varint(&cs->sw_pid, (uint64_t)ftc_pass_num(k->f[SW_PID], rec));
	ftc_pb_raw_varint(&cs->sw_prio, (uint64_t)ftc_pass_num(k->f[SW_PRIO], rec));
	ftc_pb_raw_varint(&cs->sw_comm, comm_index(cs, k->f[SW_COMM], rec));
}

static void compact_waking(struct ftc_perfetto *p, struct pf_compact *cs,
			   const struct pf_kind *k, const struct tep_record *rec)
{
	ftc_pb_raw_varint(&cs->wk_ts, rec->ts - cs->wk_last);
	cs->wk_last = rec->ts;
	ftc_pb_raw_varint(&cs->wk_pid, (uint64_t)ftc_pass_num(k->f[WK_PID], rec));
	ftc_pb_raw_varint(&cs->wk_cpu, (uint64_t)ftc_pass_num(k->f[WK_CPU], rec));
	ftc_pb_raw_varint(&cs->wk_prio, (uint64_t)ftc_pass_num(k->f[WK_PRIO], rec));
	ftc_pb_raw_varint(&cs->wk_comm, comm_index(cs, k->f[WK_COMM], rec));
	ftc_pb_raw_varint(&cs->wk_flags, (uint64_t)tep_data_flags(p->tep, (struct tep_record *)rec));
}

/* The tasks an event names, and a new task's process when it tells it. */
static void tasks_of(struct ftc_perfetto *p, const struct pf_kind *k,
		     const struct tep_record *rec, int pid)
{
	const char *name = typed[k->typed].name;
	int other;

	if (!strncmp(name, "sched_wak", 9)) {
		ftc_pf_task(p, (int)ftc_pass_num(k->f[WK_PID], rec), 0);
	} else if (!strcmp(name, "sched_switch") && k->f[SW_PID]) {
		ftc_pf_task(p, (int)ftc_pass_num(k->f[SW_PID], rec), 0);
	} else if (!strcmp(name, "task_newtask") && k->f[0] && k->f[2]) {
		other = (int)ftc_pass_num(k->f[0], rec);
		if (!(ftc_pass_num(k->f[2], rec) & CLONE_THREAD_FLAG)) {
			ftc_pf_task(p, other, other);
		} else {
			long parent = ftc_keytab_find(&p->tasks, (uint64_t)pid);

			ftc_pf_task(p, other, parent >= 0 ? p->tgids[parent] : 0);
		}
	}
}

int ftc_pf_event(struct ftc_perfetto *p, struct pf_cpu *c, const struct ftc_merge_record *mr)
{
	struct tep_record *rec = mr->rec;
	int id = tep_data_type(p->tep, rec), pid = tep_data_pid(p->tep, rec);
	struct pf_kind *k = kind_of(p, rec, id);
	size_t m;

	if (!k)
		return ftc_error(ENOMEM, "out of memory");
	if (!k->ev) {
		p->st.unknown++;
		return 0;
	}
	ftc_pf_task(p, pid, 0);
	if (k->typed >= 0)
		tasks_of(p, k, rec, pid);
	if (k->compact == PF_COMPACT_SWITCH || k->compact == PF_COMPACT_WAKING) {
		if (k->compact == PF_COMPACT_SWITCH)
			compact_switch(&c->compact, k, rec);
		else
			compact_waking(p, &c->compact, k, rec);
		c->compact.n++;
		p->st.compact++;
		return c->compact.sw_ts.failed || c->compact.wk_ts.failed ?
		       ftc_error(ENOMEM, "out of memory") : 0;
	}
	m = ftc_pb_open(&c->events, BUNDLE_EVENT);
	ftc_pb_uint(&c->events, EV_TIMESTAMP, rec->ts);
	ftc_pb_uint(&c->events, EV_PID, (uint64_t)(uint32_t)pid);
	if (k->typed >= 0) {
		size_t t = ftc_pb_open(&c->events, typed[k->typed].num);

		typed_fields(p, &c->events, k, rec);
		ftc_pb_close(&c->events, t);
		p->st.typed++;
	} else {
		generic(&c->events, k->ev, rec);
		p->st.generic++;
	}
	ftc_pb_close(&c->events, m);
	c->n++;
	return c->events.failed ? ftc_error(ENOMEM, "out of memory") : 0;
}

void ftc_pf_kinds_free(struct ftc_perfetto *p)
{
	ftc_keytab_free(&p->kinds_by_id);
	free(p->kinds);
	p->kinds = NULL;
}

static void packed(struct ftc_pb *bundle, unsigned int field, const struct ftc_pb *a)
{
	if (a->len)
		ftc_pb_message(bundle, field, a);
}

void ftc_pf_compact_write(struct pf_compact *cs, struct ftc_pb *bundle)
{
	size_t m = ftc_pb_open(bundle, BUNDLE_COMPACT_SCHED);

	for (size_t i = 0; i < cs->comms.n; i++)
		ftc_pb_str(bundle, CS_INTERN_TABLE, cs->comms.s[i]);
	packed(bundle, CS_SWITCH_TIMESTAMP, &cs->sw_ts);
	packed(bundle, CS_SWITCH_PREV_STATE, &cs->sw_state);
	packed(bundle, CS_SWITCH_NEXT_PID, &cs->sw_pid);
	packed(bundle, CS_SWITCH_NEXT_PRIO, &cs->sw_prio);
	packed(bundle, CS_SWITCH_NEXT_COMM_INDEX, &cs->sw_comm);
	packed(bundle, CS_WAKING_TIMESTAMP, &cs->wk_ts);
	packed(bundle, CS_WAKING_PID, &cs->wk_pid);
	packed(bundle, CS_WAKING_TARGET_CPU, &cs->wk_cpu);
	packed(bundle, CS_WAKING_PRIO, &cs->wk_prio);
	packed(bundle, CS_WAKING_COMM_INDEX, &cs->wk_comm);
	packed(bundle, CS_WAKING_COMMON_FLAGS, &cs->wk_flags);
	ftc_pb_close(bundle, m);
}

#define EACH_ARRAY(cs, fn) do { \
	fn(&(cs)->sw_ts); fn(&(cs)->sw_state); fn(&(cs)->sw_pid); fn(&(cs)->sw_prio); \
	fn(&(cs)->sw_comm); fn(&(cs)->wk_ts); fn(&(cs)->wk_pid); fn(&(cs)->wk_cpu); \
	fn(&(cs)->wk_prio); fn(&(cs)->wk_comm); fn(&(cs)->wk_flags); \
} while (0)

/* Each bundle's deltas start from 0 and its intern table is its own. */
void ftc_pf_compact_reset(struct pf_compact *cs)
{
	EACH_ARRAY(cs, ftc_pb_reset);
	cs->sw_last = cs->wk_last = 0;
	cs->n = 0;
	ftc_pf_strings_free(&cs->comms);
}

void ftc_pf_compact_free(struct pf_compact *cs)
{
	EACH_ARRAY(cs, ftc_pb_free);
	ftc_pf_strings_free(&cs->comms);
}
