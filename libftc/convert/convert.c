// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ftc_convert(): a trace.dat rewritten in another version or compression,
 * or with some of its buffers. Each CPU's sound pages go to the writer
 * as they are (compressed again when the new file is); the events are
 * never decoded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-convert.h"
#include "convert.h"
#include "opts.h"
#include "merge-cpu.h"
#include "reader.h"
#include "writer.h"

static int same_file(struct ftc_reader *r, const char *path)
{
	struct stat in, out;

	if (r->fd < 0 || fstat(r->fd, &in) < 0 || stat(path, &out) < 0)
		return 0;
	if (in.st_dev != out.st_dev || in.st_ino != out.st_ino)
		return 0;
	return ftc_error(EINVAL, "%s: is the file being read (%s): write to another file",
			 path, r->path);
}

struct ftc_writer *ftc_convert_writer(struct ftc_reader *r, const char *path, int version,
				      int compression, const bool *keep, int *wbuf)
{
	struct ftc_writer *w;

	if (same_file(r, path) < 0)
		return NULL;
	w = ftc_writer_create(path, version, (enum ftc_compression)compression);
	if (!w)
		return NULL;
	if (ftc_writer_copy_from(w, r, keep, wbuf) < 0 || ftc_writer_start(w) < 0) {
		int err = errno;

		ftc_writer_free(w);
		ftc_writer_unlink(path);
		errno = err;
		return NULL;
	}
	return w;
}

/* keep[i] for each buffer of r that opts names; every name must be there. */
static int select_buffers(struct ftc_reader *r, const struct ftc_convert_opts *o, bool *keep)
{
	int kept = 0;

	for (int i = 0; i < r->nbuffers; i++)
		keep[i] = !o->instances;
	for (int n = 0; o->instances && n < o->ninstances; n++) {
		const char *name = o->instances[n] ? o->instances[n] : "";
		int i;

		for (i = 0; i < r->nbuffers && strcmp(r->buffers[i].name, name); i++)
			;
		if (i == r->nbuffers)
			return ftc_error(ENOENT, "%s: has no %s%s%s ('ftc dump' lists its "
					 "buffers)", r->path, *name ? "instance '" : "top-level buffer",
					 name, *name ? "'" : "");
		keep[i] = true;
	}
	for (int i = 0; i < r->nbuffers; i++)
		kept += keep[i] && r->buffers[i].ncpus;
	if (!kept)
		return ftc_error(ENOENT, "%s: %s no CPU data: there is nothing to write", r->path,
				 o->instances ? "the buffers asked for hold" : "its buffers list");
	return 0;
}

/*
 * A page the file cuts short keeps the events it holds whole: the bytes
 * that are not there would read as zeros, and an event of zeros would be
 * made up.
 */
static const char *whole_events(struct ftc_stream *s, const char *page, char *buf)
{
	struct ftc_page_cut cut = { .from = s->subbuf.data_off };

	if (s->page_valid >= s->psize)
		return page;
	cut.to = ftc_page_whole_end(s->kbuf, s->subbuf.data_off, s->page_valid);
	memcpy(&cut.ts, page, 8);
	ftc_page_piece(&s->subbuf, page, s->psize, &cut, buf);
	return buf;
}

static int copy_cpu(struct ftc_reader *r, struct ftc_writer *w, int b, int c, int wb)
{
	struct ftc_stream s;
	char *buf = malloc(r->page_size);
	int ret = -1;

	if ((ftc_stream_init(&s, r, b, c) < 0 && errno == ENOMEM) || !buf) {
		ftc_error(ENOMEM, "out of memory");
		goto out;
	}
	/* Damage ends this CPU; the reader's warnings say where. */
	while ((ret = ftc_stream_next_page(&s)) == 1)
		if (ftc_writer_add_pages(w, wb, c, whole_events(&s, s.win + s.win_off, buf),
					 s.psize) < 0)
			goto out;
	ret = 0;
out:
	ftc_stream_release(&s);
	free(buf);
	return ret;
}

int ftc_convert(struct ftc_reader *r, const char *path, const struct ftc_convert_opts *user)
{
	struct ftc_convert_opts o;
	struct ftc_writer *w = NULL;
	bool *keep = calloc((size_t)r->nbuffers + 1, sizeof(*keep));
	int *wbuf = calloc((size_t)r->nbuffers + 1, sizeof(*wbuf));
	int ret = -1;

	if (!keep || !wbuf) {
		ftc_error(ENOMEM, "out of memory");
		goto out;
	}
	if (FTC_OPTS_COPY(&o, user, ftc_convert_opts, ninstances) < 0)
		goto out;
	if (!o.version)
		o.version = 7;
	if (o.version == 6 && o.compression != FTC_COMPRESS_NONE) {
		ftc_error(EINVAL, "%s: file version 6 has no compression", path);
		goto out;
	}
	if (select_buffers(r, &o, keep) < 0)
		goto out;
	w = ftc_convert_writer(r, path, o.version, o.compression, keep, wbuf);
	if (!w)
		goto out;
	for (int b = 0; b < r->nbuffers; b++)
		for (int c = 0; wbuf[b] >= 0 && c < r->buffers[b].ncpus; c++)
			if (copy_cpu(r, w, b, c, wbuf[b]) < 0)
				goto out;
	ret = ftc_writer_finish(w);
out:
	ftc_writer_free(w);
	/* Half a file is of no use: nothing stays behind a failure. */
	if (ret < 0 && w) {
		int err = errno;

		ftc_writer_unlink(path);
		errno = err;
	}
	free(keep);
	free(wbuf);
	return ret;
}
