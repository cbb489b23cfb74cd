// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The index of 64-bit keys of the analysis passes' tables (keytab.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "ftc.h"
#include "keytab.h"

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

long ftc_keytab_find(const struct ftc_keytab *t, uint64_t key)
{
	if (!t->nslots)
		return -1;
	for (size_t k = mix(key) & (t->nslots - 1); t->slot[k]; k = (k + 1) & (t->nslots - 1))
		if (t->keys[t->slot[k] - 1] == key)
			return (long)t->slot[k] - 1;
	return -1;
}

/* At half full, the slots are made again at twice the size. */
static int fit(struct ftc_keytab *t)
{
	size_t cap = t->nslots ? t->nslots * 2 : 128;
	uint32_t *slot;

	if (2 * (t->n + 1) <= t->nslots)
		return 0;
	slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < t->n; i++) {
		size_t k = mix(t->keys[i]) & (cap - 1);

		while (slot[k])
			k = (k + 1) & (cap - 1);
		slot[k] = (uint32_t)(i + 1);
	}
	free(t->slot);
	t->slot = slot;
	t->nslots = cap;
	return 0;
}

long ftc_keytab_get(struct ftc_keytab *t, uint64_t key, int *added)
{
	long i = ftc_keytab_find(t, key);
	size_t k;

	*added = 0;
	if (i >= 0)
		return i;
	if (t->n >= UINT32_MAX - 1)
		return ftc_error(ENOMEM, "too many keys");
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		uint64_t *keys = realloc(t->keys, cap * sizeof(*keys));

		if (!keys)
			return ftc_error(ENOMEM, "out of memory");
		t->keys = keys;
		t->cap = cap;
	}
	if (fit(t) < 0)
		return -1;
	t->keys[t->n] = key;
	for (k = mix(key) & (t->nslots - 1); t->slot[k]; k = (k + 1) & (t->nslots - 1))
		;
	t->slot[k] = (uint32_t)(t->n + 1);
	*added = 1;
	return (long)t->n++;
}

void ftc_keytab_free(struct ftc_keytab *t)
{
	free(t->keys);
	free(t->slot);
	t->keys = NULL;
	t->slot = NULL;
	t->n = t->cap = t->nslots = 0;
}
