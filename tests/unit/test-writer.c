// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the trace.dat writer, read back with a small parser
 * written here from the format notes (not with the writer's own code):
 * the v7 section chain is unbroken from the header to EOF, the index
 * points at each CPU's pages in the order they were written, the file
 * is readable at a checkpoint (what SIGKILL leaves), compaction removes
 * the holes, -m keeps the newest pages (joining large halves with little
 * memory), a half switch during a checkpoint leaves a consistent index,
 * and ftc restore recovers unindexed pages by the file's header_page.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <zstd.h>
#include <linux/falloc.h>

#include "check.h"
#include "ftc.h"
#include "ftc-writer.h"
#include "tracedat-format.h"

#define PAGE 4096

struct cpu_data {
	uint64_t off, size;
};

struct parsed {
	int chain_ok, strings;
	int compressed;
	int ncpus;
	struct cpu_data cpu[8];
};

static int rd(int fd, void *p, size_t n, uint64_t off)
{
	return pread(fd, p, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

static void parse_buffer_opt(const char *d, struct parsed *p)
{
	const char *q = d + 8;
	uint32_t n;

	q += strlen(q) + 1;		/* name */
	q += strlen(q) + 1;		/* clock */
	q += 4;				/* page size */
	memcpy(&n, q, 4);
	q += 4;
	if (!n)
		return;			/* the CPU-less top buffer */
	p->ncpus = (int)n;
	for (uint32_t i = 0; i < n && i < 8; i++, q += 20) {
		memcpy(&p->cpu[i].off, q + 4, 8);
		memcpy(&p->cpu[i].size, q + 12, 8);
	}
}

static int parse_v7(const char *path, struct parsed *p)
{
	int fd = open(path, O_RDONLY);
	char head[64];
	struct stat st;
	uint64_t pos, opts;
	size_t at = 10;

	memset(p, 0, sizeof(*p));
	if (fd < 0 || fstat(fd, &st) < 0 || rd(fd, head, sizeof(head), 0) < 0)
		return -1;
	at += strlen(head + at) + 1 + 1 + 1 + 4;	/* version, endian, long, page */
	p->compressed = strcmp(head + at, "none") != 0;
	at += strlen(head + at) + 1;
	at += strlen(head + at) + 1;
	memcpy(&opts, head + at, 8);
	/* The section chain: every header's size leads to the next, to EOF. */
	for (pos = at + 8; pos < (uint64_t)st.st_size;) {
		char h[16];
		uint16_t id;
		uint64_t size;

		if (rd(fd, h, 16, pos) < 0)
			break;
		memcpy(&id, h, 2);
		memcpy(&size, h + 8, 8);
		p->strings += id == 15;
		pos += 16 + size;
	}
	p->chain_ok = pos == (uint64_t)st.st_size;
	/* The options sections, linked by DONE. */
	for (int guard = 0; opts && guard < 16; guard++) {
		uint64_t q = opts + 16, next = 0;

		for (;;) {
			uint16_t id;
			uint32_t size;
			char *d;

			if (rd(fd, &id, 2, q) < 0 || rd(fd, &size, 4, q + 2) < 0)
				goto out;
			d = malloc(size ? size : 1);
			if (!d || rd(fd, d, size, q + 6) < 0) {
				free(d);
				goto out;
			}
			if (id == 3)
				parse_buffer_opt(d, p);
			if (id == 0)
				memcpy(&next, d, 8);
			free(d);
			q += 6 + size;
			if (id == 0)
				break;
		}
		opts = next;
	}
out:
	close(fd);
	return 0;
}

/* The page timestamps of one CPU, in file order. */
static int read_stamps(const char *path, const struct parsed *p, int c, uint64_t *ts, int max)
{
	int fd = open(path, O_RDONLY), n = 0;
	char *page = malloc(PAGE * 10);
	const struct cpu_data *cd = &p->cpu[c];

	if (fd < 0 || !page)
		goto out;
	if (!p->compressed) {
		for (uint64_t o = 0; o < cd->size && n < max; o += PAGE)
			if (rd(fd, &ts[n], 8, cd->off + o) == 0)
				n++;
		goto out;
	}
	uint32_t count;
	uint64_t q = cd->off + 4;

	rd(fd, &count, 4, cd->off);
	for (uint32_t k = 0; k < count; k++) {
		uint32_t cz[2];
		char *z;
		size_t r;

		if (rd(fd, cz, 8, q) < 0 || !(z = malloc(cz[0])))
			break;
		rd(fd, z, cz[0], q + 8);
		r = ZSTD_decompress(page, PAGE * 10, z, cz[0]);
		free(z);
		if (ZSTD_isError(r) || r != cz[1])
			break;
		for (size_t o = 0; o < r && n < max; o += PAGE)
			memcpy(&ts[n++], page + o, 8);
		q += 8 + cz[0];
	}
out:
	if (fd >= 0)
		close(fd);
	free(page);
	return n;
}

/*
 * The writer's fallocate goes through here: the Nth hole removal
 * (FALLOC_FL_COLLAPSE_RANGE, counted from 1) fails with EIO, as a disk
 * error half-way through compaction would; 0 fails none.
 */
static int collapse_fail_at, collapse_calls;

int fallocate(int fd, int mode, off_t off, off_t len)
{
	if ((mode & FALLOC_FL_COLLAPSE_RANGE) && ++collapse_calls == collapse_fail_at) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_fallocate, fd, mode, off, len);
}

/*
 * The writer's pwrite goes through here. Armed, the first 4-byte write
 * (a v7 chunk count: the first thing a checkpoint writes after taking
 * its snapshot) first runs hook_fn, as another thread could at that
 * moment.
 */
static bool hook_armed;
static void (*hook_fn)(void);

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	if (hook_armed && n == 4) {
		hook_armed = false;
		hook_fn();
	}
	return (ssize_t)syscall(SYS_pwrite64, fd, buf, n, off);
}

/*
 * The largest single malloc while watch_malloc is set: the -m join used
 * to take one as large as both halves of a CPU. Not under ASan, which
 * owns malloc.
 */
#if defined(__SANITIZE_ADDRESS__)
#define MALLOC_WATCH 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MALLOC_WATCH 0
#endif
#endif
#ifndef MALLOC_WATCH
#define MALLOC_WATCH 1
#endif

static bool watch_malloc;
static size_t largest_malloc;

#if MALLOC_WATCH
extern void *__libc_malloc(size_t n);

void *malloc(size_t n)
{
	if (watch_malloc && n > largest_malloc)
		largest_malloc = n;
	return __libc_malloc(n);
}
#endif

static void fill_page(char *page, uint64_t ts)
{
	memset(page, 0, PAGE);
	memcpy(page, &ts, 8);	/* an empty sub-buffer: commit 0 */
}

static int sequential(const uint64_t *ts, int n, uint64_t first)
{
	for (int i = 0; i < n; i++)
		if (ts[i] != first + (uint64_t)i)
			return 0;
	return 1;
}

/* Writes `pages` pages per CPU to 2 CPUs, interleaved; stamps cpu*1e6 + k. */
static struct ftc_writer *write_file(const char *path, int version, enum ftc_compression comp,
				     int pages, uint64_t max, int finish)
{
	int cpus[2] = { 0, 1 };
	struct ftc_writer *w = ftc_writer_create(path, version, comp);
	char page[PAGE];

	if (!w)
		return NULL;
	if (max)
		ftc_writer_set_max(w, max);
	if (ftc_writer_add_buffer(w, NULL, 2, cpus) < 0 || ftc_writer_start(w) < 0) {
		ftc_writer_free(w);
		return NULL;
	}
	for (int k = 0; k < pages; k++)
		for (int c = 0; c < 2; c++) {
			fill_page(page, (uint64_t)c * 1000000 + (uint64_t)k);
			ftc_writer_add_pages(w, 0, c, page, PAGE);
		}
	if (!finish) {
		ftc_writer_checkpoint(w);
		return w;
	}
	if (ftc_writer_finish(w) < 0) {
		ftc_writer_free(w);
		return NULL;
	}
	ftc_writer_free(w);
	return (struct ftc_writer *)1;
}

static void check_file(const char *name, const char *path, int pages, int want_first)
{
	uint64_t ts[4096];
	struct parsed p;
	char label[160];
	int n;

	parse_v7(path, &p);
	snprintf(label, sizeof(label), "%s: unbroken section chain to EOF", name);
	CHECK(label, p.chain_ok);
	snprintf(label, sizeof(label), "%s: a STRINGS section", name);
	CHECK(label, p.strings >= 1);
	snprintf(label, sizeof(label), "%s: BUFFER option for 2 CPUs", name);
	CHECK(label, p.ncpus == 2);
	for (int c = 0; c < 2 && p.ncpus == 2; c++) {
		n = read_stamps(path, &p, c, ts, 4096);
		snprintf(label, sizeof(label), "%s: cpu%d holds pages %d..%d in order", name, c,
			 want_first, pages - 1);
		CHECK(label, n == pages - want_first &&
		      sequential(ts, n, (uint64_t)c * 1000000 + (uint64_t)want_first));
	}
}

/*
 * -m with halves of 8 MB, far more than the 1 MiB the join moves data
 * through: 5000 pages per CPU end in the first half (the join swaps the
 * halves), 3000 in the second (it appends); the newest pages are kept in
 * order either way, and finishing never allocates anything near a half.
 */
static void test_max_large(const char *dir, int pages)
{
	const uint64_t half_pages = 2048;
	char path[256], label[160], name[64];
	struct ftc_writer *w;
	int ok;

	snprintf(name, sizeof(name), "max (8 MB halves, %d pages)", pages);
	snprintf(path, sizeof(path), "%s/max-large.dat", dir);
	w = write_file(path, 7, FTC_COMPRESS_NONE, pages, 2 * half_pages * PAGE, 0);
	snprintf(label, sizeof(label), "%s: written", name);
	CHECK(label, w != NULL);
	if (!w)
		return;
	largest_malloc = 0;
	watch_malloc = true;
	ok = ftc_writer_finish(w) == 0;
	watch_malloc = false;
	ftc_writer_free(w);
	snprintf(label, sizeof(label), "%s: finished", name);
	CHECK(label, ok);
	check_file(name, path, pages, pages - (int)half_pages - pages % (int)half_pages);
	snprintf(label, sizeof(label), "%s: finishing allocates at most 2 MB at once (%zu)",
		 name, largest_malloc);
	if (MALLOC_WATCH)
		CHECK(label, largest_malloc <= (2u << 20));
	else
		SKIP(label, "malloc belongs to ASan here");
	unlink(path);
}

/* Pages that zstd cannot shrink (random after the stamp), the first `random` of n. */
static void fill_chunk(char *pages, int n, int random, uint64_t first)
{
	static uint64_t x = 0x9e3779b97f4a7c15ULL;

	memset(pages, 0, (size_t)n * PAGE);
	for (int k = 0; k < n; k++) {
		for (size_t i = 8; k < random && i < PAGE; i += 8) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			memcpy(pages + (size_t)k * PAGE + i, &x, 8);
		}
		memcpy(pages + (size_t)k * PAGE, &(uint64_t){ first + (uint64_t)k }, 8);
	}
}

