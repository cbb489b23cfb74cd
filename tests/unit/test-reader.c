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
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-reader.h"

static char path[] = "/tmp/ftc-test-reader-XXXXXX";

static struct ftc_reader *open_bytes(const void *data, size_t len, unsigned int flags)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return NULL;
	fwrite(data, 1, len, f);
	fclose(f);
	return ftc_reader_open(path, flags);
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

	r = open_bytes("\x17\x08", 2, FTC_READER_METADATA);
	CHECK("2-byte file refused", !r);
	CHECK("2-byte file: message names the offset",
	      strstr(ftc_strerror(), "offset 0") && strstr(ftc_strerror(), "file header"));

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
		struct ftc_reader_opts o = { .plugin_dir = dir };

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

	CHECK_STR("option name", ftc_option_name(14), "TSC2NSEC");
	CHECK_STR("unknown option name", ftc_option_name(999), "UNKNOWN");
	unlink(path);
	return CHECK_DONE();
}
