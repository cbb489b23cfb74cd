// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.dat writer, streaming.
 *
 * The problem: trace-cmd 3.1 wants each CPU's data in one contiguous run
 * of the file (raw pages, or for v7 a u32 chunk count followed by
 * (u32 csize, u32 usize, data) chunks), but the pages of the CPUs arrive
 * interleaved and their amounts are unknown in advance. trace-cmd solves
 * it with one temporary file per CPU copied into trace.dat at the end,
 * which doubles the disk traffic and makes stop-to-file slow.
 *
 * The layout here: every CPU of every buffer gets a pre-allocated region
 * (a "slot") of `stride` bytes, its share of the free space of the file
 * system when the capture starts (less the head and the tail). The
 * regions are sparse: holes cost no disk space. A CPU's pages (or chunks)
 * are appended to its own slot with pwrite as they arrive, so nothing is
 * ever copied.
 *
 * Why a share and not the whole free space per slot (which no CPU could
 * outgrow): the file's apparent size would be CPUs times the free space.
 * Tools that do not keep holes copy all of it, and vfat and exfat (the
 * SD cards of boards) have no holes: a write far into the file allocates
 * and zeroes everything before it. So the file never looks larger than
 * the disk's free space; on vfat and exfat each slot is also at most
 * NOHOLE_SLOT, since all slots are zero-filled when the first tail is
 * written, and on vfat the file stays below 4 GB. The price is that a
 * busy CPU can fill its slot before the disk fills, and then the capture
 * ends as on a full disk (ENOSPC), every CPU complete up to then. Relocating
 * a full slot to the end of the file would lift that limit; it would move
 * the tail too and rewrite what a busy CPU just wrote, and is not done.
 *
 * A slow CPU's pages would wait long for a chunk to fill: before each
 * checkpoint its reader hands over its partial page and the pending
 * pages are written as a short chunk (ftc_writer_flush_cpu), which
 * trace-cmd reads like the short last chunk of a capture.
 *
 *   head:  v7: header, sections 16-21 (headers, formats, kallsyms, printk,
 *              cmdlines at start), options section 1 (DONE -> tail)
 *          v6: header, the same blocks, options, flyrecord + per-CPU pairs
 *   for each buffer: one aligned block (v7: the BUFFER section header,
 *          whose section spans all its slots; v6 instances: their
 *          flyrecord block), then one slot per CPU
 *   tail:  v7: [cmdlines at end] options section 2 (BUFFER options, CPU
 *              stats, DONE 0), STRINGS section
 *
 * Everything that says how much data a CPU has (the v7 chunk counts, the
 * BUFFER options or v6 per-CPU pairs, the tail) is rewritten at each
 * checkpoint, after the data it describes is written. So at any moment,
 * also after SIGKILL or on a full disk, the file is a valid trace.dat
 * holding every chunk completed before the last checkpoint; the section
 * chain stays unbroken because the BUFFER section spans the holes. Blocks
 * for the tail are reserved up front (fallocate KEEP_SIZE) so a full disk
 * still leaves room to finish the file.
 *
 * At the end the holes are removed with FALLOC_FL_COLLAPSE_RANGE (ext4,
 * xfs: a metadata operation, no data moves), or, where the file system
 * lacks it (tmpfs, btrfs), by moving each slot down in place, punching
 * the source behind it. Then the final index is written and the file cut.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <linux/falloc.h>

#include "ftc.h"
#include "ftc-stream.h"
#include "meta.h"
#include "tracedat-format.h"
#include "writer.h"

/* A writer without its file yet: ftc_writer_create() or ftc_writer_create_stream(). */
struct ftc_writer *ftc_writer_new(const char *path, int version, enum ftc_compression comp)
{
	struct ftc_writer *w;

	if (version != 6 && version != 7) {
		ftc_error(EINVAL, "file version %d is not supported: use 6 or 7", version);
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w || !(w->path = strdup(path))) {
		free(w);
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	w->version = version;
	w->comp = version == 6 ? FTC_COMPRESS_NONE : comp;
	w->page = (unsigned int)sysconf(_SC_PAGESIZE);
	/* Until the kernel's header_page is read: what ftc assumed before. */
	ftc_subbuf_layout_ours(&w->subbuf);
	pthread_mutex_init(&w->lock, NULL);
	pthread_mutex_init(&w->send_lock, NULL);
	w->fd = -1;
	return w;
}

void ftc_writer_unlink(const char *path)
{
	struct stat st;
	int err = errno;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		unlink(path);
	errno = err;
}

struct ftc_writer *ftc_writer_create(const char *path, int version,
				     enum ftc_compression comp)
{
	struct ftc_writer *w = ftc_writer_new(path, version, comp);
	struct stat st;

