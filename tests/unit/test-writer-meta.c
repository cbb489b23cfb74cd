// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The writer as a sink: files written from a hand-made struct ftc_meta and
 * hand-made ring-buffer pages, with no tracefs at all (the test hides it
 * under a tmpfs in a private mount namespace when it may, so any read of
 * it fails the write), then read back with ftc's reader (records,
 * formats, clock, uname, cmdlines, kallsyms, per-CPU stats) and, where
 * trace-cmd is installed, with `trace-cmd report`. v6, and v7 without
 * compression, with zstd and with zlib.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
#include <event-parse.h>

#include "check.h"
#include "fixture.h"
#include "ftc.h"
#include "meta.h"
#include "tracedat-format.h"

#define NEVENTS		300	/* per CPU: a few pages, more than a chunk's worth of events */
#define TS0		1000000000ULL
#define IP		0xffffffff81000010ULL

static char header_page[] = FIXTURE_HEADER_PAGE;
static char header_event[] = FIXTURE_HEADER_EVENT;
#define COMMON FIXTURE_COMMON

static char fmt_tick[] = "name: tick\nID: 901\nformat:\n" COMMON
	"\tfield:unsigned long value;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"value=%lu\", REC->value\n";
static char fmt_where[] = "name: where\nID: 902\nformat:\n" COMMON
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"at %pS\", (void *)REC->ip\n";

static char kallsyms[] = "ffffffff81000000 T ftc_test_func\nffffffff81000100 T ftc_other_func\n";
/* 44 forked as bash and exec'd sleep between the two */
static char cmdlines_start[] = "42 ftc-test\n44 bash\n";
static char cmdlines_end[] = "42 ftc-test\n43 ftc-late\n44 sleep\n";
static char uname_text[] = "Linux testhost 6.1.0 #1 SMP x86_64";

static void hand_made_meta(struct ftc_meta *m, struct ftc_meta_system *sys, struct ftc_blob *f)
{
	memset(m, 0, sizeof(*m));
	m->header_page = (struct ftc_blob){ header_page, strlen(header_page) };
	m->header_event = (struct ftc_blob){ header_event, strlen(header_event) };
	m->ftrace.name = "ftrace";
	f[0] = (struct ftc_blob){ fmt_tick, strlen(fmt_tick) };
	f[1] = (struct ftc_blob){ fmt_where, strlen(fmt_where) };
	*sys = (struct ftc_meta_system){ "ftctest", f, 2 };
	m->systems = sys;
	m->nsystems = 1;
	m->kallsyms = (struct ftc_blob){ kallsyms, strlen(kallsyms) };
	m->printk = (struct ftc_blob){ "", 0 };
	m->cmdlines = (struct ftc_blob){ cmdlines_start, strlen(cmdlines_start) };
	m->uname = uname_text;
	m->trace_clock = "[local] global counter\n";
}

struct page {
	unsigned char *p;
	size_t size, used;
	uint64_t last;
};

static void page_put(struct page *pg, uint32_t type_len_delta, const void *data, size_t len)
{
	memcpy(pg->p + 16 + pg->used, &type_len_delta, 4);
	memcpy(pg->p + 16 + pg->used + 4, data, len);
	pg->used += 4 + len;
}

/*
 * CPU c's events: "tick" with value i on CPU 0, "where" at IP on CPU 1,
 * 1 us apart, as 16-byte payloads (type_len 4) after a 16-byte page header.
 */
static unsigned char *make_pages(int cpu, size_t page, size_t *total)
{
	size_t per_page = (page - 16) / 20, npages = (NEVENTS + per_page - 1) / per_page;
	unsigned char *buf = calloc(npages, page);
	struct page pg = { 0 };

	for (int i = 0; buf && i < NEVENTS; i++) {
		uint64_t ts = TS0 + (uint64_t)i * 1000 + (uint64_t)cpu * 500;
		unsigned char ev[16] = { 0 };
		uint16_t type = cpu ? 902 : 901;
		int32_t pid = 42;
		uint64_t val = cpu ? IP : (uint64_t)i;

		if (i % per_page == 0) {
			pg.p = buf + (size_t)(i / per_page) * page;
			pg.used = 0;
			pg.last = ts;
			memcpy(pg.p, &ts, 8);
		}
		memcpy(ev, &type, 2);
		memcpy(ev + 4, &pid, 4);
		memcpy(ev + 8, &val, 8);
		page_put(&pg, 4 | (uint32_t)(ts - pg.last) << 5, ev, sizeof(ev));
		pg.last = ts;
		memcpy(pg.p + 8, &(uint64_t){ pg.used }, 8);
	}
	*total = npages * page;
	return buf;
}

