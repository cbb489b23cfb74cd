/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The perf_event_open bridge: event names to perf_event_attr, event lists
 * opened per task or per CPU, counting with time_enabled/time_running
 * scaling, the mmap ring-buffer reader for sampling, and symbolization.
 *
 * Data path: parse names (ftc_perf_evlist_add) -> set the target
 * (ftc_perf_evlist_target) -> open (ftc_perf_evlist_open) -> enable ->
 * read (ftc_perf_evlist_read) or drain the ring (ftc_perf_ring_*).
 */
#ifndef FTC_PERF_H
#define FTC_PERF_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_symbols;

enum ftc_perf_kind {
	FTC_PERF_HARDWARE,
	FTC_PERF_SOFTWARE,
	FTC_PERF_CACHE,
	FTC_PERF_RAW,
	FTC_PERF_TRACEPOINT,
};

/* Why an event shows no count. */
enum ftc_perf_state {
	FTC_PERF_OK,
	FTC_PERF_UNSUPPORTED,	/* the kernel or PMU refused to open it */
	FTC_PERF_NOT_COUNTED,	/* opened, but never scheduled on a counter */
};

/*
 * An event list and its events are the library's (perf-evlist.c): made
 * with ftc_perf_evlist_new(), read through the accessors below, freed
 * with ftc_perf_evlist_free().
 */
struct ftc_perf_evlist;
struct ftc_perf_event;

/* One reading: raw value and the times the kernel reports for scaling. */
struct ftc_perf_count {
	uint64_t val;
	uint64_t ena;
	uint64_t run;
};

/*
 * Resolves one event name without modifiers' or globs' expansion, e.g.
 * "page-faults", "L1-dcache-load-misses", "r01c2", "sched:sched_switch",
 * each with optional ":ukh" modifiers. Returns 0, or -1 with EINVAL
 * (unknown name or modifier) or ENOENT (no such tracepoint).
 */
FTC_API int ftc_perf_event_resolve(const char *name, struct perf_event_attr *attr,
				   enum ftc_perf_kind *kind);

/*
 * Adds a comma-separated list of events, with groups "{a,b}" (and a
 * modifier after the brace applying to each member) and tracepoint globs
 * ("syscalls:sys_enter_*"). Returns the number of events added or -1.
 */
FTC_API struct ftc_perf_evlist *ftc_perf_evlist_new(void);
FTC_API int ftc_perf_evlist_add(struct ftc_perf_evlist *l, const char *spec);
/* Closes what is open and frees the list with its events; NULL is a no-op. */
FTC_API void ftc_perf_evlist_free(struct ftc_perf_evlist *l);
/* The number of events added so far. */
FTC_API int ftc_perf_evlist_count(const struct ftc_perf_evlist *l);
/* Event i, or NULL when i is out of range; valid until the list is freed or grows. */
FTC_API const struct ftc_perf_event *ftc_perf_evlist_event(const struct ftc_perf_evlist *l, int i);
/*
 * The CPU slots of the target (ftc_perf_evlist_target): how many, and the
 * CPU of each (-1 when the list counts per task on any CPU). 0 slots before
 * a target is set; ftc_perf_evlist_cpu() is -1 out of range.
 */
FTC_API int ftc_perf_evlist_ncpus(const struct ftc_perf_evlist *l);
FTC_API int ftc_perf_evlist_cpu(const struct ftc_perf_evlist *l, int slot);

/*
 * Where to count: pids (each thread) with cpu -1, or cpus with pid -1.
 * ftc_perf_pid_threads lists the threads of a process from /proc.
 * ftc_perf_parse_cpus parses "0-3,5"; NULL means every online CPU.
 */
FTC_API int ftc_perf_evlist_target(struct ftc_perf_evlist *l, const pid_t *pids, int npids,
				   const int *cpus, int ncpus);
FTC_API int ftc_perf_pid_threads(pid_t pid, pid_t **tids);
FTC_API int ftc_perf_parse_cpus(const char *list, int **cpus);

/*
 * Counts event i only while the tasks of a cgroup run (perf stat -G): name
 * is a path under the hierarchy of the perf_event controller (a cgroup v1
 * mount with perf_event, else the cgroup2 mount), e.g. "system.slice". Its
 * directory is opened now (ENOENT: no such cgroup); the list must count per
 * CPU (ftc_perf_evlist_target with cpus, no pids) when it is opened. NULL
 * counts every task again. ftc_perf_event_cgroup() is the name, or NULL.
 */
