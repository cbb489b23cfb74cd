// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the options structures' size (opts.c): a size never set,
 * too small or absurd is refused with a message naming the structure and
 * the size; an older caller's smaller struct is read as far as it goes,
 * the rest defaulting to 0; a newer caller's larger struct is taken while
 * the members this libftc does not know are 0, and refused otherwise.
 * Every public entry point that takes options checks them first.
 * The sized value types the library fills (ftc_sized_fill) go the other
 * way: an older caller gets the members it knows, a newer one zeros past
 * ours, and a size never set is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "opts.h"

/* The reader's options as a newer header might declare them: one more member. */
struct newer_reader_opts {
	struct ftc_reader_opts o;
	unsigned long long future;
};

static bool says(const char *what)
{
	return strstr(ftc_strerror(), what) != NULL;
}

static void test_copy(void)
{
	struct ftc_reader_opts in = FTC_OPTS_INIT(ftc_reader_opts, .flags = 5,
						  .plugin_dir = "/plugins");
	struct newer_reader_opts big = { .o = in };
	struct ftc_reader_opts out;
	char want[160];

	CHECK("FTC_OPTS_INIT sets the size", in.size == sizeof(in) && in.flags == 5);
	CHECK("NULL is every default", FTC_OPTS_COPY(&out, NULL, ftc_reader_opts, guard_ctx) == 0 &&
	      out.flags == 0 && !out.plugin_dir && out.size == sizeof(out));
	CHECK("this libftc's own size is copied whole",
	      FTC_OPTS_COPY(&out, &in, ftc_reader_opts, guard_ctx) == 0 && out.flags == 5 &&
	      out.plugin_dir && !strcmp(out.plugin_dir, "/plugins"));

	in.size = 0;
	CHECK("size 0 is refused", FTC_OPTS_COPY(&out, &in, ftc_reader_opts, guard_ctx) < 0 &&
	      errno == EINVAL);
	CHECK("size 0: the message names the struct and the size",
	      says("struct ftc_reader_opts: size 0 is too small"));
	in.size = 4;
	CHECK("a size smaller than the size member is refused",
	      FTC_OPTS_COPY(&out, &in, ftc_reader_opts, guard_ctx) < 0 && errno == EINVAL &&
	      says("struct ftc_reader_opts: size 4 is too small"));
	in.size = 1 << 20;
	CHECK("an absurd size is refused",
	      FTC_OPTS_COPY(&out, &in, ftc_reader_opts, guard_ctx) < 0 && errno == EINVAL &&
	      says("struct ftc_reader_opts: size 1048576 is not the size"));

	/* An older caller knew flags only: plugin_dir lies past its size. */
	in.size = ftc_offsetofend(struct ftc_reader_opts, flags);
	CHECK("an older, smaller struct is read as far as it goes",
	      FTC_OPTS_COPY(&out, &in, ftc_reader_opts, guard_ctx) == 0 && out.flags == 5 &&
	      !out.plugin_dir && out.size == sizeof(out));

	big.o.size = sizeof(big);
	CHECK("a newer, larger struct whose new members are 0 is taken",
	      FTC_OPTS_COPY(&out, &big, ftc_reader_opts, guard_ctx) == 0 && out.flags == 5 &&
	      out.plugin_dir && out.size == sizeof(out));
	big.future = 1;
	CHECK("a newer member set is refused",
	      FTC_OPTS_COPY(&out, &big, ftc_reader_opts, guard_ctx) < 0 && errno == EINVAL);
	snprintf(want, sizeof(want), "struct ftc_reader_opts: size %zu is larger than the %zu bytes",
		 sizeof(big), sizeof(struct ftc_reader_opts));
	CHECK("a newer member: the message names the struct and both sizes", says(want));
}

/*
 * A struct with tail padding (kwork's ends with a bool): an initializer
 * need not zero the padding, and one did not (ftc kwork live refused its
 * own options). Our own size is taken whatever the padding holds.
 */
static void test_padding(void)
{
	struct ftc_kwork_opts in, out;
	struct {
		struct ftc_kwork_opts o;
		unsigned long long future;
	} big;

	memset(&in, 0xa5, sizeof(in));
	in.size = sizeof(in);
	in.instance = NULL;
	in.per_cpu = true;
	CHECK("the kwork options have tail padding (this test's premise)",
	      ftc_offsetofend(struct ftc_kwork_opts, per_cpu) < sizeof(in));
	CHECK("padding that is not 0, in our own size, is taken",
	      FTC_OPTS_COPY(&out, &in, ftc_kwork_opts, per_cpu) == 0 && out.per_cpu);
	memset(&big, 0, sizeof(big));
	big.o = in;
	big.o.size = sizeof(big);
	CHECK("... and so in a newer, larger struct whose new members are 0",
	      FTC_OPTS_COPY(&out, &big, ftc_kwork_opts, per_cpu) == 0);
	big.future = 1;
	CHECK("... whose new member set past our size is refused",
	      FTC_OPTS_COPY(&out, &big, ftc_kwork_opts, per_cpu) < 0 && errno == EINVAL);
}

/* The live reader's figures as a newer header might declare them. */
struct newer_live_cpu_stats {
	struct ftc_live_cpu_stats s;
	unsigned long long future;
};

