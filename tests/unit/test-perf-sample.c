// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the sampling side: the ring reader (records that wrap),
 * sample parsing, the profile's process tracking, symbolization of this
 * very program and of the kernel, tallies and flame graphs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"	/* the ring's layout, to fake one in plain memory */

__attribute__((noinline)) int unit_marker_function(int x)
{
	return x * 3 + 1;
}

/* A fake ring in plain memory: records written as the kernel writes them. */
static void ring_put(struct ftc_perf_ring *r, const void *rec, size_t len)
{
	uint64_t head = r->meta->data_head;

	for (size_t i = 0; i < len; i++)
		r->data[(head + i) & (r->data_size - 1)] = ((const unsigned char *)rec)[i];
	r->meta->data_head = head + len;
}

static int count_records(const struct perf_event_header *h, void *ctx)
{
	uint64_t *seen = ctx;

	seen[0]++;
	seen[1] += h->size;
	seen[2] = ((const uint64_t *)(const void *)(h + 1))[0];
	return 0;
}

static void test_ring_wrap(void)
{
	struct ftc_perf_ring r = { 0 };
	struct perf_event_mmap_page meta = { 0 };
	unsigned char data[256];
	struct { struct perf_event_header h; uint64_t v[7]; } rec = {
		{ PERF_RECORD_SAMPLE, 0, sizeof(rec) }, { 0 } };
	uint64_t seen[3] = { 0 };
	int n;

	r.meta = &meta;
	r.data = data;
	r.data_size = sizeof(data);
	for (int i = 0; i < 4; i++) {	/* 4 x 64 bytes fill the ring */
		rec.v[0] = 100 + i;
		ring_put(&r, &rec, sizeof(rec));
	}
	n = ftc_perf_ring_drain(&r, count_records, seen);
	CHECK("drain reads every record", n == 4 && seen[0] == 4 && seen[1] == 256);
	CHECK("tail follows head", meta.data_tail == meta.data_head);
	/* Move head off alignment with the end: the next record wraps. */
	struct { struct perf_event_header h; uint64_t v[3]; } small = {
		{ PERF_RECORD_COMM, 0, sizeof(small) }, { 7, 0, 0 } };
	ring_put(&r, &small, sizeof(small));
	CHECK("a lone small record", ftc_perf_ring_drain(&r, count_records, seen) == 1);
	/* Four 64-byte records from offset 32: the fourth spans 224..288. */
	rec.v[0] = 1;
	for (int i = 0; i < 3; i++)
		ring_put(&r, &rec, sizeof(rec));
	rec.v[0] = 4242;
	ring_put(&r, &rec, sizeof(rec));
	memset(seen, 0, sizeof(seen));
	n = ftc_perf_ring_drain(&r, count_records, seen);
	CHECK("wrapped record read whole", n == 4 && seen[2] == 4242 && r.bounce != NULL);
	free(r.bounce);
}

/* The ring as a program gets it: made by ftc_perf_ring_map, freed by unmap. */
static void test_ring_map(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_DUMMY, .comm = 1 };
	struct ftc_perf_ring *r;
	uint64_t seen[3] = { 0 };
	int fd;

	CHECK("a ring of 3 pages is refused", !ftc_perf_ring_map(-1, 3) && errno == EINVAL &&
	      strstr(ftc_strerror(), "power of two"));
	CHECK("a ring of a bad fd is refused", !ftc_perf_ring_map(-1, 1));
	ftc_perf_ring_unmap(NULL);
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		SKIP("a mapped ring drains", "perf_event_open refused a dummy event");
		return;
	}
	r = ftc_perf_ring_map(fd, 1);
	CHECK("a mapped ring drains", r && ftc_perf_ring_drain(r, count_records, seen) >= 0);
	ftc_perf_ring_unmap(r);
	close(fd);
}

