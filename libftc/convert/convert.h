/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libftc/convert/: shared by convert.c and split.c. */
#ifndef FTC_CONVERT_INTERNAL_H
#define FTC_CONVERT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-convert.h"

struct ftc_reader;
struct ftc_writer;
struct ftc_subbuf_layout;
struct kbuffer;

/*
 * A started writer at path holding r's metadata and the buffers that
 * keep selects (NULL: all), in the given version and compression;
 * wbuf[i] gets reader buffer i's index in it, or -1. Refuses a path that
 * is r's own file (the writer truncates it). NULL on failure, with
 * nothing left at path when the failure came before the first write.
 */
struct ftc_writer *ftc_convert_writer(struct ftc_reader *r, const char *path, int version,
				      int compression, const bool *keep, int *wbuf);

/* Bytes [from, to) of a page's events, counted from the page's start. */
struct ftc_page_cut {
	unsigned int from, to;
	/*
	 * The timestamp the entry at from counts from: the page's own when
	 * from is its first entry, else that of the event before from.
	 */
	uint64_t ts;
};

/*
 * Writes into dst (psize bytes) a page holding cut's events of page,
 * laid out as l says. A piece from the page's first entry keeps the
 * page's lost-event flags and count; later pieces do not (the events
 * were lost before the page).
 */
void ftc_page_piece(const struct ftc_subbuf_layout *l, const void *page, size_t psize,
		    const struct ftc_page_cut *cut, void *dst);

/*
 * Where the last event of kbuf's loaded page that lies wholly within its
 * first valid bytes ends (data_off when none does): a page the file cuts
 * short keeps its whole events only.
 */
unsigned int ftc_page_whole_end(struct kbuffer *kbuf, unsigned int data_off, size_t valid);

#endif
