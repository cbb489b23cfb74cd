// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A writer fed from another trace.dat instead of the kernel (ftc convert,
 * ftc split): the metadata payloads are the same bytes in both versions,
 * so they are copied as they are, and so are the options that say how to
 * read the capture (clocks, time offsets, its trace id). Only what the
 * writer makes itself (buffers, CPU count, its version string, the
 * sections' places) is new.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "meta.h"
#include "reader.h"
#include "tracedat-format.h"
#include "writer.h"

/* The options the writer writes itself, from what it is given. */
static bool written_by_writer(uint16_t id)
{
	switch (id) {
	case FTC_OPT_DONE:
	case FTC_OPT_CPUSTAT:
	case FTC_OPT_BUFFER:
	case FTC_OPT_TRACECLOCK:
	case FTC_OPT_UNAME:
	case FTC_OPT_CPUCOUNT:
	case FTC_OPT_VERSION:
	case FTC_OPT_TRACEID:
	case FTC_OPT_STRINGS:
	case FTC_OPT_HEADER_INFO ... FTC_OPT_CMDLINES:
	/* A latency buffer's text is not ring-buffer pages: it is not copied. */
	case FTC_OPT_BUFFER_TEXT:
		return true;
	default:
		return false;
	}
}

static int check_layout(struct ftc_reader *r, const bool *keep)
{
	if (!ftc_reader_host_order(r) || r->long_size != (int)sizeof(long))
		return ftc_error(ENOTSUP, "%s: a %s-endian file with %d-byte longs: ftc writes "
				 "only this machine's layout (%s-endian, %zu-byte longs); convert it "
				 "on a machine like the one that recorded it", r->path,
				 r->big_endian ? "big" : "little", r->long_size,
				 __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "big" : "little",
				 sizeof(long));
	for (int i = 0; i < r->nbuffers; i++)
		if ((!keep || keep[i]) && r->buffers[i].ncpus &&
		    r->buffers[i].page_size != r->page_size)
			return ftc_error(ENOTSUP, "%s: buffer '%s' has %u-byte pages, the file %u: "
					 "ftc writes one page size per file", r->path,
					 r->buffers[i].name, r->buffers[i].page_size, r->page_size);
	return 0;
}

/* The last option of an id (a streaming writer saves some twice). */
static const struct ftc_dat_opt *last_option(struct ftc_reader *r, uint16_t id)
{
	const struct ftc_dat_opt *o = NULL;

	for (int i = 0; i < r->noptions; i++)
		if (r->options[i].id == id)
			o = &r->options[i];
	return o;
}

/* One metadata payload: a v7 section named by its option, a v6 block. */
static int load_payload(struct ftc_reader *r, uint16_t id, struct ftc_dbuf *out)
{
	const struct ftc_dat_opt *o;
	const struct ftc_dat_section *s = NULL;
	char *buf = NULL;
	size_t len = 0;
	int ret;

	if (r->version == 7) {
		o = last_option(r, id);
		if (!o || o->size < 8)
			return ftc_error(EINVAL, "%s: no %s option: the file is not complete",
					 r->path, ftc_option_name(id));
		ret = ftc_v7_section_load(r, ftc_rd64(r, o->data), id, &buf, &len);
	} else {
		for (int i = 0; i < r->nsections; i++)
			if (r->sections[i].id == id)
				s = &r->sections[i];
		if (!s)
			return ftc_error(EINVAL, "%s: no %s block: the file is not complete",
					 r->path, ftc_section_name(id));
		len = s->size;
		buf = malloc(len ? len : 1);
		if (!buf)
			return ftc_error(ENOMEM, "out of memory");
		ret = ftc_pread_all(r, buf, len, s->offset, ftc_section_name(id));
	}
	if (ret == 0)
		ftc_dbuf_add(out, buf, len);
	free(buf);
	if (ret == 0 && out->oom)
		return ftc_error(ENOMEM, "out of memory for the %s of %s", ftc_section_name(id),
				 r->path);
	return ret;
}

static char *option_string(struct ftc_reader *r, uint16_t id, const char *fallback)
{
	const struct ftc_dat_opt *o = last_option(r, id);

	return strdup(o ? (const char *)o->data : fallback);
}

static int copy_meta(struct ftc_writer *w, struct ftc_reader *r)
{
	struct ftc_wmeta *m = &w->meta;
	struct ftc_dbuf *payload[] = { &m->header_info, &m->ftrace_events, &m->event_formats,
				       &m->kallsyms, &m->printk, &m->cmdlines };
	char clock[300];

	ftc_wmeta_free(m);
	w->have_meta = false;
	for (uint16_t id = FTC_OPT_HEADER_INFO; id <= FTC_OPT_CMDLINES; id++)
		if (load_payload(r, id, payload[id - FTC_OPT_HEADER_INFO]) < 0)
			goto fail;
	/* A file without TRACECLOCK (old trace-cmd) is read as on its clock. */
	snprintf(clock, sizeof(clock), "[%s]", ftc_reader_clock(r));
	m->uname = option_string(r, FTC_OPT_UNAME, "");
	m->trace_clock = option_string(r, FTC_OPT_TRACECLOCK, clock);
	if (!m->uname || !m->trace_clock) {
		ftc_error(ENOMEM, "out of memory");
		goto fail;
	}
	w->have_meta = true;
	return 0;
fail:
	ftc_wmeta_free(m);
	return -1;
}

static int copy_options(struct ftc_writer *w, struct ftc_reader *r)
{
	const struct ftc_dat_opt *id = last_option(r, FTC_OPT_TRACEID);

	if (id && id->size == 8)
		memcpy(&w->trace_id, id->data, 8);
	ftc_dbuf_free(&w->extra_options);
	for (int i = 0; i < r->noptions; i++) {
		const struct ftc_dat_opt *o = &r->options[i];

		if (written_by_writer(o->id))
			continue;
		ftc_dbuf_u16(&w->extra_options, o->id);
		ftc_dbuf_u32(&w->extra_options, o->size);
		ftc_dbuf_add(&w->extra_options, o->data, o->size);
	}
	return w->extra_options.oom ? ftc_error(ENOMEM, "out of memory") : 0;
}

static int copy_buffers(struct ftc_writer *w, struct ftc_reader *r, const bool *keep,
			int *wbuf)
{
	for (int i = 0; i < r->nbuffers; i++) {
		const struct ftc_dat_buffer *b = &r->buffers[i];
		int *cpus;

		wbuf[i] = -1;
		if ((keep && !keep[i]) || !b->ncpus)
			continue;
		cpus = malloc(sizeof(*cpus) * (size_t)b->ncpus);
		if (!cpus)
			return ftc_error(ENOMEM, "out of memory");
		for (int c = 0; c < b->ncpus; c++)
			cpus[c] = b->cpus[c].cpu;
		wbuf[i] = ftc_writer_add_buffer_clock(w, b->name, b->clock ? b->clock :
						      ftc_reader_clock(r), b->ncpus, cpus);
		free(cpus);
		if (wbuf[i] < 0)
			return -1;
	}
	return 0;
}

/* The writer's CPU of reader buffer `name`'s CPU `cpu`: 0, or -1 when not kept. */
static int stat_target(struct ftc_reader *r, const int *wbuf, const char *name, size_t len,
		       long cpu, int *b_out, int *c_out)
{
	for (int i = 0; i < r->nbuffers; i++) {
		const struct ftc_dat_buffer *b = &r->buffers[i];

		if (wbuf[i] < 0 || strlen(b->name) != len || strncmp(b->name, name, len))
			continue;
		for (int c = 0; c < b->ncpus; c++)
			if (b->cpus[c].cpu == cpu) {
				*b_out = wbuf[i];
				*c_out = c;
				return 0;
			}
	}
	return -1;
}

/*
 * CPUSTAT options come in runs: the top buffer's, then for each instance
 * a "Buffer: NAME" one and its CPUs' ("CPU: N" first).
 */
static int copy_cpustats(struct ftc_writer *w, struct ftc_reader *r, const int *wbuf)
{
	const char *name = "";
	size_t len = 0;

	for (int i = 0; i < r->noptions; i++) {
		const char *text = (const char *)r->options[i].data, *p;
		int b, c;

		if (r->options[i].id != FTC_OPT_CPUSTAT)
			continue;
		p = strstr(text, "Buffer: ");
		if (p) {
			name = p + 8;
			len = strcspn(name, "\n");
			continue;
		}
		p = strstr(text, "CPU: ");
		if (p && stat_target(r, wbuf, name, len, strtol(p + 5, NULL, 10), &b, &c) == 0 &&
		    ftc_writer_set_cpustat(w, b, c, text) < 0)
			return -1;
	}
	return 0;
}

int ftc_writer_copy_from(struct ftc_writer *w, struct ftc_reader *r, const bool *keep,
			 int *wbuf)
{
	if (w->started || w->nbufs)
		return ftc_error(EBUSY, "%s: a copy must be set up on a new writer", w->path);
	if (check_layout(r, keep) < 0)
		return -1;
	w->page = r->page_size;
	if (copy_meta(w, r) < 0 || copy_options(w, r) < 0 || copy_buffers(w, r, keep, wbuf) < 0)
		return -1;
	return copy_cpustats(w, r, wbuf);
}
