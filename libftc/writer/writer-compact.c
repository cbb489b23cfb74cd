// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Closing the gaps between the CPU regions at the end of a capture (ftc
 * restore plans its moves here too): FALLOC_FL_COLLAPSE_RANGE where the
 * file system has it (ext4, xfs: extents move, data does not), else each
 * region is moved down in place and its source punched out behind it, so
 * even a full disk has the room. See the layout comment in writer.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <zlib.h>
#include <zstd.h>

#include "ftc.h"
#include "reader.h"
#include "tracedat-format.h"
#include "writer.h"


/* Bytes of a slot worth keeping: its data, rounded to the block size. */
static uint64_t slot_keep(const struct ftc_writer *w, const struct wcpu *wc)
{
	return roundup_u64((compressed(w) ? 4 : 0) + wc->size, w->align);
}

/* Where everything lands once the holes are gone. */
struct ftc_wmove *ftc_wplan_moves(struct ftc_writer *w, int *count, uint64_t *new_tail)
{
	int n = 0, k = 0;
	uint64_t pos = w->groups;
	struct ftc_wmove *m;

	for (int b = 0; b < w->nbufs; b++)
		n += 1 + w->bufs[b].ncpus;
	m = calloc((size_t)n, sizeof(*m));
	if (!m)
		return NULL;
	for (int b = 0; b < w->nbufs; b++) {
		struct wbuf *wb = &w->bufs[b];
		/*
		 * v7: the section header, padded to the block size; a head that
		 * restore in place moved is followed by the gap it left.
		 */
		uint64_t block = wb->cpus[0].start - wb->sec;

		if (w->version >= 7 && roundup_u64(pos + 16, w->align) - pos < block)
			block = roundup_u64(pos + 16, w->align) - pos;

		m[k++] = (struct ftc_wmove){ wb->sec, pos, block };
		pos += block;
		for (int c = 0; c < wb->ncpus; c++) {
			uint64_t keep = slot_keep(w, &wb->cpus[c]);

			m[k++] = (struct ftc_wmove){ wb->cpus[c].start, pos, keep };
			pos += keep;
		}
	}
	*count = n;
	*new_tail = pos;
	return m;
}

/*
 * Removes each hole in place; last first, so earlier offsets stay valid.
 * Each hole removed moves everything after it down: the plan's sources
 * and *tail follow, so that a failure half-way still says where every
 * block is.
 */
static int collapse_holes(struct ftc_writer *w, struct ftc_wmove *m, int n, uint64_t *tail)
{
	for (int i = n - 1; i >= 0; i--) {
		uint64_t next = i + 1 < n ? m[i + 1].from : *tail;
		uint64_t off = m[i].from + m[i].len, len = next - off;

		if (!len)
			continue;
		if (fallocate(w->fd, FALLOC_FL_COLLAPSE_RANGE, (off_t)off, (off_t)len) < 0) {
			if (i == n - 1 || errno == EOPNOTSUPP || errno == EINVAL)
				return 1;	/* unsupported: move instead */
			return ftc_error(errno, "%s: removing the gap at %llu: %s", w->path,
					 (unsigned long long)off, strerror(errno));
		}
		for (int j = i + 1; j < n; j++)
			m[j].from -= len;
		*tail -= len;
	}
	return 0;
}

/*
 * The writer's view of where each block is: the first `moved` of the
 * plan at their destination, the others where they stand.
 */
void ftc_wlayout(struct ftc_writer *w, const struct ftc_wmove *m, int moved, uint64_t tail)
{
	int k = 0;

	for (int b = 0; b < w->nbufs; b++) {
		struct wbuf *wb = &w->bufs[b];

		wb->sec = k < moved ? m[k].to : m[k].from;
		k++;
		for (int c = 0; c < wb->ncpus; c++, k++)
			wb->cpus[c].start = k < moved ? m[k].to : m[k].from;
		wb->end = b + 1 < w->nbufs ? (k < moved ? m[k].to : m[k].from) : tail;
	}
	w->tail = tail;
}

