// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel-work pass: per CPU, a hard interrupt from its handler's entry
 * to its exit (handlers do not nest), a softirq from its entry to its exit
 * and from its first raise since it last ran, a work item from its
 * execute_start to its execute_end and from its queueing (by the work's
 * address). Fields are read at their offsets, never formatted; an end
 * without its start (before the trace) is not timed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-kwork.h"
#include "keytab.h"
#include "opts.h"
#include "pass-util.h"
#include "softirq-names.h"

enum kw_kind {
	IRQ_ENTRY, IRQ_EXIT, SI_RAISE, SI_ENTRY, SI_EXIT, WQ_QUEUE, WQ_START, WQ_END, NKINDS
};

static const struct { const char *sys, *name, *field; enum ftc_kwork_class cls; } kinds[NKINDS] = {
	[IRQ_ENTRY] = { "irq", "irq_handler_entry", "irq", FTC_KWORK_IRQ },
	[IRQ_EXIT] = { "irq", "irq_handler_exit", "irq", FTC_KWORK_IRQ },
	[SI_RAISE] = { "irq", "softirq_raise", "vec", FTC_KWORK_SOFTIRQ },
	[SI_ENTRY] = { "irq", "softirq_entry", "vec", FTC_KWORK_SOFTIRQ },
	[SI_EXIT] = { "irq", "softirq_exit", "vec", FTC_KWORK_SOFTIRQ },
	[WQ_QUEUE] = { "workqueue", "workqueue_queue_work", "work", FTC_KWORK_WORK },
	[WQ_START] = { "workqueue", "workqueue_execute_start", "work", FTC_KWORK_WORK },
	[WQ_END] = { "workqueue", "workqueue_execute_end", "work", FTC_KWORK_WORK },
};

#define MAX_VEC 32

struct kw_item {
	struct ftc_kwork_item pub;
	char name[32];			/* an irq's, as its entry record gives it */
};

/* What one CPU is running, and the softirqs raised there. */
struct kw_cpu {
	int irq;			/* -1: none */
	uint64_t irq_at;
	int vec;			/* -1: none */
	uint64_t vec_at, vec_raised;	/* its entry, and the raise it answers (0: none) */
	uint64_t raised[MAX_VEC];	/* first raise since the vector last ran (0: none) */
	uint64_t work, work_fn, work_at, work_queued;	/* work 0: none */
};

struct ftc_kwork {
	struct ftc_reader *r;
	struct tep_handle *tep;
	struct ftc_kwork_opts o;
	int buffer;
	int id[NKINDS];
	struct tep_format_field *f[NKINDS], *irq_name, *wq_fn;
	uint64_t records[FTC_KWORK_NCLASS], lost;
	struct kw_cpu *cpus;
	int ncpus;
	struct kw_item *items;
	size_t nitems, cap;
	struct ftc_hindex idx;
	struct ftc_keytab queued;	/* work address -> queued_at */
	uint64_t *queued_at;
};

static void look_up(struct ftc_kwork *k)
{
	for (int i = 0; i < NKINDS; i++) {
		struct tep_event *e = ftc_reader_find_event(k->r, kinds[i].sys, kinds[i].name);

		k->id[i] = e ? e->id : -1;
		k->f[i] = e ? tep_find_field(e, kinds[i].field) : NULL;
		if (e && i == IRQ_ENTRY)
			k->irq_name = tep_find_field(e, "name");
		if (e && i == WQ_START)
			k->wq_fn = tep_find_field(e, "function");
	}
}

struct ftc_kwork *ftc_kwork_new(struct ftc_reader *r, const struct ftc_kwork_opts *o)
{
	struct ftc_kwork *k = calloc(1, sizeof(*k));

	if (!k) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	k->r = r;
	k->tep = ftc_reader_tep(r);
	k->buffer = -1;
	k->ncpus = ftc_reader_ncpus(r) > 0 ? ftc_reader_ncpus(r) : 1;
	if (o && FTC_OPTS_COPY(&k->o, o, ftc_kwork_opts, per_cpu) < 0)
		goto fail;
	k->cpus = calloc((size_t)k->ncpus, sizeof(*k->cpus));
	if (!k->cpus) {
		ftc_error(ENOMEM, "out of memory");
		goto fail;
	}
	for (int c = 0; c < k->ncpus; c++)
		k->cpus[c].irq = k->cpus[c].vec = -1;
	look_up(k);
	return k;
fail:
	ftc_kwork_free(k);
	return NULL;
}

