// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf samples and counter readings into the capture's trace.dat. The
 * events stamp records on the trace's clock (ftc_perf_clock_for_trace);
 * a thread drains each CPU's mmap ring and packs samples, comm and mmap
 * records (those symbolize user addresses later) into ftrace pages of a
 * synthetic buffer, one CPU of the buffer per ring. Counter readings go
 * to the first CPU of the buffer, stamped on the same clock.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-capture-perf.h"
#include "ftc-perf.h"
#include "opts.h"
#include "perf.h"
#include "tracefs-layer.h"

#define CLOCK_TRIES	8	/* clock matches tried; the tightest counts */

struct ring_ctx {
	struct ftc_capture_perf *cp;
	int idx;
};

struct ftc_capture_perf {
	struct ftc_writer *w;
	int buf;
	int ncpus;
	char *clock;
	clockid_t clockid;		/* counter stamps: this clock ... */
	int64_t local_off;		/* ... plus this (trace clock "local") */
	int64_t perf_shift;		/* perf's time minus the trace's */
	int cpu0;
	char *instance;
	struct ftc_perf_evlist *samp, *cnt;
	/* --call-graph dwarf: the processes' mappings, which unwinding reads */
	struct ftc_perf_profile *procs;
	bool sampling, counting, system_wide;
	struct ftc_perf_ring **rings;
	struct ring_ctx *ctx;
	struct ftc_perf_pager **pagers;
	unsigned int interval_ms;
	pthread_t thread;
	pid_t tid;			/* the drain thread's, once it runs */
	bool running;
	int wake[2];
	volatile int stop;
	bool started;			/* the command has exec'd: readings may begin */
	int err;
	char errmsg[512];
	char note[256];
	uint64_t samples, lost, readings, records;
};

/*
 * The samples carry their time on every record, so they sort among the
 * trace's. Unwinding a forked child's stack needs the fork to tell its
 * mappings.
 */
static void sample_attr(struct perf_event_attr *a, const struct ftc_capture_perf_opts *o)
{
	ftc_perf_sampling_attr(a, o->freq, o->period, o->callchain, o->dwarf_stack);
	a->sample_id_all = 1;
	a->task = o->dwarf_stack ? 1 : 0;
}

static int open_list(struct ftc_capture_perf *cp, struct ftc_perf_evlist **lp, const char *spec,
		     const struct ftc_capture_perf_opts *o, const int *cpus, bool sample)
{
	pid_t pid = o->pid;
	unsigned int flags = o->pid > 0 ? FTC_PERF_ENABLE_ON_EXEC | FTC_PERF_INHERIT : 0;
	struct ftc_perf_evlist *l;

	ftc_perf_evlist_free(*lp);
	l = *lp = ftc_perf_evlist_new();
	if (!l || ftc_perf_evlist_add(l, spec) < 0)
		return -1;
	if (sample && l->n != 1)
		return ftc_error(EINVAL, "--sample takes one event, not '%s'", spec);
	for (int i = 0; i < l->n; i++) {
		if (sample)
			sample_attr(&l->ev[i].attr, o);
		if (ftc_perf_clock_for_trace(cp->clock, &l->ev[i].attr) < 0)
			return -1;
	}
	if (ftc_perf_evlist_target(l, o->pid > 0 ? &pid : NULL, o->pid > 0 ? 1 : 0,
				   cpus, cp->ncpus) < 0)
		return -1;
	return ftc_perf_evlist_open(l, flags);
}

/* With DWARF call chains, what the processes mapped is followed for the unwinding. */
static int track_procs(struct ftc_capture_perf *cp, const struct ftc_capture_perf_opts *o)
{
	const struct perf_event_attr *a = &cp->samp->ev[0].attr;

	if (!o->dwarf_stack)
		return 0;
	cp->procs = ftc_perf_profile_new(a->sample_type);
	if (!cp->procs)
		return -1;
	cp->procs->regs_user = a->sample_regs_user;
	return 0;
}

