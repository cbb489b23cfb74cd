// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What describes the data in a trace.dat: the head (header, metadata
 * sections or blocks, first options) and the index that is rewritten at
 * every checkpoint (v7: chunk counts, BUFFER options, strings in the
 * tail; v6: the options and per-CPU pairs in the head). Numbers are in
 * host order, as trace-cmd writes them.
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

#include "ftc.h"
#include "tracedat-format.h"
#include "writer.h"


/* A v7 section: 16-byte header, then the payload, compressed when asked. */
static int section_build(struct ftc_writer *w, struct ftc_dbuf *out, uint16_t id,
			 const char *desc, const void *data, size_t len, bool compress)
{
	uint16_t flags = compress ? FTC_SEC_COMPRESSED : 0;
	int32_t d = ftc_wstring(w, desc);
	char *z = NULL;
	long zlen = 0;

	if (compress) {
		size_t cap = ftc_zctx_bound(w->comp, len);

		z = malloc(cap);
		if (!z)
			return ftc_error(ENOMEM, "out of memory");
		zlen = ftc_zctx_compress(w->meta_z, z, cap, data, len);
		if (zlen < 0) {
			free(z);
			return -1;
		}
	}
	ftc_dbuf_u16(out, id);
	ftc_dbuf_u16(out, flags);
	ftc_dbuf_add(out, &d, 4);
	if (compress) {
		ftc_dbuf_u64(out, (uint64_t)zlen + 8);
		ftc_dbuf_u32(out, (uint32_t)zlen);
		ftc_dbuf_u32(out, (uint32_t)len);
		ftc_dbuf_add(out, z, (size_t)zlen);
	} else {
		ftc_dbuf_u64(out, len);
		ftc_dbuf_add(out, data, len);
	}
	free(z);
	return out->oom ? ftc_error(ENOMEM, "out of memory") : 0;
}

static void option(struct ftc_dbuf *b, uint16_t id, const void *data, uint32_t len)
{
	ftc_dbuf_u16(b, id);
	ftc_dbuf_u32(b, len);
	ftc_dbuf_add(b, data, len);
}

static void option_str(struct ftc_dbuf *b, uint16_t id, const char *s)
{
	option(b, id, s, (uint32_t)strlen(s) + 1);
}

static void header_start(struct ftc_writer *w, struct ftc_dbuf *h)
{
	uint8_t endian = 0, lsize = sizeof(long);
	union { uint16_t v; uint8_t b[2]; } probe = { .v = 1 };
	uint32_t page = w->page;

	endian = probe.b[0] ? 0 : 1;
	ftc_dbuf_add(h, FTC_DAT_MAGIC, FTC_DAT_MAGIC_LEN);
	ftc_dbuf_str(h, w->version == 6 ? "6" : "7");
	ftc_dbuf_add(h, &endian, 1);
	ftc_dbuf_add(h, &lsize, 1);
	ftc_dbuf_add(h, &page, 4);
}

/* Options every file carries (both versions). */
static void common_options(struct ftc_writer *w, struct ftc_dbuf *o)
{
	char version[64];
	uint32_t n = (uint32_t)w->cpucount;

	option_str(o, FTC_OPT_TRACECLOCK, w->meta.trace_clock);
	option_str(o, FTC_OPT_UNAME, w->meta.uname);
	snprintf(version, sizeof(version), "ftc %s", ftc_version());
	option_str(o, FTC_OPT_VERSION, version);
	option(o, FTC_OPT_TRACEID, &w->trace_id, 8);
	option(o, FTC_OPT_CPUCOUNT, &n, 4);
	ftc_dbuf_add(o, w->extra_options.p, w->extra_options.len);
}

static const struct {
	uint16_t id;
	const char *desc;
} meta_sections[] = {
	{ FTC_OPT_HEADER_INFO, "headers" },
	{ FTC_OPT_FTRACE_EVENTS, "ftrace events format" },
	{ FTC_OPT_EVENT_FORMATS, "events format" },
	{ FTC_OPT_KALLSYMS, "kallsyms" },
	{ FTC_OPT_PRINTK, "printk" },
	{ FTC_OPT_CMDLINES, "command lines" },
};