void ftc_kwork_free(struct ftc_kwork *k)
{
	if (!k)
		return;
	free(k->cpus);
	free(k->items);
	ftc_hindex_free(&k->idx);
	ftc_keytab_free(&k->queued);
	free(k->queued_at);
	free(k);
}

struct item_key {
	enum ftc_kwork_class cls;
	int cpu;
	uint64_t id;
};

static uint64_t key_hash(const struct item_key *key)
{
	return ftc_hindex_mix(key->id ^ ftc_hindex_mix(((uint64_t)key->cls << 32) |
						       (uint32_t)(key->cpu + 1)));
}

static uint64_t item_hash(size_t i, const void *tab)
{
	const struct ftc_kwork_item *it = &((const struct ftc_kwork *)tab)->items[i].pub;
	struct item_key key = { it->cls, it->cpu, it->id };

	return key_hash(&key);
}

static bool same_item(size_t i, const void *key, const void *tab)
{
	const struct ftc_kwork_item *it = &((const struct ftc_kwork *)tab)->items[i].pub;
	const struct item_key *k = key;

	return it->cls == k->cls && it->cpu == k->cpu && it->id == k->id;
}

/* The item of (cls, id) on cpu (or overall); NULL when out of memory. */
static struct kw_item *item_of(struct ftc_kwork *k, enum ftc_kwork_class cls, int cpu, uint64_t id)
{
	struct item_key key = { cls, k->o.per_cpu ? cpu : -1, id };
	uint64_t h = key_hash(&key);
	long i = ftc_hindex_find(&k->idx, h, same_item, &key, k);

	if (i >= 0)
		return &k->items[i];
	if (k->nitems == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 32;
		struct kw_item *v = realloc(k->items, cap * sizeof(*v));

		if (!v) {
			ftc_error(ENOMEM, "out of memory");
			return NULL;
		}
		k->items = v;
		k->cap = cap;
	}
	if (ftc_hindex_add(&k->idx, k->nitems, h, item_hash, k) < 0)
		return NULL;
	memset(&k->items[k->nitems], 0, sizeof(k->items[k->nitems]));
	k->items[k->nitems].pub = (struct ftc_kwork_item){ .cls = cls, .cpu = key.cpu, .id = id };
	return &k->items[k->nitems++];
}

static void ran(struct ftc_kwork_item *it, uint64_t from, uint64_t to, uint64_t raised)
{
	if (to < from)
		return;
	it->count++;
	it->run_ns += to - from;
	if (to - from > it->run_max_ns || it->count == 1) {
		it->run_max_ns = to - from;
		it->run_max_at = from;
	}
	if (raised && raised <= from) {
		it->delays++;
		it->delay_ns += from - raised;
		if (from - raised > it->delay_max_ns || it->delays == 1) {
			it->delay_max_ns = from - raised;
			it->delay_max_at = raised;
		}
	}
}

static int on_irq(struct ftc_kwork *k, enum kw_kind kind, const struct tep_record *rec,
		  struct kw_cpu *c, int cpu)
{
	int irq = (int)ftc_pass_field(k->f[kind], rec);
	struct kw_item *it;

	if (kind == IRQ_ENTRY) {
		c->irq = irq;
		c->irq_at = rec->ts;
		it = item_of(k, FTC_KWORK_IRQ, cpu, (uint64_t)irq);
		if (!it)
			return -1;
		if (!it->name[0] && k->irq_name) {
			int len;
			unsigned long long off = ftc_pass_field(k->irq_name, rec);

			len = (int)(off >> 16);
			off &= 0xffff;
			if (off + (unsigned long long)len <= (unsigned long long)rec->size)
				snprintf(it->name, sizeof(it->name), "%.*s", len,
					 (const char *)rec->data + off);
		}
		return 0;
	}
	if (c->irq == irq) {
		it = item_of(k, FTC_KWORK_IRQ, cpu, (uint64_t)irq);
		if (!it)
			return -1;
		ran(&it->pub, c->irq_at, rec->ts, 0);
	}
	c->irq = -1;
	return 0;
}

static int on_softirq(struct ftc_kwork *k, enum kw_kind kind, const struct tep_record *rec,
		      struct kw_cpu *c, int cpu)
{
	unsigned int vec = (unsigned int)ftc_pass_field(k->f[kind], rec);
	struct kw_item *it;

