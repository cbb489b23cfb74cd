// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ftc restore: a capture cut short (SIGKILL, crash, power) is a valid
 * trace.dat with gaps. The reader parses its index (BUFFER options,
 * strings, the options links); restore rebuilds the writer's view from
 * it and finishes the file like a normal stop would: close the gaps and
 * rewrite the index. The finished file is written beside the old one and
 * replaces it once it reads back; where the disk has no room for it,
 * writer-restore-place.c finishes the file in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ftc.h"
#include "reader.h"
#include "tracedat-format.h"
#include "writer.h"


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
static int recover(struct ftc_writer *w, struct ftc_reader *r, struct wcpu *wc,
		   uint64_t limit)
{
	uint32_t max = w->page * FTC_PAGES_IN_CHUNK;
	char *z = malloc(ftc_zctx_bound(w->comp, max) + 8), *out = malloc(max);
	uint64_t hdr = compressed(w) ? 4 : 0;
	int n = 0;

	while (z && out) {
		uint64_t at = wc->start + hdr + wc->size;
		struct ftc_chunk c;
		const char *why;

		if (!compressed(w)) {
			if (at + w->page > limit || ftc_pread_all(r, out, w->page, at, "page") < 0 ||
			    !page_ok(w, out))
				break;
			wc->size += w->page;
			n++;
			continue;
		}
		/* whole when it decompresses to exactly what its header says */
		if (ftc_chunk_head(r, at, limit, w->page, &c, &why) < 0 || !c.csize ||
		    c.usize > max || c.csize > ftc_zctx_bound(w->comp, max) ||
		    ftc_chunk_read(r, at, &c, z) < 0 || ftc_chunk_unpack(r, at, &c, z, out) < 0)
			break;
		wc->size += 8 + c.csize;
		wc->chunks++;
		n++;
	}
	free(z);
	free(out);
	return n;
}

/* A buffer as the reader found it in the index; CPU-less ones are left out. */
static int take_buffer(struct ftc_writer *w, struct ftc_reader *r, const struct ftc_dat_buffer *d)
{
	struct wbuf *nb, *b;

	if (!d->ncpus)
		return 0;	/* the CPU-less top buffer of an instance-only file */
	nb = realloc(w->bufs, sizeof(*nb) * (size_t)(w->nbufs + 1));
	if (!nb)
		return ftc_error(ENOMEM, "out of memory");
	w->bufs = nb;
	b = &nb[w->nbufs];
	memset(b, 0, sizeof(*b));
	b->name = strdup(d->name);
	b->clock = strdup(d->clock ? d->clock : "");
	b->cpus = calloc((size_t)d->ncpus, sizeof(*b->cpus));
	b->ncpus = b->cpus ? d->ncpus : 0;
	b->slot0 = w->nbufs ? nb[w->nbufs - 1].slot0 + nb[w->nbufs - 1].ncpus : 0;
	b->sec = d->section_offset;
	w->nbufs++;
	if (!b->name || !b->clock || !b->cpus)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < d->ncpus; i++) {
		struct wcpu *wc = &b->cpus[i];

		wc->cpu = d->cpus[i].cpu;
		wc->start = d->cpus[i].offset;
		wc->size = d->cpus[i].size;
		if (compressed(w) && ftc_pread_all(r, &wc->chunks, 4, wc->start, "chunk count") < 0)
			return -1;
	}
	return 0;
}

/*
 * The reader skips a damaged BUFFER option with a warning; restore must
 * not rewrite an index that leaves its data out.
 */
static int take_buffers(struct ftc_writer *w, struct ftc_reader *r)
{
	int opts = 0;

	for (int i = 0; i < ftc_reader_noptions(r); i++)
		opts += ftc_reader_option(r, i)->id == FTC_OPT_BUFFER;
	if (opts != ftc_reader_nbuffers(r))
		return ftc_error(EINVAL, "%s: a BUFFER option is damaged:\n%s", w->path,
				 ftc_reader_warnings(r) ? ftc_reader_warnings(r) : "");
	for (int i = 0; i < ftc_reader_nbuffers(r); i++)
		if (take_buffer(w, r, ftc_reader_buffer(r, i)) < 0)
			return -1;
	return 0;
}

