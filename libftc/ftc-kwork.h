/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel work from a trace's irq and workqueue events (libftc/analysis/):
 * a pass over the reader's records (no text formatting) that times each
 * hard interrupt handler (irq_handler_entry to exit), each softirq
 * (softirq_entry to exit, and its delay from softirq_raise), and each work
 * item (workqueue_execute_start to end, and its delay from
 * workqueue_queue_work), as perf kwork does. Memory grows with the
 * handlers (and CPUs), not with the records.
 */
#ifndef FTC_KWORK_H
#define FTC_KWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct ftc_merge_record;
struct ftc_kwork;

enum ftc_kwork_class { FTC_KWORK_IRQ, FTC_KWORK_SOFTIRQ, FTC_KWORK_WORK, FTC_KWORK_NCLASS };

/* One handler: an irq, a softirq vector or a work function, on one CPU or all. */
struct ftc_kwork_item {
	enum ftc_kwork_class cls;
	int cpu;			/* -1: summed over the CPUs */
	uint64_t id;			/* the irq, the vector, the work function's address */
	const char *name;		/* the irq's, the vector's (TIMER, RCU...), the function's */
	uint64_t count;			/* runs that began and ended in the trace */
	uint64_t run_ns, run_max_ns, run_max_at;	/* run_max_at: when the longest began */
	/* softirqs and work: raised or queued to run (the first raise of a run) */
	uint64_t delays, delay_ns, delay_max_ns, delay_max_at;
};

/* An options structure (FTC_OPTS_INIT). */
struct ftc_kwork_opts {
	size_t size;			/* sizeof(struct ftc_kwork_opts) */
	/* the buffer to read: NULL for the first with an irq or workqueue record, "" for the top level */
	const char *instance;
	bool per_cpu;			/* an item per handler and CPU (else per handler) */
};

FTC_API struct ftc_kwork *ftc_kwork_new(struct ftc_reader *r, const struct ftc_kwork_opts *o);
FTC_API void ftc_kwork_free(struct ftc_kwork *k);
/* Feeds one record, in timestamp order (ftc_merge_next()); others are passed over. */
FTC_API int ftc_kwork_add(struct ftc_kwork *k, const struct ftc_merge_record *mr);
/* Names the items (work functions from the file's kallsyms). */
FTC_API void ftc_kwork_finish(struct ftc_kwork *k);
FTC_API size_t ftc_kwork_nitems(const struct ftc_kwork *k);
FTC_API const struct ftc_kwork_item *ftc_kwork_item_at(const struct ftc_kwork *k, size_t i);
/* The records of each class's events read (entry, exit, raise, queue), and events lost. */
FTC_API uint64_t ftc_kwork_records(const struct ftc_kwork *k, enum ftc_kwork_class cls);
FTC_API uint64_t ftc_kwork_lost(const struct ftc_kwork *k);
/* "irq", "softirq", "work". */
FTC_API const char *ftc_kwork_class_name(enum ftc_kwork_class cls);

#ifdef __cplusplus
}
#endif

#endif