/* A hardware event this machine cannot sample falls back to cpu-clock. */
static int open_sampling(struct ftc_capture_perf *cp, const struct ftc_capture_perf_opts *o,
			 const int *cpus)
{
	int ret = open_list(cp, &cp->samp, o->sample, o, cpus, true);
	struct ftc_perf_event *e;
	int err;

	if (ret > 0)
		return track_procs(cp, o);
	if (ret < 0)
		return -1;
	e = &cp->samp->ev[0];
	err = e->open_errno;
	if (e->kind == FTC_PERF_TRACEPOINT || e->kind == FTC_PERF_SOFTWARE || !ftc_perf_refused_by_pmu(err))
		return ftc_error(err, "cannot sample '%s': %s", o->sample, strerror(err));
	snprintf(cp->note, sizeof(cp->note), "'%s' cannot be sampled here (%s): sampling "
		 "cpu-clock instead", o->sample, strerror(err));
	ret = open_list(cp, &cp->samp, "cpu-clock", o, cpus, true);
	if (ret == 0)
		return ftc_error(cp->samp->ev[0].open_errno, "cannot sample cpu-clock either: %s",
				 strerror(cp->samp->ev[0].open_errno));
	return ret < 0 ? -1 : track_procs(cp, o);
}

static int map_rings(struct ftc_capture_perf *cp)
{
	cp->rings = calloc((size_t)cp->ncpus, sizeof(*cp->rings));
	cp->ctx = calloc((size_t)cp->ncpus, sizeof(*cp->ctx));
	if (!cp->rings || !cp->ctx)
		return ftc_error(ENOMEM, "out of memory");
	/* One pid slot: ring i is the ring of CPU slot i. DWARF samples are
	 * 8 KiB or more: 64 pages would hold 30 of them. */
	for (int i = 0; i < cp->ncpus; i++) {
		cp->ctx[i] = (struct ring_ctx){ cp, i };
		cp->rings[i] = ftc_perf_ring_map(cp->samp->ev[0].fds[i], cp->procs ? 256 : 64);
		if (!cp->rings[i])
			return -1;
	}
	return 0;
}

static int64_t mid_ns(const struct timespec *a, const struct timespec *b)
{
	return (a->tv_sec + b->tv_sec) * 500000000LL + (a->tv_nsec + b->tv_nsec) / 2;
}

static int64_t span_ns(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000LL + b->tv_nsec - a->tv_nsec;
}

/*
 * The trace clock "local" is sched_clock(), perf's is local_clock(): on
 * x86 they differ by a constant (__sched_clock_offset), so both are
 * measured against CLOCK_MONOTONIC. The ring buffer's "now ts" in
 * per_cpu/cpuN/stats is read on the trace clock (in microseconds); the
 * fastest of a few reads bounds the error.
 */
static int calibrate_trace(struct ftc_capture_perf *cp, int64_t *off)
{
	char file[64];
	int64_t best = INT64_MAX;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cp->cpu0);
	for (int i = 0; i < CLOCK_TRIES; i++) {
		struct timespec t1, t2;
		unsigned long long sec, usec;
		char *text = NULL, *at;
		int64_t took;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (ftc_tracefs_read(cp->instance, file, &text, NULL) < 0)
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &t2);
		at = strstr(text, "now ts:");
		if (!at || sscanf(at, "now ts: %llu.%llu", &sec, &usec) != 2) {
			free(text);
			return ftc_error(EPROTO, "%s: no 'now ts' line: cannot match perf's clock "
					 "with the trace's; use -C mono", file);
		}
		free(text);
		took = span_ns(&t1, &t2);
		if (took < best) {
			best = took;
			*off = (int64_t)(sec * 1000000000ULL + usec * 1000ULL) - mid_ns(&t1, &t2);
		}
	}
	return 0;
}

/*
 * The times stamped on the ring's COMM records, every other one from the
 * first (each try renames the thread, then names it back): times[i] is
 * try i's, 0 when its record is not there.
 */