static void test_parse(void)
{
	struct { struct perf_event_header h; uint64_t v[9]; } rec = {
		{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(rec) },
		{ 0x401000, (7ULL << 32) | 5, 123456789, 1, 1000, 3,
		  (uint64_t)PERF_CONTEXT_USER, 0x401000, 0x402000 } };
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	struct ftc_perf_sample s;

	CHECK("sample parses", !ftc_perf_sample_parse(&rec.h, type, &s));
	CHECK("sample fields", s.ip == 0x401000 && s.pid == 5 && s.tid == 7 &&
	      s.time == 123456789 && s.cpu == 1 && s.period == 1000);
	CHECK("sample callchain", s.nr == 3 && s.ips[2] == 0x402000);
	rec.h.size = sizeof(rec.h) + 6 * 8;
	CHECK("short callchain refused", ftc_perf_sample_parse(&rec.h, type, &s) < 0 &&
	      errno == EPROTO);
	CHECK("unknown fields refused",
	      ftc_perf_sample_parse(&rec.h, type | PERF_SAMPLE_RAW, &s) < 0);
}

/* This program's own mapping of unit_marker_function, from /proc/self/maps. */
static int self_map(uint64_t *start, uint64_t *len, uint64_t *pgoff, char *path, size_t size)
{
	uint64_t addr = (uint64_t)(uintptr_t)unit_marker_function;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		int at = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &a, &b, &off, &at) < 3 || !at)
			continue;
		if (addr < a || addr >= b)
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(path, size, "%s", line + at);
		*start = a;
		*len = b - a;
		*pgoff = off;
		found = 1;
	}
	if (f)
		fclose(f);
	return found;
}

static void feed(struct ftc_perf_profile *p, void *rec)
{
	ftc_perf_profile_add(rec, p);
}

/* The profile of test_profile, aggregated: one sample, one folded stack. */
static void test_agg(struct ftc_perf_profile *p, struct ftc_symbols *syms)
{
	struct ftc_perf_agg *a = ftc_perf_agg_new();
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	CHECK("aggregated", a && !ftc_perf_agg_build(a, p, syms) && ftc_perf_agg_samples(a) == 1);
	f = open_memstream(&text, &size);
	if (a && f)
		ftc_perf_agg_folded(f, a);
	if (f)
		fclose(f);
	CHECK_STR("its folded stack", text, "unitprog;[unknown];unit_marker_function 1\n");
	free(text);
	ftc_perf_agg_free(a);
	ftc_perf_agg_free(NULL);
}

static void test_profile(void)
{
	struct ftc_perf_profile *p = ftc_perf_profile_new(PERF_SAMPLE_IP | PERF_SAMPLE_TID |
							  PERF_SAMPLE_CALLCHAIN);
	struct ftc_symbols *syms = ftc_symbols_new();
	struct ftc_perf_frame fr[8];
	uint64_t start, len, pgoff, ip = (uint64_t)(uintptr_t)unit_marker_function + 2;
	char path[1024];
	unsigned char buf[2048];
	struct perf_event_header *h = (void *)buf;
	int n;

	if (!self_map(&start, &len, &pgoff, path, sizeof(path))) {
		SKIP("profile symbolization", "cannot find this program in /proc/self/maps");
		ftc_perf_profile_free(p);
		ftc_symbols_free(syms);
		return;
	}
	memset(buf, 0, sizeof(buf));
	/* COMM of pid 10, its code mapping, a fork to pid 11, a sample in 11. */
	*h = (struct perf_event_header){ PERF_RECORD_COMM, 0, 32 };
	((uint32_t *)(h + 1))[0] = 10;
	((uint32_t *)(h + 1))[1] = 10;
	strcpy((char *)(h + 1) + 8, "unitprog");
	feed(p, h);
	memset(buf, 0, sizeof(buf));
	*h = (struct perf_event_header){ PERF_RECORD_MMAP2, 0,
					 (uint16_t)(8 + 72 + strlen(path) + 8) };
	{
		uint32_t *u = (uint32_t *)(h + 1);
		uint64_t *q = (uint64_t *)(u + 2);

		u[0] = u[1] = 10;
		q[0] = start;
		q[1] = len;
		q[2] = pgoff;
		((uint32_t *)(q + 6))[0] = PROT_READ | PROT_EXEC;
		strcpy((char *)(q + 7), path);
	}
	feed(p, h);
	memset(buf, 0, sizeof(buf));
	*h = (struct perf_event_header){ PERF_RECORD_FORK, 0, 32 };
	((uint32_t *)(h + 1))[0] = 11;
	((uint32_t *)(h + 1))[1] = 10;
	feed(p, h);
	memset(buf, 0, sizeof(buf));
	*h = (struct perf_event_header){ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 8 * 5 };
	((uint64_t *)(h + 1))[0] = ip;
	((uint64_t *)(h + 1))[1] = 11 | (11ULL << 32);
	((uint64_t *)(h + 1))[2] = 2;
	((uint64_t *)(h + 1))[3] = ip;
	((uint64_t *)(h + 1))[4] = 0x10;	/* nowhere mapped */
	feed(p, h);
	*h = (struct perf_event_header){ PERF_RECORD_LOST, 0, 8 + 16 };
	((uint64_t *)(h + 1))[1] = 5;
	feed(p, h);
	CHECK("one sample kept", ftc_perf_profile_nsamples(p) == 1);
	CHECK("lost samples counted", ftc_perf_profile_lost(p) == 5);
	CHECK_STR("fork copies the name", ftc_perf_profile_comm(p, 11), "unitprog");
	n = ftc_perf_profile_frames(p, syms, 0, fr, 8);
	CHECK("two frames", n == 2);
	CHECK_STR("leaf resolves to the function", fr[0].sym, "unit_marker_function");
	CHECK("leaf is user code", !fr[0].kernel);
	CHECK_STR("unmapped frame is unknown", fr[1].sym, "[unknown]");
	test_agg(p, syms);
	ftc_perf_profile_free(p);
	ftc_perf_profile_free(NULL);
	ftc_symbols_free(syms);
}

