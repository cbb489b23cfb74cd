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

void ftc_page_piece(const struct ftc_subbuf_layout *l, const void *page, size_t psize,
		    const struct ftc_page_cut *cut, void *dst)
{
	const unsigned char *src = page;
	unsigned char *out = dst;
	struct ftc_subbuf sb, piece = { .ts = cut->ts, .len = cut->to - cut->from };

	memset(out, 0, psize);
	memcpy(out + l->data_off, src + cut->from, piece.len);
	/* The page's loss flags go with its first events, and the count after the data kept. */
	if (cut->from == l->data_off && ftc_subbuf_decode(l, src, psize, &sb)) {
		piece.lost = sb.lost;
		piece.lost_stored = sb.lost_stored;
		piece.missed = sb.missed;
	}
	ftc_subbuf_encode(l, out, &piece);
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
