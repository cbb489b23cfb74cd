// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the sub-buffer header layout read from header_page, with
 * the text as a 32-bit kernel prints it (4-byte commit, data at 12) and as
 * 6.x x86_64 prints it (8-byte commit, data at 16): the layout parsed,
 * and lost-event counts and data lengths decoded from pages built in each
 * layout. The pages are chosen so that the other layout reads them
 * differently, so a hard-coded layout fails here. Then the reader's merge
 * walks a v6 file of 32-bit pages built by hand. Last, the per-CPU stats
 * counters and their differences.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "check.h"
#include "ftc.h"
#include "ftc-reader.h"
#include "ringbuf.h"
#include "writer.h"

#define PAGE		4096
#define MISSED_EVENTS	(1U << 31)
#define MISSED_STORED	(1U << 30)

static const char hdr32[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:12;\tsize:4080;\tsigned:1;\n";

static const char hdr64[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static void put(unsigned char *p, uint64_t v, unsigned int size, bool big_endian)
{
	for (unsigned int i = 0; i < size; i++)
		p[big_endian ? size - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/*
 * A sub-buffer as the kernel hands it out: stamp, commit (length and
 * flags), len bytes of data, then the lost count when stored and it fits.
 * The bytes after that are 0xee, so reading the count at the wrong place
 * shows.
 */
static void build_page(unsigned char *p, const struct ftc_subbuf_layout *l, uint64_t ts,
		       uint32_t len, uint32_t flags, uint64_t count)
{
	uint32_t room = PAGE - l->data_off;

	memset(p, 0xee, PAGE);
	put(p, ts, 8, l->big_endian);
	put(p + l->commit_off, len | flags, l->commit_size, l->big_endian);
	/* A length past the page is the page's claim only. */
	memset(p + l->data_off, 0x11, len < room ? len : room);
	if ((flags & MISSED_STORED) && len + l->commit_size <= room)
		put(p + l->data_off + len, count, l->commit_size, l->big_endian);
}

static void test_parse(void)
{
	struct ftc_subbuf_layout l = { 0 }, keep;
	static const char arr[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: char data[];\toffset:16;\tsize:4080;\tsigned:1;\n";

	CHECK("32-bit header_page parses", ftc_subbuf_layout_parse(&l, hdr32, strlen(hdr32)) == 0);
	CHECK("32-bit: commit at 8, 4 bytes, data at 12",
	      l.commit_off == 8 && l.commit_size == 4 && l.data_off == 12);
	CHECK("64-bit header_page parses", ftc_subbuf_layout_parse(&l, hdr64, strlen(hdr64)) == 0);
	CHECK("64-bit: commit at 8, 8 bytes, data at 16",
	      l.commit_off == 8 && l.commit_size == 8 && l.data_off == 16);
	CHECK("\"char data[]\" names data", ftc_subbuf_layout_parse(&l, arr, strlen(arr)) == 0 &&
	      l.data_off == 16);
	/* Without its NUL, cut before the data line: no layout. */
	keep = l;
	CHECK("no data field: refused", ftc_subbuf_layout_parse(&l, hdr32, 100) == -1);
	CHECK("garbage: refused", ftc_subbuf_layout_parse(&l, "field: x;", 9) == -1);
	CHECK("a refusal leaves the layout as it was", !memcmp(&l, &keep, sizeof(l)));
	ftc_subbuf_layout_long(&l, 4, false);
	CHECK("a 4-byte long's default: data at 12", l.commit_size == 4 && l.data_off == 12);
	ftc_subbuf_layout_long(&l, 8, false);
	CHECK("an 8-byte long's default: data at 16", l.commit_size == 8 && l.data_off == 16);
}

/* Decodes pages built in the layout header_page text describes. */
static void test_decode(const char *name, const char *text, bool big_endian)
{
	struct ftc_subbuf_layout l = { .big_endian = big_endian };
	unsigned char *p = malloc(PAGE);
	struct ftc_subbuf sb;
	uint32_t full;
	char label[160];
	int ok;

	ftc_subbuf_layout_parse(&l, text, strlen(text));
	full = PAGE - l.data_off;

	build_page(p, &l, 1000, 100, 0, 0);
	ok = ftc_subbuf_decode(&l, p, PAGE, &sb);
	snprintf(label, sizeof(label), "%s: plain page: 100 bytes, nothing lost", name);
	CHECK(label, ok && sb.ts == 1000 && sb.len == 100 && !sb.lost && !sb.missed);

	/* Data up to the last byte: fits in this layout only. */
	build_page(p, &l, 1000, full, 0, 0);
	ok = ftc_subbuf_decode(&l, p, PAGE, &sb);
	snprintf(label, sizeof(label), "%s: a full page (%u bytes) fits", name, full);
	CHECK(label, ok && sb.len == full);

	build_page(p, &l, 1000, full + 4, 0, 0);
	snprintf(label, sizeof(label), "%s: 4 bytes more than a page: refused", name);
	CHECK(label, !ftc_subbuf_decode(&l, p, PAGE, &sb) && sb.len == full + 4);

	build_page(p, &l, 1000, 100, MISSED_EVENTS | MISSED_STORED, 77);
	ok = ftc_subbuf_decode(&l, p, PAGE, &sb);
	snprintf(label, sizeof(label), "%s: 77 lost, stored after 100 bytes", name);
	CHECK(label, ok && sb.len == 100 && sb.lost && sb.lost_stored && sb.missed == 77);

	build_page(p, &l, 1000, 100, MISSED_EVENTS, 0);
	ok = ftc_subbuf_decode(&l, p, PAGE, &sb);
	snprintf(label, sizeof(label), "%s: lost, count not stored", name);
	CHECK(label, ok && sb.len == 100 && sb.lost && !sb.lost_stored && !sb.missed);

	/* The count in the page's last long. */
	build_page(p, &l, 1000, full - l.commit_size, MISSED_EVENTS | MISSED_STORED, 5);
	ok = ftc_subbuf_decode(&l, p, PAGE, &sb);
	snprintf(label, sizeof(label), "%s: count in the page's last %u bytes", name, l.commit_size);
	CHECK(label, ok && sb.len == full - l.commit_size && sb.missed == 5);

	/* A stored count that cannot fit: the page is damaged, the loss still shows. */
	build_page(p, &l, 1000, full, MISSED_EVENTS | MISSED_STORED, 0);
	ok = ftc_subbuf_decode(&l, p, PAGE, &sb);
	snprintf(label, sizeof(label), "%s: a count past the page: refused, lost still set", name);
	CHECK(label, !ok && sb.lost && !sb.missed);

	snprintf(label, sizeof(label), "%s: shorter than a header: refused", name);
	CHECK(label, !ftc_subbuf_decode(&l, p, l.data_off - 1, &sb));
	free(p);
}

/* The other layout reads these pages wrong: what a hard-coded one would do. */
static void test_not_interchangeable(void)
{
	struct ftc_subbuf_layout l32 = { 0 }, l64 = { 0 };
	unsigned char *p = malloc(PAGE);
	struct ftc_subbuf sb;

	ftc_subbuf_layout_parse(&l32, hdr32, strlen(hdr32));
	ftc_subbuf_layout_parse(&l64, hdr64, strlen(hdr64));
	build_page(p, &l32, 1, 100, MISSED_EVENTS | MISSED_STORED, 77);
	ftc_subbuf_decode(&l64, p, PAGE, &sb);
	CHECK("a 32-bit page read as 64-bit gets the lost count wrong", sb.missed != 77);
	build_page(p, &l32, 1, PAGE - 12, 0, 0);
	CHECK("a full 32-bit page read as 64-bit does not fit", !ftc_subbuf_decode(&l64, p, PAGE, &sb));
	build_page(p, &l64, 1, 100, MISSED_EVENTS | MISSED_STORED, 77);
	ftc_subbuf_decode(&l32, p, PAGE, &sb);
	CHECK("a 64-bit page read as 32-bit gets the lost count wrong", sb.missed != 77);
	free(p);
}

/* The writer's header_info payload: "header_page", u64 size, text, "header_event"... */
static void test_payload(void)
{
	struct ftc_subbuf_layout l;
	char buf[1024];
	uint64_t n = strlen(hdr32);
	size_t len = 0;

	memcpy(buf, "header_page", 12);
	len = 12;
	memcpy(buf + len, &n, 8);
	len += 8;
	memcpy(buf + len, hdr32, n);
	len += n;
	memcpy(buf + len, "header_event\0\0\0\0\0\0\0\0\0", 21);
	len += 21;
	ftc_subbuf_layout_long(&l, 8, false);
	ftc_wmeta_subbuf(&l, buf, len);
	CHECK("header_info payload of a 32-bit kernel: data at 12",
	      l.commit_size == 4 && l.data_off == 12);
	ftc_subbuf_layout_long(&l, 8, false);
	ftc_wmeta_subbuf(&l, buf, 12 + 8 + n - 1);
	CHECK("a payload cut short keeps the fallback", l.commit_size == 8 && l.data_off == 16);
	ftc_wmeta_subbuf(&l, "header_event", 13);
	CHECK("a payload without header_page keeps the fallback", l.data_off == 16);
}

static void add(unsigned char *b, size_t *n, const void *p, size_t len)
{
	memcpy(b + *n, p, len);
	*n += len;
}

static void add_u32(unsigned char *b, size_t *n, uint32_t v) { add(b, n, &v, 4); }
static void add_u64(unsigned char *b, size_t *n, uint64_t v) { add(b, n, &v, 8); }

/*
 * Events of a page: count of 8-byte payloads (type_len 2), then one of 12
 * (type_len 3) when big, each 1 ns after the last.
 */
static uint32_t fill_events(unsigned char *data, int count, bool big)
{
	uint32_t off = 0;

	for (int i = 0; i < count + big; i++) {
		uint32_t type_len = i == count ? 3 : 2, h = type_len | (1u << 5);

		memcpy(data + off, &h, 4);
		memset(data + off + 4, 0x22, 4 * type_len);
		off += 4 + 4 * type_len;
	}
	return off;
}

/*
 * A v6 file from a 32-bit kernel: long size 4, its header_page, and two
 * pages that only fit its layout: one filled to the last byte, and one
 * whose lost count sits in its last 4 bytes.
 */
static size_t build_v6_32(unsigned char *b)
{
	const struct ftc_subbuf_layout l = { 8, 4, 12, false };
	uint32_t page = PAGE, len;
	size_t n = 0, data;
	unsigned char *p;

	add(b, &n, "\x17\x08\x44tracing", 10);
	add(b, &n, "6", 2);
	add(b, &n, "\0\4", 2);		/* little endian, long size 4 */
	add(b, &n, &page, 4);
	add(b, &n, "header_page", 12);
	add_u64(b, &n, strlen(hdr32));
	add(b, &n, hdr32, strlen(hdr32));
	add(b, &n, "header_event", 13);
	add_u64(b, &n, 0);
	add_u32(b, &n, 0);		/* ftrace event formats */
	add_u32(b, &n, 0);		/* event systems */
	add_u32(b, &n, 0);		/* kallsyms */
	add_u32(b, &n, 0);		/* printk formats */
	add_u64(b, &n, 0);		/* cmdlines */
	add_u32(b, &n, 1);		/* CPUs */
	add(b, &n, "options  ", 10);
	add(b, &n, "\0", 2);		/* DONE */
	add(b, &n, "flyrecord", 10);
	data = (n + 16 + 8 + 7 + PAGE - 1) / PAGE * PAGE;
	add_u64(b, &n, data);
	add_u64(b, &n, 2 * PAGE);
	add_u64(b, &n, 7);
	add(b, &n, "[local]", 7);
	memset(b + n, 0, data - n);

	p = b + data;
	memset(p, 0, 2 * PAGE);
	len = fill_events(p + l.data_off, 339, true);		/* 4084 bytes */
	build_page(p, &l, 1000, len, 0, 0);
	fill_events(p + l.data_off, 339, true);
	p += PAGE;
	len = fill_events(p + l.data_off, 340, false);		/* 4080 bytes */
	build_page(p, &l, 5000, len, MISSED_EVENTS | MISSED_STORED, 0x1234);
	fill_events(p + l.data_off, 340, false);
	return data + 2 * PAGE;
}

static void test_merge_32(void)
{
	char path[] = "/tmp/ftc-test-ringbuf-XXXXXX";
	unsigned char *b = calloc(1, 4 * PAGE);
	int fd = mkstemp(path), recs = 0, page2 = 0;
	long long missed_first2 = 0, missed_other = 0;
	struct ftc_merge_record mr;
	struct ftc_reader *r;
	struct ftc_merge *m;
	size_t n;

	if (fd < 0 || !b) {
		SKIP("merge of 32-bit pages", "cannot create a temporary file");
		free(b);
		return;
	}
	n = build_v6_32(b);
	CHECK("32-bit v6 file written", write(fd, b, n) == (ssize_t)n);
	close(fd);
	r = ftc_reader_open(path, FTC_READER_NO_PLUGINS);
	CHECK("32-bit v6 file opens", r != NULL);
	m = r ? ftc_merge_open(r, NULL) : NULL;
	while (m && ftc_merge_next(m, &mr) == 1) {
		recs++;
		if (mr.rec->ts >= 5000 && !page2++)
			missed_first2 = mr.missed;
		else if (mr.missed)
			missed_other++;
	}
	CHECK("merge: every event of both 32-bit pages (340 + 340)", recs == 680);
	CHECK("merge: the second page's first event has 0x1234 lost before it",
	      missed_first2 == 0x1234);
	CHECK("merge: no other event has a loss", !missed_other);
	CHECK("merge: no page skipped as damaged", r && !ftc_reader_warnings(r));
	if (r && ftc_reader_warnings(r))
		printf("# %s\n", ftc_reader_warnings(r));
	ftc_merge_close(m);
	ftc_reader_close(r);
	unlink(path);
	free(b);
}

/* per_cpu/cpuN/stats as the kernel prints it. */
static const char stats_text[] =
	"entries: 12\n"
	"overrun: 3\n"
	"commit overrun: 99\n"
	"bytes: 560\n"
	"oldest event ts:  1234.567890\n"
	"now ts:  1240.000000\n"
	"dropped events: 2\n"
	"read events: 100\n";

/*
 * The capture's per-CPU figures are end minus start: a read that failed
 * or counters that went back (a reset) must give 0, not a wrap to 1.8e19.
 */
static void test_counters(void)
{
	struct ftc_cpu_counters start = { 0 }, now = { 0 }, failed = { 0 };
	uint64_t events = 1, lost = 1;

	ftc_cpu_counters_parse(&start, stats_text);
	CHECK("stats: read events, overrun, dropped events",
	      start.ok && start.read == 100 && start.overrun == 3 && start.dropped == 2);

	now = (struct ftc_cpu_counters){ .read = 150, .overrun = 10, .dropped = 4, .ok = true };
	ftc_cpu_counters_delta(&start, &now, &events, &lost);
	CHECK("counters grew: 50 events, 7 + 2 lost", events == 50 && lost == 9);

	ftc_cpu_counters_delta(&start, &failed, &events, &lost);
	CHECK("end stats unreadable: 0, not a wrap", events == 0 && lost == 0);
	ftc_cpu_counters_delta(&failed, &now, &events, &lost);
	CHECK("start stats unreadable: 0, not the whole count", events == 0 && lost == 0);

	now = (struct ftc_cpu_counters){ .read = 5, .overrun = 0, .dropped = 0, .ok = true };
	ftc_cpu_counters_delta(&start, &now, &events, &lost);
	CHECK("counters went back (reset): 0, not a wrap", events == 0 && lost == 0);

	now = (struct ftc_cpu_counters){ .read = 120, .overrun = 1, .dropped = 6, .ok = true };
	ftc_cpu_counters_delta(&start, &now, &events, &lost);
	CHECK("overrun went back, drops grew: only the drops", events == 20 && lost == 4);
}

int main(void)
{
	test_parse();
	test_decode("32-bit", hdr32, false);
	test_decode("64-bit", hdr64, false);
	test_decode("32-bit big-endian", hdr32, true);
	test_decode("64-bit big-endian", hdr64, true);
	test_not_interchangeable();
	test_payload();
	test_merge_32();
	test_counters();
	return CHECK_DONE();
}
