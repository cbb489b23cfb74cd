// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.dat v6: the metadata blocks follow one another, then the CPU
 * count, the options (ended by a bare u16 0), and a flyrecord block with
 * each CPU's offset and size. Instances are BUFFER options pointing at
 * further flyrecord blocks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "reader.h"
#include "tracedat-format.h"

static int skip_sized(struct ftc_cur *c, int width)
{
	uint64_t size;
	uint32_t s32;

	if (width == 4) {
		if (ftc_cur_u32(c, &s32) < 0)
			return -1;
		size = s32;
	} else if (ftc_cur_u64(c, &size) < 0) {
		return -1;
	}
	if (size > c->end - c->pos) {
		c->r->short_read |= !c->mem;
		return ftc_cur_err(c, "a size of %llu bytes runs past the end of the file",
				   (unsigned long long)size);
	}
	c->pos += size;
	return 0;
}

static int walk_header(struct ftc_cur *c)
{
	char tag[13];

	if (ftc_cur_read(c, tag, 12) < 0)
		return -1;
	if (memcmp(tag, "header_page", 12))
		return ftc_cur_err(c, "expected \"header_page\"");
	if (skip_sized(c, 8) < 0 || ftc_cur_read(c, tag, 13) < 0)
		return -1;
	if (memcmp(tag, "header_event", 13))
		return ftc_cur_err(c, "expected \"header_event\"");
	return skip_sized(c, 8);
}

