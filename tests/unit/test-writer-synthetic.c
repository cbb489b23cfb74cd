// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the writer's synthetic buffers (writer-synthetic.c): an
 * event system added by the caller joins the file's formats, a buffer
 * whose pages come from the perf pager gets the caller's clock, and the
 * reader gives back every sample on its CPU with its fields and callchain,
 * in v7 (zstd and uncompressed) and v6 files.
 */
#include <event-parse.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-perf.h"
#include "ftc-reader.h"
#include "ftc-writer.h"

#define NSAMPLES 300

struct sink {
	struct ftc_writer *w;
	int buf, idx;
};

static int to_writer(const void *page, size_t size, void *ctx)
{
	struct sink *s = ctx;

	return ftc_writer_add_pages(s->w, s->buf, s->idx, page, size);
}

static int write_file(const char *path, int version, enum ftc_compression comp, int base)
{
	struct ftc_writer *w = ftc_writer_create(path, version, comp);
	const int top_cpu[] = { 0 }, cpus[] = { 0, 1 };
	char *f[FTC_PERF_EV_COUNT];
	struct ftc_perf_pager *pg;
	struct sink s = { w, -1, 1 };
	uint64_t chain[3];
	int ret = -1;

	for (int i = 0; i < FTC_PERF_EV_COUNT; i++)
		f[i] = ftc_perf_ftrace_format((enum ftc_perf_fevent)i, base + i);
	if (!w || ftc_writer_add_buffer(w, NULL, 1, top_cpu) < 0 ||
	    ftc_writer_add_system(w, FTC_PERF_FTRACE_SYSTEM, (const char *const *)f,
				  FTC_PERF_EV_COUNT) < 0)
		goto out;
	s.buf = ftc_writer_add_synthetic_buffer(w, "ftc_perf", 2, cpus, "mono");
	if (s.buf < 0 || ftc_writer_start(w) < 0 ||
	    !(pg = ftc_perf_pager_new(ftc_writer_page_size(w), base, to_writer, &s)))
		goto out;
	for (int i = 0; i < NSAMPLES; i++) {
		struct ftc_perf_sample smp = { .ip = 0x400000 + (uint64_t)i, .pid = 42,
					       .tid = 43, .cpu = 1, .period = 1000,
					       .time = 1000000000ULL + (uint64_t)i * 250000,
					       .nr = 3, .ips = chain };

		chain[0] = smp.ip;
		chain[1] = 0x500000 + (uint64_t)i;
		chain[2] = 0x600000 + (uint64_t)i;
		if (ftc_perf_pager_add_sample(pg, &smp) < 0)
			goto out_pager;
	}
	if (ftc_perf_pager_flush(pg) < 0 || ftc_writer_finish(w) < 0)
		goto out_pager;
	ret = 0;
out_pager:
	ftc_perf_pager_free(pg);
out:
	for (int i = 0; i < FTC_PERF_EV_COUNT; i++)
		free(f[i]);
	if (ret < 0)
		fprintf(stderr, "write_file: %s\n", ftc_strerror());
	ftc_writer_free(w);
	return ret;
}

/* The whole file in memory, for ftc_reader_open_mem; NULL when unreadable. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
		*len = (size_t)n;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/*
 * Counts the samples in buffer ftc_perf whose fields are as written, read
 * from the file or (mem) from a copy of its bytes in memory.
 */
