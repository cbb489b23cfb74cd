// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One CPU's stream of records: a small window of raw sub-buffers read from
 * the file (or one decompressed chunk of a v7 file), walked with
 * libtraceevent's kbuffer. Memory stays a few pages whatever the trace
 * length. Every page and every event is checked against what is really in
 * the window so a corrupt length cannot make anyone read past it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "ftc.h"
#include "merge-cpu.h"

#define WINDOW_PAGES	16

static int stream_fail(struct ftc_stream *s, const char *fmt, uint64_t off)
{
	ftc_reader_warn(s->r, "%s: buffer '%s' CPU %d: %s at offset %llu; the rest of this "
			"CPU is skipped", s->r->path, s->bname, s->cpu, fmt,
			(unsigned long long)off);
	s->done = true;
	return -1;
}

static int grow(char **buf, size_t *cap, size_t want)
{
	char *n;

	if (*cap >= want)
		return 0;
	n = realloc(*buf, want);
	if (!n)
		return ftc_error(ENOMEM, "out of memory");
	*buf = n;
	*cap = want;
	return 0;
}

int ftc_stream_init(struct ftc_stream *s, struct ftc_reader *r, int buffer, int cpu_index)
{
	const struct ftc_dat_buffer *b = &r->buffers[buffer];
	const struct ftc_dat_cpu *c = &b->cpus[cpu_index];
	int csize = r->header_commit_size;
	unsigned char cnt[4];

	memset(s, 0, sizeof(*s));
	s->r = r;
	s->buffer = buffer;
	s->cpu_index = cpu_index;
	s->cpu = c->cpu;
	s->bname = b->name;
	s->compressed = b->compressed;
	s->psize = r->page_size;
	/*
	 * The commit size comes from the file's header_page; kbuffer, which
	 * walks the events, puts the data right after it.
	 */
	ftc_subbuf_layout_long(&s->subbuf, csize == 4 || csize == 8 ? (unsigned int)csize :
			       (unsigned int)r->long_size, r->big_endian);
	s->pos = c->offset;
	s->end = c->offset + c->size;
	s->rec = calloc(1, sizeof(*s->rec));
	s->kbuf = kbuffer_alloc(s->subbuf.commit_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				r->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!s->rec || !s->kbuf)
		return ftc_error(ENOMEM, "out of memory");
	if (!c->size) {
		s->done = true;
		return 0;
	}
	if (s->compressed) {
		if (ftc_pread_all(r, cnt, 4, c->offset, "chunk count") < 0)
			return stream_fail(s, "the chunk count is unreadable", c->offset);
		s->chunks_left = ftc_rd32(r, cnt);
		s->pos = c->offset + 4;
		s->end = s->pos + c->size;
	}
	return 0;
}

void ftc_stream_release(struct ftc_stream *s)
{
	if (s->kbuf)
		kbuffer_free(s->kbuf);
	free(s->win);
	free(s->cbuf);
	free(s->rec);
	memset(s, 0, sizeof(*s));
}

static int load_chunk(struct ftc_stream *s)
{
	struct ftc_chunk c;
	uint64_t off = s->pos;
	const char *why;

	if (!s->chunks_left || s->end - s->pos < 8)
		return 0;
	if (ftc_chunk_head(s->r, off, s->end, 0, &c, &why) < 0)
		return stream_fail(s, why, off);
	if (grow(&s->cbuf, &s->cbuf_cap, c.csize ? c.csize : 1) < 0)
		return stream_fail(s, "out of memory for a chunk", off);
	if (ftc_chunk_read(s->r, off, &c, s->cbuf) < 0) {
		ftc_reader_warn(s->r, "%s", ftc_strerror());
		return stream_fail(s, "a chunk is unreadable", off);
	}
	if (grow(&s->win, &s->win_cap, (size_t)c.usize + s->psize) < 0)
		return stream_fail(s, "out of memory for a chunk", off);
	if (ftc_chunk_unpack(s->r, off, &c, s->cbuf, s->win) < 0) {
		ftc_reader_warn(s->r, "%s", ftc_strerror());
		return stream_fail(s, "a chunk is unreadable", off);
	}
	s->pos = off + 8 + c.csize;
	s->chunks_left--;
	s->win_len = c.usize;
	s->win_off = 0;
	s->win_file_off = off;
	memset(s->win + c.usize, 0, s->psize);
	return 1;
}

static int load_pages(struct ftc_stream *s)
{
	uint64_t n = s->end - s->pos;

	if (s->pos >= s->end)
		return 0;
	if (n > (uint64_t)WINDOW_PAGES * s->psize)
		n = (uint64_t)WINDOW_PAGES * s->psize;
	if (grow(&s->win, &s->win_cap, (size_t)(WINDOW_PAGES + 1) * s->psize) < 0)
		return stream_fail(s, "out of memory for pages", s->pos);
	if (ftc_pread_all(s->r, s->win, n, s->pos, "ring-buffer pages") < 0) {
		ftc_reader_warn(s->r, "%s", ftc_strerror());
		return stream_fail(s, "pages are unreadable", s->pos);
	}
	memset(s->win + n, 0, s->psize);
	s->win_file_off = s->pos;
	s->pos += n;
	s->win_len = n;
	s->win_off = 0;
	return 1;
}

static uint64_t page_file_off(struct ftc_stream *s)
{
	return s->compressed ? s->win_file_off : s->win_file_off + s->win_off;
}