static struct ftc_writer *race_w;
static char race_chunk[FTC_PAGES_IN_CHUNK * PAGE];

/* CPU 1's reader writes a chunk that does not fit its half: it switches halves. */
static void switch_cpu1(void)
{
	fill_chunk(race_chunk, FTC_PAGES_IN_CHUNK, FTC_PAGES_IN_CHUNK / 2, 1000000 + 100);
	ftc_writer_add_pages(race_w, 0, 1, race_chunk, sizeof(race_chunk));
}

/*
 * -m: a checkpoint takes each CPU's size and chunk count under the lock;
 * if it took the CPU's offset (its current half) later, without the
 * lock, a half switch in between (the reader threads run on) gave an
 * index naming the new half with the old half's size and count: a file
 * whose last checkpoint is unreadable. Here the switch comes right after
 * the snapshot, every time: halves of one chunk, CPU 1 switching during
 * the checkpoint's first write. The index must still name the half the
 * snapshot saw, with the chunk it held.
 */
static void test_index_switch(const char *dir)
{
	int cpus[2] = { 0, 1 };
	char path[256];
	struct parsed p;
	uint64_t ts[16];
	struct ftc_writer *w;
	int n;

	snprintf(path, sizeof(path), "%s/race.dat", dir);
	w = ftc_writer_create(path, 7, FTC_COMPRESS_ZSTD);
	if (!w || ftc_writer_set_max(w, 1) < 0 || ftc_writer_add_buffer(w, NULL, 2, cpus) < 0 ||
	    ftc_writer_start(w) < 0) {
		CHECK("index during a half switch: writer started", 0);
		ftc_writer_free(w);
		return;
	}
	for (int c = 0; c < 2; c++) {
		fill_chunk(race_chunk, FTC_PAGES_IN_CHUNK, FTC_PAGES_IN_CHUNK,
			   (uint64_t)c * 1000000);
		ftc_writer_add_pages(w, 0, c, race_chunk, sizeof(race_chunk));
	}
	race_w = w;
	hook_fn = switch_cpu1;
	hook_armed = true;
	CHECK("index during a half switch: checkpoint", ftc_writer_checkpoint(w) == 0);
	CHECK("index during a half switch: CPU 1 switched during the checkpoint", !hook_armed);
	hook_armed = false;
	parse_v7(path, &p);
	n = p.ncpus == 2 ? read_stamps(path, &p, 1, ts, 16) : 0;
	CHECK("index during a half switch: CPU 1's entry holds the chunk its size is of",
	      n == FTC_PAGES_IN_CHUNK && sequential(ts, n, 1000000));
	CHECK("index during a half switch: CPU 0 intact", p.ncpus == 2 &&
	      read_stamps(path, &p, 0, ts, 16) == FTC_PAGES_IN_CHUNK && sequential(ts, 10, 0));
	ftc_writer_free(w);
	unlink(path);
}