static struct ftc_dbuf *meta_payload(struct ftc_writer *w, int i)
{
	struct ftc_dbuf *p[] = { &w->meta.header_info, &w->meta.ftrace_events,
				 &w->meta.event_formats, &w->meta.kallsyms,
				 &w->meta.printk, &w->meta.cmdlines };
	return p[i];
}

/* v7 head: header, metadata sections, options section 1. Returns its end. */
int ftc_whead_v7(struct ftc_writer *w, struct ftc_dbuf *h)
{
	struct ftc_dbuf o = { 0 };
	size_t opt1_ptr;
	uint64_t zero = 0;
	int ret;

	header_start(w, h);
	ftc_dbuf_str(h, ftc_compression_name(w->comp));
	ftc_dbuf_str(h, ftc_compression_version(w->comp));
	opt1_ptr = h->len;
	ftc_dbuf_u64(h, 0);
	for (int i = 0; i < 6; i++) {
		struct ftc_dbuf *p = meta_payload(w, i);

		w->sec_off[meta_sections[i].id] = h->len;
		if (section_build(w, h, meta_sections[i].id, meta_sections[i].desc,
				  p->p, p->len, compressed(w)) < 0)
			return -1;
	}
	for (int i = 0; i < 6; i++)
		option(&o, meta_sections[i].id, &w->sec_off[meta_sections[i].id], 8);
	common_options(w, &o);
	ftc_dbuf_u16(&o, FTC_OPT_DONE);
	ftc_dbuf_u32(&o, 8);
	ftc_dbuf_add(&o, &zero, 8);	/* linked to the tail at each checkpoint */
	if (!h->oom)
		memcpy(h->p + opt1_ptr, &(uint64_t){ h->len }, 8);
	ret = section_build(w, h, FTC_OPT_DONE, "options", o.p, o.len, false);
	w->opt1_done = h->len - 8;
	ftc_dbuf_free(&o);
	return ret;
}

/* Per-CPU (offset, size) as committed now, for the index. */
/*
 * What a CPU's index entry says, taken together under the writer's lock:
 * with -m its reader thread may switch halves at any time, and the offset
 * must be that of the half the size and chunk count belong to.
 */
struct snap {
	uint64_t off, size;
	uint32_t chunks;
};

static uint64_t snap_size(const struct snap *s, const struct wbuf *b, int c)
{
	return s ? s[b->slot0 + c].size : 0;
}

static uint64_t snap_off(const struct ftc_writer *w, const struct snap *s,
			 const struct wbuf *b, int c)
{
	return s ? s[b->slot0 + c].off : cur_off(w, &b->cpus[c]);
}

/*
 * v6 stats of one buffer, each padded to a fixed size: the index is
 * rewritten in place at every checkpoint, so its size may not change. An
 * instance's follow a CPUSTAT naming it, as trace-cmd writes them.
 */
/* An instance's CPU stats start with a line naming it, as trace-cmd's do. */
static void cpustat_head(struct ftc_dbuf *o, const struct wbuf *b)
{
	char *head = NULL;

	if (!b->name[0])
		return;
	if (asprintf(&head, "\nBuffer: %s\n\n", b->name) >= 0)
		option_str(o, FTC_OPT_CPUSTAT, head);
	free(head);
}

static void cpustat_v6(struct ftc_dbuf *o, const struct wbuf *b, bool final)
{
	char stat[V6_CPUSTAT_SIZE];

	cpustat_head(o, b);
	for (int c = 0; c < b->ncpus; c++) {
		const char *st = final ? b->cpus[c].stat : NULL;
		size_t n = 0;

		memset(stat, ' ', sizeof(stat));
		if (st) {
			n = strlen(st) < sizeof(stat) - 1 ? strlen(st) : sizeof(stat) - 1;
			memcpy(stat, st, n);
		} else {
			n = (size_t)snprintf(stat, sizeof(stat), "CPU: %d\n", b->cpus[c].cpu);
			stat[n] = ' ';
		}
		stat[sizeof(stat) - 1] = '\0';
		option(o, FTC_OPT_CPUSTAT, stat, sizeof(stat));
	}
}

