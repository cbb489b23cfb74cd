// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-CPU readers of trace_pipe_raw. Why this shape:
 * - poll() on trace_pipe_raw returns when the CPU's buffer is
 *   buffer_percent full, so a reader sleeps until there is a batch worth
 *   taking instead of waking every millisecond;
 * - splice() hands out only full sub-buffers (read() would also hand out
 *   the half-filled page the kernel is writing, wasting a page of file
 *   per wake-up), so pages move kernel -> pipe -> our buffer -> writer;
 * - at stop, read() without blocking takes the partial pages too; they
 *   are zero-padded to a page, as trace-cmd's readers expect;
 * - a slow CPU may take minutes to fill a page (and ten for a chunk), so
 *   before each checkpoint a reader that moved less than a chunk since
 *   the last one takes its partial page and writes a short chunk: after
 *   a SIGKILL the file then lacks at most the last second. A streaming
 *   CPU is left alone, as its chunks fill within the second anyway and
 *   short ones would waste space. The reader does this itself, so its
 *   pages and pending chunk only ever have one thread touching them;
 * - one thread per CPU compresses its own chunks, in parallel.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "capture-mmap.h"
#include "ftc.h"
#include "ftc-capture.h"
#include "opts.h"
#include "ringbuf.h"
#include "tracefs-layer.h"

#define BATCH_PAGES	64	/* pages moved per splice round */
#define BUSY_MS		2	/* first re-look interval once data flows */
#define MAX_BUSY_MS	16	/* longest re-look interval while it flows */
#define READER_NICE	-10	/* readers must win against the traced load... */
#define READER_RT_PRIO	1	/* ... and as real-time threads, at once */
#define STREAMING_PAGES	10	/* pages a checkpoint interval: a chunk fills on its own */
#define FLUSH_WAIT_MS	500	/* longest wait for the readers' flushes */

struct cslot {
	struct ftc_capture *cap;
	char *instance;
	int buf, idx, cpu;
	int fd;
	int pipefd[2];
	int flush_fd;		/* eventfd: the checkpoint asks for the partial page */
	_Atomic uint64_t flush_done;	/* the last flush request served */
	uint64_t npages_at_flush;
	pthread_t thread;
	bool running;
	_Atomic pid_t tid;
	char *pages;
	_Atomic uint64_t npages, missed, missed_pages;
	struct ftc_cpu_counters start;
	uint64_t counted;	/* overrun + dropped when the last loss was counted */
	uint64_t limit;		/* drain: stop after this many pages (0: never) */
	uint64_t buf_pages;	/* the CPU's ring buffer, in pages (0: unknown) */
	bool by_read;		/* the kernel refused splice: pages come by read() */
	struct ftc_mmap map;	/* mapped (ftc_capture_use_mmap): map.data set */
	int err;
	char errmsg[512];
};

struct ftc_capture {
	struct ftc_writer *w;
	unsigned int page;
	unsigned int wake_ms;
	int rt_priority;	/* the readers' SCHED_FIFO priority; 0: not real-time */
	int stop_fd;
	bool snapshot;
	bool use_mmap;		/* map the buffers where the kernel lets it */
	struct cslot *slots;
	int nslots;
	_Atomic uint64_t flush_gen;
	atomic_bool failed;
	char errmsg[512];
	pthread_mutex_t lock;
	/* the kernel's sub-buffer header (header_page), to find lost events */
	struct ftc_subbuf_layout layout;
	ftc_capture_page_fn live_fn;	/* live readers: every page also goes here */
	void *live_arg;
	bool live_write;		/* ... and still into the writer */
};

int ftc_capture_subbuf_size(const char *instance)
{
	char *v;
	int kb;

	if (ftc_tracefs_read(instance, "buffer_subbuf_size_kb", &v, NULL) < 0)
		return (int)sysconf(_SC_PAGESIZE);
	kb = atoi(v);
	free(v);
	return kb > 0 ? kb * 1024 : (int)sysconf(_SC_PAGESIZE);
}

static int read_stats(const char *instance, int cpu, struct ftc_cpu_counters *s)
{
	char file[64], *text;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	if (ftc_tracefs_read(instance, file, &text, NULL) < 0)
		return -1;
	ftc_cpu_counters_parse(s, text);
	free(text);
	return 0;
}

