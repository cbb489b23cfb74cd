/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Block I/O from a trace's block events (libftc/analysis/): a pass over
 * the reader's records (no text formatting) that pairs each request's
 * block_rq_issue with its block_rq_complete (by device and sector), or on
 * a bio-based device (dm, md: no requests) each bio's block_bio_queue with
 * its block_bio_complete, and
 * keeps per device the latency's log2 histogram, the request sizes'
 * (bitesize's buckets), the count, bytes and errors; each request is also
 * given as it completes, with the task that queued it where
 * block_rq_insert was recorded. Memory grows with the devices and the
 * requests in flight, not with the records.
 */
#ifndef FTC_BLOCK_H
#define FTC_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct ftc_merge_record;
struct ftc_block;

#define FTC_BLOCK_BUCKETS 64

/* One request, given when it completes. */
struct ftc_block_io {
	uint64_t issue, complete;	/* ns; a bio's issue is its queueing */
	uint32_t dev;			/* the kernel's dev_t: major << 20 | minor */
	uint64_t sector;
	uint32_t bytes;
	char rwbs[10];			/* R, W, WS, FWS... as the kernel spells it */
	int error;			/* 0, or -errno */
	int pid;			/* the task that inserted or queued it (0: not recorded) */
	const char *comm;		/* its name then ("" when not recorded) */
};

typedef void (*ftc_block_io_fn)(const struct ftc_block_io *io, void *ctx);

/* One device. */
struct ftc_block_dev {
	uint32_t dev;
	unsigned int major, minor;
	uint64_t count, reads, writes, errors, bytes;
	uint64_t lat_ns, lat_max_ns, lat_max_at;	/* lat_max_at: its issue */
	uint64_t lat_hist[FTC_BLOCK_BUCKETS];		/* bucket i: [2^i, 2^(i+1)) lat_unit_ns */
	uint64_t size_hist[FTC_BLOCK_BUCKETS];		/* bucket i: [2^i, 2^(i+1)) bytes */
	bool bio_based;		/* counts of bios, queued to completed (dm, md), not requests */
};

/* An options structure (FTC_OPTS_INIT). */
struct ftc_block_opts {
	size_t size;			/* sizeof(struct ftc_block_opts) */
	/* the buffer to read: NULL for the first with a block record, "" for the top level */
	const char *instance;
	ftc_block_io_fn on_io;		/* NULL: none */
	void *ctx;
	/* lat_hist's unit in ns: 0 or 1 for ns, 1000000 for biolatency -m's milliseconds */
	uint64_t lat_unit_ns;
};

FTC_API struct ftc_block *ftc_block_new(struct ftc_reader *r, const struct ftc_block_opts *o);
FTC_API void ftc_block_free(struct ftc_block *b);
/* Feeds one record, in timestamp order (ftc_merge_next()); others are passed over. */
FTC_API int ftc_block_add(struct ftc_block *b, const struct ftc_merge_record *mr);
FTC_API size_t ftc_block_ndevs(const struct ftc_block *b);
FTC_API const struct ftc_block_dev *ftc_block_dev_at(const struct ftc_block *b, size_t i);
/* Records read; completions whose issue the trace lacks; requests still in flight at the end. */
FTC_API uint64_t ftc_block_records(const struct ftc_block *b);
FTC_API uint64_t ftc_block_unmatched(const struct ftc_block *b);
FTC_API uint64_t ftc_block_in_flight(const struct ftc_block *b);
FTC_API uint64_t ftc_block_lost(const struct ftc_block *b);

#ifdef __cplusplus
}
#endif

#endif