/* A page filled to its last byte in the layout whose data starts at data_off. */
static void fill_full_page(char *page, uint64_t ts, unsigned int data_off)
{
	uint64_t commit = PAGE - data_off;

	memset(page, 0x5a, PAGE);
	memcpy(page, &ts, 8);
	memcpy(page + 8, &commit, data_off - 8);	/* little endian: the low bytes */
}

/* Rewrites the first `from` after the file's start with `to`, same length. */
static int patch_head(const char *path, const char *from, const char *to)
{
	int fd = open(path, O_RDWR), ret = -1;
	char *head = malloc(1 << 20), *at;
	ssize_t n;

	if (fd < 0 || !head || (n = pread(fd, head, 1 << 20, 0)) <= 0)
		goto out;
	at = memmem(head, (size_t)n, from, strlen(from));
	if (at && pwrite(fd, to, strlen(to), at - head) == (ssize_t)strlen(to))
		ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(head);
	return ret;
}

/*
 * ftc restore of a file cut short (SIGKILL after a checkpoint): pages
 * written since are found by their sub-buffer header, read with the
 * layout of the file's own header_page. For a 32-bit kernel that header
 * (patched in here) puts the data at 12, and pages filled to the last
 * byte in that layout must be recovered, which a 64-bit reading refuses.
 */