static void comm_times(const struct ftc_perf_ring *r, uint64_t head, uint64_t *times, int n)
{
	uint64_t off = 0;
	int k = 0;

	memset(times, 0, sizeof(*times) * (size_t)n);
	while (off + sizeof(struct perf_event_header) <= head && k < 2 * n) {
		const struct perf_event_header *h = (const void *)(r->data + off);

		if (h->size < sizeof(*h) || off + h->size > head)
			break;
		/* Only sample_id's time follows the COMM record's fields. */
		if (h->type == PERF_RECORD_COMM && h->size >= sizeof(*h) + 16 && k++ % 2 == 0)
			memcpy(&times[k / 2], r->data + off + h->size - 8, 8);
		off += h->size;
	}
}

/*
 * Counter readings need a timestamp on the trace clock. For "local"
 * (perf's own clock, which user space cannot read) the offset to
 * CLOCK_MONOTONIC is measured: renaming this thread makes the kernel stamp
 * a COMM record between two clock_gettime() calls. A thread preempted
 * between them (a busy host's TCG guest: 3 ms) would shift every sample by
 * half that, so the tightest of a few tries counts, as for the trace clock.
 */
static int calibrate_perf(struct ftc_capture_perf *cp, int64_t *off)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_DUMMY, .comm = 1,
				     .sample_id_all = 1, .sample_type = PERF_SAMPLE_TIME };
	struct timespec t1[CLOCK_TRIES], t2[CLOCK_TRIES];
	uint64_t times[CLOCK_TRIES];
	struct ftc_perf_ring *r;
	int64_t best = INT64_MAX;
	char old[17] = "";
	uint64_t head;
	int fd, ret = -1;

	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return ftc_error(errno, "perf_event_open(dummy): %s; cannot stamp counter "
				 "readings on trace clock 'local'", strerror(errno));
	r = ftc_perf_ring_map(fd, 1);
	if (!r) {
		close(fd);
		return -1;
	}
	prctl(PR_GET_NAME, old);
	for (int i = 0; i < CLOCK_TRIES; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t1[i]);
		prctl(PR_SET_NAME, "ftc-clock-sync");
		clock_gettime(CLOCK_MONOTONIC, &t2[i]);
		prctl(PR_SET_NAME, old);	/* a COMM record too */
	}
	head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	if (head > r->data_size)
		head = 0;	/* wrapped: cannot be, a page holds them all */
	comm_times(r, head, times, CLOCK_TRIES);
	for (int i = 0; i < CLOCK_TRIES; i++) {
		int64_t took = span_ns(&t1[i], &t2[i]);

		if (times[i] && took < best) {
			best = took;
			*off = (int64_t)times[i] - mid_ns(&t1[i], &t2[i]);
			ret = 0;
		}
	}
	if (ret < 0)
		ftc_error(EIO, "no COMM record to match perf's clock with CLOCK_MONOTONIC");
	ftc_perf_ring_unmap(r);
	close(fd);
	return ret;
}

static int setup_clock(struct ftc_capture_perf *cp)
{
	struct perf_event_attr a = { 0 };
	int64_t perf_off = 0;

	if (ftc_perf_clock_for_trace(cp->clock, &a) < 0)
		return -1;
	if (a.use_clockid) {
		cp->clockid = a.clockid;
		return 0;
	}
	cp->clockid = CLOCK_MONOTONIC;
	if (calibrate_perf(cp, &perf_off) < 0 || calibrate_trace(cp, &cp->local_off) < 0)
		return -1;
	cp->perf_shift = perf_off - cp->local_off;
	return 0;
}

static uint64_t now_ns(const struct ftc_capture_perf *cp)
{
	struct timespec t;

	clock_gettime(cp->clockid, &t);
	return (uint64_t)((int64_t)t.tv_sec * 1000000000LL + t.tv_nsec + cp->local_off);
}

