// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The live merged reader (ftc-live.h). Why this shape:
 * - the pages come from the capture's reader threads (one per CPU, the
 *   same splice and partial-page reads as ftc record), which copy them
 *   into a per-CPU queue and kick an eventfd; everything else (walking
 *   the pages, merging, the callback) runs in the caller's thread, so the
 *   callback needs no locking and the readers never wait on it;
 * - nor on a lock the caller's thread holds: a reader waiting for one
 *   while the scheduler keeps the caller (nice 0, busy formatting) off
 *   the CPU lets the ring buffer overflow. The queues are lock-free
 *   stacks, and each reader frees the chunks the caller is done with
 *   (handed back on a second stack), so no free() takes a reader's
 *   malloc arena lock either;
 * - the event formats come from a trace.dat head that the writer makes
 *   from tracefs (the same metadata a capture stores), opened with the
 *   file reader: the formatters then print live records as report does.
 *   Without a record file that head lives in a memfd and the writer's
 *   data regions stay holes;
 * - the merge holds a record until its page has waited the window (see
 *   ftc-live.h for why that keeps the order), then hands out the oldest
 *   head among the CPUs.
 */
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "ftc.h"
#include "ftc-live.h"
#include "opts.h"
#include "ringbuf.h"
#include "tracefs-layer.h"

#define MIN_WINDOW_MS	5
#define MAX_WINDOW_MS	10000
#define WAKE_US		10000	/* the readers' longest sleep */
#define CLOCK_EVERY	4096	/* records delivered between two clock reads */
#define PID_BITS	(1 << 22)	/* the kernel's PID_MAX_LIMIT on 64-bit */

/* A run of whole pages one reader read at once. */
struct lchunk {
	struct lchunk *next;
	uint64_t arrival;	/* CLOCK_MONOTONIC ns */
	size_t len;
	char data[];
};

struct lcpu {
	int cpu;
	/* Pushed by the reader thread, taken whole by the caller's. */
	_Atomic(struct lchunk *) in;	/* newest first */
	_Atomic(struct lchunk *) spent;	/* walked: for the reader to free */
	_Atomic uint64_t bytes;
	_Atomic uint64_t drained;	/* see take_pages */
	uint64_t drain_mark;		/* the reader's only */
	/* The caller's thread only. */
	struct lchunk *cur;	/* the chunk being walked */
	struct lchunk *cur_tail;	/* the last chunk to walk */
	size_t page_off;	/* its page in kbuf */
	bool page_loaded;
	bool have;		/* rec holds the next record */
	long long missed;	/* of the page loaded, for its first record */
	struct tep_record rec;
	struct kbuffer *kbuf;
	uint64_t delivered, late;
};