/*
 * A v6 flyrecord block: (offset, size) pairs indexed by CPU (zeros for
 * CPUs b lacks, or all when there is no b), then "[clock]". The clock may
 * come from another file (ftc convert): any length, so no fixed buffer.
 */
static void flyrecord_v6(struct ftc_writer *w, const struct wbuf *b, const char *clock,
			 struct ftc_dbuf *o, const struct snap *s)
{
	if (!clock)
		clock = "(null)";	/* as it always read; a failed read leaves none */
	ftc_dbuf_add(o, FTC_V6_FLYRECORD_TAG, 10);
	for (int cpu = 0; cpu < w->cpucount; cpu++) {
		uint64_t off = 0, size = 0;

		for (int c = 0; b && c < b->ncpus; c++)
			if (b->cpus[c].cpu == cpu) {
				off = snap_off(w, s, b, c);
				size = snap_size(s, b, c);
			}
		ftc_dbuf_u64(o, off);
		ftc_dbuf_u64(o, size);
	}
	ftc_dbuf_u64(o, strlen(clock) + 2);
	ftc_dbuf_add(o, "[", 1);
	ftc_dbuf_add(o, clock, strlen(clock));
	ftc_dbuf_add(o, "]", 1);
}

/* The v6 index: options and the top flyrecord's per-CPU pairs. Fixed size. */
static void index_v6(struct ftc_writer *w, struct ftc_dbuf *o, const struct snap *s,
		     bool final)
{
	struct wbuf *top = NULL;

	ftc_dbuf_add(o, FTC_V6_OPTIONS_TAG, 10);
	common_options(w, o);
	for (int b = 0; b < w->nbufs; b++) {
		if (!w->bufs[b].name[0]) {
			top = &w->bufs[b];
			continue;
		}
		ftc_dbuf_u16(o, FTC_OPT_BUFFER);
		ftc_dbuf_u32(o, 8 + (uint32_t)strlen(w->bufs[b].name) + 1);
		ftc_dbuf_u64(o, w->bufs[b].sec);
		ftc_dbuf_str(o, w->bufs[b].name);
	}
	/* The top buffer's stats first: readers give unnamed stats to it. */
	if (top)
		cpustat_v6(o, top, final);
	for (int b = 0; b < w->nbufs; b++)
		if (w->bufs[b].name[0])
			cpustat_v6(o, &w->bufs[b], final);
	ftc_dbuf_u16(o, FTC_OPT_DONE);
	flyrecord_v6(w, top, top ? top->clock : w->bufs[0].clock, o, s);
}

int ftc_whead_v6(struct ftc_writer *w, struct ftc_dbuf *h)
{
	uint32_t n = (uint32_t)w->cpucount;

	header_start(w, h);
	for (int i = 0; i < 6; i++) {
		struct ftc_dbuf *p = meta_payload(w, i);

		ftc_dbuf_add(h, p->p, p->len);
	}
	ftc_dbuf_u32(h, n);
	w->v6_index = h->len;
	index_v6(w, h, NULL, false);
	return h->oom ? ftc_error(ENOMEM, "out of memory") : 0;
}

/* The per-buffer blocks: v7 section headers spanning the slots, v6 flyrecords. */
int ftc_wgroups(struct ftc_writer *w)
{
	for (int b = 0; b < w->nbufs; b++) {
		struct wbuf *wb = &w->bufs[b];
		struct ftc_dbuf h = { 0 };
		char desc[300];
		int ret;

		if (w->version == 6) {
			if (!wb->name[0])
				continue;
			flyrecord_v6(w, wb, wb->clock, &h, NULL);
		} else {
			snprintf(desc, sizeof(desc), "buffer flyrecord %s", wb->name);
			wb->desc = ftc_wstring(w, desc);
			ftc_dbuf_u16(&h, FTC_OPT_BUFFER);
			ftc_dbuf_u16(&h, compressed(w) ? FTC_SEC_COMPRESSED : 0);
			ftc_dbuf_add(&h, &wb->desc, 4);
			ftc_dbuf_u64(&h, wb->end - wb->sec - 16);
		}
		ret = h.oom ? ftc_error(ENOMEM, "out of memory") :
			ftc_wpwrite(w, h.p, h.len, wb->sec);
		ftc_dbuf_free(&h);
		if (ret < 0)
			return -1;
	}
	return 0;
}

