// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the trace.dat reader's validation: files too short, with a
 * bad magic, an unknown version, impossible sizes or a broken v7 section
 * chain are refused with a message naming the offset, never read past.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zstd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-reader.h"
#include "reader.h"

static char path[] = "/tmp/ftc-test-reader-XXXXXX";

/*
 * Opens the bytes from memory, then from a file: both ways must agree on
 * success and on the message, which names the same offsets.
 */
static struct ftc_reader *open_bytes(const void *data, size_t len, unsigned int flags)
{
	struct ftc_reader *m = ftc_reader_open_mem(data, len, path, flags), *r;
	char mem_err[512];
	FILE *f = fopen(path, "w");

	snprintf(mem_err, sizeof(mem_err), "%s", m ? "" : ftc_strerror());
	ftc_reader_close(m);
	if (!f)
		return NULL;
	fwrite(data, 1, len, f);
	fclose(f);
	r = ftc_reader_open(path, flags);
	CHECK("memory and file open alike", !m == !r);
	if (!r)
		CHECK_STR("memory and file give one message", mem_err, ftc_strerror());
	return r;
}

/* The common start: magic, version, endianness, long size, page size. */
static size_t start(unsigned char *b, const char *version, unsigned int page)
{
	size_t n = 0;

	memcpy(b, "\x17\x08\x44tracing", 10);
	n = 10;
	memcpy(b + n, version, strlen(version) + 1);
	n += strlen(version) + 1;
	b[n++] = 0;		/* little endian */
	b[n++] = 8;		/* long size */
	memcpy(b + n, &page, 4);
	return n + 4;
}