struct ftc_live {
	char *instance;
	struct ftc_writer *w;
	struct ftc_capture *cap;
	struct ftc_reader *r;
	struct ftc_subbuf_layout layout;
	unsigned int page;
	int memfd;
	int efd;
	bool stopped, record;
	uint64_t window_ns;
	uint64_t wake_ns;	/* the readers' longest sleep */
	unsigned long long last_ts;
	bool any_delivered;
	uint8_t *pid_seen;	/* bit per pid delivered */
	uint8_t *pid_done;	/* bit per pid whose comm was found or given up */
	struct lcpu *cpus;
	int ncpus;
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void push(_Atomic(struct lchunk *) *stack, struct lchunk *k)
{
	struct lchunk *head = atomic_load_explicit(stack, memory_order_relaxed);

	do
		k->next = head;
	while (!atomic_compare_exchange_weak_explicit(stack, &head, k, memory_order_release,
						      memory_order_relaxed));
}

static void free_chunks(struct lchunk *k)
{
	while (k) {
		struct lchunk *n = k->next;

		free(k);
		k = n;
	}
}

/* Reader thread: queue a copy, wake the caller. */
static void take_pages(void *arg, int slot, const void *pages, size_t len)
{
	struct ftc_live *l = arg;
	struct lcpu *c = &l->cpus[slot];
	struct lchunk *k;
	uint64_t one = 1;

	free_chunks(atomic_exchange_explicit(&c->spent, NULL, memory_order_acquire));
	if (!pages) {
		/*
		 * The CPU's buffer was emptied by a round that began after the
		 * previous mark: every event before that mark is queued (the
		 * release orders the pushes before it).
		 */
		uint64_t now = now_ns();

		atomic_store_explicit(&c->drained, c->drain_mark, memory_order_release);
		c->drain_mark = now;
		return;
	}
	k = malloc(sizeof(*k) + len);
	if (!k)
		return;		/* counted as lost by nobody: out of memory */
	k->len = len;
	memcpy(k->data, pages, len);
	k->arrival = now_ns();
	atomic_fetch_add_explicit(&c->bytes, len, memory_order_relaxed);
	push(&c->in, k);
	if (write(l->efd, &one, sizeof(one)) < 0)
		return;		/* the counter is full: the caller is awake anyway */
}

static int open_meta(struct ftc_live *l, const struct ftc_live_opts *o)
{
	struct ftc_reader_opts ro = FTC_OPTS_INIT(ftc_reader_opts, .flags = o->reader_flags,
						  .plugin_dir = o->plugin_dir);
	char path[64];
	const char *file = o->record_path;
	int ver = o->file_version ? o->file_version : 7;

	if (!file) {
		l->memfd = memfd_create("ftc-live", MFD_CLOEXEC);
		if (l->memfd < 0)
			return ftc_error(errno, "memfd_create: %s", strerror(errno));
		snprintf(path, sizeof(path), "/proc/self/fd/%d", l->memfd);
		file = path;
		ver = 6;
	}
	l->w = ftc_writer_create(file, ver, o->record_path ? o->compression : FTC_COMPRESS_NONE);
	if (!l->w)
		return -1;
	if (ftc_writer_add_buffer(l->w, l->instance, o->ncpus, o->cpus) < 0 ||
	    (o->record_path && ftc_writer_add_enabled(l->w, l->instance) < 0) ||
	    ftc_writer_start(l->w) < 0)
		return -1;
	l->page = ftc_writer_page_size(l->w);
	ftc_tracefs_subbuf_layout(&l->layout);
	l->r = ftc_reader_open_opts(file, &ro);
	return l->r ? 0 : -1;
}

static int open_cpus(struct ftc_live *l, const struct ftc_live_opts *o)
{
	l->cpus = calloc((size_t)o->ncpus, sizeof(*l->cpus));
	if (!l->cpus)
		return ftc_error(ENOMEM, "out of memory");
	l->ncpus = o->ncpus;
	for (int i = 0; i < o->ncpus; i++) {
		struct lcpu *c = &l->cpus[i];

		c->cpu = o->cpus[i];
		c->kbuf = kbuffer_alloc(l->layout.commit_size == 8 ? KBUFFER_LSIZE_8 :
					KBUFFER_LSIZE_4, l->layout.big_endian ?
					KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
		if (!c->kbuf)
			return ftc_error(ENOMEM, "out of memory");
	}
	return 0;
}

static int check_readers(const char *instance)
{
	char *who = NULL;
	int n = ftc_capture_find_readers(instance, &who);

	if (n > 0) {
		ftc_error(EBUSY, "%s is being read by another process, which would take events "
			  "away (stop it first):\n%s", instance && *instance ? instance :
			  "the top-level buffer", who);
		free(who);
		return -1;
	}
	free(who);
	return 0;
}

static int start(struct ftc_live *l, const struct ftc_live_opts *o)
{
	/* The readers look every 10 ms (four times a window if shorter). */
	unsigned int wake_us = (unsigned int)(l->window_ns / 4000);

	if (wake_us > WAKE_US)
		wake_us = WAKE_US;
	l->wake_ns = (uint64_t)wake_us * 1000u;

	if (check_readers(l->instance) < 0 || open_meta(l, o) < 0 || open_cpus(l, o) < 0)
		return -1;
	l->cap = ftc_capture_new(l->w, wake_us);
	if (!l->cap)
		return -1;
	if (o->rt_priority)
		ftc_capture_set_rt_priority(l->cap, o->rt_priority < 0 ? 0 : o->rt_priority);
	ftc_capture_set_live(l->cap, take_pages, l, l->record);
	if (ftc_capture_add(l->cap, 0, l->instance, o->ncpus, o->cpus) < 0)
		return -1;
	return ftc_capture_start(l->cap);
}

struct ftc_live *ftc_live_open(const char *instance, const struct ftc_live_opts *opts)
{
	struct ftc_live_opts o;
	struct ftc_live *l;
	int *cpus = NULL;

	if (FTC_OPTS_COPY(&o, opts, ftc_live_opts, rt_priority) < 0)
		return NULL;
	if (o.window_ms && (o.window_ms < MIN_WINDOW_MS || o.window_ms > MAX_WINDOW_MS)) {
		ftc_error(EINVAL, "a reorder window of %u ms: give %d to %d ms", o.window_ms,
			  MIN_WINDOW_MS, MAX_WINDOW_MS);
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	l->memfd = l->efd = -1;
	l->window_ns = (uint64_t)(o.window_ms ? o.window_ms : FTC_LIVE_WINDOW_MS) * 1000000u;
	l->record = o.record_path != NULL;
	l->pid_seen = calloc(PID_BITS / 8, 1);
	l->pid_done = calloc(PID_BITS / 8, 1);
	l->instance = strdup(instance ? instance : "");
	l->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!l->instance || l->efd < 0) {
		ftc_error(errno ? errno : ENOMEM, "live reader: %s", strerror(errno));
		goto fail;
	}
	if (!o.cpus) {
		o.ncpus = ftc_capture_cpus(l->instance, &cpus);
		if (o.ncpus < 0)
			goto fail;
		o.cpus = cpus;
	}
	if (!o.ncpus) {
		ftc_error(EINVAL, "%s: no CPU to read (tracing_cpumask is empty)",
			  *l->instance ? l->instance : "top-level buffer");
		goto fail;
	}
	if (start(l, &o) < 0)
		goto fail;
	free(cpus);
	return l;
fail:
	free(cpus);
	{
		int err = errno;
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s", ftc_strerror());
		l->record = false;	/* a half-made record file is not finished */
		ftc_live_close(l);
		ftc_error(err ? err : EIO, "%s", msg);
	}
	return NULL;
}

/* Moves what c's reader queued to the walking side, oldest first. */
static void take_cpu(struct lcpu *c)
{
	struct lchunk *k = atomic_exchange_explicit(&c->in, NULL, memory_order_acquire);
	struct lchunk *first = NULL, *last = k;

	if (!k)
		return;
	while (k) {
		struct lchunk *n = k->next;

		k->next = first;
		first = k;
		k = n;
	}
	if (!c->cur) {
		c->cur = first;
		c->page_off = 0;
		c->page_loaded = false;
	} else {
		c->cur_tail->next = first;
	}
	c->cur_tail = last;
}

static void take_incoming(struct ftc_live *l)
{
	uint64_t v;

	if (read(l->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return;
	for (int i = 0; i < l->ncpus; i++)
		take_cpu(&l->cpus[i]);
}

/*
 * A CPU without a queued record holds back record x (read at arrival)
 * until its reader emptied its buffer after x was read: only then can no
 * older event of that CPU still come. Pages queued meanwhile are taken.
 */
static bool quiet_cpus_drained(struct ftc_live *l, uint64_t arrival)
{
	bool ok = true;
	int i;

	for (i = 0; i < l->ncpus && l->cpus[i].have; i++)
		;
	if (i == l->ncpus)
		return true;	/* every CPU has a later record */
	for (i = 0; i < l->ncpus && ok; i++) {
		struct lcpu *c = &l->cpus[i];
		uint64_t drained;

		if (c->have)
			continue;
		/* drained first: the pages pushed before it are then in c->in or taken */
		drained = atomic_load_explicit(&c->drained, memory_order_acquire);
		if (atomic_load_explicit(&c->in, memory_order_acquire))
			return false;	/* pages came: walk them first */
		ok = drained >= arrival;
	}
	return ok;
}

/* Loads the next sound page of c; false when none is queued. */
static bool next_page(struct ftc_live *l, struct lcpu *c)
{
	for (;;) {
		struct ftc_subbuf sb;
		const char *page;

		if (c->page_loaded)
			c->page_off += l->page;
		c->page_loaded = false;
		if (c->cur && c->page_off + l->page > c->cur->len) {
			struct lchunk *done = c->cur;

			c->cur = done->next;
			if (!c->cur)
				c->cur_tail = NULL;
			c->page_off = 0;
			push(&c->spent, done);	/* its reader frees it */
		}
		if (!c->cur)
			return false;
		page = c->cur->data + c->page_off;
		c->page_loaded = true;
		if (!ftc_subbuf_decode(&l->layout, page, l->page, &sb))
			continue;	/* the kernel's own page: cannot happen */
		if (kbuffer_load_subbuffer(c->kbuf, (void *)page) < 0)
			continue;
		c->missed = kbuffer_missed_events(c->kbuf);
		/* A full page has no room for the count: the capture counted it. */
		if (c->missed < 0)
			c->missed = ftc_capture_lost_count(l->cap, (int)(c - l->cpus), sb.ts);
		return true;
	}
}

/* Makes c->rec the CPU's next record if one is queued. */
static bool advance(struct ftc_live *l, struct lcpu *c)
{
	while (!c->have) {
		unsigned long long ts;
		void *data = c->page_loaded ? kbuffer_read_event(c->kbuf, &ts) : NULL;

		if (!data) {
			if (!next_page(l, c))
				return false;
			continue;
		}
		c->rec.ts = ts;
		c->rec.data = data;
		c->rec.size = kbuffer_event_size(c->kbuf);
		c->rec.record_size = kbuffer_curr_size(c->kbuf);
		c->rec.cpu = c->cpu;
		c->rec.offset = 0;
		c->rec.missed_events = c->missed;
		c->missed = 0;
		c->have = true;
	}
	return true;
}

/*
 * A comm found for pid: a task printed before keeps the name it was
 * printed with (the formatter holds on to tep's string, which an override
 * would free); a task met for the first time gets it even over a stale
 * one from saved_cmdlines at open.
 */
static void put_comm(struct ftc_live *l, struct tep_handle *tep, const char *comm, int pid,
		     bool first)
{
	if (first)
		tep_override_comm(tep, comm, pid);
	else if (!tep_is_pid_registered(tep, pid))
		tep_register_comm(tep, comm, pid);
}

#define BIT(map, n)	((map)[(n) / 8] & (1u << ((n) % 8)))
#define SET(map, n)	((map)[(n) / 8] |= (uint8_t)(1u << ((n) % 8)))

/*
 * The comms a capture stores come from saved_cmdlines at its end; live,
 * a task met for the first time is most likely still there to ask. One
 * already gone prints as "<...>": saved_cmdlines at open may name an
 * earlier task with the same pid (pid_max is often 32768 and pids wrap
 * within seconds on a busy machine), and the kernel puts a new task's comm
 * there only at a later context switch, so reading it again during the
 * stream named short-lived shells "tr" and "gen-syscalls".
 */
static void learn_comm(struct ftc_live *l, struct tep_record *rec)
{
	struct tep_handle *tep = ftc_reader_tep(l->r);
	char comm[64];
	bool first;
	int pid;

	if (!tep || !l->pid_seen || !l->pid_done || rec->size < 8)
		return;
	pid = tep_data_pid(tep, rec);
	if (pid <= 0 || pid >= PID_BITS || BIT(l->pid_done, pid))
		return;
	first = !BIT(l->pid_seen, pid);
	SET(l->pid_seen, pid);
	if (ftc_task_comm(pid, comm, sizeof(comm)) < 0) {
		if (first && tep_is_pid_registered(tep, pid))
			tep_override_comm(tep, "<...>", pid);
	} else {
		put_comm(l, tep, comm, pid, first);
	}
	SET(l->pid_done, pid);
}

/*
 * The CPU whose head record is the oldest, or NULL. A CPU that has a
 * record queued cannot bring an older one than its head (each CPU's
 * records come in order).
 */
static struct lcpu *oldest(struct ftc_live *l)
{
	struct lcpu *best = NULL;

	for (int i = 0; i < l->ncpus; i++) {
		struct lcpu *c = &l->cpus[i];

		if (!advance(l, c)) {
			take_cpu(c);
			if (!advance(l, c))
				continue;
		}
		if (!best || c->rec.ts < best->rec.ts)
			best = c;
	}
	return best;
}

/*
 * Delivers the records the window lets out (all when flushing). Returns
 * how many, or the callback's non-zero return; *wait_ns gets how long
 * until the next one may go (0 when none waits).
 */
static int deliver(struct ftc_live *l, bool all, ftc_live_cb cb, void *arg, uint64_t *wait_ns)
{
	uint64_t now = now_ns();
	int n = 0;

	*wait_ns = 0;
	for (;;) {
		struct lcpu *c = oldest(l);
		struct ftc_merge_record mr;
		unsigned long long skip_ts;
		uint64_t due;
		int ret;

		if (!c)
			return n;
		due = c->cur->arrival + l->window_ns;
		/*
		 * The clock is read once a batch (per record it cost ~9 % of
		 * ftc top's CPU at 1 M events/s): a stale now only holds a
		 * record back longer, never lets one out early.
		 */
		if (n % CLOCK_EVERY == CLOCK_EVERY - 1)
			now = now_ns();
		if (!all && now < due && !quiet_cpus_drained(l, c->cur->arrival)) {
			/* the next drain mark comes within a reader's wake-up */
			*wait_ns = due - now < l->wake_ns ? due - now : l->wake_ns;
			return n;
		}
		mr.rec = &c->rec;
		mr.buffer = 0;
		mr.cpu = c->cpu;
		mr.missed = c->rec.missed_events;
		if (l->any_delivered && c->rec.ts < l->last_ts)
			c->late++;
		else
			l->last_ts = c->rec.ts;
		l->any_delivered = true;
		learn_comm(l, &c->rec);
		ret = cb(&mr, arg);
		c->have = false;
		c->delivered++;
		kbuffer_next_event(c->kbuf, &skip_ts);
		if (ret)
			return ret < 0 ? ret : n + 1;
		n++;
	}
}

static int failed(struct ftc_live *l)
{
	if (l->cap && ftc_capture_failed(l->cap)) {
		ftc_error(EIO, "%s", ftc_capture_error(l->cap));
		return -EIO;
	}
	return 0;
}

int ftc_live_poll(struct ftc_live *l, int timeout_ms, ftc_live_cb cb, void *arg)
{
	uint64_t start = now_ns();

	for (;;) {
		uint64_t wait_ns, left_ns;
		struct pollfd p = { .fd = l->efd, .events = POLLIN };
		int n, ms;

		if (failed(l))
			return -EIO;
		take_incoming(l);
		n = deliver(l, l->stopped, cb, arg, &wait_ns);
		if (n != 0)
			return n;
		if (timeout_ms == 0)
			return 0;
		left_ns = timeout_ms < 0 ? UINT64_MAX :
			  (uint64_t)timeout_ms * 1000000u - (now_ns() - start);
		if (timeout_ms >= 0 && now_ns() - start >= (uint64_t)timeout_ms * 1000000u)
			return 0;
		if (wait_ns && wait_ns < left_ns)
			left_ns = wait_ns;
		ms = left_ns == UINT64_MAX ? -1 : (int)((left_ns + 999999) / 1000000);
		if (poll(&p, 1, ms) < 0) {
			if (errno != EINTR)
				return -errno;
			return 0;	/* a signal: let the caller look at it */
		}
	}
}

static int stop(struct ftc_live *l)
{
	int ret = 0;

	if (l->stopped)
		return 0;
	l->stopped = true;
	if (l->cap && ftc_capture_stop(l->cap) < 0)
		ret = -1;
	return ret;
}

int ftc_live_flush(struct ftc_live *l, ftc_live_cb cb, void *arg)
{
	uint64_t wait_ns;

	if (stop(l) < 0)
		return -EIO;
	take_incoming(l);
	return deliver(l, true, cb, arg, &wait_ns);
}

int ftc_live_fd(struct ftc_live *l)
{
	return l->efd;
}

struct ftc_reader *ftc_live_reader(struct ftc_live *l)
{
	return l->r;
}

int ftc_live_tids(struct ftc_live *l, pid_t *tids, int max)
{
	return l->cap ? ftc_capture_tids(l->cap, tids, max) : 0;
}

unsigned int ftc_live_window_ms(const struct ftc_live *l)
{
	return (unsigned int)(l->window_ns / 1000000u);
}

int ftc_live_ncpus(const struct ftc_live *l)
{
	return l->ncpus;
}

int ftc_live_cpu_stats(struct ftc_live *l, int i, struct ftc_live_cpu_stats *out)
{
	struct ftc_capture_cpu_stats cs = FTC_OPTS_INIT(ftc_capture_cpu_stats);
	struct ftc_live_cpu_stats st = { .size = sizeof(st) };
	struct lcpu *c;

	if (i < 0 || i >= l->ncpus)
		return ftc_error(EINVAL, "no live CPU %d (%d are read)", i, l->ncpus);
	c = &l->cpus[i];
	st.cpu = c->cpu;
	if (ftc_capture_cpu_stats(l->cap, i, &cs) == 0) {
		st.events = cs.events;
		st.lost = cs.lost;
	}
	st.bytes = atomic_load_explicit(&c->bytes, memory_order_relaxed);
	st.delivered = c->delivered;
	st.late = c->late;
	return FTC_SIZED_FILL(out, &st, ftc_live_cpu_stats);
}

int ftc_live_close(struct ftc_live *l)
{
	int ret = 0;

	if (!l)
		return 0;
	if (stop(l) < 0)
		ret = -1;
	if (l->record && l->w && ftc_writer_finish(l->w) < 0)
		ret = -1;
	ftc_capture_free(l->cap);
	if (l->r)
		ftc_reader_close(l->r);
	ftc_writer_free(l->w);
	for (int i = 0; i < l->ncpus; i++) {
		free_chunks(l->cpus[i].cur);
		free_chunks(atomic_load(&l->cpus[i].in));
		free_chunks(atomic_load(&l->cpus[i].spent));
		if (l->cpus[i].kbuf)
			kbuffer_free(l->cpus[i].kbuf);
	}
	free(l->cpus);
	if (l->memfd >= 0)
		close(l->memfd);
	if (l->efd >= 0)
		close(l->efd);
	free(l->instance);
	free(l->pid_seen);
	free(l->pid_done);
	free(l);
	return ret;
}
