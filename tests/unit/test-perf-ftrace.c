// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Perf records packed as ftrace events come back whole through
 * libtraceevent (the reader trace-cmd and KernelShark use): the formats
 * parse, kbuffer walks the pages (small and long events, time extends,
 * page changes) and every field reads back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <event-parse.h>
#include <kbuffer.h>

#include "check.h"
#include "ftc.h"
#include "ftc-perf.h"

#define BASE_ID 60000
#define PAGE 4096

struct pages {
	unsigned char *data;
	size_t n;
};

static int keep_page(const void *page, size_t size, void *ctx)
{
	struct pages *p = ctx;

	p->data = realloc(p->data, (p->n + 1) * size);
	if (!p->data)
		return -1;
	memcpy(p->data + p->n * size, page, size);
	p->n++;
	return 0;
}

static unsigned long long field(struct tep_event *ev, struct tep_record *r, const char *name)
{
	unsigned long long v = ~0ULL;

	tep_get_field_val(NULL, ev, name, r, &v, 0);
	return v;
}

static unsigned long long common_pid(struct tep_event *ev, struct tep_record *r)
{
	unsigned long long v = ~0ULL;

	tep_get_common_field_val(NULL, ev, "common_pid", r, &v, 0);
	return v;
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();
	struct ftc_perf_pager *pg;
	struct pages pages = { 0 };
	uint64_t chain[40];
	struct ftc_perf_sample s = { .ip = 0x401234, .pid = 42, .tid = 43, .cpu = 1,
				     .period = 250000, .nr = 3, .ips = chain };
	struct ftc_perf_map m = { 0x400000, 0x2000, 0x1000, "/usr/bin/hot" };
	struct ftc_perf_count c = { 1000, 2000, 1500 };
	uint64_t t = 1000000000ULL;
	int bad = 0, n_samples = 0, n_other = 0, ts_ok = 1;
	struct kbuffer *kb;

	for (int i = 0; i < 40; i++)
		chain[i] = 0x401000 + (uint64_t)i;
	for (int e = 0; e < FTC_PERF_EV_COUNT; e++) {
		char *fmt = ftc_perf_ftrace_format(e, BASE_ID + e);

		if (!fmt || tep_parse_event(tep, fmt, strlen(fmt), FTC_PERF_FTRACE_SYSTEM))
			bad++;
		free(fmt);
	}
	CHECK("libtraceevent parses every format", bad == 0);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, PAGE);
	CHECK("a page smaller than a header is refused",
	      !ftc_perf_pager_new(16, BASE_ID, keep_page, &pages) && errno == EINVAL);
	pg = ftc_perf_pager_new(PAGE, BASE_ID, keep_page, &pages);
	CHECK("pager made", pg != NULL);
	if (!pg)
		return CHECK_DONE();
	ftc_perf_pager_add_comm(pg, t, 42, 42, "hot");
	ftc_perf_pager_add_mmap(pg, t + 10, 42, &m);
	/* 200 samples, 40 frames each at times: forces several pages; one gap of
	 * 10 s needs a time extend (deltas are 27 bits, ~134 ms). */
	for (int i = 0; i < 200; i++) {
		s.time = t + 1000 + (uint64_t)i * 250000 + (i >= 100 ? 10000000000ULL : 0);
		s.nr = i % 2 ? 40 : 3;
		ftc_perf_pager_add_sample(pg, &s);
	}
	ftc_perf_pager_add_lost(pg, s.time + 1, 7);
	ftc_perf_pager_add_counter(pg, s.time + 2, "page-faults", &c);
	CHECK("final flush", !ftc_perf_pager_flush(pg));
	CHECK("several pages", pages.n >= 3 && ftc_perf_pager_pages(pg) == pages.n);
	CHECK("every event packed", ftc_perf_pager_events(pg) == 204);

	kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	for (size_t pgi = 0; kb && pgi < pages.n; pgi++) {
		unsigned long long ts;
		void *data;

		kbuffer_load_subbuffer(kb, pages.data + pgi * PAGE);
		for (data = kbuffer_read_event(kb, &ts); data; data = kbuffer_next_event(kb, &ts)) {
			struct tep_record r = { .ts = ts, .data = data,
						.size = kbuffer_event_size(kb) };
			int type = tep_data_type(tep, &r);
			struct tep_event *ev = tep_find_event(tep, type);

			if (!ev) {
				bad++;
				continue;
			}
			if (type == BASE_ID + FTC_PERF_EV_SAMPLE) {
				int i = n_samples++, len;
				uint64_t want = t + 1000 + (uint64_t)i * 250000 +
					(i >= 100 ? 10000000000ULL : 0);
				/* Event payloads are 4-byte aligned: copy, do not cast. */
				const unsigned char *cc = tep_get_field_raw(NULL, ev, "callchain",
									    &r, &len, 0);
				uint64_t last = 0;

				if (cc && len >= 8)
					memcpy(&last, cc + len - 8, 8);
				if (ts != want)
					ts_ok = 0;
				if (field(ev, &r, "ip") != 0x401234 || field(ev, &r, "tid") != 43 ||
				    field(ev, &r, "period") != 250000 ||
				    common_pid(ev, &r) != 42 ||
				    !cc || len != (i % 2 ? 40 : 3) * 8 ||
				    last != 0x401000 + (uint64_t)(len / 8 - 1))
					bad++;
			} else {
				n_other++;
			}
		}
	}
	CHECK("every sample read back", n_samples == 200);
	CHECK("comm, mmap, lost and counter read back", n_other == 4);
	CHECK("fields and callchains intact", bad == 0);
	CHECK("timestamps exact, across pages and a 10 s gap", ts_ok);
	{
		struct perf_event_attr a = { 0 };
		int base = ftc_perf_ftrace_base_id();

		CHECK("local is perf's own clock", !ftc_perf_clock_for_trace("local", &a) &&
		      !a.use_clockid);
		CHECK("mono maps to CLOCK_MONOTONIC", !ftc_perf_clock_for_trace("mono", &a) &&
		      a.use_clockid && a.clockid == CLOCK_MONOTONIC);
		CHECK("global has no perf clock", ftc_perf_clock_for_trace("global", &a) < 0);
		if (base < 0)
			SKIP("base id above kernel ids", "no tracefs");
		else
			CHECK("base id above kernel ids", base > 1 &&
			      tep_find_event_by_name(tep, "ftc_perf", "sample") != NULL);
	}
	kbuffer_free(kb);
	free(pages.data);
	ftc_perf_pager_free(pg);
	ftc_perf_pager_free(NULL);
	tep_free(tep);
	return CHECK_DONE();
}