static int walk_list(struct ftc_cur *c)
{
	uint32_t n;

	if (ftc_cur_u32(c, &n) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (skip_sized(c, 8) < 0)
			return -1;
	return 0;
}

static int walk_systems(struct ftc_cur *c)
{
	uint32_t n;

	if (ftc_cur_u32(c, &n) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		char *name;

		if (ftc_cur_str(c, &name, 4096) < 0)
			return -1;
		free(name);
		if (walk_list(c) < 0)
			return -1;
	}
	return 0;
}

/* Walks one block to find its end, lists it, and hands its bytes to fn. */
static int block(struct ftc_reader *r, struct ftc_cur *c, uint16_t id,
		 int (*walk)(struct ftc_cur *), int (*fn)(struct ftc_reader *, char *, size_t))
{
	uint64_t start = c->pos;
	char *buf;

	c->what = ftc_section_name(id);
	if (walk(c) < 0)
		return -1;
	if (ftc_add_section(r, id, 0, ftc_section_name(id), start, c->pos - start, 0) < 0)
		return -1;
	if (!fn || !r->tep)
		return 0;
	struct ftc_cur bc = { .r = r, .pos = start, .end = c->pos, .what = c->what };

	if (ftc_cur_blob(&bc, c->pos - start, &buf) < 0)
		return -1;
	return fn(r, buf, c->pos - start);
}

static int header_fn(struct ftc_reader *r, char *buf, size_t len)
{
	int ret = ftc_tep_header(r, buf, len);

	free(buf);
	return ret;
}

static int walk_u32(struct ftc_cur *c) { return skip_sized(c, 4); }
static int walk_u64(struct ftc_cur *c) { return skip_sized(c, 8); }

static int read_options(struct ftc_reader *r, struct ftc_cur *c)
{
	char tag[10];

	c->what = "options";
	if (ftc_cur_read(c, tag, 10) < 0)
		return -1;
	if (memcmp(tag, FTC_V6_OPTIONS_TAG, 10))
		return ftc_cur_err(c, "expected the \"options  \" tag");
	for (int n = 0; n < FTC_MAX_OPTIONS; n++) {
		uint16_t id;
		uint32_t size;
		uint64_t off;
		char *data;

		if (ftc_cur_u16(c, &id) < 0)
			return -1;
		if (id == FTC_OPT_DONE)
			return 0;
		if (ftc_cur_u32(c, &size) < 0)
			return -1;
		off = c->pos;
		if (ftc_cur_blob(c, size, &data) < 0)
			return -1;
		ftc_add_option(r, id, size, off, data);
		free(data);
	}
	return ftc_cur_err(c, "more than %d options", FTC_MAX_OPTIONS);
}

/* A flyrecord block: per CPU u64 offset and size, then u64 length + clock. */
static int read_flyrecord(struct ftc_reader *r, uint64_t off, struct ftc_dat_buffer *b,
			  int ncpus, bool tagged)
{
	struct ftc_cur c = { .r = r, .pos = off, .end = r->file_size, .what = "flyrecord" };
	char tag[10];
	uint64_t clen;

	if (tagged) {
		if (ftc_cur_read(&c, tag, 10) < 0)
			return -1;
		if (memcmp(tag, FTC_V6_FLYRECORD_TAG, 10))
			return ftc_cur_err(&c, "expected the \"flyrecord\" tag for buffer '%s'",
					   b->name);
	}
	if (ncpus < 0 || ncpus > FTC_MAX_CPUS)
		return ftc_cur_err(&c, "CPU count %d is out of range", ncpus);
	b->cpus = calloc((size_t)ncpus + 1, sizeof(*b->cpus));
	if (!b->cpus)
		return ftc_error(ENOMEM, "out of memory");
	b->ncpus = ncpus;
	b->section_offset = off;
	for (int i = 0; i < ncpus; i++) {
		struct ftc_dat_cpu *cpu = &b->cpus[i];

		cpu->cpu = i;
		cpu->entries = cpu->overrun = cpu->commit_overrun = -1;
		cpu->dropped = cpu->read_events = -1;
		if (ftc_cur_u64(&c, &cpu->offset) < 0 || ftc_cur_u64(&c, &cpu->size) < 0)
			return -1;
	}
	/* The clock text; its absence (old files) is not an error. */
	if (ftc_cur_u64(&c, &clen) == 0 && clen && clen < 4096 && !b->clock) {
		char *ck;

		if (ftc_cur_blob(&c, clen, &ck) == 0)
			b->clock = ck;
	}
	return 0;
}

static int v6_buffers(struct ftc_reader *r)
{
	for (int i = 0; i < r->noptions; i++) {
		const struct ftc_dat_opt *o = &r->options[i];
		struct ftc_dat_buffer *b;
		int ncpus = r->ncpus;

		if (o->id != FTC_OPT_BUFFER)
			continue;
		if (o->size < 9 || !memchr(o->data + 8, '\0', o->size - 8)) {
			ftc_reader_warn(r, "%s: BUFFER option at offset %llu is malformed; skipped",
					r->path, (unsigned long long)o->offset);
			continue;
		}
		if (i + 1 < r->noptions && r->options[i + 1].id == FTC_OPT_CPUCOUNT &&
		    r->options[i + 1].size >= 4)
			ncpus = (int)ftc_rd32(r, r->options[i + 1].data);
		b = ftc_add_buffer(r, (const char *)o->data + 8);
		if (!b)
			return -1;
		if (read_flyrecord(r, ftc_rd64(r, o->data), b, ncpus, true) < 0) {
			ftc_reader_warn(r, "%s", ftc_strerror());
			b->ncpus = 0;
		}
	}
	return 0;
}

int ftc_read_v6(struct ftc_reader *r, uint64_t pos)
{
	struct ftc_cur c = { .r = r, .pos = pos, .end = r->file_size };
	struct ftc_dat_buffer *top;
	uint32_t ncpus;
	char tag[10];

	if (block(r, &c, FTC_OPT_HEADER_INFO, walk_header, header_fn) < 0 ||
	    block(r, &c, FTC_OPT_FTRACE_EVENTS, walk_list, ftc_tep_ftrace_events) < 0 ||
	    block(r, &c, FTC_OPT_EVENT_FORMATS, walk_systems, ftc_tep_event_formats) < 0)
		return -1;
	r->kallsyms_off = c.pos;
	if (block(r, &c, FTC_OPT_KALLSYMS, walk_u32, NULL) < 0 ||
	    block(r, &c, FTC_OPT_PRINTK, walk_u32, ftc_tep_printk) < 0 ||
	    block(r, &c, FTC_OPT_CMDLINES, walk_u64, ftc_tep_cmdlines) < 0)
		return -1;
	c.what = "CPU count";
	if (ftc_cur_u32(&c, &ncpus) < 0)
		return -1;
	if (ncpus > FTC_MAX_CPUS)
		return ftc_cur_err(&c, "CPU count %u is out of range", ncpus);
	r->ncpus = (int)ncpus;
	if (read_options(r, &c) < 0)
		return -1;
	c.what = "data tag";
	if (ftc_cur_read(&c, tag, 10) < 0)
		return -1;
	if (!memcmp(tag, FTC_V6_LATENCY_TAG, 10))
		return ftc_error(ENOTSUP, "%s: a latency-format file (text at offset %llu); "
				 "read it with 'tail -c +%llu'", r->path,
				 (unsigned long long)c.pos, (unsigned long long)c.pos + 1);
	if (memcmp(tag, FTC_V6_FLYRECORD_TAG, 10))
		return ftc_cur_err(&c, "expected \"flyrecord\" or \"latency\"");
	top = ftc_add_buffer(r, "");
	if (!top || read_flyrecord(r, c.pos, top, (int)ncpus, false) < 0)
		return -1;
	return v6_buffers(r);
}