/* Checks the sub-buffer header before kbuffer trusts it. */
static int page_ok(struct ftc_stream *s, const char *page, size_t valid)
{
	struct ftc_subbuf sb;

	if (valid < s->subbuf.data_off)
		return 0;
	if (!ftc_subbuf_decode(&s->subbuf, page, s->psize, &sb)) {
		ftc_reader_warn(s->r, "%s: buffer '%s' CPU %d: page at offset %llu claims %llu "
				"bytes of data, more than a page; page skipped", s->r->path,
				s->bname, s->cpu, (unsigned long long)page_file_off(s),
				(unsigned long long)sb.len);
		return 0;
	}
	return 1;
}

static int next_page(struct ftc_stream *s)
{
	for (;;) {
		int ret;

		if (s->page_loaded)
			s->win_off += s->psize;
		s->page_loaded = false;
		if (s->win_off >= s->win_len || s->win_len - s->win_off < s->subbuf.data_off) {
			if (s->done)
				return 0;
			ret = s->compressed ? load_chunk(s) : load_pages(s);
			if (ret <= 0) {
				s->done = true;
				return ret;
			}
		}
		s->page_valid = s->win_len - s->win_off;
		if (s->page_valid > s->psize)
			s->page_valid = s->psize;
		s->page_loaded = true;
		if (!page_ok(s, s->win + s->win_off, s->page_valid))
			continue;
		if (kbuffer_load_subbuffer(s->kbuf, s->win + s->win_off) < 0)
			continue;
		s->missed = kbuffer_missed_events(s->kbuf);
		/* A full page has no room for the count: ftc record kept it aside. */
		if (s->missed < 0)
			s->missed = ftc_reader_lost_count(s->r, s->buffer, s->cpu_index,
							  ftc_rd64(s->r, s->win + s->win_off));
		s->first_in_page = true;
		s->page_seq++;
		return 1;
	}
}

int ftc_stream_next_page(struct ftc_stream *s)
{
	return next_page(s);
}

/*
 * (ts * mult) >> shift over the 96-bit product, kept to 64 bits: in two
 * 64-bit halves, as 32-bit targets (armhf) have no __int128.
 */
static uint64_t mul_shift(uint64_t ts, uint32_t mult, uint32_t shift)
{
	uint64_t p_lo = (ts & 0xffffffffu) * mult, p_hi = (ts >> 32) * mult;
	uint64_t lo = p_lo + (p_hi << 32);
	uint64_t hi = (p_hi >> 32) + (lo < p_lo);

	shift &= 127;
	if (!shift)
		return lo;
	if (shift >= 64)
		return hi >> (shift - 64);
	return (lo >> shift) | (hi << (64 - shift));
}

static unsigned long long convert_ts(struct ftc_reader *r, unsigned long long ts)
{
	if (r->tsc_mult) {
		ts = mul_shift(ts, r->tsc_mult, r->tsc_shift);
		ts += (unsigned long long)r->tsc_offset;
	}
	return ts + (unsigned long long)r->ts_offset;
}

int ftc_stream_advance(struct ftc_stream *s)
{
	for (;;) {
		unsigned long long ts;
		const char *page;
		char *data;
		int size;

		if (!s->page_loaded || !s->first_in_page) {
			data = s->page_loaded ? kbuffer_next_event(s->kbuf, &ts) : NULL;
		} else {
			data = kbuffer_read_event(s->kbuf, &ts);
			s->first_in_page = false;
		}
		if (!data) {
			int ret = next_page(s);

			if (ret <= 0)
				return ret;
			s->first_in_page = true;
			continue;
		}
		page = s->win + s->win_off;
		size = kbuffer_event_size(s->kbuf);
		if (data < page || size < 8 ||
		    (size_t)(data - page) + (size_t)size > s->page_valid) {
			/* Past the damage: drop the rest of this page. */
			ftc_reader_warn(s->r, "%s: buffer '%s' CPU %d: event at offset %llu runs "
					"past its page (corrupt or truncated); rest of page skipped",
					s->r->path, s->bname, s->cpu,
					(unsigned long long)(page_file_off(s) + (size_t)(data - page)));
			if (next_page(s) <= 0)
				return 0;
			s->first_in_page = true;
			continue;
		}
		s->rec->ts = convert_ts(s->r, ts);
		s->rec->data = data;
		s->rec->size = size;
		s->rec->record_size = kbuffer_curr_size(s->kbuf);
		s->rec->cpu = s->cpu;
		s->rec->offset = page_file_off(s) + (uint64_t)(data - page);
		s->rec->missed_events = s->missed;
		s->missed = 0;
		return 1;
	}
}

/*
 * The record after the current one, if it is in the same sub-buffer, without
 * consuming it (function_graph folding looks one record ahead per CPU).
 */
int ftc_stream_peek(struct ftc_stream *s, struct tep_record *next)
{
	const char *page;
	unsigned long long ts;
	int off, size;
	char *data;

	if (!s->page_loaded || s->first_in_page)
		return 0;
	page = s->win + s->win_off;
	off = kbuffer_curr_offset(s->kbuf);
	data = kbuffer_next_event(s->kbuf, &ts);
	size = data ? kbuffer_event_size(s->kbuf) : 0;
	if (data && size >= 8 && data >= page &&
	    (size_t)(data - page) + (size_t)size <= s->page_valid) {
		*next = *s->rec;
		next->ts = convert_ts(s->r, ts);
		next->data = data;
		next->size = size;
		next->missed_events = 0;
		next->offset = page_file_off(s) + (uint64_t)(data - page);
	} else {
		data = NULL;
	}
	kbuffer_read_at_offset(s->kbuf, off, &ts);
	return data != NULL;
}

void ftc_stream_skip(struct ftc_stream *s)
{
	unsigned long long ts;

	if (s->page_loaded && !s->first_in_page)
		kbuffer_next_event(s->kbuf, &ts);
}
