/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * System calls from a trace's syscall events (libftc/analysis/): a pass
 * over the reader's records (no text formatting) that pairs each task's
 * entry and exit of a call, from the syscalls:sys_enter_NAME and
 * sys_exit_NAME events or raw_syscalls:sys_enter and sys_exit (named from
 * the traced machine's table), gives each call as it returns, and keeps
 * per task and call its count, errors and durations. A string argument's
 * text is the one a probe read at that address just before, on that thread.
 * Memory grows with the tasks and the calls they make, not with the records.
 */
#ifndef FTC_SYSCALLS_H
#define FTC_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_reader;
struct ftc_merge_record;
struct ftc_syscalls;

#define FTC_SYSCALL_MAXARGS 6

/* One call. */
struct ftc_syscall {
	uint64_t ts;			/* its entry (0: before the trace began) */
	uint64_t end;			/* its return (0: still in it at the trace's end) */
	int tid, cpu;			/* cpu: where it returned, else where it entered */
	const char *comm;
	long nr;			/* the machine's number (-1: not known) */
	const char *name;		/* NULL: a number the machine's table lacks */
	int nargs;			/* as the entry event gives them (0: no entry) */
	uint64_t args[FTC_SYSCALL_MAXARGS];
	long long ret;			/* when end is set; -4095..-1 is -errno */
	/* bit i: args[i] is a string in the task's memory (a path), by the entry's format */
	unsigned int string_args;
	/*
	 * That string's text where a probe in the capture read it at that
	 * address on that thread (a uprobe on the C library's wrapper, an
	 * event probe on the entry: fields ptr and str); NULL: not read.
	 */
	const char *strings[FTC_SYSCALL_MAXARGS];
};

typedef void (*ftc_syscall_fn)(const struct ftc_syscall *c, void *ctx);

/* An options structure (FTC_OPTS_INIT). */
struct ftc_syscalls_opts {
	size_t size;			/* sizeof(struct ftc_syscalls_opts) */
	/* the buffer to read: NULL for the first with a syscall record, "" for the top level */
	const char *instance;
	/* each call as it returns, and at the end those still in progress */
	ftc_syscall_fn on_call;
	void *ctx;
};

/* Per task and call: tid -1 and comm "all" for the sums over the tasks. */
struct ftc_syscall_stats {
	int tid;
	const char *comm;
	long nr;
	const char *name;
	uint64_t calls;			/* returned in the trace */
	uint64_t errors;		/* of those, returning -errno */
	uint64_t timed;			/* of those, entered in the trace too */
	uint64_t total_ns, min_ns, max_ns;
	double sumsq_ns;		/* for the deviation */
	uint64_t unfinished;		/* entered, not returned by the end */
};

/* Needs a syscall event's format in r (ENOENT otherwise, naming what to record). */
FTC_API struct ftc_syscalls *ftc_syscalls_new(struct ftc_reader *r,
					      const struct ftc_syscalls_opts *o);
FTC_API void ftc_syscalls_free(struct ftc_syscalls *s);
/* Feeds one record, in timestamp order (ftc_merge_next()); others are passed over. */
FTC_API int ftc_syscalls_add(struct ftc_syscalls *s, const struct ftc_merge_record *mr);
/* Gives the calls still in progress (end 0) and counts them. */
FTC_API void ftc_syscalls_finish(struct ftc_syscalls *s);

/* The (task, call) pairs in the order met; then the sums per call over the tasks. */
FTC_API size_t ftc_syscalls_nstats(const struct ftc_syscalls *s);
FTC_API const struct ftc_syscall_stats *ftc_syscalls_stats_at(const struct ftc_syscalls *s,
							       size_t i);
FTC_API size_t ftc_syscalls_ncalls(const struct ftc_syscalls *s);
FTC_API const struct ftc_syscall_stats *ftc_syscalls_call_at(const struct ftc_syscalls *s,
							      size_t i);
/* The standard deviation of a stats' timed durations, in ns. */
FTC_API double ftc_syscall_stddev_ns(const struct ftc_syscall_stats *st);
/* The records of syscall events read, and the events lost among them. */
FTC_API uint64_t ftc_syscalls_records(const struct ftc_syscalls *s);
FTC_API uint64_t ftc_syscalls_lost(const struct ftc_syscalls *s);
/* The architecture whose numbers name the calls ("x86_64", "arm64"; NULL: unknown). */
FTC_API const char *ftc_syscalls_arch(const struct ftc_syscalls *s);
/* "ENOENT" for -2 (a return value), NULL when not an errno this table knows. */
FTC_API const char *ftc_syscall_errno_name(long long ret);

#ifdef __cplusplus
}
#endif

#endif
