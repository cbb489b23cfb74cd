/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The real-time latency tracers' answers from a trace (libftc/analysis/):
 * what rtla's timerlat top and hist and osnoise top show, per CPU, from
 * the records the tracers write (ftrace:timerlat, ftrace:osnoise) and, when
 * they were enabled, the osnoise:*_noise events that name each source of
 * noise. A pass over the reader's records, no text formatting; memory
 * grows with the CPUs and the noise sources, not with the records.
 */
#ifndef FTC_RTLA_H
#define FTC_RTLA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct ftc_merge_record;
struct ftc_rtla;

/* Where timerlat measured the timer's latency: its IRQ, its thread, user space's return. */
enum ftc_rtla_context { FTC_RTLA_IRQ, FTC_RTLA_THREAD, FTC_RTLA_USER, FTC_RTLA_NCONTEXTS };

/* Log2 buckets of microseconds: bucket i holds [2^i, 2^(i+1)) us, bucket 0 also 0 us; the last all beyond. */
#define FTC_RTLA_BUCKETS 32

struct ftc_rtla_latency {
	uint64_t count;
	uint64_t sum_ns, min_ns, max_ns;
	uint64_t max_at;		/* the record's timestamp of the longest */
	uint64_t buckets[FTC_RTLA_BUCKETS];
};

/* One CPU's timerlat latencies and osnoise periods, summed. */
struct ftc_rtla_cpu {
	int cpu;
	struct ftc_rtla_latency timerlat[FTC_RTLA_NCONTEXTS];
	uint64_t periods;		/* osnoise records (one a period) */
	uint64_t runtime_us, noise_us;	/* summed: availability is 1 - noise / runtime */
	uint64_t max_noise_us;		/* the noisiest period's noise */
	uint64_t max_single_us;		/* the longest single noise */
	uint64_t hw, nmi, irq, softirq, thread;	/* noise counts, by kind */
};

enum ftc_rtla_source_kind {
	FTC_RTLA_SRC_IRQ, FTC_RTLA_SRC_SOFTIRQ, FTC_RTLA_SRC_THREAD, FTC_RTLA_SRC_NMI,
	FTC_RTLA_NSOURCE_KINDS
};

/* One source of noise on one CPU (from the osnoise:*_noise events). */
struct ftc_rtla_source {
	int cpu;
	enum ftc_rtla_source_kind kind;
	uint64_t id;			/* irq vector, softirq vector, thread pid; 0 for NMIs */
	const char *name;		/* the irq's description, the softirq's, the thread's comm */
	uint64_t count, total_ns, max_ns;
};

/* An options structure (FTC_OPTS_INIT). */
struct ftc_rtla_opts {
	size_t size;			/* sizeof(struct ftc_rtla_opts) */
	/* the buffer to read: NULL for the first with a timerlat or osnoise record, "" the top level */
	const char *instance;
};

FTC_API struct ftc_rtla *ftc_rtla_new(struct ftc_reader *r, const struct ftc_rtla_opts *o);
FTC_API void ftc_rtla_free(struct ftc_rtla *t);
/* Feeds one record, in timestamp order (ftc_merge_next()); others are passed over. */
FTC_API int ftc_rtla_add(struct ftc_rtla *t, const struct ftc_merge_record *mr);
/* The CPUs with a record, by CPU number. */
FTC_API size_t ftc_rtla_ncpus(const struct ftc_rtla *t);
FTC_API const struct ftc_rtla_cpu *ftc_rtla_cpu_at(const struct ftc_rtla *t, size_t i);
/* The noise sources, in the order first seen. */
FTC_API size_t ftc_rtla_nsources(const struct ftc_rtla *t);
FTC_API const struct ftc_rtla_source *ftc_rtla_source_at(const struct ftc_rtla *t, size_t i);
/* Records read: timerlat's, osnoise's, the noise events'; and events lost. */
FTC_API uint64_t ftc_rtla_timerlat_records(const struct ftc_rtla *t);
FTC_API uint64_t ftc_rtla_osnoise_records(const struct ftc_rtla *t);
FTC_API uint64_t ftc_rtla_noise_records(const struct ftc_rtla *t);
FTC_API uint64_t ftc_rtla_lost(const struct ftc_rtla *t);
/* "irq", "thread", "user"; "irq", "softirq", "thread", "nmi". */
FTC_API const char *ftc_rtla_context_name(enum ftc_rtla_context c);
FTC_API const char *ftc_rtla_source_kind_name(enum ftc_rtla_source_kind k);

#ifdef __cplusplus
}
#endif

#endif
