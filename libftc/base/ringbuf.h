/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal (not installed): what the kernel's ring buffer tells about
 * itself in text, read the same way by the capture, the writer's repair
 * and the reader. The sub-buffer header is described by tracefs
 * events/header_page; its layout depends on the kernel's long (a 32-bit
 * kernel has a 4-byte commit and its data at 12, not 16), which need not
 * be ours, so it is never taken from sizeof(long) when the text is there.
 */
#ifndef FTC_RINGBUF_H
#define FTC_RINGBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ftc_subbuf_layout {
	unsigned int commit_off;	/* local_t commit: data length and lost-event flags */
	unsigned int commit_size;	/* the kernel's long: 8, or 4 */
	unsigned int data_off;		/* where the events start */
	bool big_endian;
};

/* One sub-buffer's header, decoded. */
struct ftc_subbuf {
	uint64_t ts;
	uint64_t len;		/* bytes of events from data_off */
	bool lost;		/* events were lost before this sub-buffer */
	bool lost_stored;	/* ... and the kernel stored how many after the data */
	uint64_t missed;	/* that count, when it fits the page; else 0 */
};

/* The layout a kernel whose long is long_size bytes has by default. */
void ftc_subbuf_layout_long(struct ftc_subbuf_layout *l, unsigned int long_size,
			    bool big_endian);
/*
 * Parses header_page text (need not be NUL-terminated). On success l gets
 * the layout, in l->big_endian's byte order; on failure l is unchanged and
 * -1 is returned (no message: the callers keep a fallback).
 */
int ftc_subbuf_layout_parse(struct ftc_subbuf_layout *l, const char *text, size_t len);
/*
 * Decodes the header of the sub-buffer at page, size bytes long. Returns 1
 * when its data (and stored lost count) fit in size, else 0; sb is filled
 * either way, but missed only when it fits.
 */
int ftc_subbuf_decode(const struct ftc_subbuf_layout *l, const void *page, size_t size,
		      struct ftc_subbuf *sb);

/* The layout of the kernel the writer took its metadata from (writer.c). */
struct ftc_writer;
const struct ftc_subbuf_layout *ftc_wsubbuf(const struct ftc_writer *w);

/* Counters of tracefs per_cpu/cpuN/stats. */
struct ftc_cpu_counters {
	uint64_t read, overrun, dropped;
	bool ok;		/* read; a failed read counts nothing */
};

void ftc_cpu_counters_parse(struct ftc_cpu_counters *c, const char *stats);
/*
 * What the counters grew by from start to now: events read, and events
 * lost (overrun + dropped). A side that was not read, or a counter that
 * went back (the buffer was reset meanwhile), counts 0, never a wrap.
 */
void ftc_cpu_counters_delta(const struct ftc_cpu_counters *start,
			    const struct ftc_cpu_counters *now,
			    uint64_t *events, uint64_t *lost);

#endif
