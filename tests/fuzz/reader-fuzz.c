// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over the trace.dat reader: open (v6/v7 metadata,
 * sections, options, decompression), merge every CPU and format every
 * record as text, JSON or the kernel's function_graph layout, or run the
 * analysis passes over them (ftc sched, with its off-CPU stacks, ftc
 * syscalls, funclatency, kwork and block) and the exporters (convert --to
 * perfetto and chrome); an input
 * the full open refuses is opened again for metadata only (ftc dump). Any crash,
 * leak, hang or sanitizer report fails. tests/fuzz/run says how it runs
 * fast (Documentation/hacking.md, "Fuzzing", has the numbers).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ftc.h"
#include "ftc-reader.h"
#include "parse-guard.h"

static void walk(struct ftc_reader *r, FILE *out, unsigned int flags)
{
	struct ftc_merge *m = ftc_merge_open(r, NULL);
	struct ftc_format *f;
	struct ftc_merge_record mr;
	int n = 0;

	if (!m)
		return;
	f = ftc_format_new(r, out, flags);
	if (f) {
		ftc_format_set_merge(f, m);
		/* Peeks at every CPU's first records, as ftc report does. */
		ftc_format_header(f, ftc_merge_guess_tracer(m, r));
		while (ftc_merge_next(m, &mr) == 1 && n++ < 100000)
			ftc_format_record(f, &mr);
		ftc_format_flush(f);
		ftc_format_free(f);
	}
	ftc_merge_close(m);
}

/* The passes that keep per-key tables alone, and the exporters. */
struct small_passes {
	struct ftc_kwork *kw;
	struct ftc_block *bk;
	struct ftc_perfetto *pf;
	struct ftc_chrome *ch;
};

static void small_add(struct small_passes *p, const struct ftc_merge_record *mr)
{
	if (p->kw)
		ftc_kwork_add(p->kw, mr);
	if (p->bk)
		ftc_block_add(p->bk, mr);
	if (p->pf)
		ftc_perfetto_add(p->pf, mr);
	if (p->ch)
		ftc_chrome_add(p->ch, mr);
}

static void small_end(struct small_passes *p)
{
	if (p->kw)
		ftc_kwork_finish(p->kw);
	if (p->bk)
		ftc_block_in_flight(p->bk);
	if (p->pf)
		ftc_perfetto_finish(p->pf);
	if (p->ch)
		ftc_chrome_finish(p->ch);
	ftc_kwork_free(p->kw);
	ftc_block_free(p->bk);
	ftc_perfetto_free(p->pf);
	ftc_chrome_free(p->ch);
}

/*
 * The analysis passes (ftc sched, syscalls, funclatency, kwork, block):
 * fields read at the offsets the file's formats give.
 */
static void walk_passes(struct ftc_reader *r, FILE *out)
{
	struct ftc_sched *s = ftc_sched_new(r, NULL);
	struct ftc_syscalls *sc = ftc_syscalls_new(r, NULL);
	struct ftc_funclat_opts fo = FTC_OPTS_INIT(ftc_funclat_opts, .per_task = true);
	struct ftc_funclat *fl = ftc_funclat_new(r, &fo);
	struct small_passes sp = { ftc_kwork_new(r, NULL), ftc_block_new(r, NULL),
				   ftc_perfetto_new(r, out, NULL), ftc_chrome_new(r, out, NULL) };
	struct ftc_merge *m = ftc_merge_open(r, NULL);
	struct ftc_merge_record mr;
	int n = 0;

	while (m && ftc_merge_next(m, &mr) == 1 && n++ < 100000) {
		if (s)
			ftc_sched_add(s, &mr);
		if (sc)
			ftc_syscalls_add(sc, &mr);
		if (fl)
			ftc_funclat_add(fl, &mr);
		small_add(&sp, &mr);
	}
	small_end(&sp);
	if (s) {
		ftc_sched_finish(s);
		for (size_t i = 0; i < ftc_sched_noffcpu(s); i++)
			ftc_sched_offcpu_at(s, i);
	}
	if (sc)
		ftc_syscalls_finish(sc);
	if (fl)
		ftc_funclat_has_probes(fl);
	ftc_merge_close(m);
	ftc_sched_free(s);
	ftc_syscalls_free(sc);
	ftc_funclat_free(fl);
}

/*
 * One layout per input, picked by its length (the mutator changes lengths
 * all the time): a walk formats every record, and three walks per input
 * cost two thirds of an execution for code the corpus reaches anyway.
 * tests/fuzz/regress.sh runs each kept input through every layout.
 */
static const unsigned int layouts[] = {
	0,
	FTC_FMT_JSON | FTC_FMT_NS,
	FTC_FMT_GRAPH_KERNEL | FTC_FMT_GRAPH_PROC | FTC_FMT_GRAPH_ABSTIME,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	/* cmd/parse-guard.c, as ftc report: libtraceevent's parser crashes on some formats. */
	static const struct ftc_reader_opts opts = FTC_OPTS_INIT(ftc_reader_opts,
		.flags = FTC_READER_NO_PLUGINS,
		.parse_guard = parse_guard);
	struct ftc_reader *r;

	if (!null)
		null = fopen("/dev/null", "w");
	/* From memory: no file, no syscall per read, and ASan sees the exact input. */
	r = ftc_reader_open_mem_opts(data, size, "fuzz-input", &opts);
	if (r) {
		if (size % 4 == 3)
			walk_passes(r, null);
		else
			walk(r, null, layouts[size % 4 % 3]);
		ftc_reader_close(r);
		return 0;
	}
	/*
	 * What ftc dump reads: metadata without libtraceevent, which goes on
	 * past damaged formats to the options and buffers. When the full open
	 * succeeded it walked all of that already.
	 */
	r = ftc_reader_open_mem(data, size, "fuzz-input", FTC_READER_METADATA);
	ftc_reader_close(r);
	return 0;
}
