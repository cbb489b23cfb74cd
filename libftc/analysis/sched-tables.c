// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The scheduling pass's tables: tasks by pid, interned kernel stacks, and
 * off-CPU time by (task, state, stack). Open addressing over an index of
 * uint32 (entry + 1), grown at half full, so that a lookup costs a hash
 * and a probe or two whatever the trace's length.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "sched-tables.h"

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static int grow_array(void **v, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap * 2 : 64;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*v, c * size);
	if (!p)
		return ftc_error(ENOMEM, "out of memory");
	*v = p;
	*cap = c;
	return 0;
}

/*
 * Rebuilds the index at twice the size once it is half full; hash_of(i)
 * gives entry i's hash.
 */
static int index_fit(struct sched_index *x, size_t n, uint64_t (*hash_of)(const void *, size_t),
		     const void *tab)
{
	size_t cap = x->cap ? x->cap * 2 : 128;
	uint32_t *slot;

	if (2 * (n + 1) <= x->cap)
		return 0;
	slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		size_t k = hash_of(tab, i) & (cap - 1);

		while (slot[k])
			k = (k + 1) & (cap - 1);
		slot[k] = (uint32_t)(i + 1);
	}
	free(x->slot);
	x->slot = slot;
	x->cap = cap;
	return 0;
}

/* ---- tasks ---- */

static uint64_t task_hash(const void *tab, size_t i)
{
	return mix((uint64_t)(uint32_t)((const struct sched_tasks *)tab)->v[i].t.pid);
}

struct sched_task *ftc_sched_task_get(struct sched_tasks *t, int pid)
{
	size_t k;

	if (t->idx.cap) {
		for (k = mix((uint64_t)(uint32_t)pid) & (t->idx.cap - 1); t->idx.slot[k];
		     k = (k + 1) & (t->idx.cap - 1))
			if (t->v[t->idx.slot[k] - 1].t.pid == pid)
				return &t->v[t->idx.slot[k] - 1];
	}
	if (grow_array((void **)&t->v, &t->cap, t->n, sizeof(*t->v)) < 0 ||
	    index_fit(&t->idx, t->n, task_hash, t) < 0)
		return NULL;
	memset(&t->v[t->n], 0, sizeof(t->v[t->n]));
	t->v[t->n].t.pid = pid;
	t->v[t->n].stack = t->v[t->n].pstack = t->v[t->n].ustack = -1;
	for (k = mix((uint64_t)(uint32_t)pid) & (t->idx.cap - 1); t->idx.slot[k];
	     k = (k + 1) & (t->idx.cap - 1))
		;
	t->idx.slot[k] = (uint32_t)(t->n + 1);
	return &t->v[t->n++];
}

void ftc_sched_tasks_free(struct sched_tasks *t)
{
	free(t->v);
	free(t->idx.slot);
	memset(t, 0, sizeof(*t));
}

/* ---- stacks ---- */

static uint64_t ips_hash(const uint64_t *ips, size_t n)
{
	uint64_t h = n;

	for (size_t i = 0; i < n; i++)
		h = mix(h ^ ips[i]);
	return h;
}

static uint64_t stack_hash(const void *tab, size_t i)
{
	return ((const struct sched_stacks *)tab)->v[i].hash;
}

static bool same_stack(const struct sched_stacks *s, size_t i, const uint64_t *ips, size_t n,
		       uint64_t h)
{
	return s->v[i].hash == h && s->v[i].n == n &&
	       !memcmp(s->ips + s->v[i].off, ips, n * sizeof(*ips));
}

int ftc_sched_stack_id(struct sched_stacks *s, const uint64_t *ips, size_t n)
{
	uint64_t h = ips_hash(ips, n);
	size_t k;

	if (s->idx.cap) {
		for (k = h & (s->idx.cap - 1); s->idx.slot[k]; k = (k + 1) & (s->idx.cap - 1))
			if (same_stack(s, s->idx.slot[k] - 1, ips, n, h))
				return (int)s->idx.slot[k] - 1;
	}
	while (s->nips + n > s->cap_ips)
		if (grow_array((void **)&s->ips, &s->cap_ips, s->cap_ips, sizeof(*s->ips)) < 0)
			return -1;
	if (grow_array((void **)&s->v, &s->cap, s->n, sizeof(*s->v)) < 0 ||
	    index_fit(&s->idx, s->n, stack_hash, s) < 0)
		return -1;
	memcpy(s->ips + s->nips, ips, n * sizeof(*ips));
	s->v[s->n].off = s->nips;
	s->v[s->n].n = n;
	s->v[s->n].hash = h;
	s->nips += n;
	for (k = h & (s->idx.cap - 1); s->idx.slot[k]; k = (k + 1) & (s->idx.cap - 1))
		;
	s->idx.slot[k] = (uint32_t)(s->n + 1);
	return (int)s->n++;
}

void ftc_sched_stacks_free(struct sched_stacks *s)
{
	free(s->ips);
	free(s->v);
	free(s->idx.slot);
	memset(s, 0, sizeof(*s));
}

/* ---- off-CPU time ---- */

static uint64_t offcpu_key(size_t task, char state, int stack, int ustack)
{
	return mix(((uint64_t)task << 32) ^ ((uint64_t)(unsigned char)state << 24) ^
		   (uint64_t)(uint32_t)(stack + 1) ^ ((uint64_t)(uint32_t)(ustack + 1) << 40));
}

static uint64_t offcpu_hash(const void *tab, size_t i)
{
	const struct sched_offcpu *e = &((const struct sched_offcpus *)tab)->v[i];

	return offcpu_key(e->task, e->pub.state, e->stack, e->ustack);
}

int ftc_sched_offcpu_add(struct sched_offcpus *o, size_t task, int pid, char state, int stack,
			 int ustack, uint64_t ns)
{
	uint64_t h = offcpu_key(task, state, stack, ustack);
	struct sched_offcpu *e;
	size_t k;

	if (o->idx.cap) {
		for (k = h & (o->idx.cap - 1); o->idx.slot[k]; k = (k + 1) & (o->idx.cap - 1)) {
			e = &o->v[o->idx.slot[k] - 1];
			if (e->task == task && e->pub.state == state && e->stack == stack &&
			    e->ustack == ustack) {
				e->pub.ns += ns;
				e->pub.count++;
				return 0;
			}
		}
	}
	if (grow_array((void **)&o->v, &o->cap, o->n, sizeof(*o->v)) < 0 ||
	    index_fit(&o->idx, o->n, offcpu_hash, o) < 0)
		return -1;
	e = &o->v[o->n];
	memset(e, 0, sizeof(*e));
	e->task = task;
	e->stack = stack;
	e->ustack = ustack;
	e->pub.pid = pid;
	e->pub.state = state;
	e->pub.ns = ns;
	e->pub.count = 1;
	for (k = h & (o->idx.cap - 1); o->idx.slot[k]; k = (k + 1) & (o->idx.cap - 1))
		;
	o->idx.slot[k] = (uint32_t)(o->n + 1);
	o->n++;
	return 0;
}

void ftc_sched_offcpus_free(struct sched_offcpus *o)
{
	free(o->v);
	free(o->idx.slot);
	memset(o, 0, sizeof(*o));
}
