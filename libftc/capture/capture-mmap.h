/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal (not installed): a CPU's ring buffer read through its memory
 * map (Linux 6.10, uapi linux/trace_mmap.h) instead of splice: the kernel
 * hands its reader sub-buffer over with an ioctl, and its bytes are read
 * where they lie (capture-mmap.c).
 */
#ifndef FTC_CAPTURE_MMAP_H
#define FTC_CAPTURE_MMAP_H

#include <stddef.h>
#include <stdint.h>

#include "ringbuf.h"

struct kbuffer;

struct ftc_mmap {
	int fd;
	unsigned char *meta, *data;
	size_t meta_len, data_len;
	uint32_t subbuf_size, nr_subbufs;
	struct ftc_subbuf_layout layout;
	/* what was taken of the reader sub-buffer: its id, header time and bytes */
	int last_id;
	uint64_t last_ts, last_len;
	unsigned char *copy;		/* the sub-buffer as it was read */
	unsigned char *out;		/* a piece of it made a page */
	struct kbuffer *kbuf;
};

/*
 * Maps trace_pipe_raw's fd (opened O_NONBLOCK) for sub-buffers of the
 * file's page size. 0, or a negative errno: the kernel cannot map it
 * (before 6.10, a memmap= persistent buffer) and splice reads it instead.
 */
int ftc_mmap_open(struct ftc_mmap *m, int fd, const struct ftc_subbuf_layout *l, size_t page);
void ftc_mmap_close(struct ftc_mmap *m);

/*
 * Takes everything the kernel holds now: each new stretch of the reader
 * sub-buffer goes to emit as a page of its own (the writer's sub-buffer
 * too, partly filled: a later round takes the rest). Returns the pages
 * emitted, or -1 (emit's failure, or the kernel's).
 */
long ftc_mmap_round(struct ftc_mmap *m, int (*emit)(void *ctx, const void *page), void *ctx);

#endif
