/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An index of 64-bit keys over an array the caller grows (keytab.c): open
 * addressing of entry + 1, rebuilt at twice the size when half full, so a
 * lookup costs a hash and a probe or two whatever the trace's length.
 * Memory follows the keys.
 */
#ifndef FTC_KEYTAB_H
#define FTC_KEYTAB_H

#include <stddef.h>
#include <stdint.h>

struct ftc_keytab {
	uint64_t *keys;			/* entry i's key */
	size_t n, cap;			/* entries, and room in keys */
	uint32_t *slot;			/* key's entry + 1; 0 is empty */
	size_t nslots;
};

/* The entry of key, or -1. */
long ftc_keytab_find(const struct ftc_keytab *t, uint64_t key);
/*
 * The entry of key, added as the last (t->n - 1) when new (*added: the
 * caller's own array must then grow to t->n entries). -1 when out of memory.
 */
long ftc_keytab_get(struct ftc_keytab *t, uint64_t key, int *added);
void ftc_keytab_free(struct ftc_keytab *t);

#endif
