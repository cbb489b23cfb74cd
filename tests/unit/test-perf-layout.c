// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The perf pager's pages (record --sample / --counters) go beside the
 * kernel's in one trace.dat, and the reader walks every buffer with the
 * one sub-buffer header the file's header_page describes. So the pager
 * must write that header: on a 32-bit kernel (commit 4 bytes, data at
 * 12) as on a 64-bit one (8, 16). Files made from hand-made metadata of
 * each, with "kernel" pages made here and pager pages in the layout
 * parsed from the same header_page, come back whole through the reader;
 * 16-byte pages under a 32-bit header_page (the pager before it took the
 * kernel's layout) do not, which shows the check can fail.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>

#include "check.h"
#include "fixture.h"
#include "ftc.h"
#include "ftc-perf.h"
#include "meta.h"
#include "perf.h"

#define NTICKS		200
#define NSAMPLES	300
#define TS0		1000000000ULL
#define GAP		10000000000ULL	/* needs a time extend: deltas hold 27 bits */
#define BASE		2000

static const char hp64[] = FIXTURE_HEADER_PAGE;
/* What an armmp (32-bit Arm) 6.1 kernel's events/header_page says. */
static const char hp32[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";
static char header_event[] = FIXTURE_HEADER_EVENT;
static char fmt_tick[] = "name: tick\nID: 901\nformat:\n" FIXTURE_COMMON
	"\tfield:u64 value;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"value=%llu\", REC->value\n";

struct sink {
	struct ftc_writer *w;
	int buf;
};

static int to_writer(const void *page, size_t size, void *ctx)
{
	struct sink *s = ctx;

	return ftc_writer_add_pages(s->w, s->buf, 0, page, size);
}

/*
 * The kernel's pages of NTICKS "tick" events, 1 us apart, laid out by
 * hand for a commit of csize bytes: u64 stamp, commit, then the events.
 */
static unsigned char *kernel_pages(size_t page, unsigned int csize, size_t *total)
{
	size_t off = 8 + csize, per = (page - off) / 20, n = (NTICKS + per - 1) / per;
	unsigned char *buf = calloc(n, page);

	for (int i = 0; buf && i < NTICKS; i++) {
		unsigned char *pg = buf + (size_t)i / per * page, *at;
		uint64_t ts = TS0 + (uint64_t)i * 1000, val = (uint64_t)i, len;
		uint32_t head = 4 | (uint32_t)(i % per ? 1000 : 0) << 5, len32;
		uint16_t type = 901;

		if (i % per == 0)
			memcpy(pg, &ts, 8);
		at = pg + off + (size_t)i % per * 20;
		memcpy(at, &head, 4);
		memcpy(at + 4, &type, 2);
		memcpy(at + 12, &val, 8);
		len = (uint64_t)(i % per + 1) * 20;
		len32 = (uint32_t)len;
		memcpy(pg + 8, csize == 4 ? (void *)&len32 : (void *)&len, csize);
	}
	*total = n * page;
	return buf;
}

static void meta_of(struct ftc_meta *m, struct ftc_meta_system *sys, struct ftc_blob *f,
		    const char *header_page)
{
	memset(m, 0, sizeof(*m));
	m->header_page = (struct ftc_blob){ (char *)header_page, strlen(header_page) };
	m->header_event = (struct ftc_blob){ header_event, strlen(header_event) };
	m->ftrace.name = "ftrace";
	*f = (struct ftc_blob){ fmt_tick, strlen(fmt_tick) };
	*sys = (struct ftc_meta_system){ "ftctest", f, 1 };
	m->systems = sys;
	m->nsystems = 1;
	m->kallsyms = (struct ftc_blob){ "", 0 };
	m->printk = (struct ftc_blob){ "", 0 };
	m->cmdlines = (struct ftc_blob){ "42 hot\n", 7 };
	m->uname = "Linux board 6.1.0 #1 SMP armv7l";
	m->trace_clock = "[local] global counter\n";
}

static int pack(struct ftc_perf_pager *pg)
{
	uint64_t chain[3];
	struct ftc_perf_count c = { 5000000, 6000000, 6000000 };

	for (int i = 0; i < NSAMPLES; i++) {
		struct ftc_perf_sample s = { .ip = 0x10000 + (uint64_t)i, .pid = 42, .tid = 43,
					     .cpu = 0, .period = 250000, .nr = 3, .ips = chain,
					     .time = TS0 + 500 + (uint64_t)i * 2000 +
						     (i >= NSAMPLES / 2 ? GAP : 0) };

		chain[0] = s.ip;
		chain[1] = s.ip + 0x100000;
		chain[2] = s.ip + 0x200000;
		if (ftc_perf_pager_add_sample(pg, &s) < 0)
			return -1;
	}
	return ftc_perf_pager_add_counter(pg, TS0 + GAP + 1000000000ULL, "task-clock", &c);
}

/* The file: header_page hp, kernel pages and pager pages with a commit of pager_csize bytes. */
static int write_file(const char *path, const char *hp, unsigned int pager_csize)
{
	struct ftc_writer *w = ftc_writer_create(path, 7, FTC_COMPRESS_NONE);
	struct ftc_perf_pager *pg = NULL;
	struct ftc_subbuf_layout l;
	struct ftc_meta_system sys;
	struct ftc_blob fmt;
	struct ftc_meta m;
	const int cpus[] = { 0 };
	char *f[FTC_PERF_EV_COUNT];
	struct sink s = { w, -1 };
	unsigned char *kp = NULL;
	size_t klen;
	int ret = -1;

	for (int i = 0; i < FTC_PERF_EV_COUNT; i++)
		f[i] = ftc_perf_ftrace_format((enum ftc_perf_fevent)i, BASE + i);
	meta_of(&m, &sys, &fmt, hp);
	ftc_subbuf_layout_long(&l, pager_csize, false);
	if (!w || ftc_writer_add_buffer_clock(w, NULL, "local", 1, cpus) < 0 ||
	    ftc_writer_set_meta(w, &m) < 0 ||
	    ftc_writer_add_system(w, FTC_PERF_FTRACE_SYSTEM, (const char *const *)f,
				  FTC_PERF_EV_COUNT) < 0 ||
	    (s.buf = ftc_writer_add_synthetic_buffer(w, "ftc_perf", 1, cpus, "local")) < 0 ||
	    ftc_writer_start(w) < 0)
		goto out;
	kp = kernel_pages(ftc_writer_page_size(w), strstr(hp, "size:4;") ? 4 : 8, &klen);
	pg = ftc_perf_pager_new_layout(ftc_writer_page_size(w), &l, BASE, to_writer, &s);
	if (!kp || !pg || ftc_writer_add_pages(w, 0, 0, kp, klen) < 0 || pack(pg) < 0 ||
	    ftc_perf_pager_flush(pg) < 0 || ftc_writer_finish(w) < 0)
		goto out;
	ret = 0;
out:
	if (ret < 0)
		printf("# write: %s\n", ftc_strerror());
	free(kp);
	ftc_perf_pager_free(pg);
	for (int i = 0; i < FTC_PERF_EV_COUNT; i++)
		free(f[i]);
	ftc_writer_free(w);
	return ret;
}

struct seen {
	int ticks, samples, counters;
};

static bool sample_intact(struct ftc_reader *r, struct tep_event *ev, struct tep_record *rec)
{
	unsigned long long ip = 0, tid = 0, period = 0;
	struct tep_format_field *f = tep_find_field(ev, "callchain");
	uint64_t c[3] = { 0 }, i, want;
	unsigned int loc = 0;

	tep_get_field_val(NULL, ev, "ip", rec, &ip, 0);
	tep_get_field_val(NULL, ev, "tid", rec, &tid, 0);
	tep_get_field_val(NULL, ev, "period", rec, &period, 0);
	if (f)
		memcpy(&loc, (char *)rec->data + f->offset, 4);
	if ((loc >> 16) == sizeof(c) && (loc & 0xffff) + sizeof(c) <= (unsigned int)rec->size)
		memcpy(c, (char *)rec->data + (loc & 0xffff), sizeof(c));
	i = ip - 0x10000;
	want = TS0 + 500 + i * 2000 + (i >= NSAMPLES / 2 ? GAP : 0);
	return i < NSAMPLES && tid == 43 && period == 250000 && c[0] == ip &&
	       c[1] == ip + 0x100000 && c[2] == ip + 0x200000 && rec->ts == want;
}

static void record_seen(struct ftc_reader *r, const struct ftc_merge_record *mr, struct seen *s)
{
	struct tep_event *ev = ftc_reader_event(r, mr->rec);
	unsigned long long v = ~0ULL;

	if (!ev)
		return;
	if (!strcmp(ev->name, "tick")) {
		tep_get_field_val(NULL, ev, "value", mr->rec, &v, 0);
		s->ticks += v == (unsigned long long)s->ticks && mr->rec->ts == TS0 + v * 1000;
	} else if (!strcmp(ev->name, "sample")) {
		s->samples += sample_intact(r, ev, mr->rec);
	} else if (!strcmp(ev->name, "counter")) {
		tep_get_field_val(NULL, ev, "value", mr->rec, &v, 0);
		s->counters += v == 5000000;
	}
}

static struct seen read_back(const char *path)
{
	struct ftc_reader *r = ftc_reader_open(path, FTC_READER_NO_PLUGINS);
	struct ftc_merge *m = r ? ftc_merge_open(r, NULL) : NULL;
	struct ftc_merge_record mr;
	struct seen s = { 0 };

	while (m && ftc_merge_next(m, &mr) == 1)
		record_seen(r, &mr, &s);
	ftc_merge_close(m);
	if (r)
		ftc_reader_close(r);
	return s;
}

int main(void)
{
	static const struct {
		const char *name, *hp;
		unsigned int csize;
		bool whole;
	} v[] = {
		{ "32-bit kernel (commit 4, data at 12)", hp32, 4, true },
		{ "64-bit kernel (commit 8, data at 16)", hp64, 8, true },
		{ "16-byte pages under a 32-bit header_page", hp32, 8, false },
	};
	char path[] = "/tmp/ftc-test-perf-layout-XXXXXX", what[160];
	struct ftc_subbuf_layout l = { 0 };
	int fd = mkstemp(path);

	CHECK("temp file", fd >= 0);
	if (fd < 0)
		return CHECK_DONE();
	close(fd);
	CHECK("the 32-bit header_page parses: commit 4 at 8, data at 12",
	      !ftc_subbuf_layout_parse(&l, hp32, strlen(hp32)) && l.commit_off == 8 &&
	      l.commit_size == 4 && l.data_off == 12);
	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		struct seen s;

		snprintf(what, sizeof(what), "%s: file written", v[k].name);
		CHECK(what, write_file(path, v[k].hp, v[k].csize) == 0);
		s = read_back(path);
		snprintf(what, sizeof(what), "%s: the kernel's events read back (%d)", v[k].name,
			 s.ticks);
		CHECK(what, s.ticks == NTICKS);
		if (v[k].whole) {
			snprintf(what, sizeof(what), "%s: samples intact, a 10 s gap included (%d)",
				 v[k].name, s.samples);
			CHECK(what, s.samples == NSAMPLES);
			snprintf(what, sizeof(what), "%s: the counter reading intact", v[k].name);
			CHECK(what, s.counters == 1);
		} else {
			snprintf(what, sizeof(what), "%s: misread, as before (%d samples intact)",
				 v[k].name, s.samples);
			CHECK(what, s.samples < NSAMPLES / 2);
		}
	}
	unlink(path);
	return CHECK_DONE();
}