	if (!w)
		return NULL;
	/* O_TRUNC would empty a file that is not ours to refuse: look first */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		ftc_error(EINVAL, "%s: not a regular file: a trace.dat is written in place (the "
			  "writer goes back to fill in sizes); name a regular file", path);
		ftc_writer_free(w);
		return NULL;
	}
	w->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		ftc_error(errno, "%s: cannot create the output file: %s", path, strerror(errno));
		ftc_writer_free(w);
		return NULL;
	}
	return w;
}

struct ftc_writer *ftc_writer_create_stream(int fd, const char *name, int version,
					    enum ftc_compression comp)
{
	struct ftc_writer *w;

	w = ftc_writer_new(name, version, comp);
	if (!w)
		return NULL;
	w->fd = fd;
	w->remote = true;
	if (ftc_wsend_hello(w) < 0) {
		ftc_writer_free(w);
		return NULL;
	}
	return w;
}

int ftc_wbuf_check(struct ftc_writer *w, const char *instance, int ncpus)
{
	if (w->started)
		return ftc_error(EBUSY, "%s: buffers must be added before the capture starts",
				 w->path);
	if (ncpus < 1)
		return ftc_error(EINVAL, "%s: buffer '%s' has no CPU to capture", w->path,
				 instance ? instance : "");
	return 0;
}

int ftc_writer_add_buffer_clock(struct ftc_writer *w, const char *instance, const char *clock,
				int ncpus, const int *cpus)
{
	char *copy;

	if (ftc_wbuf_check(w, instance, ncpus) < 0)
		return -1;
	copy = strdup(clock ? clock : "");
	if (!copy)
		return ftc_error(ENOMEM, "out of memory");
	return ftc_wbuf_add(w, instance ? instance : "", copy, ncpus, cpus);
}

int ftc_writer_set_meta(struct ftc_writer *w, const struct ftc_meta *m)
{
	if (w->started)
		return ftc_error(EBUSY, "%s: the metadata must be set before the capture starts",
				 w->path);
	ftc_wmeta_free(&w->meta);
	w->have_meta = false;
	if (ftc_wmeta_build(&w->meta, m) < 0)
		return -1;
	w->have_meta = true;
	return 0;
}

int ftc_writer_set_cmdlines(struct ftc_writer *w, const char *text, size_t len)
{
	ftc_dbuf_free(&w->end_cmdlines);
	ftc_dbuf_u64(&w->end_cmdlines, len);
	ftc_dbuf_add(&w->end_cmdlines, text, len);
	w->have_end_cmdlines = !w->end_cmdlines.oom;
	return w->end_cmdlines.oom ? ftc_error(ENOMEM, "out of memory") : 0;
}

int ftc_wset_end_kallsyms(struct ftc_writer *w, const char *text, size_t len)
{
	ftc_dbuf_free(&w->end_kallsyms);
	ftc_dbuf_u32(&w->end_kallsyms, (uint32_t)len);
	ftc_dbuf_add(&w->end_kallsyms, text, len);
	return w->end_kallsyms.oom ? ftc_error(ENOMEM, "out of memory") : 0;
}

int ftc_writer_set_cpustat(struct ftc_writer *w, int buf, int cpu_idx, const char *text)
{
	struct wcpu *wc;

	if (buf < 0 || buf >= w->nbufs || cpu_idx < 0 || cpu_idx >= w->bufs[buf].ncpus)
		return ftc_error(EINVAL, "%s: no CPU %d in buffer %d for its stats", w->path,
				 cpu_idx, buf);
	wc = &w->bufs[buf].cpus[cpu_idx];
	free(wc->stat);
	wc->stat = strdup(text);
	return wc->stat ? 0 : ftc_error(ENOMEM, "out of memory");
}

unsigned int ftc_writer_page_size(const struct ftc_writer *w)
{
	return w->page;
}

/* File systems without sparse files: a write past the end zero-fills the gap. */
static bool no_holes(long type)
{
	return type == MSDOS_MAGIC || type == EXFAT_MAGIC;
}