FTC_API int ftc_perf_evlist_cgroup(struct ftc_perf_evlist *l, int i, const char *name);
FTC_API const char *ftc_perf_event_cgroup(const struct ftc_perf_event *e);

/* Flags of ftc_perf_evlist_open. */
#define FTC_PERF_ENABLE_ON_EXEC	0x1	/* start counting at the target's exec */
#define FTC_PERF_INHERIT	0x2	/* count the target's future children */

/*
 * Opens every event at every slot. An event the kernel refuses stays
 * closed with ftc_perf_event_open_errno() set: the caller shows it as
 * unsupported.
 * Returns the number of events that opened (0 is not an error), or -1.
 */
FTC_API int ftc_perf_evlist_open(struct ftc_perf_evlist *l, unsigned int flags);
FTC_API void ftc_perf_evlist_close(struct ftc_perf_evlist *l);
FTC_API int ftc_perf_evlist_enable(struct ftc_perf_evlist *l, bool on);

/*
 * Reads event i summed over pid slots, at one cpu slot (cpu_slot >= 0)
 * or over all of them (cpu_slot < 0).
 */
FTC_API int ftc_perf_evlist_read(const struct ftc_perf_evlist *l, int i, int cpu_slot,
				 struct ftc_perf_count *out);
FTC_API enum ftc_perf_state ftc_perf_evlist_state(const struct ftc_perf_evlist *l, int i,
						  const struct ftc_perf_count *c);

/* Value scaled by ena/run when the counter was multiplexed. */
FTC_API double ftc_perf_count_scaled(const struct ftc_perf_count *c);
/* Percentage of the enabled time the counter ran (100 when never enabled). */
FTC_API double ftc_perf_count_running_pct(const struct ftc_perf_count *c);
/* c = a - b, for interval deltas. */
FTC_API void ftc_perf_count_sub(struct ftc_perf_count *c, const struct ftc_perf_count *a,
				const struct ftc_perf_count *b);

/* An event's name as the user wrote it, e.g. "cycles:u" (a glob expanded). */
FTC_API const char *ftc_perf_event_name(const struct ftc_perf_event *e);
FTC_API enum ftc_perf_kind ftc_perf_event_kind(const struct ftc_perf_event *e);
/* The attributes it is (or will be) opened with. */
FTC_API const struct perf_event_attr *ftc_perf_event_attr(const struct ftc_perf_event *e);
/* The index of its group leader in the list (its own when alone). */
FTC_API int ftc_perf_event_leader(const struct ftc_perf_event *e);
/* The errno of the kernel's first refusal to open it, 0 when it opened (or
 * was not opened yet): such an event shows as unsupported. */
FTC_API int ftc_perf_event_open_errno(const struct ftc_perf_event *e);
/* The name of a clock event ("task-clock", "cpu-clock") counts nanoseconds. */
FTC_API bool ftc_perf_event_is_clock(const struct ftc_perf_event *e);
FTC_API bool ftc_perf_event_is(const struct ftc_perf_event *e, uint32_t type, uint64_t config);

/* Prints the symbolic event names, one a line, for `ftc stat --list`. */
FTC_API void ftc_perf_list_symbolic(FILE *f);

/* The mmap ring buffer of one sampling event (perf-ring.c). */
struct ftc_perf_ring;
typedef int (*ftc_perf_record_fn)(const struct perf_event_header *h, void *ctx);

/* Maps 1 + data_pages (a power of two) pages of an opened sampling fd,
 * which stays the caller's to close (after the unmap). */
FTC_API struct ftc_perf_ring *ftc_perf_ring_map(int fd, size_t data_pages);
/* Unmaps and frees the ring; NULL is a no-op. */
FTC_API void ftc_perf_ring_unmap(struct ftc_perf_ring *r);
/* Calls fn on every record the kernel wrote since the last drain; a
 * negative return of fn stops. Returns the number of records or -1. */
FTC_API int ftc_perf_ring_drain(struct ftc_perf_ring *r, ftc_perf_record_fn fn, void *ctx);

