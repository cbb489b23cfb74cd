// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Merges the record streams of every CPU of every buffer by timestamp with
 * a binary heap: O(log n) per record where a linear scan of all heads
 * costs O(n). Ties go to the earlier buffer, then the lower CPU, so the
 * order is stable from run to run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "merge.h"
#include "merge-cpu.h"
#include "reader.h"

struct ftc_merge {
	struct ftc_reader *r;
	struct ftc_stream *streams;
	int nstreams;
	struct ftc_stream **heap;
	int nheap;
	struct ftc_stream *last;	/* handed out; advanced on the next call */
	bool started;
};

static bool before(const struct ftc_stream *a, const struct ftc_stream *b)
{
	if (a->rec->ts != b->rec->ts)
		return a->rec->ts < b->rec->ts;
	if (a->buffer != b->buffer)
		return a->buffer < b->buffer;
	return a->cpu < b->cpu;
}

static void sift_down(struct ftc_merge *m, int i)
{
	for (;;) {
		int l = 2 * i + 1, rt = l + 1, min = i;
		struct ftc_stream *t;

		if (l < m->nheap && before(m->heap[l], m->heap[min]))
			min = l;
		if (rt < m->nheap && before(m->heap[rt], m->heap[min]))
			min = rt;
		if (min == i)
			return;
		t = m->heap[i];
		m->heap[i] = m->heap[min];
		m->heap[min] = t;
		i = min;
	}
}

struct ftc_merge *ftc_merge_open(struct ftc_reader *r, const uint64_t *cpu_mask)
{
	struct ftc_merge *m = calloc(1, sizeof(*m));
	int total = 0;

	if (!m)
		goto nomem;
	m->r = r;
	for (int b = 0; b < r->nbuffers; b++)
		total += r->buffers[b].ncpus;
	m->streams = calloc((size_t)total + 1, sizeof(*m->streams));
	m->heap = calloc((size_t)total + 1, sizeof(*m->heap));
	if (!m->streams || !m->heap)
		goto nomem;
	for (int b = 0; b < r->nbuffers; b++) {
		for (int c = 0; c < r->buffers[b].ncpus; c++) {
			int cpu = r->buffers[b].cpus[c].cpu;

			if (cpu_mask && (cpu < 0 || cpu >= FTC_MAX_CPUS ||
					 !(cpu_mask[cpu / 64] & (1ULL << (cpu % 64)))))
				continue;
			if (ftc_stream_init(&m->streams[m->nstreams++], r, b, c) < 0 &&
			    errno == ENOMEM) {
				ftc_merge_close(m);
				return NULL;
			}
		}
	}
	return m;
nomem:
	ftc_merge_close(m);
	ftc_error(ENOMEM, "out of memory");
	return NULL;
}

void ftc_merge_close(struct ftc_merge *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nstreams; i++)
		ftc_stream_release(&m->streams[i]);
	free(m->streams);
	free(m->heap);
	free(m);
}

static void start(struct ftc_merge *m)
{
	m->started = true;
	for (int i = 0; i < m->nstreams; i++)
		if (m->streams[i].rec && ftc_stream_advance(&m->streams[i]) == 1)
			m->heap[m->nheap++] = &m->streams[i];
	for (int i = m->nheap / 2 - 1; i >= 0; i--)
		sift_down(m, i);
}

int ftc_merge_peek_events(struct ftc_merge *m, int (*fn)(struct tep_record *rec, void *ctx),
			  void *ctx)
{
	if (!m->started)
		start(m);
	for (int i = 0; i < m->nheap; i++) {
		int ret = fn(m->heap[i]->rec, ctx);

		if (ret)
			return ret;
	}
	return 0;
}

int ftc_merge_next(struct ftc_merge *m, struct ftc_merge_record *out)
{
	struct ftc_stream *s;

	if (!m->started)
		start(m);
	if (m->last) {
		/* The heap top is the stream handed out last time. */
		if (ftc_stream_advance(m->last) != 1)
			m->heap[0] = m->heap[--m->nheap];
		if (m->nheap)
			sift_down(m, 0);
		m->last = NULL;
	}
	if (!m->nheap)
		return 0;
	s = m->heap[0];
	m->last = s;
	out->rec = s->rec;
	out->buffer = s->buffer;
	out->cpu = s->cpu;
	out->missed = s->rec->missed_events;
	return 1;
}

int ftc_merge_peek_same_cpu(struct ftc_merge *m, struct tep_record *next)
{
	return m->last ? ftc_stream_peek(m->last, next) : 0;
}

void ftc_merge_skip_peeked(struct ftc_merge *m)
{
	if (m->last)
		ftc_stream_skip(m->last);
}