static void test_fill(void)
{
	struct ftc_live_cpu_stats full = { .size = sizeof(full), .cpu = 3, .events = 7,
					   .late = 9 };
	struct ftc_live_cpu_stats out = FTC_OPTS_INIT(ftc_live_cpu_stats);
	struct newer_live_cpu_stats big;

	CHECK("this libftc's own size is filled whole",
	      FTC_SIZED_FILL(&out, &full, ftc_live_cpu_stats) == 0 && out.size == sizeof(out) &&
	      out.cpu == 3 && out.events == 7 && out.late == 9);

	memset(&out, 0xff, sizeof(out));
	out.size = ftc_offsetofend(struct ftc_live_cpu_stats, events);
	CHECK("an older, smaller struct gets the members it knows, nothing past them",
	      FTC_SIZED_FILL(&out, &full, ftc_live_cpu_stats) == 0 && out.cpu == 3 &&
	      out.events == 7 && out.late == ~0ULL &&
	      out.size == ftc_offsetofend(struct ftc_live_cpu_stats, events));

	memset(&big, 0xff, sizeof(big));
	big.s.size = sizeof(big);
	CHECK("a newer, larger struct reads 0 past this libftc's members",
	      FTC_SIZED_FILL(&big, &full, ftc_live_cpu_stats) == 0 && big.s.late == 9 &&
	      big.future == 0 && big.s.size == sizeof(big));

	out.size = 0;
	CHECK("size 0 is refused, naming the struct",
	      FTC_SIZED_FILL(&out, &full, ftc_live_cpu_stats) < 0 && errno == EINVAL &&
	      says("struct ftc_live_cpu_stats: size 0 is not the size"));
	out.size = 1 << 20;
	CHECK("an absurd size is refused", FTC_SIZED_FILL(&out, &full, ftc_live_cpu_stats) < 0 &&
	      errno == EINVAL);
}

/* The smallest valid v7 trace.dat: one empty options section. */
static size_t minimal_v7(unsigned char *b)
{
	uint32_t page = 4096;
	uint64_t v;
	size_t n;

	memcpy(b, "\x17\x08\x44tracing", 10);
	memcpy(b + 10, "7", 2);
	b[12] = 0;		/* little endian */
	b[13] = 8;		/* long size */
	memcpy(b + 14, &page, 4);
	memcpy(b + 18, "none\0\0", 6);
	n = 24;
	v = n + 8;		/* the first section's offset */
	memcpy(b + n, &v, 8);
	n += 8;
	memset(b + n, 0, 16);	/* options section header, id 0, 14 bytes */
	v = 14;
	memcpy(b + n + 8, &v, 8);
	n += 16;
	memset(b + n, 0, 14);	/* DONE: u16 0, u32 8, u64 0 */
	b[n + 2] = 8;
	return n + 14;
}

static void test_reader(void)
{
	unsigned char b[128];
	size_t n = minimal_v7(b);
	struct ftc_reader_opts o = FTC_OPTS_INIT(ftc_reader_opts, .flags = FTC_READER_METADATA);
	struct newer_reader_opts big = { .o = o };
	struct ftc_reader *r;

	r = ftc_reader_open_mem_opts(b, n, "minimal", &o);
	CHECK("the reader opens with FTC_OPTS_INIT options", r != NULL);
	ftc_reader_close(r);
	r = ftc_reader_open_mem_opts(b, n, "minimal", NULL);
	CHECK("the reader opens with NULL options", r != NULL);
	ftc_reader_close(r);
	o.size = 0;
	r = ftc_reader_open_mem_opts(b, n, "minimal", &o);
	CHECK("the reader refuses options whose size was not set", !r && errno == EINVAL &&
	      says("struct ftc_reader_opts: size 0"));
	r = ftc_reader_open_opts("/nonexistent/trace.dat", &o);
	CHECK("from a file too, before the file is looked at", !r && errno == EINVAL &&
	      says("struct ftc_reader_opts: size 0"));
	o.size = ftc_offsetofend(struct ftc_reader_opts, flags);
	r = ftc_reader_open_mem_opts(b, n, "minimal", &o);
	CHECK("the reader takes an older caller's smaller options", r != NULL);
	ftc_reader_close(r);
	big.o.size = sizeof(big);
	big.future = 7;
	r = ftc_reader_open_mem_opts(b, n, "minimal", &big.o);
	CHECK("the reader refuses a member it does not know", !r && errno == EINVAL &&
	      says("struct ftc_reader_opts: size"));
}

static void test_perf(void)
{
	struct ftc_perf_sample_opts so = FTC_OPTS_INIT(ftc_perf_sample_opts);
	struct ftc_capture_perf_opts co = FTC_OPTS_INIT(ftc_capture_perf_opts, .count = "cs");
	char path[] = "/tmp/ftc-test-opts-XXXXXX";
	const int cpus[] = { 0 };
	pid_t self = getpid();
	struct ftc_writer *w;
	int fd;

	CHECK("FTC_OPTS_INIT with no member", so.size == sizeof(so) && !so.freq && !so.pages);
	so.size = 3;
	CHECK("the sampler refuses a size of 3",
	      !ftc_perf_sampler_open(NULL, &so, &self, 1, NULL, 0) && errno == EINVAL &&
	      says("struct ftc_perf_sample_opts: size 3 is too small"));

	fd = mkstemp(path);
	if (fd < 0) {
		SKIP("capture-perf options", "no temporary file");
		return;
	}
	close(fd);
	w = ftc_writer_create(path, 7, FTC_COMPRESS_NONE);
	co.size = 0;
	CHECK("capture-perf refuses options whose size was not set",
	      w && !ftc_capture_perf_new(w, &co, "mono", 1, cpus) && errno == EINVAL &&
	      says("struct ftc_capture_perf_opts: size 0 is too small"));
	ftc_writer_free(w);
	unlink(path);
}

int main(void)
{
	test_copy();
	test_padding();
	test_fill();
	test_reader();
	test_perf();
	return CHECK_DONE();
}