/* A PERF_RECORD_SAMPLE, parsed; ips points into the record. */
struct ftc_perf_sample {
	uint64_t id, ip, addr, time, period;
	uint32_t pid, tid, cpu;
	uint64_t nr;
	const uint64_t *ips;
};
FTC_API int ftc_perf_sample_parse(const struct perf_event_header *h, uint64_t sample_type,
				  struct ftc_perf_sample *s);

/*
 * A profile in memory (perf-profile.c): samples and the process state
 * (names, executable mappings) that the COMM, MMAP2 and FORK records
 * carried, so symbolization works after the processes are gone.
 */
struct ftc_perf_profile;

/* A code mapping of a process, as an MMAP2 record or /proc/PID/maps tells it. */
struct ftc_perf_map {
	uint64_t start, len, pgoff;
	char *file;
};

/* One resolved frame. A symbol that could not be found is "dso+0xoffset". */
struct ftc_perf_frame {
	char sym[256];
	const char *dso;	/* base name, "[kernel.kallsyms]" or "[unknown]" */
	bool kernel;
};

/*
 * An empty profile for records whose samples carry sample_type's fields
 * (PERF_SAMPLE_*, as the event's attr says). A profile filled by the
 * sampler or by ftc_reader_profile_select() gets the type of its source.
 */
FTC_API struct ftc_perf_profile *ftc_perf_profile_new(uint64_t sample_type);
/* An ftc_perf_record_fn: ctx is the profile. */
FTC_API int ftc_perf_profile_add(const struct perf_event_header *h, void *ctx);
/* NULL is a no-op. */
FTC_API void ftc_perf_profile_free(struct ftc_perf_profile *p);
/* Adds every live process's name and code mappings from /proc, for
 * system-wide sampling of processes that started earlier. */
FTC_API int ftc_perf_profile_synthesize(struct ftc_perf_profile *p);
FTC_API const char *ftc_perf_profile_comm(struct ftc_perf_profile *p, uint32_t pid);
/* The samples added so far, and the samples the kernel said it dropped
 * (LOST records). */
FTC_API size_t ftc_perf_profile_nsamples(const struct ftc_perf_profile *p);
FTC_API uint64_t ftc_perf_profile_lost(const struct ftc_perf_profile *p);
/*
 * The frames of nr addresses of process pid (a call chain, leaf first,
 * its context marks included; kernel: whose addresses come before the
 * first mark), named with the profile's maps: as many as were written.
 */
FTC_API int ftc_perf_profile_resolve(struct ftc_perf_profile *p, struct ftc_symbols *syms,
				     uint32_t pid, bool kernel, const uint64_t *ips, size_t nr,
				     struct ftc_perf_frame *frames, int max);
/*
 * Frames unwound through code without frame pointers say one thing:
 * unknown. A run of them becomes one frame, as folded stacks, flame graphs
 * and the exporters show it; returns how many frames are left.
 */
FTC_API int ftc_perf_frames_one_unknown(struct ftc_perf_frame *frames, int n);
/* Sample i's frames, leaf first. Returns how many were written. */
FTC_API int ftc_perf_profile_frames(struct ftc_perf_profile *p, struct ftc_symbols *syms, size_t i,
				    struct ftc_perf_frame *frames, int max);

/*
 * Sampling (perf-sample.c): one event, a ring per CPU, into a profile.
 * The options are an options structure (FTC_OPTS_INIT).
 */
struct ftc_perf_sample_opts {
	size_t size;			/* sizeof(struct ftc_perf_sample_opts) */
	unsigned long long freq;	/* samples per second (default 4000) ... */
	unsigned long long period;	/* ... or one sample every period events */
	bool callchain;
	size_t pages;			/* data pages per ring, a power of two (64) */
	unsigned int flags;		/* FTC_PERF_ENABLE_ON_EXEC, FTC_PERF_INHERIT */
	/* > 0: call chains whose user part is unwound with DWARF from this
	 * many bytes of user stack copied per sample (perf --call-graph
	 * dwarf; a multiple of 8 up to 65528, perf's default is 8192) */
	unsigned int dwarf_stack;
};

struct ftc_perf_sampler;

/*
 * Opens event (NULL: cpu-clock) on the target as ftc_perf_evlist_target
 * takes it, disabled (or enabled at the target's exec with
 * FTC_PERF_ENABLE_ON_EXEC), and maps a ring per slot. A hardware event
 * the PMU refuses falls back to cpu-clock (see ftc_perf_sampler_note).
 */
