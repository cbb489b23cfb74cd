// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over ftc import (libftc/import/): the input is a
 * console log. Every dump it holds is parsed; the first and the last are
 * written as trace.dat (v7 zstd, or v6 by the input's length) with a few
 * kallsyms, so function and funcgraph records are made too, and the file
 * written must open in ftc's reader and walk to its end with every record
 * printed through libtraceevent: import writing a file that ftc cannot
 * read is a finding like a crash (abort). Any crash, leak, hang or
 * sanitizer report fails (tests/fuzz/run --target import).
 */
#include <event-parse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-import.h"
#include "ftc-merge.h"
#include "ftc-reader.h"
#include "ftc-writer.h"
#include "mem-path.h"

static const char ksyms[] =
	"ffffffff81000000 T do_sys_openat2\n"
	"ffffffff81000100 T __x64_sys_openat\n"
	"ffffffff81000200 t getname\n"
	"ffffffff81000300 t getname_flags.part.0\n"
	"ffffffff81000400 T __handle_sysrq\n"
	"ffffffff81000500 T sysrq_handle_crash\n"
	"ffffffff81000600 t write_sysrq_trigger\n"
	"ffffffff81000700 T panic\n";

static void walk(const char *path)
{
	struct ftc_reader *r = ftc_reader_open(path, FTC_READER_NO_PLUGINS);
	struct ftc_merge_record mr;
	struct ftc_merge *m;
	struct trace_seq s;
	int ret;

	if (!r) {
		fprintf(stderr, "import wrote a file the reader refuses: %s\n", ftc_strerror());
		abort();
	}
	m = ftc_merge_open(r, NULL);
	if (!m)
		abort();
	trace_seq_init(&s);
	while ((ret = ftc_merge_next(m, &mr)) == 1) {
		trace_seq_reset(&s);
		tep_print_event(ftc_reader_tep(r), &s, mr.rec, "%s %s", TEP_PRINT_NAME,
				TEP_PRINT_INFO);
	}
	trace_seq_destroy(&s);
	ftc_merge_close(m);
	ftc_reader_close(r);
	if (ret < 0) {
		fprintf(stderr, "the reader stopped in a file import wrote: %s\n", ftc_strerror());
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct ftc_import *im = ftc_import_parse((const char *)data, size);
	char path[64];
	int n;

	if (!im)
		return 0;
	n = ftc_import_ndumps(im);
	for (int d = 0; d < n; d++) {
		const char *text;

		ftc_import_header(im, d);
		for (size_t i = 0; i < ftc_import_nbad(im, d); i++)
			ftc_import_bad_line(im, d, i, &text);
	}
	if (n && ftc_import_set_kallsyms(im, ksyms, sizeof(ksyms) - 1) > 0) {
		for (int d = 0; d < n; d = d ? n : (n > 1 ? n - 1 : n)) {
			int v6 = size % 3 == 0;

			if (fuzz_mem_path(&fd, path, sizeof(path)) &&
			    ftc_import_write(im, d, path, v6 ? 6 : 7,
					     v6 ? FTC_COMPRESS_NONE : FTC_COMPRESS_ZSTD) == 0)
				walk(path);
		}
	}
	ftc_import_free(im);
	return 0;
}