static void put_u64(unsigned char *b, size_t *n, uint64_t v)
{
	memcpy(b + *n, &v, 8);
	*n += 8;
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/*
 * A zstd v7 file whose only options section is compressed: two frames (so
 * the frame header cannot tell the size) holding the 14-byte DONE option,
 * while the section claims usize bytes.
 */
static size_t zstd_v7(unsigned char *b, size_t cap, uint32_t usize)
{
	unsigned char done[14] = { 0, 0, 8 };	/* DONE: u16 0, u32 8, u64 0 */
	size_t n = start(b, "7", 4096), z, z2, sec;

	memcpy(b + n, "zstd\0" "1.5\0", 9);
	n += 9;
	put_u64(b, &n, n + 8);
	sec = n;
	memset(b + n, 0, 16);
	b[sec + 2] = 1;				/* flags: compressed */
	n += 16 + 8;
	z = ZSTD_compress(b + n, cap - n, done, sizeof(done), 1);
	z2 = ZSTD_compress(b + n + z, cap - n - z, "", 0, 1);
	if (ZSTD_isError(z) || ZSTD_isError(z2))
		return 0;
	memcpy(b + sec + 8, &(uint64_t){ 8 + z + z2 }, 8);
	memcpy(b + sec + 16, &(uint32_t){ (uint32_t)(z + z2) }, 4);
	memcpy(b + sec + 20, &usize, 4);
	return n + z + z2;
}

/*
 * Opening the claim of 400 MB in a child whose address space has 128 MB
 * to spare: 0 when refused as too short, 1 when it failed otherwise (the
 * reader tried to allocate the claim), 2 when it opened.
 */
static int open_under_limit(const unsigned char *b, size_t n)
{
	long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	pid_t pid;
	int st;

	if (f && fscanf(f, "%ld", &pages) != 1)
		pages = 0;
	if (f)
		fclose(f);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl;
		struct ftc_reader *r;

		rl.rlim_cur = rl.rlim_max = (rlim_t)pages * 4096 + (128 << 20);
#ifndef UNDER_ASAN	/* ASan reserves terabytes of shadow up front */
		if (pages)
			setrlimit(RLIMIT_AS, &rl);
#endif
		r = ftc_reader_open_mem(b, n, "claim", FTC_READER_METADATA);
		_exit(r ? 2 : strstr(ftc_strerror(), "shorter than its declared size") ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void compressed_claims(void)
{
	unsigned char b[512];
	struct ftc_reader *r;
	size_t n;

	n = zstd_v7(b, sizeof(b), 14);
	r = n ? open_bytes(b, n, FTC_READER_METADATA) : NULL;
	CHECK("zstd v7, two frames: opens", r != NULL);
	CHECK("zstd v7, two frames: one section", r && ftc_reader_nsections(r) == 1);
	ftc_reader_close(r);
	n = zstd_v7(b, sizeof(b), 10);
	r = open_bytes(b, n, FTC_READER_METADATA);
	CHECK("zstd v7 holding more than it declares: refused",
	      !r && strstr(ftc_strerror(), "longer than its declared size"));
	n = zstd_v7(b, sizeof(b), 400U << 20);
	CHECK("zstd v7 claiming 400 MB: refused as too short, without allocating the claim",
	      open_under_limit(b, n) == 0);
}

static bool parsable(const char *args)
{
	char text[512];
	const char *why;

	snprintf(text, sizeof(text), "name: t\nID: 5\nformat:\n\nprint fmt: \"%%d\", %s\n", args);
	return ftc_fmt_text_parsable(text, strlen(text), &why);
}

/*
 * Formats whose print arguments crash libtraceevent 1.7's parser are
 * refused before it sees them (reader-fmt-check.c); formats of their
 * neighbourhood that it parses are not.
 */
static void test_fmt_check(void)
{
	CHECK("format check: a constant divided by a word (\"0x2 %pfx4\") refused",
	      !parsable("0x2 %pfx4"));
	CHECK("format check: 4 / 0 refused", !parsable("4 / 0"));
	CHECK("format check: an unknown operator after an index refused",
	      !parsable("REC->a[1]; x") && !parsable("REC->a[1].b"));
	CHECK("format check: an unknown operator after a condition refused",
	      !parsable("REC->a ? 1 : 2 # 1") && !parsable("REC->a ? 1 : REC->b[1]"));
	CHECK("format check: a field divided by 0, a known operator after an index or "
	      "a condition, a division in the format string are parsed",
	      parsable("REC->a / 0") && parsable("REC->a[1] + 2") &&
	      parsable("REC->a ? 1 : 2 + 3") && parsable("(REC->a ? 1 : 2) # 1") &&
	      parsable("REC->x % 64") && parsable("4 / sizeof(int)") &&
	      parsable("REC->a[1] ? \"a/0\" : \"b\""));
	CHECK("format check: arguments the parser never reads are not looked at",
	      ftc_fmt_text_parsable("print fmt: \"%d\" 4 / 0", 21, &(const char *){ NULL }) &&
	      ftc_fmt_text_parsable("print fmt: 4 / 0", 16, &(const char *){ NULL }));
}

static void check_fold(const char *in, const char *want)
{
	size_t len = 0;
	char *got = ftc_fmt_fold_sizeof(in, strlen(in), 8, &len), name[300];

	snprintf(name, sizeof(name), "sizeof folded in '%s'", in);
	if (!want)
		CHECK(name, !got);
	else
		CHECK(name, got && !strcmp(got, want) && len == strlen(want));
	free(got);
}

/* sizeof() of known types becomes a number (reader-fmt-sizeof.c). */
static void test_fold_sizeof(void)
{
	check_fold("__print_array(REC->v, 4, sizeof(u64))", "__print_array(REC->v, 4, 8)");
	check_fold("sizeof(unsigned  int) + sizeof(u8), sizeof( long )", "4 + 1, 8");
	check_fold("a(sizeof(struct x)) sizeof(REC->f)", NULL);
	check_fold("my_sizeof(int)", NULL);
	check_fold("no size here", NULL);
}

int main(void)
{
	unsigned char b[256];
	struct ftc_reader *r;
	size_t n;
	int fd = mkstemp(path);

	if (fd < 0) {
		SKIP("reader", "cannot create a temporary file");
		return CHECK_DONE();
	}
	close(fd);
	test_fmt_check();
	test_fold_sizeof();

	r = open_bytes("\x17\x08", 2, FTC_READER_METADATA);
	CHECK("2-byte file refused", !r);
	CHECK("2-byte file: message names the offset",
	      strstr(ftc_strerror(), "offset 0") && strstr(ftc_strerror(), "file header"));

	r = open_bytes("vm\n", 3, FTC_READER_METADATA);
	CHECK("3-byte text file: not a trace.dat", !r && strstr(ftc_strerror(), "not a trace.dat"));
	r = open_bytes("", 0, FTC_READER_METADATA);
	CHECK("empty file: not a trace.dat", !r && strstr(ftc_strerror(), "not a trace.dat"));

	memcpy(b, "\x17\x08\x45tracing6", 12);
	r = open_bytes(b, 12, FTC_READER_METADATA);
	CHECK("bad magic refused", !r && strstr(ftc_strerror(), "not a trace.dat"));

	n = start(b, "8", 4096);
	r = open_bytes(b, n, FTC_READER_METADATA);
	CHECK("version 8 refused", !r && strstr(ftc_strerror(), "version '8'"));

	n = start(b, "6", 4095);
	r = open_bytes(b, n, FTC_READER_METADATA);
	CHECK("page size 4095 refused", !r && strstr(ftc_strerror(), "page size 4095"));

	/* v6 whose header_page claims more bytes than the file has. */
	n = start(b, "6", 4096);
	memcpy(b + n, "header_page", 12);
	n += 12;
	put_u64(b, &n, 1ULL << 40);
	r = open_bytes(b, n, FTC_READER_METADATA);
	CHECK("v6 oversized header_page refused", !r);
	CHECK("v6 oversized: message names the block and the offset",
	      strstr(ftc_strerror(), "headers at offset") && strstr(ftc_strerror(), "past the end"));

	/* v7 with no compression and an options pointer beyond the end. */
	n = start(b, "7", 4096);
	memcpy(b + n, "none\0\0", 6);
	n += 6;
	put_u64(b, &n, 9999);
	r = open_bytes(b, n, FTC_READER_METADATA);
	CHECK("v7 options offset outside the file refused", !r);
	CHECK("v7: message names the options section and offset",
	      strstr(ftc_strerror(), "options section offset 9999"));

	/* v7 with an unknown compressor. */
	n = start(b, "7", 4096);
	memcpy(b + n, "lz77\0" "1\0", 7);
	n += 7;
	put_u64(b, &n, 0);
	r = open_bytes(b, n, FTC_READER_METADATA);
	CHECK("v7 unknown compression refused", !r && strstr(ftc_strerror(), "'lz77'"));

	/* v7 whose first section claims more than the file: chain broken, options missing. */
	n = start(b, "7", 4096);
	memcpy(b + n, "none\0\0", 6);
	n += 6;
	put_u64(b, &n, n + 8);
	memset(b + n, 0, 16);			/* options section header, id 0 */
	memcpy(b + n + 8, &(uint64_t){ 1000 }, 8);	/* size 1000: past the end */
	n += 16;
	r = open_bytes(b, n, FTC_READER_METADATA);
	CHECK("v7 section larger than the file refused", !r);
	CHECK("v7 section: message says truncated",
	      strstr(ftc_strerror(), "claims 1000 bytes") && strstr(ftc_strerror(), "truncated"));

	/* A smallest valid v7: one empty options section ending with DONE = 0. */
	n = start(b, "7", 4096);
	memcpy(b + n, "none\0\0", 6);
	n += 6;
	put_u64(b, &n, n + 8);
	memset(b + n, 0, 16);
	memcpy(b + n + 8, &(uint64_t){ 14 }, 8);
	n += 16;
	memset(b + n, 0, 14);			/* DONE: u16 0, u32 8, u64 0 */
	b[n + 2] = 8;
	n += 14;
	r = open_bytes(b, n, FTC_READER_METADATA);
	CHECK("minimal v7 opens", r != NULL);
	if (r) {
		CHECK("minimal v7: version", ftc_reader_version(r) == 7);
		CHECK_STR("minimal v7: compression", ftc_reader_compression(r), "none");
		CHECK("minimal v7: one section", ftc_reader_nsections(r) == 1);
		CHECK("minimal v7: no buffers", ftc_reader_nbuffers(r) == 0);
		CHECK("minimal v7: no warnings", ftc_reader_warnings(r) == NULL);
		ftc_reader_close(r);
	}
	/* With libtraceevent, and a plugin directory of the caller's (empty). */
	{
		char dir[] = "/tmp/ftc-test-plugins-XXXXXX";
		struct ftc_reader_opts o = FTC_OPTS_INIT(ftc_reader_opts, .plugin_dir = dir);

		if (mkdtemp(dir)) {
			r = ftc_reader_open_opts(path, &o);
			CHECK("minimal v7 opens with a plugin directory",
			      r && ftc_reader_tep(r) != NULL);
			ftc_reader_close(r);
			rmdir(dir);
		} else {
			SKIP("minimal v7 opens with a plugin directory", "no temporary directory");
		}
	}
	/* The same with DONE linking to itself: the loop ends. */
	memcpy(b + n - 8, &(uint64_t){ n - 30 }, 8);
	r = open_bytes(b, n, FTC_READER_METADATA);
	CHECK("self-linked options sections end", r != NULL);
	CHECK("self-linked options sections: warned",
	      r && ftc_reader_warnings(r) && strstr(ftc_reader_warnings(r), "loop"));
	ftc_reader_close(r);

	compressed_claims();
	CHECK_STR("option name", ftc_option_name(14), "TSC2NSEC");
	CHECK_STR("unknown option name", ftc_option_name(999), "UNKNOWN");
	unlink(path);
	return CHECK_DONE();
}
