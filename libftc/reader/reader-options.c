// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Options common to v6 and v7: what they mean for reading (BUFFER,
 * CPUCOUNT, clocks, CPUSTAT, timestamp corrections). The lists they are
 * kept in: reader-lists.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "reader.h"
#include "tracedat-format.h"

static int v7_buffer(struct ftc_reader *r, const struct ftc_dat_opt *o)
{
	const unsigned char *p = o->data, *end = o->data + o->size;
	const char *name, *clock;
	struct ftc_dat_buffer *b;
	uint32_t n;

	if (o->size < 8 + 2 + 8)
		goto bad;
	name = (const char *)p + 8;
	p = memchr(name, '\0', (size_t)(end - (const unsigned char *)name));
	if (!p)
		goto bad;
	clock = (const char *)++p;
	p = memchr(clock, '\0', (size_t)(end - p));
	if (!p || end - ++p < 8)
		goto bad;
	n = ftc_rd32(r, p + 4);
	if (n > FTC_MAX_CPUS || (uint64_t)(end - p - 8) < (uint64_t)n * 20)
		goto bad;
	b = ftc_add_buffer(r, name);
	if (!b || !(b->clock = strdup(clock)) || !(b->cpus = calloc((size_t)n + 1, sizeof(*b->cpus))))
		return ftc_error(ENOMEM, "out of memory");
	b->section_offset = ftc_rd64(r, o->data);
	b->page_size = ftc_rd32(r, p);
	b->ncpus = (int)n;
	p += 8;
	for (uint32_t i = 0; i < n; i++, p += 20) {
		b->cpus[i].cpu = (int)ftc_rd32(r, p);
		b->cpus[i].offset = ftc_rd64(r, p + 4);
		b->cpus[i].size = ftc_rd64(r, p + 12);
		b->cpus[i].entries = b->cpus[i].overrun = b->cpus[i].commit_overrun = -1;
		b->cpus[i].dropped = b->cpus[i].read_events = -1;
	}
	return 0;
bad:
	ftc_reader_warn(r, "%s: BUFFER option at offset %llu (%u bytes) is malformed; its "
			"buffer is skipped", r->path, (unsigned long long)o->offset, o->size);
	return 0;
}

static void buffer_compressed(struct ftc_reader *r, struct ftc_dat_buffer *b)
{
	unsigned char h[16];

	if (r->version != 7 || !r->comp)
		return;
	for (int i = 0; i < r->nsections; i++)
		if (r->sections[i].offset == b->section_offset) {
			b->compressed = r->sections[i].flags & FTC_SEC_COMPRESSED;
			return;
		}
	if (ftc_pread_all(r, h, 16, b->section_offset, "buffer section header") == 0 &&
	    ftc_rd16(r, h) == FTC_OPT_BUFFER)
		b->compressed = ftc_rd16(r, h + 2) & FTC_SEC_COMPRESSED;
	else
		ftc_reader_warn(r, "%s: buffer '%s' points at offset %llu, which holds no buffer "
				"section", r->path, b->name, (unsigned long long)b->section_offset);
}

/*
 * Keeps CPU data inside the file: a cut file reads up to its end, whole
 * pages only (a page cut short would only warn); one line says where
 * it was cut (ftc_reader_say_cut).
 */
static void clamp_cpus(struct ftc_reader *r, struct ftc_dat_buffer *b)
{
	uint64_t extra = b->compressed ? 4 : 0;

	for (int i = 0; i < b->ncpus; i++) {
		struct ftc_dat_cpu *c = &b->cpus[i];
		uint64_t end = c->offset + extra + c->size;

		if (!c->size)
			continue;
		if (end < c->offset || c->offset > r->file_size || r->file_size - c->offset < extra) {
			if (end > r->cut_want && end >= c->offset)
				r->cut_want = end;
			c->size = 0;
		} else if (c->size > r->file_size - c->offset - extra) {
			if (end > r->cut_want)
				r->cut_want = end;
			c->size = r->file_size - c->offset - extra;
			if (!b->compressed && r->page_size)
				c->size -= c->size % r->page_size;
		}
	}
}