static int add_formats(struct ftc_capture_perf *cp, int base)
{
	char *f[FTC_PERF_EV_COUNT] = { 0 };
	int ret = -1;

	for (int i = 0; i < FTC_PERF_EV_COUNT; i++)
		if (!(f[i] = ftc_perf_ftrace_format((enum ftc_perf_fevent)i, base + i)))
			goto out;
	ret = ftc_writer_add_system(cp->w, FTC_PERF_FTRACE_SYSTEM, (const char *const *)f,
				    FTC_PERF_EV_COUNT);
out:
	for (int i = 0; i < FTC_PERF_EV_COUNT; i++)
		free(f[i]);
	return ret;
}

static int page_out(const void *page, size_t size, void *ctx)
{
	struct ring_ctx *rc = ctx;

	return ftc_writer_add_pages(rc->cp->w, rc->cp->buf, rc->idx, page, size);
}

struct ftc_capture_perf *ftc_capture_perf_new(struct ftc_writer *w,
					      const struct ftc_capture_perf_opts *user,
					      const char *trace_clock, int ncpus,
					      const int *cpus)
{
	struct ftc_capture_perf_opts opts, *o = &opts;
	struct ftc_subbuf_layout layout;
	struct ftc_capture_perf *cp;
	int base;

	if (FTC_OPTS_COPY(&opts, user, ftc_capture_perf_opts, dwarf_stack) < 0 ||
	    (opts.sample && opts.dwarf_stack && ftc_perf_dwarf_check(opts.dwarf_stack) < 0))
		return NULL;
	cp = calloc(1, sizeof(*cp));
	if (!cp) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	cp->w = w;
	cp->ncpus = ncpus;
	cp->wake[0] = cp->wake[1] = -1;
	cp->sampling = o->sample != NULL;
	cp->counting = o->count != NULL;
	cp->system_wide = o->pid <= 0;
	cp->interval_ms = o->interval_ms ? o->interval_ms : 1000;
	cp->clock = strdup(trace_clock ? trace_clock : "local");
	cp->instance = o->instance ? strdup(o->instance) : NULL;
	cp->cpu0 = cpus[0];
	if (!cp->clock || (o->instance && !cp->instance)) {
		ftc_error(ENOMEM, "out of memory");
		goto fail;
	}
	if (setup_clock(cp) < 0)
		goto fail;
	if (cp->sampling && (open_sampling(cp, o, cpus) < 0 || map_rings(cp) < 0))
		goto fail;
	if (cp->counting) {
		int n = open_list(cp, &cp->cnt, o->count, o, cpus, false);

		if (n < 0)
			goto fail;
		if (n == 0) {
			int err = cp->cnt->ev[0].open_errno;

			ftc_error(err, "cannot count '%s': %s%s", o->count, strerror(err),
				  err == ENOENT || err == EOPNOTSUPP ? " (no such counter on this "
				  "machine: hardware events need a PMU, see 'ftc check "
				  "perf-hardware')" : "");
			goto fail;
		}
	}
	base = ftc_perf_ftrace_base_id();
	if (base < 0 || add_formats(cp, base) < 0)
		goto fail;
	cp->buf = ftc_writer_add_synthetic_buffer(w, FTC_CAPTURE_PERF_INSTANCE, ncpus, cpus,
						  cp->clock);
	if (cp->buf < 0)
		goto fail;
	cp->pagers = calloc((size_t)ncpus, sizeof(*cp->pagers));
	if (!cp->pagers) {
		ftc_error(ENOMEM, "out of memory");
		goto fail;
	}
	if (!cp->ctx && !(cp->ctx = calloc((size_t)ncpus, sizeof(*cp->ctx)))) {
		ftc_error(ENOMEM, "out of memory");
		goto fail;
	}
	/* Our pages go beside the kernel's: a 32-bit kernel's header is 12 bytes, not 16. */
	ftc_tracefs_subbuf_layout(&layout);
	for (int i = 0; i < ncpus; i++) {
		cp->ctx[i] = (struct ring_ctx){ cp, i };
		cp->pagers[i] = ftc_perf_pager_new_layout(ftc_writer_page_size(w), &layout, base,
							  page_out, &cp->ctx[i]);
		if (!cp->pagers[i])
			goto fail;
	}
	return cp;
fail:
	ftc_capture_perf_free(cp);
	return NULL;
}

