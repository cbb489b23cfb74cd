// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A part of a ring-buffer page made into a page of its own: what split
 * does at a part's ends, and convert to a page the file cut short. The
 * events are moved, never decoded again (see split.c).
 */
#include <string.h>

#include <traceevent/kbuffer.h>

#include "convert.h"
#include "ringbuf.h"

#define MISSED_FLAGS	((1ULL << 31) | (1ULL << 30))	/* the kernel's RB_MISSED_* */

/* Numbers in this machine's order: ftc writes no other. */
static void put_uint(unsigned char *p, uint64_t v, unsigned int size)
{
	uint32_t v32 = (uint32_t)v;

	if (size == 4)
		memcpy(p, &v32, 4);
	else
		memcpy(p, &v, 8);
}

static uint64_t get_uint(const unsigned char *p, unsigned int size)
{
	uint32_t v32;
	uint64_t v;

	if (size == 4) {
		memcpy(&v32, p, 4);
		return v32;
	}
	memcpy(&v, p, 8);
	return v;
}

void ftc_page_piece(const struct ftc_subbuf_layout *l, const void *page, size_t psize,
		    const struct ftc_page_cut *cut, void *dst)
{
	const unsigned char *src = page;
	unsigned char *out = dst;
	uint64_t len = cut->to - cut->from, commit = len;
	struct ftc_subbuf sb;

	memset(out, 0, psize);
	memcpy(out, &cut->ts, 8);
	memcpy(out + l->data_off, src + cut->from, len);
	if (cut->from == l->data_off && ftc_subbuf_decode(l, src, psize, &sb)) {
		commit |= get_uint(src + l->commit_off, l->commit_size) & MISSED_FLAGS;
		/* The lost-event count follows the data: it follows the data kept. */
		if (sb.lost_stored)
			put_uint(out + l->data_off + len, sb.missed, l->commit_size);
	}
	put_uint(out + l->commit_off, commit, l->commit_size);
}

unsigned int ftc_page_whole_end(struct kbuffer *kbuf, unsigned int data_off, size_t valid)
{
	unsigned int end = data_off;

	for (void *d = kbuffer_read_event(kbuf, NULL); d; d = kbuffer_next_event(kbuf, NULL)) {
		unsigned int e = (unsigned int)(kbuffer_curr_offset(kbuf) + kbuffer_curr_size(kbuf));

		if (e > valid)
			break;
		end = e;
	}
	return end;
}
