/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The per-CPU page walker (merge-cpu.c): the merge walks every CPU with it,
 * convert copies pages and split walks records with it.
 */
#ifndef FTC_MERGE_CPU_H
#define FTC_MERGE_CPU_H

#include "reader.h"

/* One CPU of one buffer: a window of pages (or one decompressed chunk). */
struct kbuffer;
struct ftc_stream {
	struct ftc_reader *r;
	int buffer, cpu, cpu_index;
	const char *bname;
	bool compressed;
	uint32_t psize;
	struct ftc_subbuf_layout subbuf;	/* the sub-buffer header */
	uint64_t pos, end;		/* next page, or next chunk header, in the file */
	uint32_t chunks_left;
	char *win;			/* pages, followed by one zeroed page */
	size_t win_cap, win_len, win_off;
	uint64_t win_file_off;		/* file offset of win (of the chunk if compressed) */
	char *cbuf;
	size_t cbuf_cap;
	struct kbuffer *kbuf;
	bool page_loaded, first_in_page;
	size_t page_valid;		/* bytes of the current page really in the file */
	uint64_t page_seq;		/* counts the pages loaded: tells a record's page apart */
	long long missed;
	struct tep_record *rec;
	bool done;
};

int ftc_stream_init(struct ftc_stream *s, struct ftc_reader *r, int buffer, int cpu_index);
/* 1 with s->rec set, 0 at the end of this CPU, -1 when damage stops it. */
int ftc_stream_advance(struct ftc_stream *s);
void ftc_stream_release(struct ftc_stream *s);
int ftc_stream_peek(struct ftc_stream *s, struct tep_record *next);
/*
 * The next sound page, without walking its events (convert copies pages
 * whole): 1 with it at s->win + s->win_off (s->psize bytes, zeros past
 * s->page_valid), 0 at the end of this CPU, -1 when damage stops it.
 */
int ftc_stream_next_page(struct ftc_stream *s);
void ftc_stream_skip(struct ftc_stream *s);

#endif
