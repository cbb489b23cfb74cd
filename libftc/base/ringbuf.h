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

/*
 * The kernel's event header (events/header_event): a 32-bit word of a
 * 5-bit type_len and a 27-bit time delta. type_len 1..DATA_MAX is the
 * payload's length in 4-byte words; 0 puts the length in the next word;
 * the larger values are the special entries. Shift the delta by TYPE_BITS.
 * The flags in a sub-buffer's commit (RB_MISSED_*) are the same bits of
 * the long whatever its size. Plain numbers: import-write.c spells them
 * into a header_event text.
 */
#define FTC_RB_TYPE_BITS	5
#define FTC_RB_DELTA_BITS	27
#define FTC_RB_TYPE_DATA_MAX	28
#define FTC_RB_TYPE_PADDING	29
#define FTC_RB_TYPE_TIME_EXTEND	30
#define FTC_RB_TYPE_TIME_STAMP	31
#define FTC_RB_MISSED_EVENTS	(1ULL << 31)	/* events were lost before this page */
#define FTC_RB_MISSED_STORED	(1ULL << 30)	/* ... and their count follows the data */

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
/* ... and of a kernel whose long and byte order are this program's. */
void ftc_subbuf_layout_ours(struct ftc_subbuf_layout *l);
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

/*
 * Writes sb's header into the sub-buffer at page, in l's layout: ts, and a
 * commit of sb->len with sb's lost flags; with lost_stored, sb->missed
 * after the data too (the caller made room for it). The inverse of
 * ftc_subbuf_decode().
 */
void ftc_subbuf_encode(const struct ftc_subbuf_layout *l, void *page,
		       const struct ftc_subbuf *sb);

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
