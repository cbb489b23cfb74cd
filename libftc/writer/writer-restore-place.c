// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ftc restore where the disk has no room for a finished copy: a capture
 * killed on a full vfat card, say. The blocks move down inside the file
 * itself. At every step the file stays whole for both ways it is read:
 * the index the head links to says where each block is, and the chain
 * of sections (each section's size leads to the next one, up to the end
 * of the file) is unbroken. A crash or a second kill leaves a file that
 * reads as much as before, and a restore takes it up again:
 *
 * - a block moves only into space neither points at (inside its
 *   buffer's section, which spans every region): one whose destination
 *   overlaps its own source stays where it is, and the blocks after it
 *   close up behind it instead;
 * - first an index of the recovered sizes is linked, with an option that
 *   says a restore is under way (a later one recovers nothing more);
 * - after each move the data is synced, a new index is appended after
 *   the last one (the chain goes on through the old ones), synced, then
 *   linked from the head; then the buffer sections are resized for the
 *   new layout;
 * - the final index goes after the last block, inside the last buffer's
 *   section, with a pad section behind it that spans the rest; then the
 *   last section is resized to end at it, it is linked, and the file is
 *   cut at the pad (a restore that finds the pad only cuts).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/falloc.h>

#include "ftc.h"
#include "tracedat-format.h"
#include "writer.h"

/* The indexes appended at the end while the blocks move. */
struct slots {
	uint64_t first;			/* the old index's place: the last buffer's end */
	uint64_t end;			/* where the next index goes */
};

/*
 * Moves go down, never onto their own source: a crash mid-copy would
 * leave such a block whole in neither place, so it stays where it is and
 * the blocks after it close up behind it. Nor does a block reach where
 * the next one stands (a larger block size than at record time rounds
 * it up past its region).
 */
static void plan_in_place(struct ftc_wmove *m, int n, uint64_t first, uint64_t *new_tail)
{
	uint64_t pos = m[0].to;

	for (int i = 0; i < n; i++) {
		uint64_t limit = i + 1 < n ? m[i + 1].from : first;

		if (m[i].from + m[i].len > limit)
			m[i].len = limit - m[i].from;
		m[i].to = pos;
		if (m[i].to + m[i].len > m[i].from)
			m[i].to = m[i].from;
		pos = m[i].to + m[i].len;
	}
	*new_tail = pos;
}

/*
 * Past the moved block's last byte lies what was there before (its own
 * old chunks, or another CPU's): a restore taken up after a crash looks
 * there for chunks written after the last index, and must find none.
 * Written once the index no longer points at the old place.
 */
static int seal_block(struct ftc_writer *w, const struct ftc_wmove *m, uint64_t next)
{
	static const char zero[16];

	if (m->to + m->len + sizeof(zero) > next)
		return 0;
	return ftc_wpwrite(w, zero, sizeof(zero), m->to + m->len);
}

/*
 * An index of the layout in w, after the last one, linked. One that does
 * not fit is cut off again: a section cut short at the end would make
 * the file look cut to its readers.
 */
static int append_index(struct ftc_writer *w, struct slots *s, const struct ftc_dbuf *cmd,
			bool final)
{
	uint64_t len;

	if (ftc_windex_len(w, cmd, final, &len) < 0)
		return -1;
	w->tail = s->end;
	if (ftc_windex(w, cmd, final, false) < 0) {
		int err = errno;

		if (ftruncate(w->fd, (off_t)s->end) == 0)
			fsync(w->fd);
		errno = err;
		return -1;
	}
	s->end += len;
	return 0;
}

/*
 * The index of the first `moved` blocks at their destination, appended
 * and linked; then the sections resized for them (the chain went through
 * their old heads until then).
 */
static int relink(struct ftc_writer *w, const struct ftc_wmove *m, int moved, struct slots *s,
		  const struct ftc_dbuf *cmd)
{
	ftc_wlayout(w, m, moved, s->first);
	if (append_index(w, s, cmd, false) < 0)
		return -1;
	return ftc_wpatch_sections(w) < 0 ? -1 : ftc_wsync(w, false);
}

/* The source the index no longer points at: its blocks back to the disk where it can. */
static void free_source(struct ftc_writer *w, const struct ftc_wmove *m)
{
	uint64_t from = m->to + m->len > m->from ? m->to + m->len : m->from;

	if (from < m->from + m->len)
		fallocate(w->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from,
			  (off_t)(m->from + m->len - from));
}

static int move_all(struct ftc_writer *w, struct ftc_wmove *m, int n, struct slots *s,
		    const struct ftc_dbuf *cmd)
{
	size_t cap = 1u << 20;
	char *buf = malloc(cap);
	int ret = -1;

	if (!buf)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < n; i++) {
		uint64_t next = i + 1 < n ? m[i + 1].from : s->first;

		if (m[i].from == m[i].to)
			continue;
		if (ftc_wcopy_range(w, w->fd, m[i].from, m[i].to, m[i].len, buf, cap) < 0 ||
		    ftc_wsync(w, true) < 0 || relink(w, m, i + 1, s, cmd) < 0 ||
		    seal_block(w, &m[i], next) < 0)
			goto out;
		free_source(w, &m[i]);
	}
	ret = 0;
out:
	free(buf);
	return ret;
}