/*
 * A stream: the listener's disk is not ours to measure. Its file is
 * sparse until the end closes the gaps, so each CPU gets an equal share
 * of the largest apparent size; the listener's disk decides the rest.
 */
static int remote_stride(struct ftc_writer *w, uint64_t groups_start)
{
	uint64_t fixed, free_bytes = MAX_APPARENT;
	int nslots = 0;

	w->align = w->page;
	for (int b = 0; b < w->nbufs; b++)
		nslots += w->bufs[b].ncpus;
	fixed = groups_start + (uint64_t)w->nbufs * w->align + TAIL_RESERVE;
	w->stride = (free_bytes - fixed) / (uint64_t)(nslots ? nslots : 1) / w->align * w->align;
	w->free_at_start = free_bytes;
	return 0;
}

/*
 * The free space shared out among the slots, so the file never looks
 * larger than the disk; on file systems without holes the slots are
 * small, as all of them are allocated and zeroed the moment the first
 * tail is written. The head is already counted in groups_start.
 */
static int choose_stride(struct ftc_writer *w, uint64_t groups_start)
{
	struct statvfs sv;
	struct statfs sf;
	struct stat st;
	int nslots = 0;
	uint64_t free_bytes, cap, fixed, min = (uint64_t)w->page * (FTC_PAGES_IN_CHUNK + 2);

	if (w->remote)
		return remote_stride(w, groups_start);
	if (fstat(w->fd, &st) == 0 && (uint64_t)st.st_blksize > w->page)
		w->align = (uint64_t)st.st_blksize;
	else
		w->align = w->page;
	for (int b = 0; b < w->nbufs; b++)
		nslots += w->bufs[b].ncpus;
	if (fstatvfs(w->fd, &sv) < 0)
		return ftc_error(errno, "%s: statvfs: %s", w->path, strerror(errno));
	free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	w->fs_type = fstatfs(w->fd, &sf) == 0 ? (long)sf.f_type : 0;
	cap = MAX_APPARENT;
	if (w->fs_type == MSDOS_MAGIC)
		cap = VFAT_MAX_FILE;
	if (no_holes(w->fs_type) && free_bytes > NOHOLE_SLOT * (uint64_t)nslots)
		free_bytes = NOHOLE_SLOT * (uint64_t)nslots;
	if (free_bytes > cap)
		free_bytes = cap;
	/* The head, each buffer's block and the tail share the same space. */
	fixed = groups_start + (uint64_t)w->nbufs * w->align + TAIL_RESERVE;
	free_bytes = free_bytes > fixed ? free_bytes - fixed : 0;
	w->stride = free_bytes / (uint64_t)(nslots ? nslots : 1) / w->align * w->align;
	if (w->stride < roundup_u64(min, w->align))
		w->stride = roundup_u64(min, w->align);
	w->free_at_start = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (w->half && w->stride > roundup_u64(2 * w->hstride, w->align))
		w->stride = roundup_u64(2 * w->hstride, w->align);
	/* -m larger than the region: the halves share what there is. */
	if (w->half && w->stride < 2 * w->hstride) {
		w->hstride = w->stride / 2 / w->page * w->page;
		w->half = w->hstride - w->page;
	}
	return 0;
}

/*
 * v7: the first BUFFER section header follows the head directly and the
 * alignment padding lies inside the section, so the chain of sections has
 * no gap; later ones start where the previous section's last slot ends.
 */
static void layout(struct ftc_writer *w, uint64_t start)
{
	uint64_t pos = w->version >= 7 ? start : roundup_u64(start, w->align);

	w->groups = pos;
	for (int b = 0; b < w->nbufs; b++) {
		struct wbuf *wb = &w->bufs[b];

		wb->sec = pos;
		pos = roundup_u64(pos + 16, w->align);
		if (w->version == 6)
			pos = wb->sec + w->align;
		for (int c = 0; c < wb->ncpus; c++) {
			wb->cpus[c].start = pos;
			pos += w->stride;
		}
		wb->end = pos;
		wb->desc = -1;
	}
	w->tail = pos;
}

