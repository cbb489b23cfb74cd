// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of ftc import's parser and writer (libftc/import/) on real
 * ftrace_dump consoles from the 6.1 lab guest (tests/fixtures/import/)
 * and damaged or reformatted variants of them: without CR, without printk
 * times, as dmesg -r, with caller ids, as journalctl -k, truncated, with
 * other messages and binary noise interleaved, two dumps in one log. The
 * files written are read back through ftc's reader: CPU, pid, timestamp,
 * event and, with kallsyms, the function addresses.
 */
#include <dirent.h>
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-import.h"
#include "ftc-merge.h"
#include "ftc-reader.h"

static char *slurp(const char *name, size_t *len)
{
	const char *top = getenv("TOP");
	char path[4096], *buf = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	*len = 0;
	if (getdelim(&buf, &cap, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	} else {
		fseek(f, 0, SEEK_END);
		*len = (size_t)ftell(f);
	}
	fclose(f);
	return buf;
}

/* A copy of the log with each line passed through fn (a new line each). */
static char *map_lines(const char *log, size_t len, size_t *out_len,
		       void (*fn)(const char *line, size_t n, FILE *out, int idx))
{
	char *buf = NULL;
	size_t cap = 0;
	FILE *out = open_memstream(&buf, &cap);
	int idx = 0;

	for (const char *p = log, *e = log + len; p < e; idx++) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t n = (size_t)((nl ? nl : e) - p);

		fn(p, n, out, idx);
		p = nl ? nl + 1 : e;
	}
	fclose(out);
	*out_len = cap;
	return buf;
}

static size_t unprefixed(const char *line, size_t n)
{
	const char *rb = memchr(line, ']', n);

	return line[0] == '[' && rb && (size_t)(rb - line) + 2 <= n ? (size_t)(rb - line) + 2 : 0;
}

static void no_cr(const char *l, size_t n, FILE *o, int i)
{
	fprintf(o, "%.*s\n", (int)(n && l[n - 1] == '\r' ? n - 1 : n), l);
}

static void no_time(const char *l, size_t n, FILE *o, int i)
{
	size_t k = unprefixed(l, n);

	fprintf(o, "%.*s\n", (int)(n - k), l + k);
}

/* dmesg -r: "<0>" before the time; every 7th line an interleaved <6> message. */
static void levels(const char *l, size_t n, FILE *o, int i)
{
	fprintf(o, "<0>%.*s\n", (int)n, l);
	if (i % 7 == 6)
		fprintf(o, "<6>[   12.000001] e1000: eth0 NIC Link is Up\n");
}

/* printk.caller: "[time][  C0] "; every 5th line a message of another task. */
static void callers(const char *l, size_t n, FILE *o, int i)
{
	size_t k = unprefixed(l, n);

	if (!k) {
		fprintf(o, "%.*s\n", (int)n, l);
		return;
	}
	fprintf(o, "%.*s[    C0] %.*s\n", (int)(k - 1), l, (int)(n - k), l + k);
	if (i % 5 == 4)
		fprintf(o, "[   12.000001][  T123] usb 1-1: new high-speed USB device\n");
}

static void journal(const char *l, size_t n, FILE *o, int i)
{
	size_t k = unprefixed(l, n);

	fprintf(o, "Nov 24 06:06:%02d lab kernel: %.*s\n", i % 60, (int)(n - k), l + k);
}

/* Binary noise after the 40th line. */
static void noise(const char *l, size_t n, FILE *o, int i)
{
	fprintf(o, "%.*s\n", (int)n, l);
	if (i == 40) {
		fputs("[    5.854864] \x01\xff\xfe", o);
		fputc('\0', o);
		fputs("\x80garbage\x1b[0m\n", o);
	}
}

struct parsed {
	int ndumps;
	size_t recs, bad, foreign;
	unsigned long end, first_bad;
};

static struct parsed parse(const char *log, size_t len)
{
	struct ftc_import *im = ftc_import_parse(log, len);
	struct parsed p = { 0 };
	int d;

