// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timerlat and osnoise pass (libftc/analysis/rtla-pass.c) over a file
 * laid out by hand: the tracers' own records (ftrace:timerlat,
 * ftrace:osnoise) in the kernel's layout and an osnoise:thread_noise
 * event, with the values chosen so that every figure of the summary is
 * known: counts, minimum, average and maximum latency per context, the
 * log2 buckets, the osnoise sums, and the noise source by name. The real
 * tracers are tested on a PREEMPT_RT kernel in the lab (tests/lab/rtla.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fixture.h"
#include "ftc.h"
#include "ftc-merge.h"
#include "ftc-reader.h"
#include "ftc-rtla.h"
#include "ftc-writer.h"
#include "meta.h"

#define TS0 1000000000ULL

static char header_page[] = FIXTURE_HEADER_PAGE;
static char header_event[] = FIXTURE_HEADER_EVENT;
static char fmt_timerlat[] = "name: timerlat\nID: 100\nformat:\n" FIXTURE_COMMON
	"\tfield:unsigned int seqnum;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int context;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 timer_latency;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"%u %d %llu\", REC->seqnum, REC->context, REC->timer_latency\n";
static char fmt_osnoise[] = "name: osnoise\nID: 101\nformat:\n" FIXTURE_COMMON
	"\tfield:u64 noise;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 runtime;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 max_sample;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int hw_count;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int nmi_count;\toffset:36;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int irq_count;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int softirq_count;\toffset:44;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int thread_count;\toffset:48;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%llu %llu\", REC->noise, REC->runtime\n";
static char fmt_thread[] = "name: thread_noise\nID: 102\nformat:\n" FIXTURE_COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 start;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 duration;\toffset:40;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"%s:%d %llu\", REC->comm, REC->pid, REC->duration\n";

struct page {
	unsigned char b[4096];
	size_t len;
	uint64_t last;
};

/* One event of payload p (n bytes, a multiple of 4) at ts. */
static void put(struct page *pg, uint64_t ts, const void *p, size_t n)
{
	uint32_t head = (uint32_t)(n / 4) | (uint32_t)(ts - pg->last) << 5;
	uint64_t commit;

	memcpy(pg->b + 16 + pg->len, &head, 4);
	memcpy(pg->b + 20 + pg->len, p, n);
	pg->len += 4 + n;
	pg->last = ts;
	commit = pg->len;
	memcpy(pg->b + 8, &commit, 8);
}

static void timerlat(struct page *pg, uint64_t ts, int ctx, uint64_t ns)
{
	unsigned char e[24] = { 0 };
	uint16_t type = 100;

	memcpy(e, &type, 2);
	memcpy(e + 12, &ctx, 4);
	memcpy(e + 16, &ns, 8);
	put(pg, ts, e, sizeof(e));
}

static void osnoise(struct page *pg, uint64_t ts, uint64_t noise, uint64_t single,
		    const uint32_t counts[5])
{
	unsigned char e[52] = { 0 };
	uint64_t runtime = 1000000;
	uint16_t type = 101;

	memcpy(e, &type, 2);
	memcpy(e + 8, &noise, 8);
	memcpy(e + 16, &runtime, 8);
	memcpy(e + 24, &single, 8);
	memcpy(e + 32, counts, 20);
	put(pg, ts, e, sizeof(e));
}

static void thread_noise(struct page *pg, uint64_t ts, int pid, uint64_t ns)
{
	unsigned char e[48] = { 0 };
	uint16_t type = 102;

	memcpy(e, &type, 2);
	memcpy(e + 8, "kworker/0:1", 11);
	memcpy(e + 24, &pid, 4);
	memcpy(e + 40, &ns, 8);
	put(pg, ts, e, sizeof(e));
}

static int write_file(const char *path)
{
	struct ftc_writer *w = ftc_writer_create(path, 7, FTC_COMPRESS_NONE);
	struct ftc_blob ft[2] = { { fmt_timerlat, sizeof(fmt_timerlat) - 1 },
				  { fmt_osnoise, sizeof(fmt_osnoise) - 1 } };
	struct ftc_blob th = { fmt_thread, sizeof(fmt_thread) - 1 };
	struct ftc_meta_system sys = { "osnoise", &th, 1 };
	const uint32_t p1[5] = { 0, 0, 3, 1, 2 }, p2[5] = { 1, 0, 4, 0, 2 };
	const int cpus[] = { 0 };
	struct ftc_meta m = {
		.header_page = { header_page, sizeof(header_page) - 1 },
		.header_event = { header_event, sizeof(header_event) - 1 },
		.ftrace = { "ftrace", ft, 2 }, .systems = &sys, .nsystems = 1,
		.kallsyms = { "", 0 }, .printk = { "", 0 }, .cmdlines = { "", 0 },
		.uname = "Linux lab 6.12.117-rt #1 SMP PREEMPT_RT x86_64",
		.trace_clock = "[local] global\n",
	};
	struct page pg = { .last = TS0 };
	int ret = -1;

	memcpy(pg.b, &pg.last, 8);
	timerlat(&pg, TS0 + 1000, 0, 1000);
	timerlat(&pg, TS0 + 2000, 1, 2000);
	timerlat(&pg, TS0 + 3000, 0, 3000);
	timerlat(&pg, TS0 + 4000, 1, 10000);
	timerlat(&pg, TS0 + 5000, 0, 5000);
	thread_noise(&pg, TS0 + 6000, 42, 1500);
	osnoise(&pg, TS0 + 7000, 10, 5, p1);
	thread_noise(&pg, TS0 + 8000, 42, 2500);
	osnoise(&pg, TS0 + 9000, 30, 20, p2);
	if (w && ftc_writer_add_buffer_clock(w, NULL, "local", 1, cpus) == 0 &&
	    ftc_writer_set_meta(w, &m) == 0 && ftc_writer_start(w) == 0 &&
	    ftc_writer_add_pages(w, 0, 0, pg.b, sizeof(pg.b)) == 0 && ftc_writer_finish(w) == 0)
		ret = 0;
	ftc_writer_free(w);
	return ret;
}

static void check_cpu(const struct ftc_rtla_cpu *c)
{
	const struct ftc_rtla_latency *irq = &c->timerlat[FTC_RTLA_IRQ];
	const struct ftc_rtla_latency *thr = &c->timerlat[FTC_RTLA_THREAD];

	CHECK("irq: 3 latencies, 1 to 5 us, 3 on average",
	      irq->count == 3 && irq->min_ns == 1000 && irq->max_ns == 5000 &&
	      irq->sum_ns == 9000 && irq->max_at == TS0 + 5000);
	CHECK("irq buckets: 1 us in [1,2), 3 us in [2,4), 5 us in [4,8)",
	      irq->buckets[0] == 1 && irq->buckets[1] == 1 && irq->buckets[2] == 1);
	CHECK("thread: 2 latencies, 2 and 10 us", thr->count == 2 && thr->min_ns == 2000 &&
	      thr->max_ns == 10000 && thr->buckets[1] == 1 && thr->buckets[3] == 1);
	CHECK("no user-return latency", c->timerlat[FTC_RTLA_USER].count == 0);
	CHECK("osnoise: 2 periods, 2 s of runtime, 40 us of noise",
	      c->periods == 2 && c->runtime_us == 2000000 && c->noise_us == 40);
	CHECK("the noisiest period 30 us, the longest single noise 20 us",
	      c->max_noise_us == 30 && c->max_single_us == 20);
	CHECK("the noise counts summed: hw 1, nmi 0, irq 7, softirq 1, thread 4",
	      c->hw == 1 && c->nmi == 0 && c->irq == 7 && c->softirq == 1 && c->thread == 4);
}

int main(void)
{
	char path[] = "/tmp/ftc-unit-rtla.XXXXXX";
	int fd = mkstemp(path);
	struct ftc_reader *r = NULL;
	struct ftc_merge *m = NULL;
	struct ftc_rtla *t = NULL;
	struct ftc_merge_record mr;
	const struct ftc_rtla_source *s;

	if (fd < 0) {
		SKIP("rtla", "cannot make a temporary file");
		return CHECK_DONE();
	}
	close(fd);
	CHECK("write the file", write_file(path) == 0);
	r = ftc_reader_open(path, 0);
	t = r ? ftc_rtla_new(r, NULL) : NULL;
	m = t ? ftc_merge_open(r, NULL) : NULL;
	CHECK("open it", r && t && m);
	while (m && ftc_merge_next(m, &mr) == 1)
		if (ftc_rtla_add(t, &mr) < 0)
			break;
	if (t) {
		CHECK("record counts: 5 timerlat, 2 osnoise, 2 noise",
		      ftc_rtla_timerlat_records(t) == 5 && ftc_rtla_osnoise_records(t) == 2 &&
		      ftc_rtla_noise_records(t) == 2 && ftc_rtla_lost(t) == 0);
		CHECK("one CPU", ftc_rtla_ncpus(t) == 1 && ftc_rtla_cpu_at(t, 0) &&
		      ftc_rtla_cpu_at(t, 0)->cpu == 0 && !ftc_rtla_cpu_at(t, 1));
		if (ftc_rtla_cpu_at(t, 0))
			check_cpu(ftc_rtla_cpu_at(t, 0));
		s = ftc_rtla_source_at(t, 0);
		CHECK("one noise source", ftc_rtla_nsources(t) == 1 && s);
		CHECK("the thread, by its comm and pid, twice, 4 us in all, 2.5 at most",
		      s && s->kind == FTC_RTLA_SRC_THREAD && s->id == 42 && s->name &&
		      !strcmp(s->name, "kworker/0:1") && s->count == 2 && s->total_ns == 4000 &&
		      s->max_ns == 2500);
	}
	ftc_merge_close(m);
	ftc_rtla_free(t);
	ftc_reader_close(r);
	unlink(path);
	return CHECK_DONE();
}