static volatile uint64_t burn_sink;

/* A sampler on this very process: handles in, samples out. */
static void test_sampler(void)
{
	struct ftc_perf_sample_opts o = FTC_OPTS_INIT(ftc_perf_sample_opts, .freq = 1000,
						      .pages = 8);
	pid_t self = getpid();
	struct ftc_perf_sampler *s;
	struct ftc_perf_profile *p;

	s = ftc_perf_sampler_open("cyclez", &o, &self, 1, NULL, 0);
	CHECK("an unknown event opens no sampler", !s && errno == EINVAL);
	s = ftc_perf_sampler_open(NULL, &o, &self, 1, NULL, 0);
	if (!s) {
		SKIP("sampler", ftc_strerror());
		return;
	}
	CHECK_STR("NULL samples cpu-clock", ftc_perf_sampler_event(s), "cpu-clock");
	CHECK_STR("no fallback, no note", ftc_perf_sampler_note(s), "");
	CHECK("enabled", ftc_perf_sampler_enable(s, true) == 0);
	for (uint64_t i = 0; i < 100000000; i++)
		burn_sink += i;
	CHECK("disabled", ftc_perf_sampler_enable(s, false) == 0);
	CHECK("poll drains, with no extra fd", ftc_perf_sampler_poll(s, -1, 0) == 0);
	p = ftc_perf_sampler_profile(s);
	CHECK("the samples are in the sampler's profile", p && ftc_perf_profile_nsamples(p) > 0);
	ftc_perf_sampler_close(s);
	ftc_perf_sampler_close(NULL);
}

static void test_kallsyms(void)
{
	struct ftc_symbols *syms = ftc_symbols_new();
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256] = "";
	unsigned long long addr = 0;
	uint64_t off = 1;
	const char *got;

	while (f && fgets(line, sizeof(line), f)) {
		char type;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 && addr &&
		    !strcmp(name, "schedule"))
			break;
		name[0] = '\0';
	}
	if (f)
		fclose(f);
	if (!name[0] || ftc_symbols_load_kallsyms(syms, NULL) <= 0) {
		SKIP("kallsyms", "no readable /proc/kallsyms addresses (not root?)");
		ftc_symbols_free(syms);
		return;
	}
	got = ftc_symbols_kernel(syms, addr + 4, &off);
	CHECK_STR("kernel address inside schedule", got, "schedule");
	CHECK("offset into the symbol", off == 4);
	ftc_symbols_free(syms);
}