FTC_API struct ftc_perf_sampler *ftc_perf_sampler_open(const char *event,
						       const struct ftc_perf_sample_opts *o,
						       const pid_t *pids, int npids,
						       const int *cpus, int ncpus);
/* The event sampled (after a fallback). */
FTC_API const char *ftc_perf_sampler_event(const struct ftc_perf_sampler *s);
/* Why the event fell back to cpu-clock; "" when it did not. */
FTC_API const char *ftc_perf_sampler_note(const struct ftc_perf_sampler *s);
FTC_API int ftc_perf_sampler_enable(struct ftc_perf_sampler *s, bool on);
/* Waits for data (or extra_fd readable, then returns 1), drains every ring. */
FTC_API int ftc_perf_sampler_poll(struct ftc_perf_sampler *s, int extra_fd, int timeout_ms);
FTC_API int ftc_perf_sampler_drain(struct ftc_perf_sampler *s);
/* The profile the rings drain into; the sampler's, freed by the close. */
FTC_API struct ftc_perf_profile *ftc_perf_sampler_profile(struct ftc_perf_sampler *s);
/* Closes the events, unmaps the rings, frees the profile; NULL is a no-op. */
FTC_API void ftc_perf_sampler_close(struct ftc_perf_sampler *s);

/* A tally of strings with self and children counts (perf-tally.c). */
struct ftc_perf_tally_entry {
	uint64_t self, children;
	char key[];
};
enum ftc_perf_tally_order { FTC_PERF_BY_CHILDREN, FTC_PERF_BY_SELF, FTC_PERF_BY_KEY };
struct ftc_perf_tally;
FTC_API struct ftc_perf_tally *ftc_perf_tally_new(void);
FTC_API void ftc_perf_tally_free(struct ftc_perf_tally *t);
FTC_API int ftc_perf_tally_add(struct ftc_perf_tally *t, const char *key, uint64_t self,
			       uint64_t children);
/* An array (free it; the entries stay the tally's) of every entry, sorted. */
FTC_API struct ftc_perf_tally_entry **
ftc_perf_tally_sorted(struct ftc_perf_tally *t, enum ftc_perf_tally_order order, size_t *n);

/*
 * Draws folded stacks ("a;b;c" keys with self counts, as from a tally) as
 * an SVG flame graph: root at the bottom, width by samples, one tooltip
 * per frame. Frames named "..._[k]" are kernel frames, in another hue.
 */
FTC_API int ftc_perf_flame_svg(FILE *f, struct ftc_perf_tally *folded, const char *title);

/*
 * A profile aggregated for display (perf-report.c), shared by ftc profile
 * and ftc report --profile: a table by "comm\tdso\tk\tsym" with self and
 * children counts, and folded stacks "comm;outer;...;leaf".
 */
struct ftc_perf_agg;
FTC_API struct ftc_perf_agg *ftc_perf_agg_new(void);
/* NULL is a no-op. */
FTC_API void ftc_perf_agg_free(struct ftc_perf_agg *a);
FTC_API int ftc_perf_agg_build(struct ftc_perf_agg *a, struct ftc_perf_profile *p,
			       struct ftc_symbols *syms);
/* The samples aggregated (those with at least one frame). */
FTC_API uint64_t ftc_perf_agg_samples(const struct ftc_perf_agg *a);
/* limit 0 prints every row; children adds the Children column (callchains). */
FTC_API void ftc_perf_agg_table(FILE *f, struct ftc_perf_agg *a, bool children, uint64_t limit,
				const char *event, uint64_t lost);
FTC_API void ftc_perf_agg_folded(FILE *f, struct ftc_perf_agg *a);
/* The flame graph into f, titled with the samples' count and event. */
FTC_API int ftc_perf_agg_flame(FILE *f, struct ftc_perf_agg *a, const char *event);

/*
 * Perf records as ftrace events (perf-ftrace.c), for an extra buffer in
 * trace.dat: formats of system "ftc_perf" in tracefs's syntax, with ids
 * base_id + enum value, and a packer into ring-buffer sub-buffers (one
 * packer per CPU; flush gets each full page). Timestamps are perf's, in ns.
 */