	if (!im)
		return p;
	p.ndumps = ftc_import_ndumps(im);
	d = p.ndumps - 1;
	p.recs = ftc_import_records(im, d);
	p.bad = ftc_import_nbad(im, d);
	p.foreign = ftc_import_foreign(im, d);
	p.end = ftc_import_end_line(im, d);
	p.first_bad = ftc_import_bad_line(im, d, 0, NULL);
	ftc_import_free(im);
	return p;
}

static void variants(void)
{
	size_t len, n;
	char *log = slurp("tests/fixtures/import/function-oops.log", &len), *v;
	struct parsed p;

	CHECK("the function fixture is there (TOP names the tree)", log != NULL);
	if (!log)
		return;
	p = parse(log, len);
	CHECK("real console: one dump", p.ndumps == 1);
	CHECK("real console: 60 records, none unparsable, none foreign",
	      p.recs == 60 && p.bad == 0 && p.foreign == 0);
	CHECK("real console: the closing line is line 91", p.end == 91);

	v = map_lines(log, len, &n, no_cr);
	p = parse(v, n);
	CHECK("without CR: the same 60 records", p.recs == 60 && p.bad == 0);
	free(v);
	v = map_lines(log, len, &n, no_time);
	p = parse(v, n);
	CHECK("without printk times: the same 60 records", p.recs == 60 && p.bad == 0);
	free(v);
	v = map_lines(log, len, &n, levels);
	p = parse(v, n);
	CHECK("dmesg -r with <6> lines interleaved: 60 records, the 8 others counted apart",
	      p.recs == 60 && p.bad == 0 && p.foreign == 8);
	free(v);
	v = map_lines(log, len, &n, callers);
	p = parse(v, n);
	CHECK("caller ids with another task's lines interleaved: 60 records, 13 foreign",
	      p.recs == 60 && p.bad == 0 && p.foreign == 13);
	free(v);
	v = map_lines(log, len, &n, journal);
	p = parse(v, n);
	CHECK("journalctl -k: the same 60 records", p.ndumps == 1 && p.recs == 60 && p.bad == 0);
	free(v);
	v = map_lines(log, len, &n, noise);
	p = parse(v, n);
	CHECK("binary noise: one unparsable line, by its number (42), the records kept",
	      p.recs == 60 && p.bad == 1 && p.first_bad == 42);
	free(v);
	p = parse(log, len / 2);
	CHECK("truncated: no closing line, the records before the cut",
	      p.ndumps == 1 && p.end == 0 && p.recs > 10 && p.recs < 60);
	v = malloc(2 * len);
	memcpy(v, log, len);
	memcpy(v + len, log, len);
	p = parse(v, 2 * len);
	CHECK("two dumps in one log", p.ndumps == 2 && p.recs == 60);
	free(v);
	p = parse("[    1.0] hello\n[    1.1] world\n", 32);
	CHECK("a log without a dump: none", p.ndumps == 0);
	free(log);
}

static void layouts(void)
{
	static const char log[] =
		"Dumping ftrace buffer:\n"
		"---------------------------------\n"
		"  <idle>-0       [001] d..2.  12.345678: sched_switch: prev_comm=swapper/1\n"
		"    bash-1234    (  1234) [000] .....  12.500000: do_sys_openat2 <-__x64_sys_openat\n"
		"    kworker/0:1-17    0d..1 100us+: <stack trace>\n"
		" => __handle_sysrq\n"
		" => write_sysrq_trigger\n"
		"     cnt-5   1..... 123456: tracing_mark_write: raw counter clock\n"
		"this is not a dump line\n"
		"---------------------------------\n";
	struct ftc_import *im = ftc_import_parse(log, sizeof(log) - 1);
	const char *text = NULL;

	CHECK("layouts: trace, tgid, latency with a mark, stack lines, counter clock",
	      im && ftc_import_records(im, 0) == 4);
	CHECK("layouts: the one unparsable line is line 9",
	      im && ftc_import_nbad(im, 0) == 1 && ftc_import_bad_line(im, 0, 0, &text) == 9 &&
	      !strcmp(text, "this is not a dump line"));
	CHECK("layouts: the header says what the timestamps are",
	      im && strstr(ftc_import_header(im, 0), "the clock's counts"));
	ftc_import_free(im);
}

