/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A trace.dat as Perfetto's protobuf trace (libftc/export/): a pass over
 * the reader's records, in timestamp order, that writes per-CPU
 * FtraceEventBundle packets as the records come (the events Perfetto
 * parses into its scheduling, thread, irq and slice tables typed, the
 * sched_switch and sched_waking records in its compact encoding, every
 * other event as a generic event with its fields), perf samples stored by
 * ftc record --sample as PerfSample packets with interned call stacks,
 * --counters readings as counter tracks (the count per interval),
 * then the kernel's uname and the tasks' names and processes. Memory
 * follows the CPUs, tasks, symbols and stacks, not the records.
 */
#ifndef FTC_PERFETTO_H
#define FTC_PERFETTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct ftc_merge_record;
struct ftc_perfetto;

/* An options structure (FTC_OPTS_INIT). */
struct ftc_perfetto_opts {
	size_t size;			/* sizeof(struct ftc_perfetto_opts) */
	/* every sched_switch and sched_waking as a typed event, with all
	 * its fields, instead of the compact arrays */
	bool no_compact_sched;
	/* bytes of events per CPU before its bundle is written (0: 64 KiB) */
	size_t bundle_bytes;
};

/* What the pass wrote; a sized value type (set size before the call). */
struct ftc_perfetto_stats {
	size_t size;			/* sizeof(struct ftc_perfetto_stats) */
	uint64_t records;		/* records taken */
	uint64_t typed;			/* as one of Perfetto's typed events */
	uint64_t compact;		/* in the compact sched arrays */
	uint64_t generic;		/* as generic events, every field kept */
	uint64_t samples;		/* perf samples */
	uint64_t readings;		/* perf counter readings */
	uint64_t unknown;		/* records of no known format: not written */
	uint64_t lost_marks;		/* bundles marked as following a loss */
	uint64_t packets, bytes;	/* what was written */
};

/*
 * A pass writing to out, which stays the caller's. The perf samples' code
 * mappings are read from r first, when it holds an ftc_perf buffer.
 */
FTC_API struct ftc_perfetto *ftc_perfetto_new(struct ftc_reader *r, FILE *out,
					      const struct ftc_perfetto_opts *o);
FTC_API void ftc_perfetto_free(struct ftc_perfetto *p);
/* Feeds one record, in timestamp order (ftc_merge_next()). 0, or -1. */
FTC_API int ftc_perfetto_add(struct ftc_perfetto *p, const struct ftc_merge_record *mr);
/* Writes what is pending, the system info and the task table. 0, or -1 (a write failed). */
FTC_API int ftc_perfetto_finish(struct ftc_perfetto *p);
FTC_API int ftc_perfetto_stats(const struct ftc_perfetto *p, struct ftc_perfetto_stats *st);

#ifdef __cplusplus
}
#endif

#endif
