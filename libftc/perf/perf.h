/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the perf files: the handles' layouts, and what the sampler and capture-perf share. */
#ifndef FTC_PERF_INTERNAL_H
#define FTC_PERF_INTERNAL_H

#include <stdbool.h>

#include "ftc-perf.h"
#include "ringbuf.h"

/*
 * The handles of ftc-perf.h. Their layout is not part of the ABI: programs
 * see them through the accessors only, so fields may come and go.
 */
struct ftc_perf_event {
	char *name;		/* as the user wrote it, e.g. "cycles:u" */
	enum ftc_perf_kind kind;
	struct perf_event_attr attr;
	int leader;		/* index of its group leader (itself when alone) */
	int *fds;		/* ncpus * npids, -1 where not open */
	int open_errno;		/* first refusal, 0 when every slot opened */
	char *cgroup;		/* counts only in this cgroup (perf stat -G), or NULL */
	int cgroup_fd;		/* its directory, open while cgroup is set */
};

struct ftc_perf_evlist {
	struct ftc_perf_event *ev;
	int n;
	int *cpus;		/* cpu of each cpu slot; a single -1 per task */
	int ncpus;
	pid_t *pids;		/* task of each pid slot; a single -1 per CPU */
	int npids;
};

struct ftc_perf_proc {
	uint32_t pid;
	char comm[16];
	struct ftc_perf_map *maps;
	size_t nmaps;
};

struct ftc_perf_profile_sample {
	uint32_t pid, tid, cpu;
	uint16_t misc;		/* the record's cpumode: kernel or user ip */
	uint32_t nr;		/* addresses at ips[at..]: the callchain, or just ip */
	size_t at;
	uint64_t time, period;
};

struct ftc_unwinder;

struct ftc_perf_profile {
	uint64_t sample_type;	/* set before adding records */
	uint64_t regs_user;	/* sample_regs_user, with PERF_SAMPLE_REGS_USER */
	struct ftc_unwinder *unwinder;	/* made at the first sample to unwind */
	uint64_t *chain;	/* the chain of the sample being unwound */
	uint64_t unwound;	/* samples whose user stack gave callers */
	struct ftc_perf_proc *procs;
	size_t nprocs;
	struct ftc_perf_profile_sample *samples;
	size_t nsamples, cap_samples;
	uint64_t *ips;
	size_t nips, cap_ips;
	uint64_t lost;		/* samples the kernel dropped (LOST records) */
};

struct ftc_perf_sampler {
	struct ftc_perf_evlist *l;
	struct ftc_perf_ring **rings;
	int nrings;
	struct ftc_perf_profile *profile;
	char note[256];		/* set when the event fell back to cpu-clock */
};

struct ftc_perf_agg {
	struct ftc_perf_tally *table, *folded;
	uint64_t samples;
};

struct ftc_perf_pager {
	struct ftc_subbuf_layout layout;	/* the kernel's, whose pages ours go beside */
	unsigned char *page;
	size_t page_size, used;		/* used: bytes of events after the header */
	uint64_t page_ts, last_ts;
	int base_id;
	ftc_perf_page_fn flush;
	void *ctx;
	uint64_t events, pages;
};

/*
 * A pager whose pages have the sub-buffer header l describes: the layout
 * of the kernel whose pages they go beside, as the file's header_page
 * says it (ftc_perf_pager_new() reads the running kernel's).
 */
struct ftc_perf_pager *ftc_perf_pager_new_layout(size_t page_size,
						 const struct ftc_subbuf_layout *l,
						 int base_id, ftc_perf_page_fn flush,
						 void *ctx);

/*
 * Packs an event whose payload (8-byte common header and fields) the
 * caller made, at ts, into the pager's pages (ftc import).
 */
int ftc_perf_pager_add_raw(struct ftc_perf_pager *p, uint64_t ts, const void *payload,
			   size_t len);

struct ftc_perf_ring {
	int fd;
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	size_t data_size;
	size_t map_size;
	unsigned char *bounce;	/* a record that wraps, made flat */
	size_t bounce_size;
};

/*
 * Sampling attributes shared by ftc profile and record --sample: ip, tid,
 * time, cpu, period (and the callchain), by frequency (default 4000 Hz) or
 * period, with the side-band records (comm, mmap2) that symbolize samples.
 * dwarf_stack > 0: the kernel's chain stops at the kernel, the user part
 * is unwound from the registers and dwarf_stack bytes of stack each sample
 * copies (perf-unwind.c); ftc_perf_dwarf_check() checks it first.
 */
void ftc_perf_sampling_attr(struct perf_event_attr *a, unsigned long long freq,
			    unsigned long long period, bool callchain, unsigned int dwarf_stack);

/* DWARF unwinding (perf-unwind.c). The largest stack a sample can copy. */
#define FTC_PERF_DWARF_STACK_MAX 65528
/* 0, or -1 with EINVAL when this machine or this size cannot do it. */
int ftc_perf_dwarf_check(unsigned int dwarf_stack);

/* What a PERF_SAMPLE_REGS_USER / _STACK_USER sample copied of its thread. */
struct ftc_perf_user {
	uint64_t abi;		/* PERF_SAMPLE_REGS_ABI_*: NONE for a kernel thread */
	const uint64_t *regs;	/* one value per bit of regs_mask */
	const unsigned char *stack;
	uint64_t size;		/* bytes of stack copied */
};
/* The sample's other fields as ftc_perf_sample_parse() gives them, and u. */
int ftc_perf_sample_parse_user(const struct perf_event_header *h, uint64_t type,
			       uint64_t regs_mask, struct ftc_perf_sample *s,
			       struct ftc_perf_user *u);
/*
 * Parses sample h of p's type into s. When it copied a user stack, s's
 * chain becomes the kernel's part of it then a PERF_CONTEXT_USER mark and
 * the user frames unwound (in memory of p's, until the next call), through
 * the code mappings p was told of.
 */
int ftc_perf_profile_unwind(struct ftc_perf_profile *p, const struct perf_event_header *h,
			    struct ftc_perf_sample *s);
/* A process p was told of, or NULL. */
struct ftc_perf_proc *ftc_perf_proc_find(struct ftc_perf_profile *p, uint32_t pid);
/* The process, added (named by its pid) if p was not told of it; NULL without memory. */
struct ftc_perf_proc *ftc_perf_proc_add(struct ftc_perf_profile *p, uint32_t pid);
/* Forgets the event's cgroup (perf-cgroup.c), closing its directory. */
void ftc_perf_event_cgroup_clear(struct ftc_perf_event *e);
/* Whether perf_event_open's errno means "this PMU lacks the event". */
bool ftc_perf_refused_by_pmu(int err);

#endif