static int init_cpus(struct ftc_writer *w)
{
	size_t chunk = (size_t)w->page * FTC_PAGES_IN_CHUNK;

	for (int b = 0; b < w->nbufs; b++) {
		for (int c = 0; c < w->bufs[b].ncpus; c++) {
			struct wcpu *wc = &w->bufs[b].cpus[c];

			if (!compressed(w))
				continue;
			wc->zcap = ftc_zctx_bound(w->comp, chunk) + 8;
			wc->pending = malloc(chunk);
			wc->zout = malloc(wc->zcap);
			wc->z = ftc_zctx_new(w->comp, w->comp == FTC_COMPRESS_ZSTD ? 1 : 1);
			if (!wc->pending || !wc->zout || !wc->z)
				return ftc_error(ENOMEM, "out of memory");
		}
	}
	return 0;
}

int ftc_wstart(struct ftc_writer *w)
{
	struct ftc_dbuf h = { 0 };
	struct timespec ts;
	int ret = -1;

	if (!w->nbufs)
		return ftc_error(EINVAL, "%s: no buffer to write", w->path);
	if (!w->have_meta)
		return ftc_error(EINVAL, "%s: no metadata to write (ftc_writer_set_meta)", w->path);
	if (w->started)
		return ftc_error(EBUSY, "%s: the capture has started already", w->path);
	clock_gettime(CLOCK_REALTIME, &ts);
	/* A copied file keeps its capture's id (ftc_writer_copy_from). */
	if (!w->trace_id)
		w->trace_id = ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec ^
			      (uint64_t)getpid();
	if (ftc_wmeta_z_open(w) < 0 || ftc_wsynthetic_formats(w) < 0)
		goto out;
	ftc_wmeta_subbuf(&w->subbuf, w->meta.header_info.p, w->meta.header_info.len);
	ftc_wstring(w, "strings");
	if (init_cpus(w) < 0)
		goto out;
	/* v6 needs the slot offsets in its head: lay out with a bound first. */
	if (w->version == 6) {
		if (choose_stride(w, 0) < 0)
			goto out;
		layout(w, 0);
		if (ftc_whead_v6(w, &h) < 0 || choose_stride(w, h.len) < 0)
			goto out;
		layout(w, h.len);
		h.len = 0;
		if (ftc_whead_v6(w, &h) < 0)
			goto out;
	} else {
		if (ftc_whead_v7(w, &h) < 0 || choose_stride(w, h.len) < 0)
			goto out;
		layout(w, h.len);
	}
	if (h.oom || ftc_wpwrite(w, h.p, h.len, 0) < 0 || ftc_wgroups(w) < 0)
		goto out;
	/* Space for the tail, so a full disk can still be finished cleanly. */
	if (!w->remote &&
	    fallocate(w->fd, FALLOC_FL_KEEP_SIZE, (off_t)w->tail, TAIL_RESERVE) < 0 &&
	    errno == ENOSPC) {
		ftc_error(ENOSPC, "%s: no room for the capture (need at least %u KB free)",
			  w->path, TAIL_RESERVE >> 10);
		goto out;
	}
	w->started = true;
	ret = ftc_writer_checkpoint(w);
out:
	ftc_dbuf_free(&h);
	return ret;
}

/*
 * -m: a CPU's region is two halves used in turn; when the one being
 * written is full, the other (older data) is dropped and reused. The
 * index shows the current half; at the end both are joined, oldest first.
 */
static void switch_half(struct ftc_writer *w, struct wcpu *wc)
{
	pthread_mutex_lock(&w->lock);
	wc->old_size = wc->size;
	wc->old_chunks = wc->chunks;
	wc->wrapped = true;
	wc->cur ^= 1;
	wc->size = 0;
	wc->chunks = 0;
	pthread_mutex_unlock(&w->lock);
}

int ftc_writer_set_max(struct ftc_writer *w, uint64_t bytes)
{
	uint64_t min = compressed(w) ?
		ftc_zctx_bound(w->comp, (size_t)w->page * FTC_PAGES_IN_CHUNK) + 8 : w->page;

	if (w->started)
		return ftc_error(EBUSY, "%s: the size limit must be set before the capture starts",
				 w->path);
	if (w->remote)
		return ftc_error(EINVAL, "%s: keeping the newest (-m) reads the file back, which a "
				 "stream to ftc listen cannot: leave -m out", w->path);
	w->half = roundup_u64(bytes / 2, w->page);
	if (w->half < min)
		w->half = roundup_u64(min, w->page);
	w->hstride = roundup_u64(w->half + 4, w->page);
	return 0;
}