#define FTC_PERF_FTRACE_SYSTEM "ftc_perf"
enum ftc_perf_fevent {
	FTC_PERF_EV_SAMPLE,
	FTC_PERF_EV_COMM,
	FTC_PERF_EV_MMAP,
	FTC_PERF_EV_LOST,
	FTC_PERF_EV_COUNTER,
	FTC_PERF_EV_COUNT
};
FTC_API const char *ftc_perf_ftrace_name(enum ftc_perf_fevent e);
/* The "format" file text of event e with this id; free it. */
FTC_API char *ftc_perf_ftrace_format(enum ftc_perf_fevent e, int id);

typedef int (*ftc_perf_page_fn)(const void *page, size_t size, void *ctx);
struct ftc_perf_pager;
/* A packer of pages of page_size bytes for event ids base_id + enum value. */
FTC_API struct ftc_perf_pager *ftc_perf_pager_new(size_t page_size, int base_id,
						  ftc_perf_page_fn flush, void *ctx);
FTC_API int ftc_perf_pager_add_sample(struct ftc_perf_pager *p, const struct ftc_perf_sample *s);
FTC_API int ftc_perf_pager_add_comm(struct ftc_perf_pager *p, uint64_t ts, uint32_t pid,
				    uint32_t tid, const char *comm);
FTC_API int ftc_perf_pager_add_mmap(struct ftc_perf_pager *p, uint64_t ts, uint32_t pid,
				    const struct ftc_perf_map *m);
FTC_API int ftc_perf_pager_add_lost(struct ftc_perf_pager *p, uint64_t ts, uint64_t lost);
FTC_API int ftc_perf_pager_add_counter(struct ftc_perf_pager *p, uint64_t ts, const char *name,
				       const struct ftc_perf_count *c);
/* The first of FTC_PERF_EV_COUNT ids above every kernel event id. */
FTC_API int ftc_perf_ftrace_base_id(void);
/* Makes attr stamp records with the same clock as this trace clock. */
FTC_API int ftc_perf_clock_for_trace(const char *trace_clock, struct perf_event_attr *attr);
/* Hands the partly filled page to flush (at the end of a capture). */
FTC_API int ftc_perf_pager_flush(struct ftc_perf_pager *p);
/* Events packed, and pages handed to flush, so far. */
FTC_API uint64_t ftc_perf_pager_events(const struct ftc_perf_pager *p);
FTC_API uint64_t ftc_perf_pager_pages(const struct ftc_perf_pager *p);
/* Frees it, and the events not flushed yet; NULL is a no-op. */
FTC_API void ftc_perf_pager_free(struct ftc_perf_pager *p);

/*
 * Running mean and variance (Welford), for stat -r: a value the caller
 * zeroes and reads; n values added so far, their mean, and m2 the sum of
 * their squared deviations from it.
 */
struct ftc_perf_stats {
	double n, mean, m2;
};
FTC_API void ftc_perf_stats_add(struct ftc_perf_stats *s, double v);
/* Standard deviation of the mean, relative to the mean, in percent. */
FTC_API double ftc_perf_stats_rel_stddev(const struct ftc_perf_stats *s);
FTC_API double ftc_perf_stats_stddev_mean(const struct ftc_perf_stats *s);

/*
 * The samples stored by ftc record --sample (the ftc_perf events) into a
 * profile (reader-profile.c; ftc_perf_profile_new(0) makes one: the reader
 * sets its sample type), only those keep() returns true for (every one
 * when keep is NULL; comm and mmap records, which name the frames, are
 * always taken); callchain tells whether any sample had one.
 * ftc_reader_profile_symbols makes s name kernel addresses with the
 * kallsyms stored in the file; r must outlive s's use.
 */
struct ftc_reader;
struct ftc_merge_record;
typedef bool (*ftc_profile_keep_fn)(const struct ftc_merge_record *mr, void *ctx);
FTC_API int ftc_reader_profile_select(struct ftc_reader *r, struct ftc_perf_profile *p,
				      bool *callchain, ftc_profile_keep_fn keep, void *keep_ctx);
FTC_API void ftc_reader_profile_symbols(struct ftc_reader *r, struct ftc_symbols *s);


#ifdef __cplusplus
}
#endif

#endif