static int write_file(const char *path, int version, enum ftc_compression comp)
{
	struct ftc_writer *w = ftc_writer_create(path, version, comp);
	const int cpus[] = { 0, 1 };
	struct ftc_meta_system sys;
	struct ftc_blob formats[2];
	struct ftc_meta m;
	int ret = -1;

	hand_made_meta(&m, &sys, formats);
	if (!w || ftc_writer_add_buffer_clock(w, NULL, "local", 2, cpus) < 0 ||
	    ftc_writer_set_meta(w, &m) < 0 || ftc_writer_start(w) < 0)
		goto out;
	for (int c = 0; c < 2; c++) {
		size_t len;
		unsigned char *pages = make_pages(c, ftc_writer_page_size(w), &len);
		char stat[64];

		if (!pages || ftc_writer_add_pages(w, 0, c, pages, len) < 0) {
			free(pages);
			goto out;
		}
		free(pages);
		snprintf(stat, sizeof(stat), "CPU: %d\nentries: %d\noverrun: 0\n", c, 7 + c);
		if (ftc_writer_set_cpustat(w, 0, c, stat) < 0)
			goto out;
	}
	if (ftc_writer_set_cmdlines(w, cmdlines_end, strlen(cmdlines_end)) < 0 ||
	    ftc_writer_checkpoint(w) < 0 || ftc_writer_finish(w) < 0)
		goto out;
	ret = 0;
out:
	if (ret < 0)
		printf("# %s\n", ftc_strerror());
	ftc_writer_free(w);
	return ret;
}

struct seen {
	int ticks, wheres, in_order, symbol;
	uint64_t last_ts;
};

static void check_record(struct ftc_reader *r, const struct ftc_merge_record *mr, struct seen *s)
{
	struct tep_event *ev = ftc_reader_event(r, mr->rec);
	unsigned long long v = 0;

	if (!ev)
		return;
	s->in_order += mr->rec->ts >= s->last_ts;
	s->last_ts = mr->rec->ts;
	if (!strcmp(ev->name, "tick") && mr->cpu == 0) {
		tep_get_field_val(NULL, ev, "value", mr->rec, &v, 0);
		s->ticks += v == (unsigned long long)s->ticks &&
			    mr->rec->ts == TS0 + v * 1000;
	} else if (!strcmp(ev->name, "where") && mr->cpu == 1) {
		tep_get_field_val(NULL, ev, "ip", mr->rec, &v, 0);
		s->wheres += v == IP;
	}
}

/* The "where" records print their ip through the file's kallsyms. */
static bool symbol_printed(struct ftc_reader *r)
{
	struct ftc_merge *m = ftc_merge_open(r, NULL);
	struct ftc_merge_record mr;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct ftc_format *f = out ? ftc_format_new(r, out, 0) : NULL;
	bool ok;

	for (int n = 0; f && m && n < 4 && ftc_merge_next(m, &mr) == 1; n++)
		ftc_format_record(f, &mr);
	if (f)
		ftc_format_free(f);
	ftc_merge_close(m);
	if (out)
		fclose(out);
	ok = text && strstr(text, "ftc_test_func+0x10") && strstr(text, "ftc-test-42");
	if (!ok)
		printf("# formatted: %s\n", text ? text : "(none)");
	free(text);
	return ok;
}

static void read_back(const char *name, const char *path, int version)
{
	struct ftc_reader *r = ftc_reader_open(path, 0);
	const struct ftc_dat_buffer *b;
	struct ftc_merge_record mr;
	struct ftc_merge *m;
	struct seen s = { 0 };
	char what[128];
	const char *late;
	int n = 0;

	snprintf(what, sizeof(what), "%s: the reader opens it", name);
	CHECK(what, r != NULL);
	if (!r) {
		printf("# %s\n", ftc_strerror());
		return;
	}
	m = ftc_merge_open(r, NULL);
	while (m && ftc_merge_next(m, &mr) == 1) {
		check_record(r, &mr, &s);
		n++;
	}
	ftc_merge_close(m);
	snprintf(what, sizeof(what), "%s: every record, in order, with its fields", name);
	CHECK(what, n == 2 * NEVENTS && s.ticks == NEVENTS && s.wheres == NEVENTS &&
		    s.in_order == n);
	snprintf(what, sizeof(what), "%s: version, clock, uname", name);
	CHECK(what, ftc_reader_version(r) == version && ftc_reader_clock(r) &&
		    !strcmp(ftc_reader_clock(r), "local") &&
		    ftc_reader_option_text(r, FTC_OPT_UNAME) &&
		    !strcmp(ftc_reader_option_text(r, FTC_OPT_UNAME), uname_text));
	snprintf(what, sizeof(what), "%s: formats and the page layout", name);
	CHECK(what, tep_find_event_by_name(ftc_reader_tep(r), "ftctest", "tick") &&
		    tep_find_event_by_name(ftc_reader_tep(r), "ftctest", "where") &&
		    ftc_reader_long_size(r) == 8);
	/* v7 keeps the last cmdlines section: the one given at the end. */
	late = tep_data_comm_from_pid(ftc_reader_tep(r), 43);
	snprintf(what, sizeof(what), "%s: cmdlines of the %s", name,
		 version == 7 ? "end" : "start");
	CHECK(what, !strcmp(tep_data_comm_from_pid(ftc_reader_tep(r), 42), "ftc-test") &&
		    (version == 7) == !strcmp(late, "ftc-late"));
	/* a pid in both: the later name wins, as trace-cmd has it (asan-interop P11) */
	snprintf(what, sizeof(what), "%s: a pid both name is the %s's: %s", name,
		 version == 7 ? "end" : "start", version == 7 ? "sleep" : "bash");
	CHECK(what, !strcmp(tep_data_comm_from_pid(ftc_reader_tep(r), 44),
			    version == 7 ? "sleep" : "bash"));
	b = ftc_reader_nbuffers(r) > 0 ? ftc_reader_buffer(r, 0) : NULL;
	snprintf(what, sizeof(what), "%s: per-CPU stats", name);
	CHECK(what, b && b->ncpus == 2 && b->cpus[0].entries == 7 && b->cpus[1].entries == 8);
	snprintf(what, sizeof(what), "%s: kallsyms and cmdlines print", name);
	CHECK(what, symbol_printed(r));
	ftc_reader_close(r);
}