struct ftc_capture *ftc_capture_new(struct ftc_writer *w, unsigned int wake_usecs)
{
	struct ftc_capture *c = calloc(1, sizeof(*c));

	if (!c) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	c->w = w;
	/* the file's page, which ftc_capture_add holds each buffer's sub-buffers to */
	c->page = ftc_writer_page_size(w);
	ftc_tracefs_subbuf_layout(&c->layout);
	c->wake_ms = wake_usecs ? (wake_usecs + 999) / 1000 : 1000;
	c->rt_priority = READER_RT_PRIO;
	c->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pthread_mutex_init(&c->lock, NULL);
	if (c->stop_fd < 0) {
		ftc_error(errno, "eventfd: %s", strerror(errno));
		free(c);
		return NULL;
	}
	return c;
}

/* The CPU's ring buffer size in pages, 0 when tracefs does not say. */
static uint64_t buffer_pages(struct cslot *s)
{
	char file[64], *v;
	uint64_t kb;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/buffer_size_kb", s->cpu);
	if (ftc_tracefs_read(s->instance, file, &v, NULL) < 0)
		return 0;
	kb = strtoull(v, NULL, 10);
	free(v);
	return kb * 1024 / s->cap->page;
}

static int open_slot(struct ftc_capture *c, struct cslot *s)
{
	char file[64], *path;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/%s", s->cpu,
		 c->snapshot ? "snapshot_raw" : "trace_pipe_raw");
	path = ftc_tracefs_path(s->instance, file);
	if (!path)
		return -1;
	s->fd = ftc_tracefs_open(s->instance, file, O_RDONLY);
	if (s->fd < 0) {
		int err = -s->fd;

		ftc_error(err, "%s: %s%s", path, strerror(err),
			  c->snapshot && err == ENOENT ?
			  " (this kernel has no snapshot buffer: CONFIG_TRACER_SNAPSHOT)" : "");
		s->fd = -1;
		free(path);
		return -1;
	}
	free(path);
	/* Partial pages are taken only when there is one: never wait. */
	fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);
	/* a kernel that cannot map this buffer is read by splice, as without mmap */
	if (c->use_mmap && !c->snapshot)
		ftc_mmap_open(&s->map, s->fd, &c->layout, c->page);
	if (pipe2(s->pipefd, O_CLOEXEC) < 0)
		return ftc_error(errno, "pipe: %s", strerror(errno));
	s->flush_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->flush_fd < 0)
		return ftc_error(errno, "eventfd: %s", strerror(errno));
	/* A bigger pipe moves a whole batch per splice; best effort. */
	fcntl(s->pipefd[0], F_SETPIPE_SZ, BATCH_PAGES * c->page);
	s->pages = malloc((size_t)BATCH_PAGES * c->page);
	if (!s->pages)
		return ftc_error(ENOMEM, "out of memory");
	read_stats(s->instance, s->cpu, &s->start);
	s->counted = s->start.overrun + s->start.dropped;
	return 0;
}

int ftc_capture_add(struct ftc_capture *c, int buf_index, const char *instance,
		    int ncpus, const int *cpus)
{
	int sub = ftc_capture_subbuf_size(instance);
	struct cslot *ns;

	if (sub != (int)c->page)
		return ftc_error(EINVAL, "%s: sub-buffers of %d KB: trace.dat readers such as "
				 "trace-cmd 3.1 need %u KB (write %u to buffer_subbuf_size_kb, "
				 "or --subbuf-size %u)",
				 instance && *instance ? instance : "top-level buffer",
				 sub / 1024, c->page / 1024, c->page / 1024, c->page / 1024);
	ns = realloc(c->slots, sizeof(*ns) * (size_t)(c->nslots + ncpus));
	if (!ns)
		return ftc_error(ENOMEM, "out of memory");
	c->slots = ns;
	for (int i = 0; i < ncpus; i++) {
		struct cslot *s = &ns[c->nslots];

		memset(s, 0, sizeof(*s));
		s->cap = c;
		s->fd = s->pipefd[0] = s->pipefd[1] = s->flush_fd = -1;
		s->buf = buf_index;
		s->idx = i;
		s->cpu = cpus[i];
		s->instance = strdup(instance ? instance : "");
		c->nslots++;
		if (!s->instance)
			return ftc_error(ENOMEM, "out of memory");
		if (open_slot(c, s) < 0)
			return -1;
	}
	return 0;
}

