// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * FTC_OPT_FTC_LOST (writer-lost.c): how many events were lost before a
 * page whose header flags a loss without a count. A table per CPU, sorted
 * by page timestamp, so that the merge finds a page's count by the
 * timestamp in its header: that survives ftc convert and ftc split, which
 * copy pages as they are.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "reader.h"
#include "tracedat-format.h"

static int cmp_ts(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The buffer and CPU index the option names, or -1 when the file has none such. */
static int find_cpu(struct ftc_reader *r, const char *name, uint32_t cpu, int *ci)
{
	for (int b = 0; b < r->nbuffers; b++) {
		if (strcmp(r->buffers[b].name, name))
			continue;
		for (int c = 0; c < r->buffers[b].ncpus; c++)
			if (r->buffers[b].cpus[c].cpu == (int)cpu) {
				*ci = c;
				return b;
			}
	}
	return -1;
}

static int add_tab(struct ftc_reader *r, const struct ftc_dat_opt *o)
{
	const unsigned char *p = o->data, *end = p + o->size, *name_end;
	struct ftc_lost_tab *t, *nt;
	uint32_t cpu, n;
	int b, c;

	name_end = memchr(p, '\0', o->size);
	if (!name_end || end - name_end - 1 < 8)
		goto bad;
	cpu = ftc_rd32(r, name_end + 1);
	n = ftc_rd32(r, name_end + 5);
	p = name_end + 9;
	if ((uint64_t)(end - p) / 16 < n)
		goto bad;
	b = find_cpu(r, (const char *)o->data, cpu, &c);
	if (b < 0 || !n)
		return 0;	/* a buffer the file lost, or nothing: no table */
	nt = realloc(r->lost, sizeof(*nt) * (size_t)(r->nlost + 1));
	if (!nt)
		return ftc_error(ENOMEM, "out of memory");
	r->lost = nt;
	t = &nt[r->nlost];
	t->ts_count = malloc((size_t)n * 16);
	if (!t->ts_count)
		return ftc_error(ENOMEM, "out of memory");
	r->nlost++;
	t->buffer = b;
	t->cpu_index = c;
	t->n = n;
	for (uint32_t i = 0; i < 2 * n; i++)
		t->ts_count[i] = ftc_rd64(r, p + 8 * i);
	qsort(t->ts_count, n, 16, cmp_ts);
	return 0;
bad:
	ftc_reader_warn(r, "%s: lost-events option at offset %llu (%u bytes) is malformed; "
			"its counts are not used", r->path, (unsigned long long)o->offset, o->size);
	return 0;
}

int ftc_lost_options(struct ftc_reader *r)
{
	for (int i = 0; i < r->noptions; i++)
		if (r->options[i].id == FTC_OPT_FTC_LOST && add_tab(r, &r->options[i]) < 0)
			return -1;
	return 0;
}

long long ftc_reader_lost_count(const struct ftc_reader *r, int b, int c, uint64_t page_ts)
{
	for (int i = 0; i < r->nlost; i++) {
		const struct ftc_lost_tab *t = &r->lost[i];
		const uint64_t *hit;

		if (t->buffer != b || t->cpu_index != c)
			continue;
		hit = bsearch(&page_ts, t->ts_count, t->n, 16, cmp_ts);
		if (hit && hit[1])
			return hit[1] > (uint64_t)LLONG_MAX ? LLONG_MAX : (long long)hit[1];
	}
	return -1;
}

void ftc_lost_free(struct ftc_reader *r)
{
	for (int i = 0; i < r->nlost; i++)
		free(r->lost[i].ts_count);
	free(r->lost);
	r->lost = NULL;
	r->nlost = 0;
}