static void test_repair(const char *dir, bool kernel32)
{
	const char *name = kernel32 ? "restore, 32-bit kernel" : "restore, 64-bit kernel";
	unsigned int data_off = kernel32 ? 12 : 16;
	char path[256], label[160], page[PAGE];
	struct ftc_writer *w;
	int changed = 0, ret;

	snprintf(path, sizeof(path), "%s/repair%d.dat", dir, kernel32 ? 32 : 64);
	w = write_file(path, 7, FTC_COMPRESS_NONE, 20, 0, 0);
	if (!w) {
		snprintf(label, sizeof(label), "%s: written", name);
		CHECK(label, 0);
		return;
	}
	if (kernel32 && (patch_head(path, "local_t commit;\toffset:8;\tsize:8;",
				    "local_t commit;\toffset:8;\tsize:4;") < 0 ||
			 patch_head(path, "char data;\toffset:16;", "char data;\toffset:12;") < 0)) {
		SKIP(name, "this kernel's header_page is not the 64-bit one");
		ftc_writer_free(w);
		return;
	}
	/* Written after the last checkpoint: in the file, not in its index. */
	for (int k = 20; k < 30; k++)
		for (int c = 0; c < 2; c++) {
			fill_full_page(page, (uint64_t)c * 1000000 + (uint64_t)k, data_off);
			ftc_writer_add_pages(w, 0, c, page, PAGE);
		}
	ftc_writer_free(w);
	ret = ftc_writer_repair(path, &changed);
	snprintf(label, sizeof(label), "%s: repaired, the 20 unindexed pages recovered", name);
	CHECK(label, ret == 0 && changed >= 20);
	check_file(name, path, 30, 0);
}

