/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The text of ftc_perf:sample and ftc_perf:mmap records with symbols: what
 * ftc report prints (reader/reader-perf.c) and what plugin_ftc_perf.so
 * makes trace-cmd report print, from one source. Needs only a tep with
 * the file's kallsyms (need_kallsyms loads them on first use, if set).
 */
#ifndef FTC_PERF_PRINT_H
#define FTC_PERF_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>

struct ftc_perf_print {
	struct tep_handle *tep;
	void (*need_kallsyms)(void *arg);
	void *arg;
	struct ftc_symbols *syms;
	const char *symfs;	/* ftc_symbols_set_root's, for syms */
	struct ftc_perf_pmap *maps;
	size_t nmaps, cap;
};

/* tep_event_handler_func's, ctx a struct ftc_perf_print. */
int ftc_perf_print_sample(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
			  void *ctx);
int ftc_perf_print_mmap(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
			void *ctx);
/* Frees what printing gathered (maps, symbols), not p. */
void ftc_perf_print_release(struct ftc_perf_print *p);

#endif