/*
 * The strings of the file, kept byte for byte: section descriptions point
 * into them. The last STRINGS section only: each index a restore in place
 * appended repeats the table before it, with what it added at the end.
 */
static int take_strings(struct ftc_writer *w, struct ftc_reader *r)
{
	const struct ftc_dat_section *last = NULL;
	char *buf;

	for (int i = 0; i < ftc_reader_nsections(r); i++) {
		const struct ftc_dat_section *s = ftc_reader_section(r, i);

		if (s->id != FTC_OPT_STRINGS)
			continue;
		if (s->flags & FTC_SEC_COMPRESSED)
			return ftc_error(EINVAL, "%s: compressed strings: not a file ftc "
					 "left unfinished", w->path);
		if (s->offset + 16 + s->size > r->file_size)
			return ftc_error(EINVAL, "%s: the strings at offset %llu are cut short",
					 w->path, (unsigned long long)s->offset);
		last = s;
	}
	if (!last || !last->size)
		return 0;
	if (last->size > FTC_MAX_META_SIZE)
		return ftc_error(EINVAL, "%s: the strings at offset %llu claim %llu bytes",
				 w->path, (unsigned long long)last->offset,
				 (unsigned long long)last->size);
	buf = malloc(last->size);
	if (!buf)
		return ftc_error(ENOMEM, "out of memory");
	if (ftc_pread_all(r, buf, last->size, last->offset + 16, "strings") < 0) {
		free(buf);
		return -1;
	}
	ftc_dbuf_add(&w->strings, buf, last->size);
	free(buf);
	return 0;
}

/* The writer's view of the file from the reader's parse of it. */
static int take_index(struct ftc_writer *w, struct ftc_reader *r)
{
	int c = ftc_compression_parse(ftc_reader_compression(r));

	if (c < 0)
		return ftc_error(EINVAL, "%s: unknown compression '%s'", w->path,
				 ftc_reader_compression(r));
	w->comp = (enum ftc_compression)c;
	w->page = ftc_reader_page_size(r);
	w->opt1_done = r->opts_link;
	w->tail = r->opts_last;
	/*
	 * Raw pages are recognised by their header, in the layout of the
	 * file's own header_page (a 32-bit kernel's differs); chunks are
	 * decompressed instead.
	 */
	ftc_subbuf_layout_long(&w->subbuf, (unsigned int)ftc_reader_long_size(r),
			       ftc_reader_big_endian(r));
	if (!compressed(w))
		ftc_reader_subbuf_layout(r, &w->subbuf);
	/*
	 * The index is written at the end: a cut took it; the reader found
	 * what it could. Unless the cut section follows the linked index: one
	 * a restore in place appended and never linked (power lost mid-write).
	 */
	if (r->cut_want > r->file_size && r->cut_section > r->opts_last && r->opts_last)
		w->drop_from = r->cut_section;
	else if (r->cut_want > r->file_size)
		return ftc_error(EINVAL, "%s(restore changed nothing: the index it finishes a "
				 "file from was at the end; `ftc convert %s NEW.dat` writes the "
				 "records that are there into a complete file)",
				 ftc_reader_warnings(r) ? ftc_reader_warnings(r) : "", w->path);
	if (take_buffers(w, r) < 0 || take_strings(w, r) < 0)
		return -1;
	if (!w->nbufs || !w->tail || !w->opt1_done || !w->strings.len)
		return ftc_error(EINVAL, "%s: no index of ftc record's to finish it from (its "
				 "last options section and strings); restore changed nothing, and "
				 "`ftc report` reads what the file holds", w->path);
	return 0;
}

/*
 * The version from the file header alone: a cut v6 file fails the full
 * parse long before its version could say that v6 needs no restore.
 */