/*
 * A page read after a loss has it flagged in its header, with the count
 * only where it fits after the data: never in a full page, which is what
 * splice moves. The kernel's count is what its overrun counter grew since
 * the last flagged page, so ours is the same growth, read now: exact but
 * for what grows between the kernel's page swap and our reading, which
 * then belongs to the next flagged page (the sum stays exact). Several
 * flagged pages in one batch: the last one gets the count, the others 0
 * (the file says: counted at a later page). Flagged pages are rare, so
 * reading the stats file for them costs nothing worth measuring.
 */
static int count_lost(struct cslot *s, size_t len)
{
	const struct ftc_subbuf_layout *l = &s->cap->layout;
	uint64_t last_ts = 0, total;
	struct ftc_cpu_counters now = { 0 };
	bool unknown = false;

	for (size_t off = 0; off < len; off += s->cap->page) {
		struct ftc_subbuf sb;

		ftc_subbuf_decode(l, s->pages + off, s->cap->page, &sb);
		if (!sb.lost)
			continue;
		atomic_fetch_add(&s->missed_pages, 1);
		if (sb.lost_stored) {
			atomic_fetch_add(&s->missed, sb.missed);
			s->counted += sb.missed;
			continue;
		}
		if (unknown && ftc_writer_add_lost(s->cap->w, s->buf, s->idx, last_ts, 0) < 0)
			return -1;
		unknown = true;
		last_ts = sb.ts;
	}
	if (!unknown)
		return 0;
	if (read_stats(s->instance, s->cpu, &now) < 0)
		return ftc_writer_add_lost(s->cap->w, s->buf, s->idx, last_ts, 0);
	total = now.overrun + now.dropped;
	if (total <= s->counted)
		return ftc_writer_add_lost(s->cap->w, s->buf, s->idx, last_ts, 0);
	atomic_fetch_add(&s->missed, total - s->counted);
	if (ftc_writer_add_lost(s->cap->w, s->buf, s->idx, last_ts, total - s->counted) < 0)
		return -1;
	s->counted = total;
	return 0;
}

static int give(struct cslot *s, size_t len)
{
	if (count_lost(s, len) < 0)
		return -1;
	if (s->cap->live_fn)
		s->cap->live_fn(s->cap->live_arg, (int)(s - s->cap->slots), s->pages, len);
	if ((!s->cap->live_fn || s->cap->live_write) &&
	    ftc_writer_add_pages(s->cap->w, s->buf, s->idx, s->pages, len) < 0)
		return -1;
	atomic_fetch_add(&s->npages, len / s->cap->page);
	return 0;
}

static int read_partial(struct cslot *s);

/*
 * Some buffers refuse splice from the start (6.12's persistent, boot-mapped
 * ones among them): their pages then come by read(), which hands out the
 * page being written too; nothing is lost, some file space is.
 */
static long read_round(struct cslot *s)
{
	uint64_t before = atomic_load(&s->npages);

	if (read_partial(s) < 0)
		return -1;
	return (long)(atomic_load(&s->npages) - before);
}

static bool splice_refused(const struct cslot *s, int err)
{
	return !atomic_load(&s->npages) &&
	       (err == EINVAL || err == EBUSY || err == EOPNOTSUPP || err == 524 /* ENOTSUPP */);
}

static int give_page(void *slot, const void *page)
{
	struct cslot *s = slot;

	memcpy(s->pages, page, s->cap->page);
	return give(s, s->cap->page);
}

