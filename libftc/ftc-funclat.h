/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Function latency from a trace (libftc/analysis/funclat-pass.c): a pass
 * over the reader's records (no text formatting) that takes each call's
 * duration from function_graph's funcgraph_exit (calltime to rettime), or
 * pairs a probe's entry with its return on the same thread (kprobe and
 * kretprobe, fprobe entry and exit, uprobe and uretprobe: the entry's
 * __probe_ip is the return's __probe_func). Per function, or per function
 * and task, it keeps the count, the total, minimum and maximum, a log2
 * histogram and the slowest calls. Memory grows with the functions, tasks
 * and open calls, not with the records.
 */
#ifndef FTC_FUNCLAT_H
#define FTC_FUNCLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct ftc_merge_record;
struct ftc_funclat;

#define FTC_FUNCLAT_BUCKETS 64
#define FTC_FUNCLAT_SLOWEST 16		/* the most slowest calls kept per function */

/* One call, given when it returns. */
struct ftc_funclat_call {
	const char *func;		/* its name (a probe's event name when no symbol has it) */
	uint64_t start, ns;		/* entry time and duration */
	int pid;			/* the thread */
	int depth;			/* function_graph's depth; -1 for a probe */
};

typedef void (*ftc_funclat_call_fn)(const struct ftc_funclat_call *c, void *ctx);

struct ftc_funclat_slow {
	uint64_t start, ns;
	int pid;
};

/* One function (and, with per_task, one task). */
struct ftc_funclat_stat {
	const char *func;
	uint64_t addr;
	int pid;			/* per_task: the task; else 0 */
	uint64_t count, total_ns, min_ns, max_ns;
	uint64_t hist[FTC_FUNCLAT_BUCKETS];	/* bucket i: [2^i, 2^(i+1)) ns */
	size_t nslow;			/* the slowest first */
	struct ftc_funclat_slow slow[FTC_FUNCLAT_SLOWEST];
};

enum ftc_funclat_source {
	FTC_FUNCLAT_NONE = 0,		/* no call seen */
	FTC_FUNCLAT_GRAPH = 1,		/* funcgraph_exit records */
	FTC_FUNCLAT_PROBES = 2,		/* entry and return probe pairs */
};

/* An options structure (FTC_OPTS_INIT). */
struct ftc_funclat_opts {
	size_t size;			/* sizeof(struct ftc_funclat_opts) */
	/* the buffer to read: NULL for the first with a call, "" for the top level */
	const char *instance;
	const char *func;		/* a glob of the functions to keep (NULL: all) */
	bool per_task;
	unsigned int slowest;		/* slowest calls kept per function (0: 5) */
	uint64_t min_ns;		/* calls shorter than this are not counted */
	ftc_funclat_call_fn on_call;	/* NULL: none */
	void *ctx;
};

FTC_API struct ftc_funclat *ftc_funclat_new(struct ftc_reader *r,
					    const struct ftc_funclat_opts *o);
FTC_API void ftc_funclat_free(struct ftc_funclat *f);
/* Feeds one record, in timestamp order (ftc_merge_next()); others are passed over. */
FTC_API int ftc_funclat_add(struct ftc_funclat *f, const struct ftc_merge_record *mr);
FTC_API size_t ftc_funclat_nstats(const struct ftc_funclat *f);
FTC_API const struct ftc_funclat_stat *ftc_funclat_stat_at(const struct ftc_funclat *f, size_t i);
/* Which records gave the calls (a bit set of enum ftc_funclat_source). */
FTC_API int ftc_funclat_sources(const struct ftc_funclat *f);
/*
 * Whether the file defines a return probe (kretprobe, fprobe exit,
 * uretprobe), recorded or not. (Every file has funcgraph_exit's format:
 * only its records tell that function_graph ran.)
 */
FTC_API bool ftc_funclat_has_probes(struct ftc_funclat *f);
/* Records read; returns without their entry; entries still open at the end. */
FTC_API uint64_t ftc_funclat_records(const struct ftc_funclat *f);
FTC_API uint64_t ftc_funclat_unmatched(const struct ftc_funclat *f);
FTC_API uint64_t ftc_funclat_open_calls(const struct ftc_funclat *f);
FTC_API uint64_t ftc_funclat_lost(const struct ftc_funclat *f);

#ifdef __cplusplus
}
#endif

#endif