static int check_version(struct ftc_writer *w)
{
	struct ftc_reader *r = ftc_reader_open(w->path,
					       FTC_READER_METADATA | FTC_READER_HEADER_ONLY);
	int version;

	if (!r)
		return -1;
	version = ftc_reader_version(r);
	ftc_reader_close(r);
	if (version != 7)
		return ftc_error(ENOTSUP, "%s: version %d file: ftc restore handles version 7 "
				 "(an unfinished v6 file is already readable as it is)",
				 w->path, version);
	return 0;
}

/*
 * What the old tail says beside the BUFFER options (CPU stats, lost
 * counts, the command lines and kallsyms of the end), kept for the new
 * one: a rewrite must not lose what the file had.
 */
static int take_tail(struct ftc_writer *w, struct ftc_reader *r)
{
	for (int i = 0; i < ftc_reader_noptions(r); i++) {
		const struct ftc_dat_opt *o = ftc_reader_option(r, i);
		struct ftc_dbuf *to = &w->tail_options;
		char *buf = NULL;
		size_t len = 0;

		if (o->offset <= w->tail || o->id == FTC_OPT_BUFFER)
			continue;
		if (o->id == FTC_OPT_FTC_RESTORING) {
			w->resumed = true;
			continue;
		}
		if (o->id == FTC_OPT_CMDLINES || o->id == FTC_OPT_KALLSYMS) {
			to = o->id == FTC_OPT_CMDLINES ? &w->end_cmdlines : &w->end_kallsyms;
			if (o->size < 8 || ftc_v7_section_load(r, ftc_rd64(r, o->data), o->id,
							       &buf, &len) < 0)
				return ftc_error(EINVAL, "%s: the %s at the end cannot be read, "
						 "so the file is left as it is: %s", w->path,
						 ftc_option_name(o->id), ftc_strerror());
			to->len = 0;
			ftc_dbuf_add(to, buf, len);
			free(buf);
			/* The tail starts with these sections: the data ends before. */
			if (ftc_rd64(r, o->data) < w->tail)
				w->tail = ftc_rd64(r, o->data);
			w->have_end_cmdlines |= o->id == FTC_OPT_CMDLINES;
			continue;
		}
		ftc_dbuf_u16(to, o->id);
		ftc_dbuf_u32(to, o->size);
		ftc_dbuf_add(to, o->data, o->size);
	}
	if (w->tail_options.oom || w->end_cmdlines.oom || w->end_kallsyms.oom)
		return ftc_error(ENOMEM, "out of memory");
	return 0;
}

/*
 * Where the last CPU's region ends: at the index, or where the last
 * buffer's section ends when that comes first (a restore in place left
 * indexes further on; what lies between is not that CPU's).
 */
static uint64_t last_region_end(const struct ftc_writer *w, struct ftc_reader *r)
{
	uint64_t sec = w->bufs[w->nbufs - 1].sec;

	for (int i = 0; i < ftc_reader_nsections(r); i++) {
		const struct ftc_dat_section *s = ftc_reader_section(r, i);

		if (s->offset == sec && s->offset + 16 + s->size < w->tail)
			return s->offset + 16 + s->size;
	}
	return w->tail;
}

/*
 * Reads the index and recovers what followed the last checkpoint;
 * *changed counts the chunks (or pages) found. Reads only: the file is
 * not opened for writing.
 */
