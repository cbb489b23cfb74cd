// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc top's tables of counts: open addressing by a 64-bit key, grown at
 * half full, so that a record costs one hash and a probe or two.
 */
#include <stdlib.h>
#include <string.h>

#include "top.h"

static size_t slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

struct top_entry *top_map_find(const struct top_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot(key, m->cap); m->e[i].used; i = (i + 1) & (m->cap - 1))
		if (m->e[i].key == key)
			return &m->e[i];
	return NULL;
}

static int grow(struct top_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	struct top_entry *e = calloc(cap, sizeof(*e));

	if (!e)
		return -1;
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->e[i].used)
			continue;
		for (j = slot(m->e[i].key, cap); e[j].used; j = (j + 1) & (cap - 1))
			;
		e[j] = m->e[i];
	}
	free(m->e);
	m->e = e;
	m->cap = cap;
	return 0;
}

/* The entry of key, made when missing; NULL only when out of memory. */
struct top_entry *top_map_get(struct top_map *m, uint64_t key)
{
	struct top_entry *e = top_map_find(m, key);
	size_t i;

	if (e)
		return e;
	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return NULL;
	for (i = slot(key, m->cap); m->e[i].used; i = (i + 1) & (m->cap - 1))
		;
	e = &m->e[i];
	memset(e, 0, sizeof(*e));
	e->used = true;
	e->key = key;
	m->n++;
	return e;
}

void top_map_clear(struct top_map *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->e[i].name);
	free(m->e);
	memset(m, 0, sizeof(*m));
}