/* The sample_id trailer (TID, TIME, CPU) ends side-band records: time is 16 from the end. */
static uint64_t trailer_time(const struct ftc_capture_perf *cp, const struct perf_event_header *h)
{
	uint64_t t = 0;

	if (h->size >= sizeof(*h) + 24)
		memcpy(&t, (const char *)h + h->size - 16, 8);
	return t - (uint64_t)cp->perf_shift;
}

static int on_comm(struct ftc_capture_perf *cp, struct ftc_perf_pager *p,
		   const struct perf_event_header *h)
{
	const char *b = (const char *)(h + 1);
	size_t room = h->size - sizeof(*h);
	uint32_t pid, tid;
	char comm[17];

	if (room < 8 + 24)
		return 0;
	memcpy(&pid, b, 4);
	memcpy(&tid, b + 4, 4);
	snprintf(comm, sizeof(comm), "%.*s", (int)(room - 8 - 24 < 16 ? room - 8 - 24 : 16),
		 b + 8);
	return ftc_perf_pager_add_comm(p, trailer_time(cp, h), pid, tid, comm);
}

static int on_mmap2(struct ftc_capture_perf *cp, struct ftc_perf_pager *p,
		    const struct perf_event_header *h)
{
	const char *b = (const char *)(h + 1);
	size_t room = h->size - sizeof(*h), fixed = 8 + 24 + 8 + 16 + 8;
	struct ftc_perf_map m;
	uint32_t pid;
	char name[4096];

	if (room < fixed + 24)
		return 0;
	memcpy(&pid, b, 4);
	memcpy(&m.start, b + 8, 8);
	memcpy(&m.len, b + 16, 8);
	memcpy(&m.pgoff, b + 24, 8);
	snprintf(name, sizeof(name), "%.*s", (int)(room - fixed - 24), b + fixed);
	m.file = name;
	return ftc_perf_pager_add_mmap(p, trailer_time(cp, h), pid, &m);
}

static int on_record(const struct perf_event_header *h, void *ctx)
{
	struct ring_ctx *rc = ctx;
	struct ftc_capture_perf *cp = rc->cp;
	struct ftc_perf_pager *p = cp->pagers[rc->idx];
	struct ftc_perf_sample s;
	uint64_t lost;

	cp->records++;
	/* What the processes are and map, for unwinding their stacks. */
	if (cp->procs && h->type != PERF_RECORD_SAMPLE && ftc_perf_profile_add(h, cp->procs) < 0)
		return -1;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		/* The chain stored is the unwound one: the stack copy is dropped. */
		if (cp->procs ? ftc_perf_profile_unwind(cp->procs, h, &s) < 0 :
		    ftc_perf_sample_parse(h, cp->samp->ev[0].attr.sample_type, &s) < 0)
			return -1;
		cp->samples++;
		s.time -= (uint64_t)cp->perf_shift;
		return ftc_perf_pager_add_sample(p, &s);
	case PERF_RECORD_COMM:
		return on_comm(cp, p, h);
	case PERF_RECORD_MMAP2:
		return on_mmap2(cp, p, h);
	case PERF_RECORD_LOST:
		if (h->size < sizeof(*h) + 16)
			return 0;
		memcpy(&lost, (const char *)(h + 1) + 8, 8);
		cp->lost += lost;
		return ftc_perf_pager_add_lost(p, trailer_time(cp, h), lost);
	}
	return 0;
}

static int drain(struct ftc_capture_perf *cp)
{
	for (int i = 0; cp->sampling && i < cp->ncpus; i++)
		if (ftc_perf_ring_drain(cp->rings[i], on_record, &cp->ctx[i]) < 0)
			return -1;
	return 0;
}

static int read_counters(struct ftc_capture_perf *cp)
{
	uint64_t ts = now_ns(cp);

	for (int i = 0; i < cp->cnt->n; i++) {
		struct ftc_perf_count c;

		if (cp->cnt->ev[i].open_errno)
			continue;
		if (ftc_perf_evlist_read(cp->cnt, i, -1, &c) < 0)
			return -1;
		/* Never enabled (the command did not exec): not a reading of it. */
		if (!c.ena)
			continue;
		if (ftc_perf_pager_add_counter(cp->pagers[0], ts, cp->cnt->ev[i].name, &c) < 0)
			return -1;
		cp->readings++;
	}
	return 0;
}