static int take_file(struct ftc_writer *w, struct ftc_reader *r, uint64_t blksize,
		     int *changed)
{
	if (take_index(w, r) < 0 || take_tail(w, r) < 0)
		return -1;
	w->tail_kept = true;
	w->align = blksize > w->page ? blksize : w->page;
	w->groups = w->bufs[0].sec;
	for (int b = 0; b < w->nbufs; b++)
		w->bufs[b].end = b + 1 < w->nbufs ? w->bufs[b + 1].sec :
				 last_region_end(w, r);
	for (int b = 0; b < w->nbufs; b++)
		for (int c = 0; c < w->bufs[b].ncpus; c++) {
			struct wcpu *wc = &w->bufs[b].cpus[c];
			uint64_t end = c + 1 < w->bufs[b].ncpus ? wc[1].start : w->bufs[b].end;

			/* A damaged size would have compaction move gigabytes of nothing. */
			if (wc->start > end || wc->size + (compressed(w) ? 4 : 0) > end - wc->start)
				return ftc_error(EINVAL, "%s: the index puts CPU %d's data past its "
						 "region (%llu bytes at %llu): damaged index", w->path,
						 wc->cpu, (unsigned long long)wc->size,
						 (unsigned long long)wc->start);
			if (!w->resumed)
				*changed += recover(w, r, wc, end);
		}
	return 0;
}

/*
 * Whether removing the gaps would free a block or more. A finished
 * file's regions follow each other within a block (trace-cmd's last one
 * may even end short of it): nothing to gain there.
 */
static int has_gaps(struct ftc_writer *w)
{
	uint64_t new_tail;
	int n, gaps = 0;
	struct ftc_wmove *m = ftc_wplan_moves(w, &n, &new_tail);

	if (!m)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < n; i++) {
		uint64_t next = i + 1 < n ? m[i + 1].from : w->tail;

		if (next > m[i].from + m[i].len && next - (m[i].from + m[i].len) >= w->align)
			gaps = 1;
	}
	free(m);
	return gaps;
}

/*
 * The finished file, written into w->fd (a new file): the head as it
 * was, each block and region where compaction would put it, the data
 * only (the padding stays a hole), then the final index.
 */
static int write_compact(struct ftc_writer *w, int src)
{
	const struct ftc_dbuf *cmd = w->have_end_cmdlines ? &w->end_cmdlines : NULL;
	size_t cap = 1u << 20;
	char *buf = malloc(cap);
	uint64_t new_tail;
	int n, k = 0, ret = -1;
	struct ftc_wmove *m = ftc_wplan_moves(w, &n, &new_tail);

	if (!buf || !m) {
		ftc_error(ENOMEM, "out of memory");
		goto out;
	}
	if (ftc_wcopy_range(w, src, 0, 0, w->groups, buf, cap) < 0)
		goto out;
	for (int b = 0; b < w->nbufs; b++) {
		struct wbuf *wb = &w->bufs[b];

		if (ftc_wcopy_range(w, src, m[k].from, m[k].to, m[k].len, buf, cap) < 0)
			goto out;
		k++;
		for (int c = 0; c < wb->ncpus; c++, k++) {
			uint64_t len = (compressed(w) ? 4 : 0) + wb->cpus[c].size;

			if (ftc_wcopy_range(w, src, m[k].from, m[k].to, len, buf, cap) < 0)
				goto out;
		}
	}
	ftc_wlayout(w, m, n, new_tail);
	if (ftc_wpatch_sections(w) < 0 || ftc_windex(w, cmd, true, true) < 0)
		goto out;
	ret = 0;
out:
	free(buf);
	free(m);
	return ret;
}

/*
 * The new file read back: it opens without a warning, and holds every
 * option, buffer and byte of data the old one did, and what was
 * recovered.
 */
