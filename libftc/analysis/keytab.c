// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The indexes of the analysis passes' tables (keytab.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "keytab.h"

uint64_t ftc_hindex_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

long ftc_hindex_find(const struct ftc_hindex *x, uint64_t h, ftc_hindex_same_fn same,
		     const void *key, const void *tab)
{
	if (!x->cap)
		return -1;
	for (size_t k = h & (x->cap - 1); x->slot[k]; k = (k + 1) & (x->cap - 1))
		if (same(x->slot[k] - 1, key, tab))
			return (long)x->slot[k] - 1;
	return -1;
}

static void put(uint32_t *slot, size_t cap, uint64_t h, size_t i)
{
	size_t k = h & (cap - 1);

	while (slot[k])
		k = (k + 1) & (cap - 1);
	slot[k] = (uint32_t)(i + 1);
}

int ftc_hindex_add(struct ftc_hindex *x, size_t n, uint64_t h, ftc_hindex_hash_fn hash_of,
		   const void *tab)
{
	size_t cap = x->cap ? x->cap * 2 : 128;
	uint32_t *slot;

	if (n >= UINT32_MAX - 1)
		return ftc_error(ENOMEM, "too many keys");
	if (2 * (n + 1) > x->cap) {
		slot = calloc(cap, sizeof(*slot));
		if (!slot)
			return ftc_error(ENOMEM, "out of memory");
		for (size_t i = 0; i < n; i++)
			put(slot, cap, hash_of(i, tab), i);
		free(x->slot);
		x->slot = slot;
		x->cap = cap;
	}
	put(x->slot, x->cap, h, n);
	return 0;
}

void ftc_hindex_free(struct ftc_hindex *x)
{
	free(x->slot);
	x->slot = NULL;
	x->cap = 0;
}

static bool same_key(size_t i, const void *key, const void *tab)
{
	return ((const struct ftc_keytab *)tab)->keys[i] == *(const uint64_t *)key;
}

static uint64_t key_hash(size_t i, const void *tab)
{
	return ftc_hindex_mix(((const struct ftc_keytab *)tab)->keys[i]);
}

long ftc_keytab_find(const struct ftc_keytab *t, uint64_t key)
{
	return ftc_hindex_find(&t->idx, ftc_hindex_mix(key), same_key, &key, t);
}

long ftc_keytab_get(struct ftc_keytab *t, uint64_t key, int *added)
{
	long i = ftc_keytab_find(t, key);

	*added = 0;
	if (i >= 0)
		return i;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		uint64_t *keys = realloc(t->keys, cap * sizeof(*keys));

		if (!keys)
			return ftc_error(ENOMEM, "out of memory");
		t->keys = keys;
		t->cap = cap;
	}
	t->keys[t->n] = key;
	if (ftc_hindex_add(&t->idx, t->n, ftc_hindex_mix(key), key_hash, t) < 0)
		return -1;
	*added = 1;
	return (long)t->n++;
}

void *ftc_keytab_value(struct ftc_keytab *t, uint64_t key, void **vals, size_t size, int *added)
{
	long i = ftc_keytab_find(t, key);
	size_t cap = t->n < t->cap ? t->cap : t->cap ? t->cap * 2 : 64;	/* as get grows */
	void *v;

	*added = 0;
	if (i >= 0)
		return (char *)*vals + (size_t)i * size;
	v = realloc(*vals, cap * size);
	if (!v) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	*vals = v;
	i = ftc_keytab_get(t, key, added);
	if (i < 0)
		return NULL;
	memset((char *)v + (size_t)i * size, 0, size);
	return (char *)v + (size_t)i * size;
}

void ftc_keytab_free(struct ftc_keytab *t)
{
	free(t->keys);
	ftc_hindex_free(&t->idx);
	t->keys = NULL;
	t->n = t->cap = 0;
}
