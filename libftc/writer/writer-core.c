// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The writer's primitives, below every part of it (writer.c and the
 * index, compaction, joining and synthetic buffers): a positioned write
 * and a cut, to the file or as a message to ftc listen
 * (writer-stream.c), the strings table, a buffer added.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "reader.h"
#include "writer.h"

int ftc_wpwrite(struct ftc_writer *w, const void *p, size_t len, uint64_t off)
{
	const char *c = p;

	if (w->remote)
		return ftc_wsend_write(w, p, len, off);
	while (len) {
		ssize_t r = pwrite(w->fd, c, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = r < 0 ? errno : EIO;

			return ftc_error(err, "%s: writing %zu bytes at offset %llu: %s%s",
					 w->path, len, (unsigned long long)off, strerror(err),
					 err == ENOSPC ? " (free some space or write elsewhere)" : "");
		}
		c += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

int ftc_wstring(struct ftc_writer *w, const char *s)
{
	size_t at = w->strings.len;

	for (size_t i = 0; i < w->strings.len; i += strlen(w->strings.p + i) + 1)
		if (!strcmp(w->strings.p + i, s))
			return (int)i;
	ftc_dbuf_str(&w->strings, s);
	return (int)at;
}

int ftc_wtruncate(struct ftc_writer *w, uint64_t size)
{
	if (w->remote)
		return ftc_wsend_trunc(w, size);
	if (ftruncate(w->fd, (off_t)size) < 0)
		return ftc_error(errno, "%s: truncate: %s", w->path, strerror(errno));
	return 0;
}

int ftc_wbuf_add(struct ftc_writer *w, const char *name, char *clock,
		 int ncpus, const int *cpus)
{
	struct wbuf *nb, *b;

	if (!clock)
		return -1;	/* reading the clock failed and said why */
	/* a damaged file's CPU 268435457 would make a v6 index of 4 GB */
	for (int i = 0; i < ncpus; i++)
		if (cpus[i] < 0 || cpus[i] >= FTC_MAX_CPUS) {
			free(clock);
			return ftc_error(ERANGE, "buffer '%s': CPU %d is not a CPU number (0 to %d)",
					 name, cpus[i], FTC_MAX_CPUS - 1);
		}
	nb = realloc(w->bufs, sizeof(*nb) * (size_t)(w->nbufs + 1));
	if (!nb) {
		free(clock);
		return ftc_error(ENOMEM, "out of memory");
	}
	w->bufs = nb;
	b = &nb[w->nbufs];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	b->clock = clock;
	b->cpus = calloc((size_t)ncpus, sizeof(*b->cpus));
	if (!b->name || !b->cpus) {
		free(b->name);
		free(b->clock);
		free(b->cpus);
		return ftc_error(ENOMEM, "out of memory");
	}
	b->ncpus = ncpus;
	b->slot0 = w->nbufs ? nb[w->nbufs - 1].slot0 + nb[w->nbufs - 1].ncpus : 0;
	for (int i = 0; i < ncpus; i++) {
		b->cpus[i].cpu = cpus[i];
		if (cpus[i] + 1 > w->cpucount)
			w->cpucount = cpus[i] + 1;
	}
	return w->nbufs++;
}

/* Copies len bytes at from in src to to in w's file (restore's copy, or in place). */
int ftc_wcopy_range(struct ftc_writer *w, int src, uint64_t from, uint64_t to, uint64_t len,
		    char *buf, size_t cap)
{
	while (len) {
		size_t n = len < cap ? (size_t)len : cap;
		ssize_t r = pread(src, buf, n, (off_t)from);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return ftc_error(r < 0 ? errno : EIO, "%s: reading %zu bytes at %llu: %s",
					 w->path, n, (unsigned long long)from,
					 r < 0 ? strerror(errno) : "the file ends there");
		if (ftc_wpwrite(w, buf, (size_t)r, to) < 0)
			return -1;
		from += (uint64_t)r;
		to += (uint64_t)r;
		len -= (uint64_t)r;
	}
	return 0;
}

/* w's file on disk: its data only (fdatasync), or its size and times too. */
int ftc_wsync(struct ftc_writer *w, bool data_only)
{
	if ((data_only ? fdatasync(w->fd) : fsync(w->fd)) < 0)
		return ftc_error(errno, "%s: %s: %s", w->path, data_only ? "fdatasync" : "fsync",
				 strerror(errno));
	return 0;
}

/* The context for the compressed metadata sections, at the level every file gets. */
int ftc_wmeta_z_open(struct ftc_writer *w)
{
	w->meta_z = ftc_zctx_new(w->comp, w->comp == FTC_COMPRESS_ZSTD ? 3 : 6);
	return w->meta_z ? 0 : -1;
}