static int verify(struct ftc_writer *w, const char *tmp, struct ftc_reader *old)
{
	struct ftc_reader *r = ftc_reader_open(tmp, FTC_READER_METADATA);
	int ret = -1;

	if (!r)
		return ftc_error(EIO, "%s: the finished copy does not read back, so the file is "
				 "left as it is: %s", w->path, ftc_strerror());
	if (ftc_reader_warnings(r)) {
		ftc_error(EIO, "%s: the finished copy reads back with warnings, so the file is "
			  "left as it is:\n%s", w->path, ftc_reader_warnings(r));
		goto out;
	}
	if (ftc_reader_noptions(r) != ftc_reader_noptions(old) ||
	    ftc_reader_nbuffers(r) != ftc_reader_nbuffers(old)) {
		ftc_error(EIO, "%s: the finished copy has %d options and %d buffers where the "
			  "file has %d and %d, so the file is left as it is", w->path,
			  ftc_reader_noptions(r), ftc_reader_nbuffers(r),
			  ftc_reader_noptions(old), ftc_reader_nbuffers(old));
		goto out;
	}
	for (int b = 0, k = 0; b < ftc_reader_nbuffers(r); b++) {
		const struct ftc_dat_buffer *nb = ftc_reader_buffer(r, b);
		const struct ftc_dat_buffer *ob = ftc_reader_buffer(old, b);

		if (nb->ncpus != ob->ncpus || strcmp(nb->name, ob->name))
			goto differs;
		for (int c = 0; nb->ncpus && c < nb->ncpus; c++) {
			const struct wcpu *wc = &w->bufs[k].cpus[c];

			if (nb->cpus[c].size != wc->size || nb->cpus[c].size < ob->cpus[c].size)
				goto differs;
		}
		k += nb->ncpus != 0;
	}
	ret = 0;
	goto out;
differs:
	ftc_error(EIO, "%s: the finished copy's buffers differ from what was planned, so the "
		  "file is left as it is", w->path);
out:
	ftc_reader_close(r);
	return ret;
}

/* "DIR/.NAME.restore-" followed by tail. */
static char *temp_name(const char *path, const char *tail)
{
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path + 1) : 0;
	char *tmp = NULL;

	if (asprintf(&tmp, "%.*s.%s.restore-%s", dir, path, path + dir, tail) < 0) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	return tmp;
}

/*
 * A new file beside path ("DIR/.NAME.restore-XXXXXX"), for the rewrite,
 * locked while it is written: a restore that was killed leaves its copy
 * unlocked, and the next one removes it.
 */
static char *temp_beside(const char *path, int *fd)
{
	char *tmp = temp_name(path, "XXXXXX");

	if (!tmp)
		return NULL;
	*fd = mkostemp(tmp, O_CLOEXEC);
	if (*fd < 0) {
		ftc_error(errno, "%s: cannot create the finished copy %s beside it: %s (restore "
			  "writes a new file and replaces the old one only once it reads back)",
			  path, tmp, strerror(errno));
		free(tmp);
		return NULL;
	}
	flock(*fd, LOCK_EX);
	return tmp;
}