/* Fallback: move each block down, freeing the source behind it. */
static int move_blocks(struct ftc_writer *w, const struct ftc_wmove *m, int n)
{
	size_t bs = 64u << 10;
	char *buf = malloc(bs);
	struct stat st;
	int ret = -1;

	if (!buf)
		return ftc_error(ENOMEM, "out of memory");
	if (fstat(w->fd, &st) < 0) {
		ftc_error(errno, "%s: stat: %s", w->path, strerror(errno));
		goto out;
	}
	for (int i = 0; i < n; i++) {
		uint64_t done = 0;

		if (m[i].from == m[i].to)
			continue;
		while (done < m[i].len) {
			size_t chunk = m[i].len - done < bs ? (size_t)(m[i].len - done) : bs;
			uint64_t src = m[i].from + done, keep_end = m[i].to + m[i].len;
			ssize_t r = pread(w->fd, buf, chunk, (off_t)src);

			/*
			 * A block may end past the end of the file: a v6 file has no
			 * tail, and its last buffer's flyrecord is all there is when
			 * that buffer's CPUs got no data. What is not there is zeros.
			 */
			if (r >= 0 && (size_t)r < chunk && src + (uint64_t)r == (uint64_t)st.st_size) {
				memset(buf + r, 0, chunk - (size_t)r);
				r = (ssize_t)chunk;
			}
			if (r != (ssize_t)chunk) {
				ftc_error(errno ? errno : EIO, "%s: reading back %zu bytes at %llu: %s",
					  w->path, chunk, (unsigned long long)src, strerror(errno));
				goto out;
			}
			if (ftc_wpwrite(w, buf, chunk, m[i].to + done) < 0)
				goto out;
			/* Give the source blocks back at once: the disk may be full. */
			if (src + chunk > keep_end) {
				uint64_t p = src > keep_end ? src : keep_end;

				fallocate(w->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					  (off_t)p, (off_t)(src + chunk - p));
			}
			done += chunk;
		}
	}
	ret = 0;
out:
	free(buf);
	return ret;
}

/* A stream: the listener moves the blocks in its copy of the file. */
static int send_moves(struct ftc_writer *w, const struct ftc_wmove *m, int n)
{
	for (int i = 0; i < n; i++)
		if (m[i].from != m[i].to && ftc_wsend_move(w, m[i].from, m[i].to, m[i].len) < 0)
			return -1;
	return 0;
}

static int compact(struct ftc_writer *w)
{
	uint64_t new_tail, tail = w->tail;
	int n, ret;
	struct ftc_wmove *m = ftc_wplan_moves(w, &n, &new_tail);
	struct stat st;

	if (!m)
		return ftc_error(ENOMEM, "out of memory");
	if (w->remote) {
		ret = send_moves(w, m, n);
		if (ret == 0)
			ftc_wlayout(w, m, n, new_tail);
		free(m);
		return ret;
	}
	ret = collapse_holes(w, m, n, &tail);
	if (ret == 1) {
		/* The reserve's blocks give the first moves room on a full disk;
		 * each move then frees its source. */
		if (fstat(w->fd, &st) == 0)
			fallocate(w->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				  st.st_size, TAIL_RESERVE);
		ret = move_blocks(w, m, n);
		/* The old tail and its reserve are garbage now: free them. */
		if (ret == 0 && fstat(w->fd, &st) == 0 && (uint64_t)st.st_size > new_tail)
			fallocate(w->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				  (off_t)new_tail, (off_t)((uint64_t)st.st_size - new_tail) +
				  TAIL_RESERVE);
	}
	if (ret < 0 && tail != w->tail)
		ftc_wlayout(w, m, 0, tail);	/* some holes are gone, not all */
	else if (ret == 0)
		ftc_wlayout(w, m, n, new_tail);
	free(m);
	return ret;
}

/*
 * Removes the holes, then indexes the data where it now is. When removal
 * stops half-way, the blocks after a removed hole have moved and the last
 * index points at where they were: it is rewritten for where they are, so
 * the file stays complete, with the holes that are left.
 */
int ftc_wcompact(struct ftc_writer *w, const struct ftc_dbuf *cmdlines, bool final)
{
	uint64_t before = w->tail;
	int ret = compact(w);

	if (ret < 0 && w->tail == before)
		return -1;	/* nothing moved: the last index still holds */
	if (ftc_wpatch_sections(w) < 0 || ftc_windex(w, cmdlines, final, true) < 0)
		return -1;
	return ret;
}

/*
 * After compaction the v7 BUFFER sections end where the next block starts.
 * Last first: a moved section head gets its size before the section in
 * front of it leads the chain of sections to it (restore in place).
 */
int ftc_wpatch_sections(struct ftc_writer *w)
{
	for (int b = w->nbufs - 1; w->version >= 7 && b >= 0; b--) {
		uint64_t size = w->bufs[b].end - w->bufs[b].sec - 16;

		if (ftc_wpwrite(w, &size, 8, w->bufs[b].sec + 8) < 0)
			return -1;
		/* Each on disk before the next leads the chain to it. */
		if (w->sync_index && ftc_wsync(w, true) < 0)
			return -1;
	}
	return 0;
}