static struct snap *snapshot(struct ftc_writer *w)
{
	int n = 0, k = 0;
	struct snap *s;

	for (int b = 0; b < w->nbufs; b++)
		n += w->bufs[b].ncpus;
	s = calloc((size_t)n + 1, sizeof(*s));
	if (!s)
		return NULL;
	pthread_mutex_lock(&w->lock);
	for (int b = 0; b < w->nbufs; b++)
		for (int c = 0; c < w->bufs[b].ncpus; c++, k++) {
			s[k].off = cur_off(w, &w->bufs[b].cpus[c]);
			s[k].size = w->bufs[b].cpus[c].size;
			s[k].chunks = w->bufs[b].cpus[c].chunks;
		}
	pthread_mutex_unlock(&w->lock);
	return s;
}

static void buffer_option(struct ftc_writer *w, struct ftc_dbuf *o, struct wbuf *b,
			  const struct snap *s)
{
	size_t len = 8 + strlen(b->name) + 1 + strlen(b->clock) + 1 + 8 +
		     (size_t)b->ncpus * 20;
	uint32_t page = w->page, n = (uint32_t)b->ncpus;

	ftc_dbuf_u16(o, FTC_OPT_BUFFER);
	ftc_dbuf_u32(o, (uint32_t)len);
	ftc_dbuf_u64(o, b->sec);
	ftc_dbuf_str(o, b->name);
	ftc_dbuf_str(o, b->clock);
	ftc_dbuf_u32(o, page);
	ftc_dbuf_u32(o, s ? n : 0);
	for (int c = 0; s && c < b->ncpus; c++) {
		ftc_dbuf_u32(o, (uint32_t)b->cpus[c].cpu);
		ftc_dbuf_u64(o, s[c].off);
		ftc_dbuf_u64(o, s[c].size);
	}
}


/*
 * Per-CPU stats of one buffer. An instance's stats follow a CPUSTAT that
 * names it ("Buffer: NAME"), as trace-cmd writes them, so readers can tell
 * whose CPU 0 each one is.
 */
static void cpustat_options(struct ftc_dbuf *o, const struct wbuf *b)
{
	cpustat_head(o, b);
	for (int c = 0; c < b->ncpus; c++) {
		if (b->cpus[c].stat)
			option_str(o, FTC_OPT_CPUSTAT, b->cpus[c].stat);
	}
}
/* Builds the v7 tail; *opts gets the offset of its options section. */
static int tail_v7(struct ftc_writer *w, struct ftc_dbuf *t, const struct snap *s,
		   const struct ftc_dbuf *cmdlines, bool final, uint64_t *opts)
{
	struct ftc_dbuf o = { 0 };
	uint64_t zero = 0, cmd_off = w->tail;
	bool has_top = false;
	int ret;

	if (cmdlines && section_build(w, t, FTC_OPT_CMDLINES, "command lines",
				      cmdlines->p, cmdlines->len, compressed(w)) < 0)
		return -1;
	if (cmdlines)
		option(&o, FTC_OPT_CMDLINES, &cmd_off, 8);
	if (final && w->end_kallsyms.len) {
		uint64_t ks_off = w->tail + t->len;

		if (section_build(w, t, FTC_OPT_KALLSYMS, "kallsyms", w->end_kallsyms.p,
				  w->end_kallsyms.len, compressed(w)) < 0)
			return -1;
		option(&o, FTC_OPT_KALLSYMS, &ks_off, 8);
	}
	*opts = w->tail + t->len;
	for (int b = 0; b < w->nbufs; b++)
		has_top |= !w->bufs[b].name[0];
	/* A file of instances only still needs a (CPU-less) top buffer. */
	if (!has_top) {
		struct wbuf top = { .name = "", .clock = w->bufs[0].clock,
				    .sec = w->bufs[0].sec };
		buffer_option(w, &o, &top, NULL);
	}
	for (int b = 0; b < w->nbufs; b++) {
		buffer_option(w, &o, &w->bufs[b], s + w->bufs[b].slot0);
	}
	/* restore: the old tail's stats are in tail_options, with their heads. */
	for (int b = 0; final && !w->tail_kept && b < w->nbufs; b++)
		cpustat_options(&o, &w->bufs[b]);
	ftc_wlost_options(w, &o);
	if (w->restoring && !final)
		option(&o, FTC_OPT_FTC_RESTORING, &zero, 4);
	ftc_dbuf_add(&o, w->tail_options.p, w->tail_options.len);
	ftc_dbuf_u16(&o, FTC_OPT_DONE);
	ftc_dbuf_u32(&o, 8);
	ftc_dbuf_add(&o, &zero, 8);
	ret = section_build(w, t, FTC_OPT_DONE, "options", o.p, o.len, false);
	ftc_dbuf_free(&o);
	if (ret < 0)
		return -1;
	/* Strings last: every description is registered by now. */
	return section_build(w, t, FTC_OPT_STRINGS, "strings", w->strings.p,
			     w->strings.len, false);
}