static int wait_data(struct ftc_capture_perf *cp, int timeout_ms)
{
	int n = cp->sampling ? cp->ncpus : 0;
	struct pollfd *pfd = calloc((size_t)n + 1, sizeof(*pfd));

	if (!pfd)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ .fd = cp->rings[i]->fd, .events = POLLIN };
	pfd[n] = (struct pollfd){ .fd = cp->wake[0], .events = POLLIN };
	/* A wake-up is taken out, or every later poll would return at once. */
	if (poll(pfd, (nfds_t)n + 1, timeout_ms) > 0 && (pfd[n].revents & POLLIN) && !cp->stop) {
		char c;

		if (read(cp->wake[0], &c, 1) < 0)
			c = 0;
	}
	free(pfd);
	return 0;
}

/*
 * A command's counters start at its exec (enable_on_exec), so its
 * intervals do too, as perf stat -I counts them: the first reading comes
 * one interval after the exec, not after the setup that came before it.
 */
static uint64_t first_reading(struct ftc_capture_perf *cp, uint64_t next)
{
	if (cp->system_wide)
		return next;
	if (!__atomic_exchange_n(&cp->started, false, __ATOMIC_ACQ_REL))
		return next;
	return now_ns(cp) + (uint64_t)cp->interval_ms * 1000000ULL;
}

static int loop(struct ftc_capture_perf *cp)
{
	uint64_t next = cp->system_wide ? now_ns(cp) + (uint64_t)cp->interval_ms * 1000000ULL :
		UINT64_MAX;

	while (!cp->stop) {
		int timeout = 250;

		next = first_reading(cp, next);
		if (cp->counting && next != UINT64_MAX) {
			uint64_t now = now_ns(cp);

			if (now >= next) {
				if (read_counters(cp) < 0)
					return -1;
				next += (uint64_t)cp->interval_ms * 1000000ULL;
				if (next < now)
					next = now + (uint64_t)cp->interval_ms * 1000000ULL;
			}
			timeout = (int)((next - (now < next ? now : next)) / 1000000ULL) + 1;
		}
		if (wait_data(cp, timeout) < 0 || drain(cp) < 0)
			return -1;
	}
	if (cp->sampling)
		ftc_perf_evlist_enable(cp->samp, false);
	if (drain(cp) < 0 || (cp->counting && read_counters(cp) < 0))
		return -1;
	for (int i = 0; i < cp->ncpus; i++)
		if (ftc_perf_pager_flush(cp->pagers[i]) < 0)
			return -1;
	return 0;
}

