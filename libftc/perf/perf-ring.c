// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The perf mmap ring buffer: one metadata page then 2^n data pages. The
 * kernel advances data_head; we read records up to it and give the space
 * back by advancing data_tail. A record may wrap the end of the ring; it
 * is copied whole into a bounce buffer so callers always see it flat.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"

struct ftc_perf_ring *ftc_perf_ring_map(int fd, size_t data_pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ftc_perf_ring *r;
	void *base;

	if (!data_pages || (data_pages & (data_pages - 1))) {
		ftc_error(EINVAL, "ring of %zu pages: must be a power of two", data_pages);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	r->map_size = (data_pages + 1) * page;
	base = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		ftc_error(errno, "cannot map the perf ring (%zu KiB): %s; "
			  "a smaller -m or a larger perf_event_mlock_kb helps",
			  r->map_size >> 10, strerror(errno));
		free(r);
		return NULL;
	}
	r->fd = fd;
	r->meta = base;
	r->data = (unsigned char *)base + page;
	r->data_size = data_pages * page;
	return r;
}

void ftc_perf_ring_unmap(struct ftc_perf_ring *r)
{
	if (!r)
		return;
	if (r->meta)
		munmap(r->meta, r->map_size);
	free(r->bounce);
	free(r);
}

static const struct perf_event_header *record_at(struct ftc_perf_ring *r, uint64_t tail)
{
	size_t mask = r->data_size - 1, off = tail & mask;
	const struct perf_event_header *h = (const void *)(r->data + off);
	size_t size, first;

	/* The header itself is 8-byte aligned and never wraps. */
	size = h->size;
	if (off + size <= r->data_size)
		return h;
	if (size > r->bounce_size) {
		unsigned char *b = realloc(r->bounce, size);

		if (!b)
			return NULL;
		r->bounce = b;
		r->bounce_size = size;
	}
	first = r->data_size - off;
	memcpy(r->bounce, r->data + off, first);
	memcpy(r->bounce + first, r->data, size - first);
	return (const void *)r->bounce;
}

int ftc_perf_ring_drain(struct ftc_perf_ring *r, ftc_perf_record_fn fn, void *ctx)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	int n = 0, ret = 0;

	while (tail < head) {
		const struct perf_event_header *h = record_at(r, tail);

		if (!h) {
			ret = ftc_error(ENOMEM, "out of memory");
			break;
		}
		if (h->size < sizeof(*h)) {
			ret = ftc_error(EPROTO, "perf ring: record of %u bytes at %llu",
					h->size, (unsigned long long)tail);
			break;
		}
		ret = fn(h, ctx);
		if (ret < 0)
			break;
		tail += h->size;
		n++;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	return ret < 0 ? -1 : n;
}

/*
 * Field order of PERF_RECORD_SAMPLE is fixed by the ABI (perf_event.h).
 * Sets *rest to the first field after the callchain (the user registers
 * and stack come there, which only ftc_perf_sample_parse_user reads).
 */
static int parse(const struct perf_event_header *h, uint64_t type, struct ftc_perf_sample *s,
		 const uint64_t **rest)
{
	const uint64_t *p = (const void *)(h + 1);
	const uint64_t *end = (const void *)((const char *)h + h->size);
	uint64_t known = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
		PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
		PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	memset(s, 0, sizeof(*s));
	if (type & ~known)
		return ftc_error(EINVAL, "sample_type 0x%llx has fields this reader skips",
				 (unsigned long long)type);
#define TAKE(field) do { if (p >= end) goto short_rec; field = *p++; } while (0)
	if (type & PERF_SAMPLE_IDENTIFIER)
		TAKE(s->id);
	if (type & PERF_SAMPLE_IP)
		TAKE(s->ip);
	if (type & PERF_SAMPLE_TID) {
		uint64_t v;

		TAKE(v);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (type & PERF_SAMPLE_TIME)
		TAKE(s->time);
	if (type & PERF_SAMPLE_ADDR)
		TAKE(s->addr);
	if (type & PERF_SAMPLE_ID)
		TAKE(s->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		p++;
	if (type & PERF_SAMPLE_CPU) {
		uint64_t v;

		TAKE(v);
		s->cpu = (uint32_t)v;
	}
	if (type & PERF_SAMPLE_PERIOD)
		TAKE(s->period);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		TAKE(s->nr);
		if (s->nr > (uint64_t)(end - p))
			goto short_rec;
		s->ips = p;
		p += s->nr;
	}
#undef TAKE
	*rest = p;
	return 0;
short_rec:
	return ftc_error(EPROTO, "perf sample record of %u bytes is shorter than its fields",
			 h->size);
}

int ftc_perf_sample_parse(const struct perf_event_header *h, uint64_t type,
			  struct ftc_perf_sample *s)
{
	const uint64_t *rest;

	return parse(h, type, s, &rest);
}

int ftc_perf_sample_parse_user(const struct perf_event_header *h, uint64_t type,
			       uint64_t regs_mask, struct ftc_perf_sample *s,
			       struct ftc_perf_user *u)
{
	const uint64_t *p, *end = (const void *)((const char *)h + h->size);
	uint64_t nregs = (uint64_t)__builtin_popcountll(regs_mask), size;

	memset(u, 0, sizeof(*u));
	if (parse(h, type, s, &p) < 0)
		return -1;
	if (type & PERF_SAMPLE_REGS_USER) {
		if (p >= end)
			goto short_rec;
		u->abi = *p++;
		if (u->abi != PERF_SAMPLE_REGS_ABI_NONE) {
			if (nregs > (uint64_t)(end - p))
				goto short_rec;
			u->regs = p;
			p += nregs;
		}
	}
	if (type & PERF_SAMPLE_STACK_USER) {
		if (p >= end)
			goto short_rec;
		size = *p++;
		/* The bytes, then how many of them the kernel could copy. */
		if (size) {
			if (size % 8 || size / 8 + 1 > (uint64_t)(end - p))
				goto short_rec;
			u->stack = (const unsigned char *)p;
			u->size = p[size / 8];
			if (u->size > size)
				u->size = size;
		}
	}
	if (!u->regs || !u->size) {
		u->stack = NULL;
		u->size = 0;
	}
	return 0;
short_rec:
	return ftc_error(EPROTO, "perf sample record of %u bytes is shorter than its user "
			 "registers and stack", h->size);
}