/* The copies that killed restores of path left (unlocked), removed: they hold the disk's room. */
static void remove_stale_copies(const char *path)
{
	char *pattern = temp_name(path, "??????");
	glob_t g;

	if (!pattern || glob(pattern, GLOB_NOSORT, NULL, &g)) {
		free(pattern);
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		int fd = open(g.gl_pathv[i], O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
			unlink(g.gl_pathv[i]);
		if (fd >= 0)
			close(fd);
	}
	globfree(&g);
	free(pattern);
}

/* The directory entry of the new file on disk too, so a crash keeps one of the two. */
static void sync_dir(const char *path)
{
	char *d = strdup(path), *slash = d ? strrchr(d, '/') : NULL;
	int fd;

	if (!d)
		return;
	if (slash)
		*(slash == d ? slash + 1 : slash) = '\0';
	fd = open(slash ? d : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(d);
}

/* A copy that does not fit: the file is finished in place instead. */
#define NO_ROOM	(-2)

static bool no_room(int err)
{
	return err == ENOSPC || err == EDQUOT || err == EFBIG;
}

/*
 * The rewrite: into a new file in the same directory, which replaces the
 * old one (rename) only once it is complete, on disk and reads back as
 * planned. Until then the old file is untouched; any failure removes the
 * new one. NO_ROOM when the disk has no room for the copy.
 */
static int rewrite(struct ftc_writer *w, struct ftc_reader *old, const struct stat *st)
{
	char *path = w->path, *tmp = temp_beside(path, &w->fd);
	int ret = -1;

	if (!tmp)
		return no_room(errno) ? NO_ROOM : -1;
	if (write_compact(w, old->fd) < 0) {
		ret = no_room(errno) ? NO_ROOM : -1;
		goto out;
	}
	if (fchmod(w->fd, st->st_mode & 07777) < 0 || fsync(w->fd) < 0) {
		ret = no_room(errno) ? NO_ROOM : -1;
		ftc_error(errno, "%s: %s: %s", path, tmp, strerror(errno));
		goto out;
	}
	if (verify(w, tmp, old) < 0)
		goto out;
	if (rename(tmp, path) < 0) {
		ftc_error(errno, "%s: replacing it with the finished copy %s: %s", path, tmp,
			  strerror(errno));
		goto out;
	}
	sync_dir(path);
	ret = 0;
out:
	if (ret < 0)
		unlink(tmp);
	free(tmp);
	return ret;
}

static int rewrite_in_place(struct ftc_writer *w)
{
	w->fd = open(w->path, O_RDWR | O_CLOEXEC);
	if (w->fd < 0)
		return ftc_error(errno, "%s: cannot open it for writing: %s", w->path,
				 strerror(errno));
	return ftc_wrestore_in_place(w);
}

/*
 * A restore in place stopped between linking the final index and cutting
 * the file there: the index is whole and a pad follows it. The cut is
 * all that is left to do. 1 when done.
 */
static int cut_at_pad(struct ftc_writer *w, struct ftc_reader *r)
{
	for (int i = 0; i < ftc_reader_nsections(r); i++) {
		const struct ftc_dat_section *s = ftc_reader_section(r, i);

		if (s->id != FTC_SEC_PAD || s->offset < w->tail)
			continue;
		if (truncate(w->path, (off_t)s->offset) < 0)
			return ftc_error(errno, "%s: cutting it at %llu, where restore left off: %s",
					 w->path, (unsigned long long)s->offset, strerror(errno));
		return 1;
	}
	return 0;
}

static struct ftc_writer *repair_writer(const char *path)
{
	struct ftc_writer *w = calloc(1, sizeof(*w));

	if (!w) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	w->version = 7;
	w->fd = -1;
	pthread_mutex_init(&w->lock, NULL);
	pthread_mutex_init(&w->send_lock, NULL);
	/* A link stays a link: the file it names is the one replaced. */
	w->path = realpath(path, NULL);
	if (!w->path) {
		ftc_error(errno, "%s: %s", path, strerror(errno));
		ftc_writer_free(w);
		return NULL;
	}
	return w;
}

static int repair(const char *path, int *changed, bool in_place)
{
	struct ftc_writer *w = repair_writer(path);
	struct ftc_reader *r = NULL;
	struct stat st;
	int ret = -1, gaps;

	*changed = 0;
	if (!w || check_version(w) < 0)
		goto out;
	remove_stale_copies(w->path);
	r = ftc_reader_open(path, FTC_READER_METADATA);
	if (!r)
		goto out;
	if (fstat(r->fd, &st) < 0) {
		ftc_error(errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (take_file(w, r, (uint64_t)st.st_blksize, changed) < 0)
		goto out;
	gaps = has_gaps(w);
	if (gaps < 0)
		goto out;
	/* Nothing to recover, nothing to close: the file stays as it is, byte for byte. */
	if (!*changed && !gaps) {
		ret = cut_at_pad(w, r);
		*changed = ret > 0;
		ret = ret < 0 ? -1 : 0;
		goto out;
	}
	if (ftc_wmeta_z_open(w) < 0)
		goto out;
	ret = in_place ? rewrite_in_place(w) : rewrite(w, r, &st);
	*changed += ret == 0;
out:
	ftc_reader_close(r);
	if (w)
		ftc_writer_free(w);
	return ret;
}

int ftc_writer_repair(const char *path, int *changed)
{
	int ret = repair(path, changed, false);

	return ret == NO_ROOM ? repair(path, changed, true) : ret;
}