/* dmesg -T's dates, an ISO journal, pstore's header, a banner without its blank. */
static void prefixes(void)
{
	static const char log[] =
		"Panic#1 Part1\n"
		"[Tue Nov 24 06:06:09 2026] Dumping ftrace buffer:\n"
		"[Tue Nov 24 06:06:09 2026] ---------------------------------\n"
		"2026-11-24T06:06:09+0000 lab kernel:       sh-93        1..... 30595us : a <-b\n"
		"<0>[    5.854864] ------------------------------------------\n"
		"<0>[    5.854864]       sh-93        1..... 30596us : c <-d\n"
		"<0>[    5.854864] ---------------------------------\n";
	struct ftc_import *im = ftc_import_parse(log, sizeof(log) - 1);

	CHECK("dmesg -T, ISO journal and pstore lines: one dump, two records, nothing bad",
	      im && ftc_import_ndumps(im) == 1 && ftc_import_records(im, 0) == 2 &&
	      ftc_import_nbad(im, 0) == 0 && ftc_import_end_line(im, 0) == 7);
	ftc_import_free(im);
}

struct rec {
	int cpu, pid;
	unsigned long long ts, a, b;
	char event[64];
};

/* The records of a file, in order; *n of them. */
static struct rec *read_back(const char *path, size_t *n)
{
	struct ftc_reader *r = ftc_reader_open(path, FTC_READER_NO_PLUGINS);
	struct ftc_merge_record mr;
	struct ftc_merge *m = r ? ftc_merge_open(r, NULL) : NULL;
	struct rec *v = calloc(4096, sizeof(*v));

	*n = 0;
	while (m && *n < 4096 && ftc_merge_next(m, &mr) == 1) {
		struct tep_event *ev = ftc_reader_event(r, mr.rec);
		struct rec *x = &v[(*n)++];

		x->cpu = mr.cpu;
		x->pid = tep_data_pid(ftc_reader_tep(r), mr.rec);
		x->ts = mr.rec->ts;
		snprintf(x->event, sizeof(x->event), "%s", ev ? ev->name : "?");
		if (ev && !strcmp(ev->name, "function")) {
			tep_get_field_val(NULL, ev, "ip", mr.rec, &x->a, 0);
			tep_get_field_val(NULL, ev, "parent_ip", mr.rec, &x->b, 0);
		} else if (ev && !strncmp(ev->name, "funcgraph_", 10)) {
			tep_get_field_val(NULL, ev, "func", mr.rec, &x->a, 0);
			tep_get_field_val(NULL, ev, "depth", mr.rec, &x->b, 0);
		}
	}
	if (m)
		ftc_merge_close(m);
	if (r)
		ftc_reader_close(r);
	return v;
}

static int import_file(const char *log_name, const char *ksyms_name, const char *out, int version)
{
	size_t len, klen;
	char *log = slurp(log_name, &len), *k = ksyms_name ? slurp(ksyms_name, &klen) : NULL;
	struct ftc_import *im = log ? ftc_import_parse(log, len) : NULL;
	int ret = -1;

	if (im && (!k || ftc_import_set_kallsyms(im, k, klen) > 0))
		ret = ftc_import_write(im, ftc_import_ndumps(im) - 1, out, version,
				       version == 6 ? FTC_COMPRESS_NONE : FTC_COMPRESS_ZSTD);
	if (ret < 0)
		fprintf(stderr, "import %s: %s\n", log_name, ftc_strerror());
	ftc_import_free(im);
	free(log);
	free(k);
	return ret;
}

