// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A v7 file indexes its CPU data in an option written after the data
 * (ftc and trace-cmd alike), so a file cut anywhere after the head, or
 * whose last options are damaged, has a BUFFER section that no option
 * points into. Its data is still there: each CPU's run starts on a page
 * boundary, compressed as a u32 chunk count and (u32 csize, u32 usize,
 * data) chunks, uncompressed as raw sub-buffer pages. This finds the
 * runs and every whole chunk (or page) of them, so the records that
 * exist are read. The CPU numbers are not in the data: runs are numbered
 * in file order, as ftc and trace-cmd write them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "reader.h"
#include "tracedat-format.h"

struct found {
	struct ftc_dat_cpu *cpus;
	int n, cap, max;	/* max: the file's CPU count */
	uint64_t units;		/* whole chunks (or pages) */
	bool cut;		/* a run ends short of what its count says */
};

static uint64_t page_up(uint64_t v, uint32_t page)
{
	return (v + page - 1) / page * page;
}

/* A chunk header that a rescue takes: ftc_chunk_head's checks, data in it, a sane size. */
static bool chunk_sane(struct ftc_reader *r, uint64_t off, uint64_t limit, struct ftc_chunk *c)
{
	const char *why;

	return ftc_chunk_head(r, off, limit, r->page_size, c, &why) == 0 && c->csize &&
	       c->csize <= FTC_MAX_CHUNK_SIZE;
}

static int add_cpu(struct ftc_reader *r, struct found *f, uint64_t off, uint64_t size)
{
	struct ftc_dat_cpu *c;

	if (f->n == f->cap) {
		int cap = f->cap ? f->cap * 2 : 8;

		c = realloc(f->cpus, (size_t)(cap + 1) * sizeof(*c));
		if (!c)
			return ftc_error(ENOMEM, "out of memory");
		f->cpus = c;
		f->cap = cap;
	}
	c = &f->cpus[f->n];
	memset(c, 0, sizeof(*c));
	c->cpu = f->n++;
	c->offset = off;
	c->size = size;
	c->entries = c->overrun = c->commit_overrun = c->dropped = c->read_events = -1;
	return 0;
}

/* A run starts here when its first chunk is sane and decompresses. */
static bool run_starts(struct ftc_reader *r, uint64_t pos, uint64_t limit, uint32_t *count)
{
	unsigned char h[4];
	struct ftc_chunk c;
	char *z, *out;
	bool ok;

	if (pos + 12 > limit || ftc_pread_all(r, h, 4, pos, "chunk") < 0)
		return false;
	*count = ftc_rd32(r, h);
	if (!*count || !chunk_sane(r, pos + 4, limit, &c))
		return false;
	z = malloc(c.csize);
	out = malloc(c.usize);
	ok = z && out && ftc_chunk_read(r, pos + 4, &c, z) == 0 &&
	     ftc_chunk_unpack(r, pos + 4, &c, z, out) == 0;
	free(z);
	free(out);
	return ok;
}

static int scan_chunks(struct ftc_reader *r, uint64_t pos, uint64_t limit, struct found *f)
{
	while (pos + 12 <= limit && f->n < f->max) {
		uint64_t p = pos + 4;
		uint32_t count, n = 0;

		if (!run_starts(r, pos, limit, &count)) {
			pos += r->page_size;	/* padding (a block larger than a page) */
			continue;
		}
		while (n < count && p + 8 <= limit) {
			struct ftc_chunk c;

			if (!chunk_sane(r, p, limit, &c))
				break;
			p += 8 + c.csize;
			n++;
		}
		if (add_cpu(r, f, pos, p - pos - 4) < 0)
			return -1;
		f->units += n;
		if (n < count) {
			f->cut = true;
			break;
		}
		pos = page_up(p, r->page_size);
	}
	return 0;
}

/*
 * Raw pages: a CPU's pages go forward in time, so the next CPU's run
 * starts where a page's time goes back; an empty page is padding.
 */
