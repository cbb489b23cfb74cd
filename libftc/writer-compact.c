// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Closing the gaps between the CPU regions at the end of a capture (and
 * for ftc restore): FALLOC_FL_COLLAPSE_RANGE where the file system has it
 * (ext4, xfs: extents move, data does not), else each region is moved
 * down in place and its source punched out behind it, so even a full
 * disk has the room. See the layout comment in writer.c.
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
#include "tracedat-format.h"
#include "writer.h"


/* Bytes of a slot worth keeping: its data, rounded to the block size. */
static uint64_t slot_keep(const struct ftc_writer *w, const struct wcpu *wc)
{
	return roundup_u64((compressed(w) ? 4 : 0) + wc->size, w->align);
}

/* Where everything lands once the holes are gone. */
struct move {
	uint64_t from, to, len;
};

static struct move *plan_moves(struct ftc_writer *w, int *count, uint64_t *new_tail)
{
	int n = 0, k = 0;
	uint64_t pos = w->groups;
	struct move *m;

	for (int b = 0; b < w->nbufs; b++)
		n += 1 + w->bufs[b].ncpus;
	m = calloc((size_t)n, sizeof(*m));
	if (!m)
		return NULL;
	for (int b = 0; b < w->nbufs; b++) {
		struct wbuf *wb = &w->bufs[b];

		uint64_t block = wb->cpus[0].start - wb->sec;

		m[k++] = (struct move){ wb->sec, pos, block };
		pos += block;
		for (int c = 0; c < wb->ncpus; c++) {
			uint64_t keep = slot_keep(w, &wb->cpus[c]);

			m[k++] = (struct move){ wb->cpus[c].start, pos, keep };
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
static int collapse_holes(struct ftc_writer *w, struct move *m, int n, uint64_t *tail)
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

/* The writer's view of where each block is: moved (at to) or as it stands (at from). */
static void take_layout(struct ftc_writer *w, const struct move *m, bool moved, uint64_t tail)
{
	int k = 0;

	for (int b = 0; b < w->nbufs; b++) {
		struct wbuf *wb = &w->bufs[b];

		wb->sec = moved ? m[k].to : m[k].from;
		k++;
		for (int c = 0; c < wb->ncpus; c++, k++)
			wb->cpus[c].start = moved ? m[k].to : m[k].from;
		wb->end = b + 1 < w->nbufs ? (moved ? m[k].to : m[k].from) : tail;
	}
	w->tail = tail;
}

/* Fallback: move each block down, freeing the source behind it. */
static int move_blocks(struct ftc_writer *w, const struct move *m, int n)
{
	size_t bs = 64u << 10;
	char *buf = malloc(bs);
	int ret = -1;

	if (!buf)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < n; i++) {
		uint64_t done = 0;

		if (m[i].from == m[i].to)
			continue;
		while (done < m[i].len) {
			size_t chunk = m[i].len - done < bs ? (size_t)(m[i].len - done) : bs;
			uint64_t src = m[i].from + done, keep_end = m[i].to + m[i].len;
			ssize_t r = pread(w->fd, buf, chunk, (off_t)src);

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

static int compact(struct ftc_writer *w)
{
	uint64_t new_tail, tail = w->tail;
	int n, ret;
	struct move *m = plan_moves(w, &n, &new_tail);
	struct stat st;

	if (!m)
		return ftc_error(ENOMEM, "out of memory");
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
		take_layout(w, m, false, tail);	/* some holes are gone, not all */
	else if (ret == 0)
		take_layout(w, m, true, new_tail);
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

/* After compaction the v7 BUFFER sections end where the next block starts. */
int ftc_wpatch_sections(struct ftc_writer *w)
{
	for (int b = 0; w->version >= 7 && b < w->nbufs; b++) {
		uint64_t size = w->bufs[b].end - w->bufs[b].sec - 16;

		if (ftc_wpwrite(w, &size, 8, w->bufs[b].sec + 8) < 0)
			return -1;
	}
	return 0;
}

/*
 * ftc restore: a capture cut short (SIGKILL, crash, power) is a valid
 * trace.dat with gaps. Rebuild the writer's view of it from its own
 * index (BUFFER options, chunk counts, strings) and finish it like a
 * normal stop would: close the gaps and rewrite the index.
 */
struct rd {
	int fd;
	const char *path;
};

static int rd_at(struct rd *r, void *p, size_t n, uint64_t off)
{
	ssize_t got = pread(r->fd, p, n, (off_t)off);

	if (got == (ssize_t)n)
		return 0;
	return ftc_error(got < 0 ? errno : EINVAL, "%s: cannot read %zu bytes at offset %llu%s",
			 r->path, n, (unsigned long long)off, got < 0 ? "" : " (file too short)");
}

static int add_parsed_buffer(struct ftc_writer *w, struct rd *r, const char *d, uint32_t size)
{
	const char *end = d + size, *name, *clock, *q;
	uint32_t n;
	struct wbuf *nb, *b;

	if (size < 8 + 2 + 8)
		return ftc_error(EINVAL, "%s: a BUFFER option of %u bytes is too short", r->path, size);
	name = d + 8;
	clock = name + strnlen(name, (size_t)(end - name)) + 1;
	if (clock >= end)
		return ftc_error(EINVAL, "%s: a BUFFER option has no clock", r->path);
	q = clock + strnlen(clock, (size_t)(end - clock)) + 1 + 4;
	if (q + 4 > end)
		return ftc_error(EINVAL, "%s: a BUFFER option has no CPU count", r->path);
	memcpy(&n, q, 4);
	q += 4;
	if (!n)
		return 0;	/* the CPU-less top buffer of an instance-only file */
	if ((uint64_t)n * 20 > (uint64_t)(end - q))
		return ftc_error(EINVAL, "%s: a BUFFER option lists %u CPUs but is too short",
				 r->path, n);
	nb = realloc(w->bufs, sizeof(*nb) * (size_t)(w->nbufs + 1));
	if (!nb)
		return ftc_error(ENOMEM, "out of memory");
	w->bufs = nb;
	b = &nb[w->nbufs];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	b->clock = strdup(clock);
	b->cpus = calloc(n, sizeof(*b->cpus));
	b->ncpus = (int)n;
	b->slot0 = w->nbufs ? nb[w->nbufs - 1].slot0 + nb[w->nbufs - 1].ncpus : 0;
	memcpy(&b->sec, d, 8);
	w->nbufs++;
	if (!b->name || !b->clock || !b->cpus)
		return ftc_error(ENOMEM, "out of memory");
	for (uint32_t i = 0; i < n; i++, q += 20) {
		struct wcpu *wc = &b->cpus[i];
		uint32_t cpu;

		memcpy(&cpu, q, 4);
		wc->cpu = (int)cpu;
		memcpy(&wc->start, q + 4, 8);
		memcpy(&wc->size, q + 12, 8);
		if (compressed(w) && rd_at(r, &wc->chunks, 4, wc->start) < 0)
			return -1;
	}
	return 0;
}

/* Walks the options sections from the header's pointer. */
static int parse_options(struct ftc_writer *w, struct rd *r, uint64_t opts, uint64_t *headers)
{
	for (int sections = 0; opts; sections++) {
		uint64_t q = opts + 16, next = 0;
		uint16_t id = 1;

		if (sections > 64)
			return ftc_error(EINVAL, "%s: the options sections loop", r->path);
		while (id) {
			uint32_t size;
			char *d;

			if (rd_at(r, &id, 2, q) < 0 || rd_at(r, &size, 4, q + 2) < 0)
				return -1;
			if (size > (16u << 20))
				return ftc_error(EINVAL, "%s: option %u at %llu claims %u bytes",
						 r->path, id, (unsigned long long)q, size);
			d = malloc(size ? size : 1);
			if (!d || rd_at(r, d, size, q + 6) < 0) {
				free(d);
				return d ? -1 : ftc_error(ENOMEM, "out of memory");
			}
			if (id == FTC_OPT_HEADER_INFO && size >= 8)
				memcpy(headers, d, 8);
			if (id == FTC_OPT_BUFFER && add_parsed_buffer(w, r, d, size) < 0) {
				free(d);
				return -1;
			}
			if (id == FTC_OPT_DONE && size >= 8) {
				memcpy(&next, d, 8);
				if (!sections)
					w->opt1_done = q + 6;
				else
					w->tail = opts;
			}
			free(d);
			q += 6 + size;
		}
		opts = next;
	}
	return 0;
}

/* The strings of the file, kept byte for byte: section descriptions point into them. */
static int read_strings(struct ftc_writer *w, struct rd *r, uint64_t pos, uint64_t end)
{
	while (pos + 16 <= end) {
		uint16_t id, flags;
		uint64_t size;
		char *s;

		if (rd_at(r, &id, 2, pos) < 0 || rd_at(r, &flags, 2, pos + 2) < 0 ||
		    rd_at(r, &size, 8, pos + 8) < 0)
			return -1;
		if (id == FTC_OPT_STRINGS) {
			if (flags & FTC_SEC_COMPRESSED)
				return ftc_error(EINVAL, "%s: compressed strings: not a file ftc "
						 "left unfinished", r->path);
			s = malloc(size ? size : 1);
			if (!s || rd_at(r, s, size, pos + 16) < 0) {
				free(s);
				return -1;
			}
			ftc_dbuf_add(&w->strings, s, size);
			free(s);
		}
		pos += 16 + size;
	}
	return 0;
}

/* A chunk is whole when it decompresses to exactly what its header says. */
static bool chunk_ok(enum ftc_compression c, const char *z, uint32_t zlen, uint32_t ulen,
		     char *out)
{
	uLongf olen = ulen;

	if (c == FTC_COMPRESS_ZSTD)
		return ZSTD_decompress(out, ulen, z, zlen) == ulen;
	return uncompress((Bytef *)out, &olen, (const Bytef *)z, zlen) == Z_OK && olen == ulen;
}

/*
 * The sub-buffer layout from the file's own header_page (its HEADER_INFO
 * section), so that raw pages of a 32-bit kernel are recognised as such.
 * Only raw pages are checked by their header (chunks are decompressed
 * instead), and then the section is not compressed either. What cannot be
 * read leaves the layout of the file header's long size.
 */
static void read_layout(struct ftc_writer *w, struct rd *r, uint64_t sec)
{
	uint16_t flags;
	uint64_t size;
	char h[16], *d;

	if (compressed(w) || !sec || rd_at(r, h, 16, sec) < 0)
		return;
	memcpy(&flags, h + 2, 2);
	memcpy(&size, h + 8, 8);
	/* header_page and header_event are a few hundred bytes. */
	if ((flags & FTC_SEC_COMPRESSED) || size > (1u << 20))
		return;
	d = malloc(size ? size : 1);
	if (d && rd_at(r, d, size, sec + 16) == 0)
		ftc_wmeta_subbuf(&w->subbuf, d, size);
	free(d);
}

/* A raw page is a sub-buffer when its header is plausible. */
static bool page_ok(const struct ftc_writer *w, const char *p)
{
	struct ftc_subbuf sb;

	return ftc_subbuf_decode(&w->subbuf, p, w->page, &sb) && sb.ts && sb.len;
}

/*
 * Chunks (or pages) completed after the last checkpoint are in the file
 * but not in the index: take every whole one up to the region's end.
 * Returns how many were recovered.
 */
static int recover(struct ftc_writer *w, struct rd *r, struct wcpu *wc, uint64_t limit)
{
	uint32_t max = w->page * FTC_PAGES_IN_CHUNK;
	char *z = malloc(ftc_zctx_bound(w->comp, max) + 8), *out = malloc(max);
	uint64_t hdr = compressed(w) ? 4 : 0;
	int n = 0;

	while (z && out) {
		uint64_t at = wc->start + hdr + wc->size;
		uint32_t cz[2];

		if (!compressed(w)) {
			if (at + w->page > limit || rd_at(r, out, w->page, at) < 0 ||
			    !page_ok(w, out))
				break;
			wc->size += w->page;
			n++;
			continue;
		}
		if (at + 8 > limit || rd_at(r, cz, 8, at) < 0 || !cz[0] || !cz[1] ||
		    cz[1] > max || cz[1] % w->page || cz[0] > ftc_zctx_bound(w->comp, max) ||
		    at + 8 + cz[0] > limit || rd_at(r, z, cz[0], at + 8) < 0 ||
		    !chunk_ok(w->comp, z, cz[0], cz[1], out))
			break;
		wc->size += 8 + cz[0];
		wc->chunks++;
		n++;
	}
	free(z);
	free(out);
	return n;
}

static int parse_head(struct ftc_writer *w, struct rd *r, uint64_t *opts, uint64_t *first)
{
	char h[128];
	size_t at = FTC_DAT_MAGIC_LEN;
	uint32_t page;
	int c;

	ssize_t got = pread(r->fd, h, sizeof(h), 0);

	if (got < 0)
		return ftc_error(errno, "%s: %s", r->path, strerror(errno));
	memset(h + got, 0, sizeof(h) - (size_t)got);
	h[sizeof(h) - 1] = '\0';
	if (got < FTC_DAT_MAGIC_LEN + 2 || memcmp(h, FTC_DAT_MAGIC, FTC_DAT_MAGIC_LEN))
		return ftc_error(EINVAL, "%s: not a trace.dat file", r->path);
	if (strcmp(h + at, "7"))
		return ftc_error(ENOTSUP, "%s: version %s file: ftc restore handles version 7 "
				 "(an unfinished v6 file is already readable as it is)",
				 r->path, h + at);
	at += 2;
	ftc_subbuf_layout_long(&w->subbuf, (uint8_t)h[at + 1], h[at] == 1);
	at += 2;
	memcpy(&page, h + at, 4);
	at += 4;
	c = ftc_compression_parse(h + at);
	if (c < 0)
		return ftc_error(EINVAL, "%s: unknown compression '%s'", r->path, h + at);
	w->comp = (enum ftc_compression)c;
	at += strlen(h + at) + 1;
	at += strlen(h + at) + 1;
	if (at + 8 > sizeof(h))
		return ftc_error(EINVAL, "%s: damaged header", r->path);
	memcpy(opts, h + at, 8);
	w->page = page;
	*first = at + 8;
	return 0;
}

int ftc_writer_repair(const char *path, int *changed)
{
	struct ftc_writer *w = calloc(1, sizeof(*w));
	struct rd r = { -1, path };
	uint64_t opts = 0, first = 0, before, headers = 0;
	struct stat st;
	int ret = -1;

	*changed = 0;
	if (!w)
		return ftc_error(ENOMEM, "out of memory");
	w->version = 7;
	w->fd = r.fd = open(path, O_RDWR | O_CLOEXEC);
	w->path = strdup(path);
	pthread_mutex_init(&w->lock, NULL);
	if (r.fd < 0) {
		ftc_error(errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (fstat(r.fd, &st) < 0 || parse_head(w, &r, &opts, &first) < 0 ||
	    parse_options(w, &r, opts, &headers) < 0 ||
	    read_strings(w, &r, first, (uint64_t)st.st_size) < 0)
		goto out;
	read_layout(w, &r, headers);
	if (!w->nbufs || !w->tail || !w->opt1_done || !w->strings.len)
		ret = ftc_error(EINVAL, "%s: no ftc capture index found (written by another tool?)",
				path);
	if (!w->nbufs || !w->tail || !w->opt1_done || !w->strings.len)
		goto out;
	w->align = (uint64_t)st.st_blksize > w->page ? (uint64_t)st.st_blksize : w->page;
	w->groups = w->bufs[0].sec;
	for (int b = 0; b < w->nbufs; b++)
		w->bufs[b].end = b + 1 < w->nbufs ? w->bufs[b + 1].sec : w->tail;
	before = w->tail;
	for (int b = 0; b < w->nbufs; b++)
		for (int c = 0; c < w->bufs[b].ncpus; c++)
			*changed += recover(w, &r, &w->bufs[b].cpus[c],
					    c + 1 < w->bufs[b].ncpus ? w->bufs[b].cpus[c + 1].start :
					    w->bufs[b].end);
	/* The index as it stands first, so a failure below loses nothing. */
	if (*changed && ftc_windex(w, NULL, false, false) < 0)
		goto out;
	ret = ftc_wcompact(w, NULL, false);
	*changed += w->tail != before;
out:
	ftc_writer_free(w);
	return ret;
}
