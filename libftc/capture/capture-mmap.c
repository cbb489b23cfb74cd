// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading a CPU's ring buffer through its memory map. Each
 * TRACE_MMAP_IOCTL_GET_READER makes the kernel count its reader
 * sub-buffer as read and, once that one is used up, swap the next full
 * one in; the meta page says which sub-buffer that is. When the reader
 * sub-buffer is the one being written, a later call hands it over again
 * with more events: only the events past what was taken are new, and they
 * go out as a page whose header time is that of the last event taken, so
 * that their time deltas still count from it. A sub-buffer is recognized
 * by its id and its header time (an id comes back once the ring wraps).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>

#include "capture-mmap.h"
#include "convert.h"
#include "ftc.h"

/* linux/trace_mmap.h (6.10); Debian 12's headers predate it. */
#define TRACE_MMAP_IOCTL_GET_READER	_IO('R', 0x20)

struct mmap_meta {
	uint32_t meta_page_size, meta_struct_len, subbuf_size, nr_subbufs;
	uint64_t reader_lost_events;
	uint32_t reader_id, reader_read;
};

void ftc_mmap_close(struct ftc_mmap *m)
{
	if (m->data)
		munmap(m->data, m->data_len);
	if (m->meta)
		munmap(m->meta, m->meta_len);
	if (m->kbuf)
		kbuffer_free(m->kbuf);
	free(m->copy);
	free(m->out);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
}

int ftc_mmap_open(struct ftc_mmap *m, int fd, const struct ftc_subbuf_layout *l, size_t page)
{
	const struct mmap_meta *meta;
	long sys_page = sysconf(_SC_PAGESIZE);
	int err;

	memset(m, 0, sizeof(*m));
	m->fd = fd;
	m->last_id = -1;
	m->layout = *l;
	m->meta_len = (size_t)sys_page;
	m->meta = mmap(NULL, m->meta_len, PROT_READ, MAP_SHARED, fd, 0);
	if (m->meta == MAP_FAILED) {
		err = errno;
		m->meta = NULL;
		return -err;
	}
	meta = (const struct mmap_meta *)m->meta;
	m->subbuf_size = meta->subbuf_size;
	m->nr_subbufs = meta->nr_subbufs;
	m->data_len = (size_t)m->subbuf_size * m->nr_subbufs;
	if (m->subbuf_size != page || !m->nr_subbufs || meta->meta_page_size < m->meta_len) {
		ftc_mmap_close(m);
		return -EINVAL;	/* not the sub-buffers the file holds */
	}
	m->data = mmap(NULL, m->data_len, PROT_READ, MAP_SHARED, fd, meta->meta_page_size);
	m->copy = malloc(page);
	m->out = malloc(page);
	m->kbuf = kbuffer_alloc(l->commit_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				l->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (m->data == MAP_FAILED || !m->copy || !m->out || !m->kbuf) {
		err = m->data == MAP_FAILED ? errno : ENOMEM;
		if (m->data == MAP_FAILED)
			m->data = NULL;
		ftc_mmap_close(m);
		return -err;
	}
	return 0;
}

/* The header time of the entry at from: the page's, or the event's that ends there. */
static uint64_t time_at(struct ftc_mmap *m, unsigned int from, uint64_t page_ts)
{
	uint64_t ts = page_ts;

	kbuffer_load_subbuffer(m->kbuf, m->copy);
	for (void *d = kbuffer_read_event(m->kbuf, NULL); d; d = kbuffer_next_event(m->kbuf, NULL)) {
		if ((unsigned int)(kbuffer_curr_offset(m->kbuf) + kbuffer_curr_size(m->kbuf)) > from)
			break;
		ts = kbuffer_timestamp(m->kbuf);
	}
	return ts;
}

/* The reader sub-buffer's events past what was taken, as a page; 0 when none are new. */
static int take(struct ftc_mmap *m, uint32_t id, int (*emit)(void *, const void *), void *ctx)
{
	const unsigned char *src = m->data + (size_t)id * m->subbuf_size;
	struct ftc_subbuf sb;
	struct ftc_page_cut cut;
	uint64_t from;

	/* the writer commits an event, then moves commit past it: read it first */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	memcpy(m->copy, src, m->subbuf_size);
	ftc_subbuf_decode(&m->layout, m->copy, m->subbuf_size, &sb);
	if (sb.len > m->subbuf_size - m->layout.data_off)
		return ftc_error(EIO, "mapped sub-buffer %u says %llu bytes of events", id,
				 (unsigned long long)sb.len);
	from = (int)id == m->last_id && sb.ts == m->last_ts ? m->last_len : 0;
	if (sb.len <= from)
		return 0;
	cut.from = m->layout.data_off + (unsigned int)from;
	cut.to = m->layout.data_off + (unsigned int)sb.len;
	cut.ts = from ? time_at(m, cut.from, sb.ts) : sb.ts;
	ftc_page_piece(&m->layout, m->copy, m->subbuf_size, &cut, m->out);
	m->last_id = (int)id;
	m->last_ts = sb.ts;
	m->last_len = sb.len;
	return emit(ctx, m->out) < 0 ? -1 : 1;
}

long ftc_mmap_round(struct ftc_mmap *m, int (*emit)(void *ctx, const void *page), void *ctx)
{
	const volatile struct mmap_meta *meta = (const volatile struct mmap_meta *)m->meta;
	long n = 0;

	for (;;) {
		uint32_t id;
		int got;

		if (ioctl(m->fd, TRACE_MMAP_IOCTL_GET_READER) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return n;
			return ftc_error(errno, "mapped ring buffer: TRACE_MMAP_IOCTL_GET_READER: %s",
					 strerror(errno));
		}
		id = meta->reader_id;
		if (id >= m->nr_subbufs)
			return ftc_error(EIO, "mapped ring buffer: reader sub-buffer %u of %u", id,
					 m->nr_subbufs);
		got = take(m, id, emit, ctx);
		if (got <= 0)
			return got < 0 ? -1 : n;
		n++;
	}
}