/*
 * A CPU's region is its share of the disk: once it is full, the capture
 * has no more room and ends as on a full disk. Going on with the other
 * CPUs would leave a trace in which one CPU falls silent at some moment
 * for no reason a reader of the merged stream can see; stopping keeps
 * every CPU complete up to the same moment.
 */
static int region_full(struct ftc_writer *w, struct wcpu *wc, size_t len)
{
	return ftc_error(ENOSPC, "%s: CPU %d's region (%.1f MB, its share of the %.1f MB free "
			 "at start) has no room for %zu more bytes: %s (free some space, "
			 "write elsewhere, or keep the newest with -m)", w->path, wc->cpu,
			 (double)w->stride / 1e6, (double)w->free_at_start / 1e6, len,
			 strerror(ENOSPC));
}

static int write_chunk(struct ftc_writer *w, struct wcpu *wc, const void *in, size_t len)
{
	uint32_t hdr[2];
	long z;

	z = ftc_zctx_compress(wc->z, wc->zout + 8, wc->zcap - 8, in, len);
	if (z < 0)
		return -1;
	hdr[0] = (uint32_t)z;
	hdr[1] = (uint32_t)len;
	memcpy(wc->zout, hdr, 8);
	if (w->half && wc->size + 8 + (uint64_t)z > w->half)
		switch_half(w, wc);
	if (4 + wc->size + 8 + (uint64_t)z > w->stride)
		return region_full(w, wc, 8 + (size_t)z);
	if (ftc_wpwrite(w, wc->zout, 8 + (size_t)z, cur_off(w, wc) + 4 + wc->size) < 0)
		return -1;
	pthread_mutex_lock(&w->lock);
	wc->size += 8 + (uint64_t)z;
	wc->chunks++;
	w->data_bytes += 8 + (uint64_t)z;
	pthread_mutex_unlock(&w->lock);
	return 0;
}

static int add_raw(struct ftc_writer *w, struct wcpu *wc, const void *data, size_t len)
{
	size_t page = w->page;

	/* With a limit, go page by page so a half switch lands on a page. */
	if (w->half && len > page) {
		for (size_t off = 0; off < len; off += page)
			if (add_raw(w, wc, (const char *)data + off, page) < 0)
				return -1;
		return 0;
	}
	if (w->half && wc->size + len > w->half)
		switch_half(w, wc);
	if (wc->size + len > w->stride)
		return region_full(w, wc, len);
	if (ftc_wpwrite(w, data, len, cur_off(w, wc) + wc->size) < 0)
		return -1;
	pthread_mutex_lock(&w->lock);
	wc->size += len;
	w->data_bytes += len;
	pthread_mutex_unlock(&w->lock);
	return 0;
}

int ftc_writer_add_pages(struct ftc_writer *w, int buf, int cpu_idx,
			 const void *data, size_t len)
{
	size_t chunk = (size_t)w->page * FTC_PAGES_IN_CHUNK;
	const char *p = data;
	struct wcpu *wc;

	if (!w->started || buf < 0 || buf >= w->nbufs || cpu_idx < 0 ||
	    cpu_idx >= w->bufs[buf].ncpus || len % w->page)
		return ftc_error(EINVAL, "%s: bad page write (buffer %d, cpu %d, %zu bytes)",
				 w->path, buf, cpu_idx, len);
	wc = &w->bufs[buf].cpus[cpu_idx];
	if (!compressed(w))
		return add_raw(w, wc, data, len);
	while (len) {
		size_t n;

		if (!wc->pending_len && len >= chunk) {
			if (write_chunk(w, wc, p, chunk) < 0)
				return -1;
			p += chunk;
			len -= chunk;
			continue;
		}
		n = chunk - wc->pending_len < len ? chunk - wc->pending_len : len;
		memcpy(wc->pending + wc->pending_len, p, n);
		wc->pending_len += n;
		p += n;
		len -= n;
		if (wc->pending_len == chunk) {
			wc->pending_len = 0;
			if (write_chunk(w, wc, wc->pending, chunk) < 0)
				return -1;
		}
	}
	return 0;
}

int ftc_writer_flush_cpu(struct ftc_writer *w, int buf, int cpu_idx)
{
	struct wcpu *wc;
	size_t len;

	if (!w->started || buf < 0 || buf >= w->nbufs || cpu_idx < 0 ||
	    cpu_idx >= w->bufs[buf].ncpus)
		return ftc_error(EINVAL, "%s: bad flush (buffer %d, cpu %d)", w->path, buf,
				 cpu_idx);
	wc = &w->bufs[buf].cpus[cpu_idx];
	if (!wc->pending_len)
		return 0;
	/* Cleared first: a failed chunk must not be written twice. */
	len = wc->pending_len;
	wc->pending_len = 0;
	return write_chunk(w, wc, wc->pending, len);
}