	if (vec >= MAX_VEC)
		return 0;
	if (kind == SI_RAISE) {
		if (!c->raised[vec])
			c->raised[vec] = rec->ts;
	} else if (kind == SI_ENTRY) {
		c->vec = (int)vec;
		c->vec_at = rec->ts;
		c->vec_raised = c->raised[vec];
		c->raised[vec] = 0;
	} else {
		if (c->vec == (int)vec) {
			it = item_of(k, FTC_KWORK_SOFTIRQ, cpu, vec);
			if (!it)
				return -1;
			ran(&it->pub, c->vec_at, rec->ts, c->vec_raised);
		}
		c->vec = -1;
	}
	return 0;
}

static int on_work(struct ftc_kwork *k, enum kw_kind kind, const struct tep_record *rec,
		   struct kw_cpu *c, int cpu)
{
	uint64_t work = ftc_pass_field(k->f[kind], rec);
	struct kw_item *it;
	long q;
	int added;

	if (kind == WQ_QUEUE) {
		uint64_t *at = ftc_keytab_value(&k->queued, work, (void **)&k->queued_at,
						sizeof(*at), &added);

		if (!at)
			return -1;
		if (!*at)
			*at = rec->ts;
		return 0;
	}
	if (kind == WQ_START) {
		q = ftc_keytab_find(&k->queued, work);
		c->work = work;
		c->work_fn = ftc_pass_field(k->wq_fn, rec);
		c->work_at = rec->ts;
		c->work_queued = q >= 0 ? k->queued_at[q] : 0;
		if (q >= 0)
			k->queued_at[q] = 0;
		return 0;
	}
	if (c->work && c->work == work) {
		it = item_of(k, FTC_KWORK_WORK, cpu, c->work_fn);
		if (!it)
			return -1;
		ran(&it->pub, c->work_at, rec->ts, c->work_queued);
	}
	c->work = 0;
	return 0;
}

static enum kw_kind kind_of(const struct ftc_kwork *k, int type)
{
	for (int i = 0; i < NKINDS; i++)
		if (k->id[i] == type)
			return (enum kw_kind)i;
	return NKINDS;
}

int ftc_kwork_add(struct ftc_kwork *k, const struct ftc_merge_record *mr)
{
	const struct tep_record *rec = mr->rec;
	enum kw_kind kind = kind_of(k, tep_data_type(k->tep, (struct tep_record *)rec));
	struct kw_cpu *c;

	if (!ftc_pass_buffer(k->r, k->o.instance, kind != NKINDS, mr, &k->buffer, &k->lost))
		return 0;
	if (kind == NKINDS || mr->cpu < 0 || mr->cpu >= k->ncpus || !k->f[kind])
		return 0;
	k->records[kinds[kind].cls]++;
	c = &k->cpus[mr->cpu];
	switch (kinds[kind].cls) {
	case FTC_KWORK_IRQ: return on_irq(k, kind, rec, c, mr->cpu);
	case FTC_KWORK_SOFTIRQ: return on_softirq(k, kind, rec, c, mr->cpu);
	default: return on_work(k, kind, rec, c, mr->cpu);
	}
}

void ftc_kwork_finish(struct ftc_kwork *k)
{
	for (size_t i = 0; i < k->nitems; i++) {
		struct kw_item *it = &k->items[i];
		const char *fn;

		switch (it->pub.cls) {
		case FTC_KWORK_SOFTIRQ:
			if (ftc_softirq_name(it->pub.id))
				snprintf(it->name, sizeof(it->name), "%s", ftc_softirq_name(it->pub.id));
			break;
		case FTC_KWORK_WORK:
			fn = tep_find_function(k->tep, it->pub.id);
			if (fn)
				snprintf(it->name, sizeof(it->name), "%s", fn);
			break;
		default:
			break;
		}
	}
}

size_t ftc_kwork_nitems(const struct ftc_kwork *k)
{
	return k->nitems;
}

const struct ftc_kwork_item *ftc_kwork_item_at(const struct ftc_kwork *k, size_t i)
{
	struct kw_item *it;

	if (i >= k->nitems)
		return NULL;
	it = &k->items[i];
	it->pub.name = it->name[0] ? it->name : NULL;
	return &it->pub;
}

uint64_t ftc_kwork_records(const struct ftc_kwork *k, enum ftc_kwork_class cls)
{
	return cls < FTC_KWORK_NCLASS ? k->records[cls] : 0;
}

uint64_t ftc_kwork_lost(const struct ftc_kwork *k)
{
	return k->lost;
}

const char *ftc_kwork_class_name(enum ftc_kwork_class cls)
{
	static const char *const names[] = { "irq", "softirq", "work" };

	return cls < FTC_KWORK_NCLASS ? names[cls] : "?";
}