static char *bracketed(const char *text)
{
	const char *a = strchr(text, '['), *z = a ? strchr(a, ']') : NULL;

	if (!a || !z)
		return strdup(text);
	return strndup(a + 1, (size_t)(z - a - 1));
}

static long long stat_field(const char *text, const char *name)
{
	const char *p = strstr(text, name);

	return p ? strtoll(p + strlen(name), NULL, 10) : -1;
}

static void apply_cpustat(struct ftc_reader *r, const char *text, const char **buffer)
{
	const char *p = strstr(text, "Buffer: ");
	long long cpu;

	if (p) {
		*buffer = p + 8;	/* name ends at the newline, compared below */
		return;
	}
	cpu = stat_field(text, "CPU: ");
	for (int i = 0; i < r->nbuffers; i++) {
		struct ftc_dat_buffer *b = &r->buffers[i];
		size_t len = strlen(b->name);

		if (strncmp(*buffer, b->name, len) || ((*buffer)[len] && (*buffer)[len] != '\n'))
			continue;
		for (int j = 0; j < b->ncpus; j++) {
			struct ftc_dat_cpu *c = &b->cpus[j];

			if (c->cpu != cpu)
				continue;
			c->entries = stat_field(text, "\nentries: ");
			c->overrun = stat_field(text, "\noverrun: ");
			c->commit_overrun = stat_field(text, "\ncommit overrun: ");
			c->dropped = stat_field(text, "\ndropped events: ");
			c->read_events = stat_field(text, "\nread events: ");
		}
		return;
	}
}

/* v7 indexes a buffer's data in an option written after it: find it when that is gone. */
static int orphan_buffers(struct ftc_reader *r)
{
	for (int i = 0; i < r->nsections; i++) {
		const struct ftc_dat_section *s = &r->sections[i];
		int b;

		if (s->id != FTC_OPT_BUFFER)
			continue;
		for (b = 0; b < r->nbuffers && r->buffers[b].section_offset != s->offset; b++)
			;
		if (b == r->nbuffers && ftc_v7_rescue(r, s) < 0)
			return -1;
	}
	return 0;
}

int ftc_apply_options(struct ftc_reader *r)
{
	const char *cur_buffer = "";

	for (int i = 0; i < r->noptions; i++) {
		const struct ftc_dat_opt *o = &r->options[i];
		const char *text = (const char *)o->data;

		switch (o->id) {
		case FTC_OPT_BUFFER:
			if (r->version == 7 && v7_buffer(r, o) < 0)
				return -1;
			break;
		case FTC_OPT_CPUCOUNT:
			if (o->size >= 4 && !r->ncpus && ftc_rd32(r, o->data) <= FTC_MAX_CPUS)
				r->ncpus = (int)ftc_rd32(r, o->data);
			break;
		case FTC_OPT_TRACECLOCK:
			free(r->clock);
			r->clock = bracketed(text);
			break;
		case FTC_OPT_OFFSET:
			r->ts_offset = strtoll(text, NULL, 0);
			break;
		case FTC_OPT_TSC2NSEC:
			if (o->size >= 16) {
				r->tsc_mult = ftc_rd32(r, o->data);
				r->tsc_shift = ftc_rd32(r, o->data + 4);
				r->tsc_offset = (long long)ftc_rd64(r, o->data + 8);
				if (r->tsc_shift > 63)
					r->tsc_mult = 0;
			}
			break;
		}
	}
	for (int i = 0; i < r->nbuffers; i++) {
		struct ftc_dat_buffer *b = &r->buffers[i];

		if (b->clock && strchr(b->clock, '[')) {
			char *c = bracketed(b->clock);

			free(b->clock);
			b->clock = c;
		}
		buffer_compressed(r, b);
		clamp_cpus(r, b);
	}
	if (orphan_buffers(r) < 0 || ftc_lost_options(r) < 0)
		return -1;
	ftc_reader_say_cut(r);
	for (int i = 0; i < r->noptions; i++)
		if (r->options[i].id == FTC_OPT_CPUSTAT)
			apply_cpustat(r, (const char *)r->options[i].data, &cur_buffer);
	return 0;
}