static void *thread_main(void *arg)
{
	struct ftc_capture_perf *cp = arg;

	__atomic_store_n(&cp->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (loop(cp) < 0) {
		cp->err = errno ? errno : EIO;
		snprintf(cp->errmsg, sizeof(cp->errmsg), "%s", ftc_strerror());
	}
	return NULL;
}

/*
 * Sampling every task: the processes that run already announced their
 * code mappings long ago, so they are read from /proc once, as perf
 * record does, and stored before any sample.
 */
static int synthesize(struct ftc_capture_perf *cp)
{
	/* Unwinding needs them too: they go where the mappings are followed. */
	struct ftc_perf_profile *prof = cp->procs ? cp->procs : ftc_perf_profile_new(0);
	uint64_t ts = now_ns(cp);
	int ret = prof ? ftc_perf_profile_synthesize(prof) : -1;

	for (size_t i = 0; ret == 0 && i < prof->nprocs; i++) {
		struct ftc_perf_proc *pr = &prof->procs[i];

		ret = ftc_perf_pager_add_comm(cp->pagers[0], ts, pr->pid, pr->pid, pr->comm);
		for (size_t j = 0; ret == 0 && j < pr->nmaps; j++)
			ret = ftc_perf_pager_add_mmap(cp->pagers[0], ts, pr->pid, &pr->maps[j]);
	}
	if (prof != cp->procs)
		ftc_perf_profile_free(prof);
	return ret;
}

int ftc_capture_perf_start(struct ftc_capture_perf *cp)
{
	int err;

	if (pipe2(cp->wake, O_CLOEXEC) < 0)
		return ftc_error(errno, "pipe: %s", strerror(errno));
	if (cp->system_wide && cp->sampling && synthesize(cp) < 0)
		return -1;
	/* For a command, enable_on_exec starts the events at its exec. */
	if (cp->system_wide && cp->sampling && ftc_perf_evlist_enable(cp->samp, true) < 0)
		return -1;
	if (cp->system_wide && cp->counting && ftc_perf_evlist_enable(cp->cnt, true) < 0)
		return -1;
	err = pthread_create(&cp->thread, NULL, thread_main, cp);
	if (err)
		return ftc_error(err, "cannot start the perf drain thread: %s", strerror(err));
	cp->running = true;
	/* Its id is wanted at once (to keep it out of the trace). */
	for (int i = 0; i < 100000 && !__atomic_load_n(&cp->tid, __ATOMIC_ACQUIRE); i++)
		sched_yield();
	return 0;
}

void ftc_capture_perf_command_started(struct ftc_capture_perf *cp)
{
	if (!cp || !cp->running)
		return;
	__atomic_store_n(&cp->started, true, __ATOMIC_RELEASE);
	if (write(cp->wake[1], "s", 1) < 0)
		return;	/* it looks again within 250 ms anyway */
}

pid_t ftc_capture_perf_tid(const struct ftc_capture_perf *cp)
{
	return cp ? __atomic_load_n(&cp->tid, __ATOMIC_ACQUIRE) : 0;
}

int ftc_capture_perf_stop(struct ftc_capture_perf *cp)
{
	if (!cp->running)
		return 0;
	cp->stop = 1;
	if (write(cp->wake[1], "x", 1) < 0)
		cp->stop = 1;	/* the thread wakes within its timeout anyway */
	pthread_join(cp->thread, NULL);
	cp->running = false;
	if (cp->err)
		return ftc_error(cp->err, "perf capture: %s", cp->errmsg);
	return 0;
}

int ftc_capture_perf_stats(const struct ftc_capture_perf *cp,
			   struct ftc_capture_perf_stats *out)
{
	struct ftc_capture_perf_stats st = {
		.size = sizeof(st),
		.samples = cp->samples,
		.lost = cp->lost,
		.readings = cp->readings,
		.records = cp->records,
		.event = cp->sampling && cp->samp && cp->samp->n ? cp->samp->ev[0].name : "",
		.note = cp->note,
		.clock = cp->clock,
		.perf_shift = cp->perf_shift,
	};

	for (int i = 0; cp->pagers && i < cp->ncpus; i++)
		st.pages += cp->pagers[i] ? cp->pagers[i]->pages : 0;
	return FTC_SIZED_FILL(out, &st, ftc_capture_perf_stats);
}

void ftc_capture_perf_free(struct ftc_capture_perf *cp)
{
	if (!cp)
		return;
	ftc_capture_perf_stop(cp);
	for (int i = 0; cp->rings && i < cp->ncpus; i++)
		ftc_perf_ring_unmap(cp->rings[i]);
	for (int i = 0; cp->pagers && i < cp->ncpus; i++)
		ftc_perf_pager_free(cp->pagers[i]);
	free(cp->rings);
	free(cp->pagers);
	free(cp->ctx);
	ftc_perf_evlist_free(cp->samp);
	ftc_perf_evlist_free(cp->cnt);
	ftc_perf_profile_free(cp->procs);
	if (cp->wake[0] >= 0)
		close(cp->wake[0]);
	if (cp->wake[1] >= 0)
		close(cp->wake[1]);
	free(cp->clock);
	free(cp->instance);
	free(cp);
}
