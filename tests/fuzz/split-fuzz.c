// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over ftc convert and ftc split: a trace.dat from the
 * input, written anew (v7 zstd, v7 none or v6, by the input's length) and
 * then cut into parts of a few records each. Their page copying and the
 * cutting of pages at an event work on the file's own bytes. Any crash,
 * leak, hang or sanitizer report fails (tests/fuzz/run --target split).
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-convert.h"
#include "ftc-reader.h"
#include "ftc-writer.h"
#include "parse-guard.h"
#include "mem-path.h"

static void split(struct ftc_reader *r, int unit, uint64_t count, bool per_cpu, int *fd)
{
	struct ftc_split_opts o = FTC_OPTS_INIT(ftc_split_opts, .unit = unit, .count = count,
						.per_cpu = per_cpu);
	struct ftc_split *s = ftc_split_open(r, &o);
	char path[64];

	for (int parts = 0; s && parts < 64 && fuzz_mem_path(fd, path, sizeof(path)); parts++)
		if (ftc_split_next(s, path) != 1)
			break;
	ftc_split_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ftc_reader_opts ropts = FTC_OPTS_INIT(ftc_reader_opts,
		.flags = FTC_READER_NO_PLUGINS, .parse_guard = parse_guard);
	static const int versions[] = { 7, 7, 6 };
	static const int algs[] = { FTC_COMPRESS_ZSTD, FTC_COMPRESS_NONE, FTC_COMPRESS_NONE };
	static int fd = -1;
	struct ftc_convert_opts co = FTC_OPTS_INIT(ftc_convert_opts,
		.version = versions[size % 3], .compression = algs[size % 3]);
	struct ftc_reader *r = ftc_reader_open_mem_opts(data, size, "fuzz-input", &ropts);
	char path[64];

	if (!r)
		return 0;
	if (fuzz_mem_path(&fd, path, sizeof(path)))
		ftc_convert(r, path, &co);
	ftc_reader_close(r);
	/* the split reads a fresh reader: convert has walked the first to its end */
	r = ftc_reader_open_mem_opts(data, size, "fuzz-input", &ropts);
	if (r) {
		split(r, size % 2 ? FTC_SPLIT_EVENTS : FTC_SPLIT_NSECS,
		      size % 2 ? 7 : 1000000, size % 5 == 0, &fd);
		ftc_reader_close(r);
	}
	return 0;
}