static void functions(const char *dir)
{
	char path[4200];
	struct rec *v;
	size_t n;

	for (int version = 6; version <= 7; version++) {
		snprintf(path, sizeof(path), "%s/frozen-v%d.dat", dir, version);
		CHECK(version == 6 ? "frozen dump with kallsyms written as v6" :
		      "frozen dump with kallsyms written as v7",
		      import_file("tests/fixtures/import/frozen.log",
				  "tests/fixtures/import/frozen.kallsyms", path, version) == 0);
		v = read_back(path, &n);
		CHECK("frozen: 7 records read back", n == 7);
		CHECK("frozen: the first is sh-93's do_sys_openat2 <-__x64_sys_openat on CPU 0 at "
		      "25811 us, at kallsyms' addresses",
		      n && v[0].cpu == 0 && v[0].pid == 93 && v[0].ts == 25811000ULL &&
		      !strcmp(v[0].event, "function") && v[0].a == 0xffffffff85963fa0ULL &&
		      v[0].b == 0xffffffff85964630ULL);
		CHECK("frozen: the marker is a tracing_mark_write event",
		      n > 1 && !strcmp(v[1].event, "tracing_mark_write") && v[1].ts == 26514000ULL);
		CHECK("frozen: the last is sync-100's vfs_fsync_range on CPU 1",
		      n == 7 && v[6].cpu == 1 && v[6].pid == 100 && v[6].a == 0xffffffff859abde0ULL);
		free(v);
	}
	snprintf(path, sizeof(path), "%s/graph.dat", dir);
	CHECK("function_graph dump (orig_cpu) with kallsyms written",
	      import_file("tests/fixtures/import/graph-orig-cpu.log",
			  "tests/fixtures/import/graph-orig-cpu.kallsyms", path, 7) == 0);
	v = read_back(path, &n);
	CHECK("graph: the last record is panic's entry at depth 2, on CPU 0",
	      n > 10 && !strcmp(v[n - 1].event, "funcgraph_entry") &&
	      v[n - 1].a == 0xffffffffb4e01cb0ULL && v[n - 1].b == 2 && v[n - 1].cpu == 0);
	CHECK("graph: sysrq_handle_crash's entry (depth 1) comes before it",
	      n > 10 && !strcmp(v[n - 4].event, "funcgraph_entry") &&
	      v[n - 4].a == 0xffffffffb4a90910ULL && v[n - 4].b == 1);
	free(v);
	snprintf(path, sizeof(path), "%s/columns.dat", dir);
	CHECK("function_graph with funcgraph-abstime, -proc, -tail and latency-format written",
	      import_file("tests/fixtures/import/graph-columns.log", NULL, path, 7) == 0);
	v = read_back(path, &n);
	CHECK("graph columns: 42 records; the last, sh-93's sysrq_handle_crash() {, at its "
	      "abstime 7.970465 on CPU 0",
	      n == 42 && v[41].pid == 93 && v[41].cpu == 0 && v[41].ts == 7970465000ULL &&
	      !strcmp(v[41].event, "text"));
	CHECK("graph columns: ls-99's lines on CPU 1 have its pid from the proc column",
	      n > 20 && v[18].cpu == 1 && v[18].pid == 99);
	free(v);
	snprintf(path, sizeof(path), "%s/text.dat", dir);
	CHECK("function dump without kallsyms written",
	      import_file("tests/fixtures/import/function-oops.log", NULL, path, 7) == 0);
	v = read_back(path, &n);
	CHECK("without kallsyms: 60 records, the last a text record",
	      n == 60 && !strcmp(v[59].event, "text"));
	free(v);
}

/* Every kept fuzz finding parses and writes without a sanitizer report. */
static void fuzz_findings(const char *dir)
{
	const char *top = getenv("TOP");
	char rdir[4096], name[4400], out[4200];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(rdir, sizeof(rdir), "%s/tests/fuzz/regress-import", top ? top : ".");
	snprintf(out, sizeof(out), "%s/fuzz.dat", dir);
	d = opendir(rdir);
	CHECK("the import fuzz findings are there", d != NULL);
	while (d && (de = readdir(d))) {
		size_t len;
		char *log;
		struct ftc_import *im;

		if (de->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "tests/fuzz/regress-import/%s", de->d_name);
		log = slurp(name, &len);
		im = log ? ftc_import_parse(log, len) : NULL;
		for (int i = 0; im && i < ftc_import_ndumps(im); i++)
			ftc_import_write(im, i, out, 7, FTC_COMPRESS_ZSTD);
		ftc_import_free(im);
		free(log);
		n++;
	}
	if (d)
		closedir(d);
	CHECK("the import fuzz findings replay", n > 0);
}

int main(void)
{
	char dir[] = "/tmp/ftc-test-import-XXXXXX";

	if (!mkdtemp(dir))
		return 1;
	variants();
	layouts();
	prefixes();
	functions(dir);
	fuzz_findings(dir);
	{
		char cmd[200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", dir);
	}
	return CHECK_DONE();
}