/* Where a crash must find either the old index or the new one, whole. */
static int index_sync(struct ftc_writer *w)
{
	return w->sync_index ? ftc_wsync(w, false) : 0;
}

int ftc_windex_len(struct ftc_writer *w, const struct ftc_dbuf *cmdlines, bool final,
		   uint64_t *len)
{
	struct snap *s = snapshot(w);
	struct ftc_dbuf t = { 0 };
	uint64_t opts;
	int ret;

	if (!s)
		return ftc_error(ENOMEM, "out of memory");
	ret = tail_v7(w, &t, s, cmdlines, final, &opts);
	*len = t.len;
	ftc_dbuf_free(&t);
	free(s);
	return ret;
}

int ftc_windex(struct ftc_writer *w, const struct ftc_dbuf *cmdlines, bool final,
	       bool cut)
{
	struct snap *s = snapshot(w);
	struct ftc_dbuf t = { 0 };
	uint64_t opts;
	int ret = -1, k = 0;

	if (!s)
		return ftc_error(ENOMEM, "out of memory");
	/* v7 chunk counts first: they describe data already written. */
	for (int b = 0; compressed(w) && b < w->nbufs; b++)
		for (int c = 0; c < w->bufs[b].ncpus; c++, k++)
			if (ftc_wpwrite(w, &s[k].chunks, 4, s[k].off) < 0)
				goto out;
	if (w->version == 6) {
		index_v6(w, &t, s, final);
		ret = t.oom ? ftc_error(ENOMEM, "out of memory") :
			ftc_wpwrite(w, t.p, t.len, w->v6_index);
		for (int b = 0; ret == 0 && b < w->nbufs; b++) {
			struct ftc_dbuf f = { 0 };

			if (!w->bufs[b].name[0])
				continue;
			flyrecord_v6(w, &w->bufs[b], w->bufs[b].clock, &f, s);
			ret = ftc_wpwrite(w, f.p, f.len, w->bufs[b].sec);
			ftc_dbuf_free(&f);
		}
		goto out;
	}
	if (tail_v7(w, &t, s, cmdlines, final, &opts) < 0)
		goto out;
	if (ftc_wpwrite(w, t.p, t.len, w->tail) < 0 || index_sync(w) < 0)
		goto out;
	w->held_link = opts;
	if (!w->hold_link && (ftc_wpwrite(w, &opts, 8, w->opt1_done) < 0 || index_sync(w) < 0))
		goto out;
	if (cut && ftc_wtruncate(w, w->tail + t.len) < 0)
		goto out;
	ret = 0;
out:
	ftc_dbuf_free(&t);
	free(s);
	return ret;
}