/* Spans from `at` to the old index: the chain stays whole until the cut. */
static int pad_to(struct ftc_writer *w, uint64_t at, uint64_t to)
{
	unsigned char h[16] = { 0 };
	uint16_t id = FTC_SEC_PAD;
	uint64_t size = to - at - sizeof(h);

	memcpy(h, &id, 2);
	memcpy(h + 8, &size, 8);
	return ftc_wpwrite(w, h, sizeof(h), at) < 0 ? -1 : ftc_wsync(w, false);
}

/*
 * The final index after the last block (16 zero bytes between them, so
 * a restore taken up later does not read it as the last CPU's next
 * page), with a pad behind it up to the old index; then the sections
 * resized to lead to it, then the link to it, then the cut. When the
 * space between the last block and the old index is too small for it
 * and a pad, it is appended to the others instead: the file keeps that
 * gap, and nothing else.
 */
static int finish(struct ftc_writer *w, const struct ftc_wmove *m, int n, uint64_t new_tail,
		  struct slots *s, const struct ftc_dbuf *cmd)
{
	static const char zero[16];
	uint64_t at = new_tail + sizeof(zero), len;

	ftc_wlayout(w, m, n, at);
	if (ftc_windex_len(w, cmd, true, &len) < 0)
		return -1;
	if (at + len + 16 > s->first) {
		ftc_wlayout(w, m, n, s->first);
		return append_index(w, s, cmd, true);
	}
	w->hold_link = true;
	if (ftc_wpwrite(w, zero, sizeof(zero), new_tail) < 0 ||
	    ftc_windex(w, cmd, true, false) < 0 || pad_to(w, at + len, s->first) < 0 ||
	    ftc_wpatch_sections(w) < 0 || ftc_wsync(w, false) < 0 ||
	    ftc_wpwrite(w, &w->held_link, 8, w->opt1_done) < 0 || ftc_wsync(w, false) < 0)
		return -1;
	return ftc_wtruncate(w, at + len);
}

/*
 * Each step left a whole index, so the file reads as it did: say so, and
 * how much room it takes (on a file system with holes a move needs its
 * block's worth before it frees the source).
 */
static void no_room(struct ftc_writer *w, const struct ftc_wmove *m, int n)
{
	uint64_t most = 0;
	char *why = strdup(ftc_strerror());

	for (int i = 0; i < n; i++)
		if (m[i].from != m[i].to && m[i].len > most)
			most = m[i].len;
	ftc_error(ENOSPC, "%s: the disk is full: restore needs room for a finished copy, or "
		  "%llu KB to finish the file in place; free that much, or copy the file "
		  "(cp --sparse=always) to a disk with room and restore it there; the file still "
		  "reads as it did (%s)", w->path, (unsigned long long)(most + 1023) / 1024,
		  why ? why : "no space left on device");
	free(why);
}

int ftc_wrestore_in_place(struct ftc_writer *w)
{
	const struct ftc_dbuf *cmd = w->have_end_cmdlines ? &w->end_cmdlines : NULL;
	struct slots s = { .first = w->tail };
	uint64_t new_tail;
	struct stat st;
	int n, ret = -1;
	struct ftc_wmove *m = ftc_wplan_moves(w, &n, &new_tail);

	if (!m) {
		ftc_error(ENOMEM, "out of memory");
		goto out;
	}
	if (fstat(w->fd, &st) < 0) {
		ftc_error(errno, "%s: %s", w->path, strerror(errno));
		goto out;
	}
	s.end = (uint64_t)st.st_size;
	/* An index a restore appended and never linked, cut short: it goes. */
	if (w->drop_from && w->drop_from < s.end) {
		if (ftruncate(w->fd, (off_t)w->drop_from) < 0) {
			ftc_error(errno, "%s: %s", w->path, strerror(errno));
			goto out;
		}
		s.end = w->drop_from;
	}
	plan_in_place(m, n, s.first, &new_tail);
	/* The blocks record kept past the end for its last index: the moves' room now. */
	fallocate(w->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, st.st_size, TAIL_RESERVE);
	w->sync_index = true;
	/*
	 * First an index of the recovered sizes, saying a restore is under
	 * way: from here on, what follows a CPU's data may be a moved block's
	 * copy, which a restore taken up later must not take for new chunks.
	 */
	w->restoring = true;
	if (relink(w, m, 0, &s, cmd) < 0 || move_all(w, m, n, &s, cmd) < 0 ||
	    finish(w, m, n, new_tail, &s, cmd) < 0) {
		if (errno == ENOSPC || errno == EDQUOT)
			no_room(w, m, n);
		goto out;
	}
	ret = 0;
out:
	free(m);
	return ret;
}