static int scan_pages(struct ftc_reader *r, uint64_t pos, uint64_t limit, struct found *f)
{
	struct ftc_subbuf_layout l;
	char *page = malloc(r->page_size);
	uint64_t start = 0, last_ts = 0;
	int ret = -1;

	if (!page)
		return ftc_error(ENOMEM, "out of memory");
	ftc_subbuf_layout_long(&l, (unsigned int)r->long_size, r->big_endian);
	ftc_reader_subbuf_layout(r, &l);
	for (; pos + r->page_size <= limit && f->n < f->max; pos += r->page_size) {
		struct ftc_subbuf sb;
		bool sound;

		if (ftc_pread_all(r, page, r->page_size, pos, "page") < 0)
			break;
		sound = ftc_subbuf_decode(&l, page, r->page_size, &sb) && sb.ts && sb.len;
		if (start && (!sound || sb.ts < last_ts)) {
			if (add_cpu(r, f, start, pos - start) < 0)
				goto out;
			start = 0;
		}
		if (!sound)
			continue;
		if (!start)
			start = pos;
		last_ts = sb.ts;
		f->units++;
	}
	if (start && f->n < f->max && add_cpu(r, f, start, pos - start) < 0)
		goto out;
	ret = 0;
out:
	free(page);
	return ret;
}

/* The buffer's name from its section's description ("buffer flyrecord NAME"). */
static const char *section_buffer_name(const struct ftc_dat_section *s)
{
	static const char prefix[] = "buffer flyrecord ";
	const char *d = s->description ? s->description : "";

	return strncmp(d, prefix, sizeof(prefix) - 1) ? "" : d + sizeof(prefix) - 1;
}

/*
 * A buffer the index holds is not read again from an old copy of its
 * section: restore in place moves section heads, and until it resizes
 * the sections the chain still passes the old one.
 */
static bool indexed(const struct ftc_reader *r, const char *name)
{
	for (int i = 0; i < r->nbuffers; i++)
		if (r->buffers[i].ncpus && !strcmp(r->buffers[i].name, name))
			return true;
	return false;
}

static void say_found(struct ftc_reader *r, const struct ftc_dat_section *s,
		      const struct found *f, bool compressed)
{
	const char *unit = compressed ? "chunks" : "pages";
	char where[160];

	if (r->cut_want > r->file_size)
		snprintf(where, sizeof(where), "cut at %llu of at least %llu bytes",
			 (unsigned long long)r->file_size, (unsigned long long)r->cut_want);
	else
		snprintf(where, sizeof(where), "buffer section at offset %llu has no BUFFER "
			 "option (damaged index)", (unsigned long long)s->offset);
	r->cut_said = true;
	ftc_reader_warn(r, "%s: %s: the index of its CPU data is gone; reading the %llu whole "
			"%s of the %d CPU run%s found in its buffer section (CPUs numbered in file "
			"order)", r->path, where, (unsigned long long)f->units, unit, f->n,
			f->n == 1 ? "" : "s");
}

int ftc_v7_rescue(struct ftc_reader *r, const struct ftc_dat_section *s)
{
	struct found f = { 0 };
	bool compressed = r->comp && (s->flags & FTC_SEC_COMPRESSED);
	uint64_t end = s->offset + 16 + s->size, limit = end < r->file_size ? end : r->file_size;
	uint64_t sec = s->offset;
	const char *name = section_buffer_name(s);
	struct ftc_dat_buffer *b;
	int ret;

	if (!r->page_size || r->page_size > FTC_MAX_CHUNK_SIZE || indexed(r, name))
		return 0;
	f.max = r->ncpus > 0 && r->ncpus < FTC_MAX_CPUS ? r->ncpus : FTC_MAX_CPUS;
	ret = compressed ? scan_chunks(r, page_up(sec + 16, r->page_size), limit, &f) :
			scan_pages(r, page_up(sec + 16, r->page_size), limit, &f);
	if (ret < 0 || !f.n) {
		free(f.cpus);
		if (ret == 0)
			say_found(r, s, &f, compressed);
		return ret;
	}
	b = ftc_add_buffer(r, name);
	if (!b) {
		free(f.cpus);
		return -1;
	}
	b->clock = strdup(ftc_reader_clock(r));
	b->cpus = f.cpus;
	b->ncpus = f.n;
	b->section_offset = sec;
	b->compressed = compressed;
	say_found(r, s, &f, compressed);
	return 0;
}

void ftc_reader_say_cut(struct ftc_reader *r)
{
	if (r->cut_said || r->cut_want <= r->file_size)
		return;
	r->cut_said = true;
	ftc_reader_warn(r, "%s: cut at %llu of %s%llu bytes: reading the records of every whole "
			"%s before the cut", r->path, (unsigned long long)r->file_size,
			r->version == 7 ? "at least " : "", (unsigned long long)r->cut_want,
			r->comp ? "chunk" : "page");
}