static int read_back(const char *path, bool mem, int *good, const char **clock_ok)
{
	size_t len = 0;
	char *bytes = mem ? slurp(path, &len) : NULL;
	struct ftc_reader *r = mem ? ftc_reader_open_mem(bytes, len, path, FTC_READER_NO_PLUGINS) :
				     ftc_reader_open(path, FTC_READER_NO_PLUGINS);
	struct ftc_merge_record mr;
	struct ftc_merge *m;
	int buf = -1, n = 0;

	*good = 0;
	if (!r) {
		free(bytes);
		return -1;
	}
	for (int i = 0; i < ftc_reader_nbuffers(r); i++)
		if (!strcmp(ftc_reader_buffer(r, i)->name, "ftc_perf"))
			buf = i;
	*clock_ok = buf >= 0 && !strcmp(ftc_reader_buffer(r, buf)->clock, "mono") ? "yes" : "no";
	m = ftc_merge_open(r, NULL);
	while (m && ftc_merge_next(m, &mr) == 1) {
		struct tep_event *ev = ftc_reader_event(r, mr.rec);
		unsigned long long ip = 0, tid = 0;
		struct tep_format_field *f;
		unsigned int loc = 0;
		uint64_t c[3] = { 0 };

		if (mr.buffer != buf || !ev || strcmp(ev->name, "sample"))
			continue;
		tep_get_field_val(NULL, ev, "ip", mr.rec, &ip, 0);
		tep_get_field_val(NULL, ev, "tid", mr.rec, &tid, 0);
		f = tep_find_field(ev, "callchain");
		if (f)
			memcpy(&loc, (char *)mr.rec->data + f->offset, 4);
		if ((loc >> 16) == sizeof(c))
			memcpy(c, (char *)mr.rec->data + (loc & 0xffff), sizeof(c));
		if (mr.cpu == 1 && tid == 43 && c[0] == ip && c[1] == ip + 0x100000 &&
		    c[2] == ip + 0x200000 && mr.rec->ts == 1000000000ULL + (ip - 0x400000) * 250000)
			(*good)++;
		n++;
	}
	ftc_merge_close(m);
	ftc_reader_close(r);
	free(bytes);
	return n;
}

int main(void)
{
	static const struct { int version; enum ftc_compression comp; const char *name; } v[] = {
		{ 7, FTC_COMPRESS_ZSTD, "v7 zstd" },
		{ 7, FTC_COMPRESS_NONE, "v7 none" },
		{ 6, FTC_COMPRESS_NONE, "v6" },
	};
	char path[] = "/tmp/ftc-test-synth-XXXXXX";
	int fd, base;

	if (!ftc_tracefs_dir() || access(ftc_tracefs_dir(), W_OK)) {
		SKIP("synthetic buffers", "tracefs is not mounted or not writable (the writer "
		     "reads its metadata)");
		return 0;
	}
	base = ftc_perf_ftrace_base_id();
	CHECK("event ids above the kernel's", base > 0);
	fd = mkstemp(path);
	CHECK("temp file", fd >= 0);
	close(fd);
	for (size_t i = 0; i < 2 * sizeof(v) / sizeof(v[0]); i++) {
		size_t k = i / 2;
		bool mem = i % 2;
		const char *via = mem ? "from memory" : "from the file";
		char name[128];
		const char *clock_ok = "no";
		int good = 0, n;

		snprintf(name, sizeof(name), "%s: file written", v[k].name);
		CHECK(name, write_file(path, v[k].version, v[k].comp, base) == 0);
		n = read_back(path, mem, &good, &clock_ok);
		snprintf(name, sizeof(name), "%s %s: every sample read back (%d)", v[k].name, via, n);
		CHECK(name, n == NSAMPLES);
		snprintf(name, sizeof(name), "%s %s: cpu, fields, callchain, time intact", v[k].name,
			 via);
		CHECK(name, good == NSAMPLES);
		snprintf(name, sizeof(name), "%s %s: the buffer keeps the caller's clock", v[k].name,
			 via);
		CHECK(name, !strcmp(clock_ok, "yes"));
	}
	{
		struct ftc_writer *w = ftc_writer_create(path, 7, FTC_COMPRESS_NONE);
		const int cpus[] = { 0 };
		const char *fmt = "name: x\nID: 1\nformat:\n";

		CHECK("a synthetic buffer needs a clock",
		      ftc_writer_add_synthetic_buffer(w, "p", 1, cpus, NULL) < 0);
		CHECK("a system needs formats", ftc_writer_add_system(w, "p", &fmt, 0) < 0);
		ftc_writer_free(w);
	}
	unlink(path);
	return CHECK_DONE();
}
