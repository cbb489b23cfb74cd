// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The scheduling pass's tables: tasks by pid, interned kernel stacks, and
 * off-CPU time by (task, state, stack), each a growing array under an
 * ftc_hindex (keytab.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "keytab.h"
#include "sched-tables.h"

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

/* ---- tasks ---- */

static uint64_t task_hash(size_t i, const void *tab)
{
	return ftc_hindex_mix((uint64_t)(uint32_t)((const struct sched_tasks *)tab)->v[i].t.pid);
}

static bool same_task(size_t i, const void *pid, const void *tab)
{
	return ((const struct sched_tasks *)tab)->v[i].t.pid == *(const int *)pid;
}

struct sched_task *ftc_sched_task_get(struct sched_tasks *t, int pid)
{
	uint64_t h = ftc_hindex_mix((uint64_t)(uint32_t)pid);
	long i = ftc_hindex_find(&t->idx, h, same_task, &pid, t);

	if (i >= 0)
		return &t->v[i];
	if (grow_array((void **)&t->v, &t->cap, t->n, sizeof(*t->v)) < 0 ||
	    ftc_hindex_add(&t->idx, t->n, h, task_hash, t) < 0)
		return NULL;
	memset(&t->v[t->n], 0, sizeof(t->v[t->n]));
	t->v[t->n].t.pid = pid;
	t->v[t->n].stack = t->v[t->n].pstack = t->v[t->n].ustack = -1;
	return &t->v[t->n++];
}

void ftc_sched_tasks_free(struct sched_tasks *t)
{
	free(t->v);
	ftc_hindex_free(&t->idx);
	memset(t, 0, sizeof(*t));
}

/* ---- stacks ---- */

static uint64_t ips_hash(const uint64_t *ips, size_t n)
{
	uint64_t h = n;

	for (size_t i = 0; i < n; i++)
		h = ftc_hindex_mix(h ^ ips[i]);
	return h;
}

static uint64_t stack_hash(size_t i, const void *tab)
{
	return ((const struct sched_stacks *)tab)->v[i].hash;
}

struct stack_key {
	const uint64_t *ips;
	size_t n;
	uint64_t hash;
};

static bool same_stack(size_t i, const void *key, const void *tab)
{
	const struct sched_stacks *s = tab;
	const struct stack_key *k = key;

	return s->v[i].hash == k->hash && s->v[i].n == k->n &&
	       !memcmp(s->ips + s->v[i].off, k->ips, k->n * sizeof(*k->ips));
}

int ftc_sched_stack_id(struct sched_stacks *s, const uint64_t *ips, size_t n)
{
	struct stack_key key = { ips, n, ips_hash(ips, n) };
	long i = ftc_hindex_find(&s->idx, key.hash, same_stack, &key, s);

	if (i >= 0)
		return (int)i;
	while (s->nips + n > s->cap_ips)
		if (grow_array((void **)&s->ips, &s->cap_ips, s->cap_ips, sizeof(*s->ips)) < 0)
			return -1;
	if (grow_array((void **)&s->v, &s->cap, s->n, sizeof(*s->v)) < 0 ||
	    ftc_hindex_add(&s->idx, s->n, key.hash, stack_hash, s) < 0)
		return -1;
	memcpy(s->ips + s->nips, ips, n * sizeof(*ips));
	s->v[s->n].off = s->nips;
	s->v[s->n].n = n;
	s->v[s->n].hash = key.hash;
	s->nips += n;
	return (int)s->n++;
}

void ftc_sched_stacks_free(struct sched_stacks *s)
{
	free(s->ips);
	free(s->v);
	ftc_hindex_free(&s->idx);
	memset(s, 0, sizeof(*s));
}

/* ---- off-CPU time ---- */

static uint64_t offcpu_key(size_t task, char state, int stack, int ustack)
{
	return ftc_hindex_mix(((uint64_t)task << 32) ^ ((uint64_t)(unsigned char)state << 24) ^
			      (uint64_t)(uint32_t)(stack + 1) ^
			      ((uint64_t)(uint32_t)(ustack + 1) << 40));
}

static uint64_t offcpu_hash(size_t i, const void *tab)
{
	const struct sched_offcpu *e = &((const struct sched_offcpus *)tab)->v[i];

	return offcpu_key(e->task, e->pub.state, e->stack, e->ustack);
}

static bool same_offcpu(size_t i, const void *key, const void *tab)
{
	const struct sched_offcpu *e = &((const struct sched_offcpus *)tab)->v[i], *k = key;

	return e->task == k->task && e->pub.state == k->pub.state && e->stack == k->stack &&
	       e->ustack == k->ustack;
}

int ftc_sched_offcpu_add(struct sched_offcpus *o, size_t task, int pid, char state, int stack,
			 int ustack, uint64_t ns)
{
	struct sched_offcpu key = { .pub = { .pid = pid, .state = state, .ns = ns, .count = 1 },
				    .stack = stack, .ustack = ustack, .task = task };
	uint64_t h = offcpu_key(task, state, stack, ustack);
	long i = ftc_hindex_find(&o->idx, h, same_offcpu, &key, o);

	if (i >= 0) {
		o->v[i].pub.ns += ns;
		o->v[i].pub.count++;
		return 0;
	}
	if (grow_array((void **)&o->v, &o->cap, o->n, sizeof(*o->v)) < 0 ||
	    ftc_hindex_add(&o->idx, o->n, h, offcpu_hash, o) < 0)
		return -1;
	o->v[o->n++] = key;
	return 0;
}

void ftc_sched_offcpus_free(struct sched_offcpus *o)
{
	free(o->v);
	ftc_hindex_free(&o->idx);
	memset(o, 0, sizeof(*o));
}