/* Moves every full sub-buffer there is now; returns pages moved or -1. */
static long splice_round(struct cslot *s)
{
	size_t batch = (size_t)BATCH_PAGES * s->cap->page;
	long total = 0;

	if (s->map.data)
		return ftc_mmap_round(&s->map, give_page, s);
	if (s->by_read)
		return read_round(s);
	for (;;) {
		ssize_t n;

		if (s->limit && atomic_load(&s->npages) >= s->limit)
			return total;
		n = splice(s->fd, NULL, s->pipefd[1], NULL, batch,
				   SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
		size_t got = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return total;
		if (n < 0 && splice_refused(s, errno)) {
			s->by_read = true;
			return read_round(s);
		}
		if (n < 0)
			return ftc_error(errno, "splice from cpu%d/trace_pipe_raw: %s",
					 s->cpu, strerror(errno));
		if (n == 0)
			return total;
		while (got < (size_t)n) {
			ssize_t r = read(s->pipefd[0], s->pages + got, (size_t)n - got);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return ftc_error(errno ? errno : EIO, "reading the splice pipe: %s",
						 strerror(errno));
			got += (size_t)r;
		}
		if (give(s, got) < 0)
			return -1;
		total += (long)(got / s->cap->page);
	}
}

/* The pages read() hands out, the partial one included, zero-padded. */
static int read_partial(struct cslot *s)
{
	unsigned int page = s->cap->page;

	if (s->map.data)
		return ftc_mmap_round(&s->map, give_page, s) < 0 ? -1 : 0;
	for (;;) {
		ssize_t r;

		if (s->limit && atomic_load(&s->npages) >= s->limit)
			break;
		r = read(s->fd, s->pages, page);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if ((size_t)r < page)
			memset(s->pages + r, 0, page - (size_t)r);
		if (give(s, page) < 0)
			return -1;
	}
	return 0;
}

/* The last pages, partial ones included. */
static int flush_partial(struct cslot *s)
{
	if (splice_round(s) < 0)
		return -1;
	return read_partial(s);
}

/* A checkpoint comes: an idle or slow CPU puts what it holds in the file. */
static int flush_idle(struct cslot *s)
{
	struct ftc_capture *c = s->cap;
	uint64_t moved = atomic_load(&s->npages) - s->npages_at_flush;
	int ret = 0;

	if (moved < STREAMING_PAGES) {
		ret = read_partial(s);
		if (!ret)
			ret = ftc_writer_flush_cpu(c->w, s->buf, s->idx);
	}
	s->npages_at_flush = atomic_load(&s->npages);
	return ret;
}

/* Serves a checkpoint's request; returns -1 on failure. */
static int serve_flush(struct cslot *s)
{
	uint64_t gen = atomic_load(&s->cap->flush_gen), v;

	if (read(s->flush_fd, &v, 8) < 0 && errno != EAGAIN)
		return ftc_error(errno, "reading the flush eventfd: %s", strerror(errno));
	if (splice_round(s) < 0 || flush_idle(s) < 0)
		return -1;
	atomic_store(&s->flush_done, gen);
	return 0;
}

static void slot_fail(struct cslot *s)
{
	struct ftc_capture *c = s->cap;

	s->err = errno ? errno : EIO;
	snprintf(s->errmsg, sizeof(s->errmsg), "%s", ftc_strerror());
	pthread_mutex_lock(&c->lock);
	if (!atomic_load(&c->failed))
		snprintf(c->errmsg, sizeof(c->errmsg), "%s", s->errmsg);
	atomic_store(&c->failed, true);
	pthread_mutex_unlock(&c->lock);
}

/*
 * While pages flow, look again before the kernel's buffer_percent wake-up:
 * a reader the scheduler delays past the rest of the buffer loses events.
 * Aim at about a quarter of the CPU's buffer a look (16 pages of 256 KB,
 * 4 of 64 KB: a fixed aim let a small buffer fill between two looks):
 * shorter waits when more came, longer when less, between 1 ms and
 * MAX_BUSY_MS. Idle, only buffer_percent (or the long timeout) wakes us.
 */
static int next_timeout(struct cslot *s, int timeout, long pages)
{
	struct ftc_capture *c = s->cap;
	long aim = s->buf_pages > 8 ? (long)s->buf_pages / 4 : 2;
	int t = timeout;

	if (pages <= 0)
		return (int)c->wake_ms;
	if (t > MAX_BUSY_MS)
		t = BUSY_MS;
	else if (pages > aim + aim / 2 && t > 1)
		t /= 2;
	else if (pages < aim / 2 && t < MAX_BUSY_MS)
		t *= 2;
	return t < (int)c->wake_ms ? t : (int)c->wake_ms;
}

/*
 * A reader that waits behind the workload for the CPU lets the ring
 * buffer overflow: at 4 M events/s a 64 KB buffer fills in a few ms, less
 * than a busy CPU's time slice, and a nice -10 reader still lost events at
 * a tenth of that rate. So it is real-time (SCHED_FIFO, the lowest
 * priority) when allowed (root): it wakes at once, moves the pages and
 * sleeps again. Elsewhere nice -10, best effort.
 */
static void raise_priority(int rt_priority)
{
	struct sched_param sp = { .sched_priority = rt_priority };

	if (!rt_priority || pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		setpriority(PRIO_PROCESS, (id_t)gettid(), READER_NICE);
}

void ftc_capture_set_rt_priority(struct ftc_capture *c, int rt_priority)
{
	c->rt_priority = rt_priority;
}

static void *reader(void *arg)
{
	struct cslot *s = arg;
	struct ftc_capture *c = s->cap;
	struct pollfd p[3] = { { .fd = s->fd, .events = POLLIN },
			       { .fd = c->stop_fd, .events = POLLIN },
			       { .fd = s->flush_fd, .events = POLLIN } };

	int timeout = (int)c->wake_ms;

	raise_priority(c->rt_priority);
	s->buf_pages = buffer_pages(s);
	atomic_store(&s->tid, gettid());
	while (!atomic_load(&c->failed)) {
		int r = poll(p, 3, timeout);
		long n;

		if (r < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		if (r > 0 && (p[2].revents & POLLIN) && serve_flush(s) < 0) {
			slot_fail(s);
			return NULL;
		}
		n = splice_round(s);
		/* Live: the page the kernel is filling too, so nothing waits for it. */
		if (n >= 0 && c->live_fn) {
			if (read_partial(s) < 0)
				n = -1;
			else	/* emptied: say so, the merge waits for it */
				c->live_fn(c->live_arg, (int)(s - c->slots), NULL, 0);
		}
		if (n < 0) {
			slot_fail(s);
			return NULL;
		}
		timeout = next_timeout(s, timeout, n);
		/* Readable but no full page (buffer_percent 0): do not spin. */
		if (n == 0 && r > 0 && (p[0].revents & POLLIN))
			usleep((BUSY_MS < c->wake_ms ? BUSY_MS : c->wake_ms) * 1000u);
	}
	if (!atomic_load(&c->failed) && flush_partial(s) < 0)
		slot_fail(s);
	return NULL;
}

int ftc_capture_start(struct ftc_capture *c)
{
	sigset_t all, old;
	int ret = 0;

	/* Signals go to the main thread, which restores tracefs. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < c->nslots; i++) {
		int err = pthread_create(&c->slots[i].thread, NULL, reader, &c->slots[i]);

		if (err) {
			ret = ftc_error(err, "cannot start a reader thread: %s", strerror(err));
			break;
		}
		c->slots[i].running = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* Wait until every reader knows its thread id (ftc_capture_tids). */
	for (int i = 0; i < c->nslots && !ret; i++)
		while (c->slots[i].running && !atomic_load(&c->slots[i].tid))
			usleep(100);
	return ret;
}

int ftc_capture_tids(struct ftc_capture *c, pid_t *tids, int max)
{
	int n = 0;

	for (int i = 0; i < c->nslots && n < max; i++)
		if (atomic_load(&c->slots[i].tid))
			tids[n++] = atomic_load(&c->slots[i].tid);
	return n;
}

static bool flushes_done(struct ftc_capture *c, uint64_t gen)
{
	for (int i = 0; i < c->nslots; i++)
		if (c->slots[i].running && atomic_load(&c->slots[i].flush_done) < gen)
			return false;
	return true;
}

int ftc_capture_checkpoint(struct ftc_capture *c)
{
	uint64_t gen = atomic_fetch_add(&c->flush_gen, 1) + 1, one = 1;

	for (int i = 0; i < c->nslots; i++)
		if (c->slots[i].running && write(c->slots[i].flush_fd, &one, 8) < 0)
			return ftc_error(errno, "waking reader %d: %s", i, strerror(errno));
	/* A reader stuck on a slow disk must not hold back the others' index. */
	for (int ms = 0; ms < FLUSH_WAIT_MS && !flushes_done(c, gen); ms++) {
		if (atomic_load(&c->failed))
			return ftc_error(EIO, "%s", c->errmsg);
		usleep(1000);
	}
	return ftc_writer_checkpoint(c->w);
}

bool ftc_capture_failed(struct ftc_capture *c)
{
	return atomic_load(&c->failed);
}

const char *ftc_capture_error(struct ftc_capture *c)
{
	return c->errmsg;
}

int ftc_capture_stop(struct ftc_capture *c)
{
	uint64_t one = 1;

	if (write(c->stop_fd, &one, 8) < 0)
		return ftc_error(errno, "waking the readers: %s", strerror(errno));
	for (int i = 0; i < c->nslots; i++)
		if (c->slots[i].running) {
			pthread_join(c->slots[i].thread, NULL);
			c->slots[i].running = false;
		}
	if (atomic_load(&c->failed))
		return ftc_error(EIO, "%s", c->errmsg);
	return 0;
}

void ftc_capture_set_live(struct ftc_capture *c, ftc_capture_page_fn fn, void *arg,
			  bool write)
{
	c->live_fn = fn;
	c->live_arg = arg;
	c->live_write = write;
}

void ftc_capture_use_snapshot(struct ftc_capture *c)
{
	c->snapshot = true;
}

void ftc_capture_use_mmap(struct ftc_capture *c)
{
	c->use_mmap = true;
}

/*
 * While tracing goes on, "until empty" may never come: take at most twice
 * what the buffer holds, which is everything that was there when we began.
 */
static uint64_t drain_limit(struct cslot *s)
{
	uint64_t pages = buffer_pages(s);

	return pages ? 2 * pages + 16 : 0;
}

int ftc_capture_drain(struct ftc_capture *c)
{
	for (int i = 0; i < c->nslots; i++) {
		c->slots[i].limit = drain_limit(&c->slots[i]);
		if (flush_partial(&c->slots[i]) < 0)
			return -1;
	}
	return 0;
}

int ftc_capture_nslots(const struct ftc_capture *c)
{
	return c->nslots;
}

long long ftc_capture_lost_count(struct ftc_capture *c, int slot, uint64_t page_ts)
{
	if (slot < 0 || slot >= c->nslots)
		return -1;
	return ftc_writer_lost_count(c->w, c->slots[slot].buf, c->slots[slot].idx, page_ts);
}

int ftc_capture_cpu_stats(struct ftc_capture *c, int slot,
			  struct ftc_capture_cpu_stats *out)
{
	struct ftc_capture_cpu_stats st = { .size = sizeof(st) };
	struct cslot *s;
	struct ftc_cpu_counters now = { 0 };
	uint64_t lost;

	if (slot < 0 || slot >= c->nslots)
		return ftc_error(EINVAL, "no CPU slot %d", slot);
	s = &c->slots[slot];
	read_stats(s->instance, s->cpu, &now);
	st.instance = s->instance;
	st.cpu = s->cpu;
	st.pages = atomic_load(&s->npages);
	ftc_cpu_counters_delta(&s->start, &now, &st.events, &lost);
	st.lost = lost > atomic_load(&s->missed) ? lost : atomic_load(&s->missed);
	st.lost_pages = atomic_load(&s->missed_pages);
	st.mapped = s->map.data != NULL;
	return FTC_SIZED_FILL(out, &st, ftc_capture_cpu_stats);
}

void ftc_capture_free(struct ftc_capture *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nslots; i++) {
		struct cslot *s = &c->slots[i];

		if (s->running) {
			uint64_t one = 1;

			if (write(c->stop_fd, &one, 8) < 0)
				break;
			pthread_join(s->thread, NULL);
		}
		if (s->map.data)
			ftc_mmap_close(&s->map);
		if (s->fd >= 0)
			close(s->fd);
		if (s->pipefd[0] >= 0)
			close(s->pipefd[0]);
		if (s->pipefd[1] >= 0)
			close(s->pipefd[1]);
		if (s->flush_fd >= 0)
			close(s->flush_fd);
		free(s->pages);
		free(s->instance);
	}
	close(c->stop_fd);
	pthread_mutex_destroy(&c->lock);
	free(c->slots);
	free(c);
}

/* CPUs that tracing_cpumask lets through, among those the kernel knows. */
int ftc_capture_cpus(const char *instance, int **cpus)
{
	return ftc_tracefs_cpumask_cpus(instance, cpus);
}