/* trace-cmd only reads the file; it prints each record with its comm and symbol. */
static void tracecmd_report(const char *name, const char *path, enum ftc_compression comp)
{
	char cmd[512], line[1024], what[128];
	int ticks = 0, wheres = 0, status;
	FILE *p;

	snprintf(what, sizeof(what), "%s: trace-cmd report reads it", name);
	if (system("command -v trace-cmd >/dev/null 2>&1")) {
		SKIP(what, "trace-cmd is not installed");
		return;
	}
	/* Debian's trace-cmd 3.1.6 is built with zstd only. */
	if (comp == FTC_COMPRESS_ZLIB &&
	    system("trace-cmd list -c 2>/dev/null | grep -qw zlib")) {
		SKIP(what, "this trace-cmd has no zlib");
		return;
	}
	snprintf(cmd, sizeof(cmd), "trace-cmd report -i '%s' 2>&1", path);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		ticks += strstr(line, "ftc-test-42") && strstr(line, "tick:") &&
			 strstr(line, "value=") != NULL;
		wheres += strstr(line, "where:") && strstr(line, "ftc_test_func+0x10") != NULL;
	}
	status = p ? pclose(p) : -1;
	CHECK(what, status == 0 && ticks == NEVENTS && wheres == NEVENTS);
	if (status || ticks != NEVENTS || wheres != NEVENTS)
		printf("# %s: status %d, %d ticks, %d wheres\n", cmd, status, ticks, wheres);
}

/*
 * A private mount namespace with tracefs's mount points covered by empty
 * tmpfs: whatever tried to read them now fails. Never mounts unless the
 * namespace is private first (the mount must not reach the host's).
 */
static bool hide_tracefs(void)
{
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return false;
	if (mount("none", "/sys/kernel/tracing", "tmpfs", MS_RDONLY, NULL) < 0)
		return false;
	/* libtracefs would also look under debugfs */
	mount("none", "/sys/kernel/debug", "tmpfs", MS_RDONLY, NULL);
	return true;
}

int main(void)
{
	static const struct {
		int version;
		enum ftc_compression comp;
		const char *name;
	} files[] = {
		{ 6, FTC_COMPRESS_NONE, "v6" },
		{ 7, FTC_COMPRESS_NONE, "v7" },
		{ 7, FTC_COMPRESS_ZSTD, "v7 zstd" },
		{ 7, FTC_COMPRESS_ZLIB, "v7 zlib" },
	};
	char path[] = "/tmp/ftc-test-meta-XXXXXX";
	char what[128];
	int fd;

	if (hide_tracefs())
		printf("# tracefs hidden under an empty tmpfs\n");
	else
		SKIP("tracefs hidden", "no private mount namespace here (not root?): "
		     "the files are still written from the hand-made metadata only");
	fd = mkstemp(path);
	if (fd < 0) {
		printf("FAIL mkstemp: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int ret = write_file(path, files[i].version, files[i].comp);

		snprintf(what, sizeof(what), "%s: written from a hand-made meta", files[i].name);
		CHECK(what, ret == 0);
		if (ret)
			continue;
		read_back(files[i].name, path, files[i].version);
		tracecmd_report(files[i].name, path, files[i].comp);
	}
	unlink(path);
	return CHECK_DONE();
}
