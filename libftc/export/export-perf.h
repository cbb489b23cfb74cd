/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the exporters read of ftc record's perf data (export-perf.c): the
 * samples (ftc_perf:sample) with their frames named from the code
 * mappings that the file's comm and mmap records give (read in a pass of
 * their own when opened), and the counter readings (ftc_perf:counter),
 * scaled when the counter was multiplexed. Fields are read at their
 * offsets and copied out: payloads are only 4-byte aligned.
 */
#ifndef FTC_EXPORT_PERF_H
#define FTC_EXPORT_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-perf.h"

struct ftc_reader;
struct tep_handle;
struct tep_event;
struct tep_record;
struct tep_format_field;

#define FTC_XPERF_MAX_FRAMES	256

struct ftc_xperf {
	struct tep_handle *tep;
	struct ftc_perf_profile *prof;
	struct ftc_symbols *syms;
	struct tep_event *sample_ev, *counter_ev;
	struct tep_format_field *f_ip, *f_tid, *f_cpu, *f_period, *f_chain;
	struct tep_format_field *f_value, *f_ena, *f_run, *f_name;
};

enum ftc_xperf_kind { FTC_XPERF_OTHER, FTC_XPERF_SAMPLE, FTC_XPERF_COUNTER };

struct ftc_xperf_sample {
	uint32_t pid, tid, cpu;
	uint64_t ip, period;
	bool kernel;			/* the sampled address is the kernel's */
	int nframes;			/* in the caller's frames, leaf first */
};

struct ftc_xperf_reading {
	const char *name;		/* not NUL-terminated: len bytes */
	size_t len;
	double value;			/* since the counter was enabled */
};

/* The index of r's ftc_perf buffer, where ftc record stores them, or -1. */
int ftc_xperf_buffer(struct ftc_reader *r);
/* 0, or -1 with a message; x is then ready for ftc_xperf_close(). */
int ftc_xperf_open(struct ftc_xperf *x, struct ftc_reader *r);
void ftc_xperf_close(struct ftc_xperf *x);
enum ftc_xperf_kind ftc_xperf_kind(const struct ftc_xperf *x, struct tep_record *rec);
/* A sample record's fields and frames (FTC_XPERF_MAX_FRAMES at most). */
void ftc_xperf_sample(struct ftc_xperf *x, struct tep_record *rec, struct ftc_xperf_sample *s,
		      struct ftc_perf_frame *frames);
void ftc_xperf_reading(const struct ftc_xperf *x, const struct tep_record *rec,
		       struct ftc_xperf_reading *rd);

#endif