uint64_t ftc_writer_data_bytes(struct ftc_writer *w)
{
	uint64_t n;

	pthread_mutex_lock(&w->lock);
	n = w->data_bytes;
	pthread_mutex_unlock(&w->lock);
	return n;
}

int ftc_writer_checkpoint(struct ftc_writer *w)
{
	if (!w->started)
		return 0;
	return ftc_windex(w, NULL, false, false);
}

static int flush_pending(struct ftc_writer *w)
{
	char *buf = NULL;
	int ret = -1;

	for (int b = 0; b < w->nbufs; b++)
		for (int c = 0; c < w->bufs[b].ncpus; c++) {
			struct wcpu *wc = &w->bufs[b].cpus[c];

			/* Out of room: those last pages are lost, and the file is still finished. */
			if (wc->pending_len && write_chunk(w, wc, wc->pending, wc->pending_len) < 0 &&
			    errno != ENOSPC)
				goto out;
			wc->pending_len = 0;
			if (!wc->wrapped)
				continue;
			if (!buf && !(buf = malloc(JOIN_BUF))) {
				ftc_error(ENOMEM, "out of memory");
				goto out;
			}
			if (ftc_wjoin_halves(w, wc, buf, JOIN_BUF) < 0)
				goto out;
		}
	ret = 0;
out:
	free(buf);
	return ret;
}

/* The listener learns how the capture ended; a failure's own message stays ours. */
static int end_stream(struct ftc_writer *w, bool ok)
{
	char why[512];
	int err = errno;

	if (ok)
		return ftc_wsend_end(w, true, NULL);
	snprintf(why, sizeof(why), "%s", ftc_strerror());
	ftc_wsend_end(w, false, why);
	return ftc_error(err ? err : EIO, "%s", why);
}

int ftc_wfinish(struct ftc_writer *w)
{
	const struct ftc_dbuf *cmd = w->version >= 7 && w->have_end_cmdlines ?
		&w->end_cmdlines : NULL;
	int ret = -1;

	if (!w->started)
		return ftc_error(EINVAL, "%s: the capture never started", w->path);
	/* Whatever fails below, the last good index keeps the file readable. */
	if (flush_pending(w) < 0)
		goto out;
	if (ftc_windex(w, cmd, true, true) < 0)
		goto out;
	if (ftc_wcompact(w, cmd, true) < 0)
		goto out;
	if (w->version == 6 && ftc_wtruncate(w, w->tail) < 0)
		goto out;
	ret = 0;
out:
	if (w->remote && end_stream(w, ret == 0) < 0)
		ret = -1;
	if (close(w->fd) < 0 && ret == 0)
		ret = ftc_error(errno, "%s: close: %s", w->path, strerror(errno));
	w->fd = -1;
	w->started = false;
	return ret;
}

void ftc_writer_free(struct ftc_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	for (int b = 0; b < w->nbufs; b++) {
		for (int c = 0; c < w->bufs[b].ncpus; c++) {
			free(w->bufs[b].cpus[c].pending);
			free(w->bufs[b].cpus[c].zout);
			free(w->bufs[b].cpus[c].stat);
			ftc_dbuf_free(&w->bufs[b].cpus[c].lost);
			ftc_zctx_free(w->bufs[b].cpus[c].z);
		}
		free(w->bufs[b].cpus);
		free(w->bufs[b].name);
		free(w->bufs[b].clock);
	}
	free(w->bufs);
	ftc_dbuf_free(&w->strings);
	ftc_dbuf_free(&w->extra_formats);
	ftc_dbuf_free(&w->extra_options);
	ftc_dbuf_free(&w->tail_options);
	ftc_dbuf_free(&w->end_cmdlines);
	ftc_dbuf_free(&w->end_kallsyms);
	free(w->start_modules);
	ftc_wmeta_free(&w->meta);
	ftc_zctx_free(w->meta_z);
	pthread_mutex_destroy(&w->lock);
	pthread_mutex_destroy(&w->send_lock);
	free(w->path);
	free(w);
}
