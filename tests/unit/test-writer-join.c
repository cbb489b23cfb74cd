// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of joining a -m CPU's two halves (writer-join.c) on a plain
 * file, without tracefs: for either half being the current one, raw or
 * compressed (u32 chunk count first), halves of random sizes, some far
 * larger than the buffer the data moves through (down to 2 bytes), the
 * region must end as the older half's bytes then the newer half's,
 * exactly what reading both whole and writing them back gave, with every
 * other byte of the file untouched.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "writer.h"

static uint64_t rng = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct join_case {
	bool compressed;
	int cur;
	uint64_t hstride, older, newer;
	size_t cap;
};

/* Runs one join; 1 when the file and the CPU's state are what they must be. */
static int run(int fd, const struct join_case *jc)
{
	uint64_t start = 100 + rnd() % 50, hdr = jc->compressed ? 4 : 0;
	uint64_t flen = start + 2 * jc->hstride + 64;
	uint64_t older_at = start + hdr + (uint64_t)(jc->cur ^ 1) * jc->hstride;
	uint64_t newer_at = start + hdr + (uint64_t)jc->cur * jc->hstride;
	char *before = malloc(flen), *after = malloc(flen), *want = malloc(flen);
	char *buf = malloc(jc->cap);
	struct ftc_writer w = { 0 };
	struct wcpu wc = { 0 };
	uint32_t chunks = 7 + 5;
	int ok = 0;

	if (!before || !after || !want || !buf)
		goto out;
	for (uint64_t i = 0; i < flen; i++)
		before[i] = (char)rnd();
	if (ftruncate(fd, 0) < 0 || pwrite(fd, before, flen, 0) != (ssize_t)flen)
		goto out;
	/* What the join used to do: both halves read whole, written back in order. */
	memcpy(want, before, flen);
	if (jc->compressed)
		memcpy(want + start, &chunks, 4);
	memcpy(want + start + hdr, before + older_at, jc->older);
	memcpy(want + start + hdr + jc->older, before + newer_at, jc->newer);

	w.fd = fd;
	w.path = "join-test";
	w.version = 7;
	w.comp = jc->compressed ? FTC_COMPRESS_ZSTD : FTC_COMPRESS_NONE;
	w.hstride = jc->hstride;
	pthread_mutex_init(&w.lock, NULL);
	wc = (struct wcpu){ .cpu = 3, .start = start, .cur = jc->cur, .wrapped = true,
			    .old_size = jc->older, .old_chunks = 7,
			    .size = jc->newer, .chunks = 5 };
	if (ftc_wjoin_halves(&w, &wc, buf, jc->cap) < 0) {
		printf("# %s\n", ftc_strerror());
		goto out;
	}
	pthread_mutex_destroy(&w.lock);
	if (pread(fd, after, flen, 0) != (ssize_t)flen)
		goto out;
	ok = !memcmp(after, want, flen) && wc.cur == 0 && !wc.wrapped &&
	     wc.size == jc->older + jc->newer && (!jc->compressed || wc.chunks == chunks);
out:
	free(before);
	free(after);
	free(want);
	free(buf);
	return ok;
}

static void check_case(int fd, const char *name, const struct join_case *jc)
{
	char label[200];

	snprintf(label, sizeof(label), "%s: %s, current half %d, older %llu + newer %llu bytes, "
		 "%zu-byte buffer", name, jc->compressed ? "compressed" : "raw", jc->cur,
		 (unsigned long long)jc->older, (unsigned long long)jc->newer, jc->cap);
	CHECK(label, run(fd, jc));
}

int main(void)
{
	char path[] = "/tmp/ftc-test-join-XXXXXX";
	int fd = mkstemp(path), bad = 0, n = 0;

	if (fd < 0) {
		SKIP("join", "cannot create a temporary file");
		return CHECK_DONE();
	}
	unlink(path);
	for (int comp = 0; comp < 2; comp++)
		for (int cur = 0; cur < 2; cur++) {
			uint64_t h = 4096, room = h - (comp ? 4 : 0);
			struct join_case c[] = {
				{ comp, cur, h, room, room, 2 },
				{ comp, cur, h, room, 1, 2 },
				{ comp, cur, h, 1, room, 2 },
				{ comp, cur, h, 0, room, 64 },
				{ comp, cur, h, room, 0, 64 },
				{ comp, cur, h, 0, 0, 64 },
				{ comp, cur, h, 1000, 1000, 100 },
				{ comp, cur, h, 3000, 1234, 1000 },
				{ comp, cur, h, room, room, 8192 },
			};

			for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
				check_case(fd, "edge", &c[i]);
		}
	/* Random sizes and buffers, from a few bytes to more than a half. */
	for (int i = 0; i < 400; i++) {
		struct join_case c = { rnd() & 1, (int)(rnd() & 1), 512 + rnd() % 8192, 0, 0, 0 };
		uint64_t room = c.hstride - (c.compressed ? 4 : 0);

		c.older = rnd() % (room + 1);
		c.newer = rnd() % (room + 1);
		c.cap = 2 + (size_t)(rnd() % (i < 300 ? 64 : 2 * c.hstride));
		n++;
		if (!run(fd, &c)) {
			bad++;
			check_case(fd, "random", &c);
		}
	}
	printf("%s random joins: %d of %d right\n", bad ? "FAIL" : "PASS", n - bad, n);
	check_failures += bad != 0;
	/* Halves of 3 MB through the writer's own 1 MiB buffer, and through 4 KB. */
	for (int cur = 0; cur < 2; cur++) {
		struct join_case big = { true, cur, 3 << 20, (3 << 20) - 4, (2 << 20) + 12345,
					 JOIN_BUF };

		check_case(fd, "large", &big);
		big.cap = 4096;
		check_case(fd, "large", &big);
	}
	close(fd);
	return CHECK_DONE();
}
