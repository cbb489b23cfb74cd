// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -m: a wrapped CPU's region holds its newest data in two halves, and at
 * the end they are joined in place, oldest first, at the region's start.
 * A half can be as large as the CPU's share of the disk, so the data
 * moves through a buffer of fixed size, never a whole half at once.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "writer.h"

/* Two buffers of n bytes: a carries moves, b holds the other side of a swap. */
struct mover {
	struct ftc_writer *w;
	int cpu;
	char *a, *b;
	size_t n;
};

static size_t part(const struct mover *m, uint64_t left)
{
	return left < m->n ? (size_t)left : m->n;
}

static int rd(struct mover *m, char *p, size_t len, uint64_t off)
{
	while (len) {
		ssize_t r = pread(m->w->fd, p, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = r < 0 ? errno : EIO;

			return ftc_error(err, "%s: reading back CPU %d's data: %s", m->w->path,
					 m->cpu, strerror(err));
		}
		p += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/* dst < src, front first: every source byte is read before it is overwritten. */
static int move_down(struct mover *m, uint64_t dst, uint64_t src, uint64_t len)
{
	for (uint64_t done = 0; done < len;) {
		size_t n = part(m, len - done);

		if (rd(m, m->a, n, src + done) < 0 || ftc_wpwrite(m->w, m->a, n, dst + done) < 0)
			return -1;
		done += n;
	}
	return 0;
}

/* dst > src: the same, back first. */
static int move_up(struct mover *m, uint64_t dst, uint64_t src, uint64_t len)
{
	while (len) {
		size_t n = part(m, len);

		len -= n;
		if (rd(m, m->a, n, src + len) < 0 || ftc_wpwrite(m->w, m->a, n, dst + len) < 0)
			return -1;
	}
	return 0;
}

/* Exchanges two blocks of len bytes that do not overlap. */
static int swap_blocks(struct mover *m, uint64_t x, uint64_t y, uint64_t len)
{
	for (uint64_t done = 0; done < len;) {
		size_t n = part(m, len - done);

		if (rd(m, m->a, n, x + done) < 0 || rd(m, m->b, n, y + done) < 0 ||
		    ftc_wpwrite(m->w, m->b, n, x + done) < 0 ||
		    ftc_wpwrite(m->w, m->a, n, y + done) < 0)
			return -1;
		done += n;
	}
	return 0;
}

/*
 * [A: a bytes][B: b bytes] at off becomes [B][A]. While both are larger
 * than a buffer, the smaller one is swapped with its place at the far
 * end (block swap: each round puts one block where it belongs, as in
 * Euclid's algorithm); then the small one waits in b while the other
 * moves over, so each byte is read and written a few times at most.
 */
static int rotate(struct mover *m, uint64_t off, uint64_t a, uint64_t b)
{
	while (a && b) {
		if (a <= m->n) {
			if (rd(m, m->b, (size_t)a, off) < 0 || move_down(m, off, off + a, b) < 0)
				return -1;
			return ftc_wpwrite(m->w, m->b, (size_t)a, off + b);
		}
		if (b <= m->n) {
			if (rd(m, m->b, (size_t)b, off + a) < 0 || move_up(m, off + b, off, a) < 0)
				return -1;
			return ftc_wpwrite(m->w, m->b, (size_t)b, off);
		}
		if (a < b) {
			/* [A][B1][B2] with |B2| = a: [B2][B1][A], A placed. */
			if (swap_blocks(m, off, off + b, a) < 0)
				return -1;
			b -= a;
		} else {
			/* [A1][A2][B] with |A1| = b: [B][A2][A1], B placed. */
			if (swap_blocks(m, off, off + a, b) < 0)
				return -1;
			off += b;
			a -= b;
		}
	}
	return 0;
}

int ftc_wjoin_halves(struct ftc_writer *w, struct wcpu *wc, char *buf, size_t cap)
{
	struct mover m = { w, wc->cpu, buf, buf + cap / 2, cap / 2 };
	uint64_t hdr = compressed(w) ? 4 : 0, base = wc->start + hdr;
	uint64_t older = wc->old_size, newer = wc->size;
	uint32_t chunks = wc->old_chunks + wc->chunks;
	int ret;

	if (!wc->wrapped)
		return 0;
	if (!m.n)
		return ftc_error(EINVAL, "%s: no buffer to join CPU %d's halves", w->path, wc->cpu);
	if (hdr && ftc_wpwrite(w, &chunks, 4, wc->start) < 0)
		return -1;
	if (wc->cur == 1) {
		/* The older half is first already: the newer one joins it. */
		ret = move_down(&m, base + older, base + w->hstride, newer);
	} else {
		/* The newer half is first: the older one comes next to it, then they swap. */
		ret = move_down(&m, base + newer, base + w->hstride, older);
		if (ret == 0)
			ret = rotate(&m, base, newer, older);
	}
	if (ret < 0)
		return -1;
	pthread_mutex_lock(&w->lock);
	wc->cur = 0;
	wc->wrapped = false;
	wc->size = older + newer;
	wc->chunks = chunks;
	pthread_mutex_unlock(&w->lock);
	return 0;
}
