// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * How many events each flagged page lost. The kernel flags a sub-buffer
 * read after a loss, but stores the count only where it fits after the
 * data: never in the full pages splice hands out. The capture measures
 * the count (the buffer's overrun counter) and the file keeps it here, so
 * that a report can say how many were lost at that place.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "ftc.h"
#include "writer.h"

int ftc_writer_add_lost(struct ftc_writer *w, int buf, int cpu_idx, uint64_t page_ts,
			uint64_t count)
{
	struct wcpu *wc;
	int oom;

	if (buf < 0 || buf >= w->nbufs || cpu_idx < 0 || cpu_idx >= w->bufs[buf].ncpus)
		return ftc_error(EINVAL, "%s: no CPU %d in buffer %d for its lost events",
				 w->path, cpu_idx, buf);
	wc = &w->bufs[buf].cpus[cpu_idx];
	/* The checkpoint reads the lists from another thread. */
	pthread_mutex_lock(&w->lock);
	ftc_dbuf_u64(&wc->lost, page_ts);
	ftc_dbuf_u64(&wc->lost, count);
	oom = wc->lost.oom;
	pthread_mutex_unlock(&w->lock);
	return oom ? ftc_error(ENOMEM, "out of memory") : 0;
}

long long ftc_writer_lost_count(struct ftc_writer *w, int buf, int cpu_idx, uint64_t page_ts)
{
	long long n = -1;

	if (buf < 0 || buf >= w->nbufs || cpu_idx < 0 || cpu_idx >= w->bufs[buf].ncpus)
		return -1;
	pthread_mutex_lock(&w->lock);
	{
		const struct ftc_dbuf *l = &w->bufs[buf].cpus[cpu_idx].lost;
		const uint64_t *e = (const uint64_t *)(const void *)l->p;

		/* The page asked about is one of the last ones added. */
		for (size_t i = l->len / 16; i-- > 0;)
			if (e[2 * i] == page_ts) {
				n = e[2 * i + 1] && e[2 * i + 1] <= LLONG_MAX ?
				    (long long)e[2 * i + 1] : -1;
				break;
			}
	}
	pthread_mutex_unlock(&w->lock);
	return n;
}

void ftc_wlost_options(struct ftc_writer *w, struct ftc_dbuf *o)
{
	if (w->version < 7)
		return;	/* the v6 index is rewritten in place: its size is fixed */
	pthread_mutex_lock(&w->lock);
	for (int b = 0; b < w->nbufs; b++)
		for (int c = 0; c < w->bufs[b].ncpus; c++) {
			const struct wbuf *wb = &w->bufs[b];
			const struct ftc_dbuf *l = &wb->cpus[c].lost;

			if (!l->len)
				continue;
			ftc_dbuf_u16(o, FTC_OPT_FTC_LOST);
			ftc_dbuf_u32(o, (uint32_t)(strlen(wb->name) + 1 + 8 + l->len));
			ftc_dbuf_str(o, wb->name);
			ftc_dbuf_u32(o, (uint32_t)wb->cpus[c].cpu);
			ftc_dbuf_u32(o, (uint32_t)(l->len / 16));
			ftc_dbuf_add(o, l->p, l->len);
		}
	pthread_mutex_unlock(&w->lock);
}
