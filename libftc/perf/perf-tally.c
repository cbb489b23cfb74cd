// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A tally of strings (symbols, folded stacks) with two counts each, self
 * and children, in an open-addressing hash table; sorted on the way out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-perf.h"

struct ftc_perf_tally {
	struct ftc_perf_tally_entry **slots;
	size_t cap, n;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

struct ftc_perf_tally *ftc_perf_tally_new(void)
{
	struct ftc_perf_tally *t = calloc(1, sizeof(*t));

	if (t) {
		t->cap = 1024;
		t->slots = calloc(t->cap, sizeof(*t->slots));
	}
	if (!t || !t->slots) {
		free(t);
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	return t;
}

void ftc_perf_tally_free(struct ftc_perf_tally *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i]);
	free(t->slots);
	free(t);
}

static int grow(struct ftc_perf_tally *t)
{
	size_t cap = t->cap * 2;
	struct ftc_perf_tally_entry **s = calloc(cap, sizeof(*s));

	if (!s)
		return ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < t->cap; i++) {
		struct ftc_perf_tally_entry *e = t->slots[i];
		size_t j;

		if (!e)
			continue;
		for (j = hash_str(e->key) & (cap - 1); s[j]; j = (j + 1) & (cap - 1))
			;
		s[j] = e;
	}
	free(t->slots);
	t->slots = s;
	t->cap = cap;
	return 0;
}

int ftc_perf_tally_add(struct ftc_perf_tally *t, const char *key, uint64_t self,
		       uint64_t children)
{
	struct ftc_perf_tally_entry *e;
	size_t j, len;

	if (t->n * 2 >= t->cap && grow(t) < 0)
		return -1;
	for (j = hash_str(key) & (t->cap - 1); (e = t->slots[j]); j = (j + 1) & (t->cap - 1)) {
		if (!strcmp(e->key, key)) {
			e->self += self;
			e->children += children;
			return 0;
		}
	}
	len = strlen(key);
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return ftc_error(ENOMEM, "out of memory");
	e->self = self;
	e->children = children;
	memcpy(e->key, key, len + 1);
	t->slots[j] = e;
	t->n++;
	return 0;
}

static int by_children(const void *a, const void *b)
{
	const struct ftc_perf_tally_entry *x = *(void *const *)a, *y = *(void *const *)b;

	if (x->children != y->children)
		return x->children < y->children ? 1 : -1;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return strcmp(x->key, y->key);
}

static int by_self(const void *a, const void *b)
{
	const struct ftc_perf_tally_entry *x = *(void *const *)a, *y = *(void *const *)b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return strcmp(x->key, y->key);
}

static int by_key(const void *a, const void *b)
{
	const struct ftc_perf_tally_entry *x = *(void *const *)a, *y = *(void *const *)b;

	return strcmp(x->key, y->key);
}

struct ftc_perf_tally_entry **ftc_perf_tally_sorted(struct ftc_perf_tally *t,
						    enum ftc_perf_tally_order order, size_t *n)
{
	struct ftc_perf_tally_entry **v = malloc((t->n ? t->n : 1) * sizeof(*v));
	size_t k = 0;

	if (!v) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i])
			v[k++] = t->slots[i];
	qsort(v, k, sizeof(*v), order == FTC_PERF_BY_CHILDREN ? by_children :
	      order == FTC_PERF_BY_SELF ? by_self : by_key);
	*n = k;
	return v;
}