int main(void)
{
	char dir[] = "/tmp/ftc-test-writer.XXXXXX", path[256];
	struct ftc_writer *w;
	struct stat st;

	if (!ftc_tracefs_dir() || access("/sys/kernel/tracing/events/header_page", R_OK)) {
		SKIP("writer", "tracefs is not readable here (the writer stores its formats)");
		return CHECK_DONE();
	}
	if (!mkdtemp(dir))
		return 1;

	snprintf(path, sizeof(path), "%s/none.dat", dir);
	CHECK("v7 none: written", write_file(path, 7, FTC_COMPRESS_NONE, 300, 0, 1) != NULL);
	check_file("v7 none", path, 300, 0);
	stat(path, &st);
	CHECK("v7 none: holes removed (size < 10 MB)", st.st_size < (10 << 20));
	CHECK("v7 none: no sparse region left", (uint64_t)st.st_blocks * 512 + (64 << 10) >=
	      (uint64_t)st.st_size);

	snprintf(path, sizeof(path), "%s/zstd.dat", dir);
	CHECK("v7 zstd: written", write_file(path, 7, FTC_COMPRESS_ZSTD, 333, 0, 1) != NULL);
	check_file("v7 zstd", path, 333, 0);

	/* What SIGKILL leaves: the file at a checkpoint, never finished. */
	snprintf(path, sizeof(path), "%s/killed.dat", dir);
	w = write_file(path, 7, FTC_COMPRESS_ZSTD, 205, 0, 0);
	CHECK("checkpoint: written", w != NULL);
	/* 205 pages = 20 whole chunks; the last 5 pages wait for a chunk. */
	check_file("checkpoint (unfinished file)", path, 200, 0);
	ftc_writer_free(w);

	/* Compaction that fails after one hole is gone: the file is still whole. */
	snprintf(path, sizeof(path), "%s/partial.dat", dir);
	collapse_calls = 0;
	collapse_fail_at = 2;
	w = write_file(path, 7, FTC_COMPRESS_NONE, 300, 0, 1);
	collapse_fail_at = 0;
	if (collapse_calls < 2) {
		SKIP("compaction failing half-way", "this file system has no COLLAPSE_RANGE");
	} else {
		CHECK("compaction failing half-way: finish says so", w == NULL &&
		      strstr(ftc_strerror(), "removing the gap"));
		check_file("compaction failing half-way", path, 300, 0);
	}

	/* -m: at most about 16 pages per CPU, the newest. */
	snprintf(path, sizeof(path), "%s/max.dat", dir);
	CHECK("max: written", write_file(path, 7, FTC_COMPRESS_NONE, 100, 16 * PAGE, 1) != NULL);
	check_file("max (16 pages)", path, 100, 100 - 8 - 100 % 8);

	test_index_switch(dir);
	test_max_large(dir, 5000);
	test_max_large(dir, 3000);

	test_repair(dir, false);
	test_repair(dir, true);

	CHECK("bad version refused", ftc_writer_create(path, 5, FTC_COMPRESS_NONE) == NULL &&
	      strstr(ftc_strerror(), "version 5"));
	CHECK("unwritable path refused", ftc_writer_create("/proc/no/such", 7, FTC_COMPRESS_NONE)
	      == NULL && strstr(ftc_strerror(), "/proc/no/such"));
	CHECK("compression names", ftc_compression_parse("zstd") == FTC_COMPRESS_ZSTD &&
	      ftc_compression_parse("zlib") == FTC_COMPRESS_ZLIB &&
	      ftc_compression_parse("none") == FTC_COMPRESS_NONE &&
	      ftc_compression_parse("lz4") == -1);

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		return 1;
	return CHECK_DONE();
}