/* A module's symbols: "[MODULE]" as the DSO, as perf shows it. */
static void test_kallsyms_modules(void)
{
	char path[] = "/tmp/ftc-unit-kallsyms.XXXXXX";
	struct ftc_symbols *syms = ftc_symbols_new();
	int fd = mkstemp(path);
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81001000 T schedule\n"
		"ffffffffc0440000 t ftclab_write\t[ftclab]\n"
		"ffffffffc0440100 T ftclab_run\t[ftclab]\n"
		"ffffffffc0443000 d __tracepoint_ftclab_step\t[ftclab]\n"
		"ffffffffc0450000 t loop_probe\t[loop]\n";

	if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)sizeof(text) - 1) {
		CHECK("write a kallsyms file", false);
		return;
	}
	close(fd);
	CHECK("load a kallsyms with modules", ftc_symbols_load_kallsyms(syms, path) == 5);
	CHECK_STR("module function", ftc_symbols_kernel(syms, 0xffffffffc0440108ULL, NULL),
		  "ftclab_run");
	CHECK_STR("module DSO", ftc_symbols_kernel_dso(syms, 0xffffffffc0440108ULL), "[ftclab]");
	CHECK_STR("another module", ftc_symbols_kernel_dso(syms, 0xffffffffc0450004ULL), "[loop]");
	CHECK_STR("the kernel image", ftc_symbols_kernel_dso(syms, 0xffffffff81001004ULL),
		  "[kernel.kallsyms]");
	CHECK("one interned name per module",
	      ftc_symbols_kernel_dso(syms, 0xffffffffc0440000ULL) ==
	      ftc_symbols_kernel_dso(syms, 0xffffffffc0440100ULL));
	unlink(path);
	ftc_symbols_free(syms);
}

static void test_tally_flame(void)
{
	struct ftc_perf_tally *t = ftc_perf_tally_new();
	struct ftc_perf_tally_entry **v;
	char *svg = NULL;
	size_t n = 0, size = 0;
	FILE *f;

	ftc_perf_tally_add(t, "p;main;hot", 30, 0);
	ftc_perf_tally_add(t, "p;main;cold", 10, 0);
	ftc_perf_tally_add(t, "p;main;hot", 50, 0);
	ftc_perf_tally_add(t, "p;start;sys_read_[k]", 20, 0);
	for (int i = 0; i < 3000; i++) {	/* force the table to grow */
		char key[32];

		snprintf(key, sizeof(key), "k%d", i);
		ftc_perf_tally_add(t, key, 0, 0);
	}
	v = ftc_perf_tally_sorted(t, FTC_PERF_BY_SELF, &n);
	CHECK("tally merges equal keys", n == 3003 && v && v[0]->self == 80 &&
	      !strcmp(v[0]->key, "p;main;hot"));
	free(v);
	f = open_memstream(&svg, &size);
	CHECK("flame graph written", f && !ftc_perf_flame_svg(f, t, "unit <test>"));
	if (f)
		fclose(f);
	CHECK("title escaped", svg && strstr(svg, "unit &lt;test&gt;"));
	/* the root is at the bottom: 3 frames above it, 16 px each */
	CHECK("root spans the width", svg && strstr(svg, "<title>all (110 samples, 100.00%)</title>"
						   "<rect x=\"0.00\" y=\"84\" width=\"1200.00\""));
	/* main holds 90 of 110 samples: 981.82 px of 1200 */
	CHECK("box width by samples", svg &&
	      strstr(svg, "<title>main (90 samples, 81.82%)</title>") &&
	      strstr(svg, "width=\"981.82\""));
	CHECK("kernel frame in another hue", svg && strstr(svg, "sys_read_[k] (20 samples"));
	free(svg);
	ftc_perf_tally_free(t);
}

int main(void)
{
	test_ring_wrap();
	test_ring_map();
	test_parse();
	test_profile();
	test_sampler();
	test_kallsyms();
	test_kallsyms_modules();
	test_tally_flame();
	return CHECK_DONE();
}
