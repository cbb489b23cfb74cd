/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The analysis passes' indexes (keytab.c), over arrays their callers grow:
 * open addressing of entry + 1, rebuilt at twice the size when half full,
 * so that a lookup costs a hash and a probe or two whatever the trace's
 * length, and memory follows the keys. ftc_hindex takes any hash and an
 * equality test (a stack by its frames); ftc_keytab is one for 64-bit keys.
 */
#ifndef FTC_KEYTAB_H
#define FTC_KEYTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ftc_hindex {
	uint32_t *slot;			/* an entry + 1; 0 is empty */
	size_t cap;
};

/* Entry i is the one looked for; its hash. */
typedef bool (*ftc_hindex_same_fn)(size_t i, const void *key, const void *tab);
typedef uint64_t (*ftc_hindex_hash_fn)(size_t i, const void *tab);

/* The entry whose hash is h and that same() takes for key, or -1. */
long ftc_hindex_find(const struct ftc_hindex *x, uint64_t h, ftc_hindex_same_fn same,
		     const void *key, const void *tab);
/*
 * Indexes entry n (the n before it are indexed) under h, rebuilding from
 * hash_of when half full: 0, or -1 when out of memory.
 */
int ftc_hindex_add(struct ftc_hindex *x, size_t n, uint64_t h, ftc_hindex_hash_fn hash_of,
		   const void *tab);
void ftc_hindex_free(struct ftc_hindex *x);
/* A 64-bit value spread over the index. */
uint64_t ftc_hindex_mix(uint64_t h);

struct ftc_keytab {
	uint64_t *keys;			/* entry i's key */
	size_t n, cap;			/* entries, and room in keys */
	struct ftc_hindex idx;
};

/* The entry of key, or -1. */
long ftc_keytab_find(const struct ftc_keytab *t, uint64_t key);
/*
 * The entry of key, added as the last (t->n - 1) when new (*added: the
 * caller's own array must then grow to t->n entries). -1 when out of memory.
 */
long ftc_keytab_get(struct ftc_keytab *t, uint64_t key, int *added);
/*
 * The value of key in *vals (size bytes each, grown beside the keys), zeroed
 * when new (*added). NULL when out of memory, the table as it was: a key is
 * never left without its value.
 */
void *ftc_keytab_value(struct ftc_keytab *t, uint64_t key, void **vals, size_t size, int *added);
void ftc_keytab_free(struct ftc_keytab *t);

#endif
