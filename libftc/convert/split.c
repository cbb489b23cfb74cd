// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ftc_split_*(): a trace.dat cut into parts, each a trace.dat of its own,
 * as trace-cmd split cuts one (by time from a part's first record, by
 * records, by pages per CPU; -c counts each CPU on its own).
 *
 * The pages are not re-encoded. A CPU's records in a part run from some
 * record to a later one, so the part gets the pages in between as they
 * are, and its first and last page cut at an event: the last one's commit
 * says fewer bytes, and the first one starts at the entry after the
 * previous part's last record. Event time deltas count from the record
 * before them, so the page's timestamp becomes that record's: every entry
 * after the cut then decodes to the very same time. A page's lost-event
 * flags stay with the part that has its beginning.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "ftc.h"
#include "ftc-convert.h"
#include "ftc-writer.h"
#include "writer.h"
#include "convert.h"
#include "opts.h"
#include "merge-cpu.h"
#include "reader.h"

/* One CPU of one buffer: its records, and the page being cut for this part. */
struct part_cpu {
	struct ftc_stream st;
	int buffer, cpu_idx;
	bool have;			/* st.rec is the next record to place */
	/* Where the next part starts, in the page of the last record placed or skipped. */
	uint64_t cut_seq;		/* that page's st.page_seq; 0: none yet */
	unsigned int cut_off;		/* the entry after that record */
	uint64_t cut_ts;		/* that record's time in the page's own terms */
	/* The piece of a page this part gets: src[from, to), its header made anew. */
	char *src, *out;
	bool open;
	uint64_t seq;
	unsigned int from, to;
	uint64_t base;			/* the timestamp the entry at from counts from */
	uint64_t pages;			/* pieces in this part */
};

struct ftc_split {
	struct ftc_reader *r;
	struct ftc_split_opts o;
	struct part_cpu *cpus;
	int ncpus;
	int *wbuf;
	bool begun, first;
	uint64_t records;
};

/* The piece as a page of its own. */
static int flush_piece(struct part_cpu *pc, struct ftc_writer *w, int wbuf)
{
	struct ftc_page_cut cut = { pc->from, pc->to, pc->base };

	if (!pc->open)
		return 0;
	pc->open = false;
	ftc_page_piece(&pc->st.subbuf, pc->src, pc->st.psize, &cut, pc->out);
	return ftc_writer_add_pages(w, wbuf, pc->cpu_idx, pc->out, pc->st.psize);
}

/* Where the current record's entry ends in its page. */
static unsigned int record_end(const struct part_cpu *pc)
{
	return (unsigned int)(kbuffer_curr_offset(pc->st.kbuf) + kbuffer_curr_size(pc->st.kbuf));
}

/* Past the current record; a stream that damage stopped just has no more. */
static void advance(struct part_cpu *pc)
{
	pc->cut_seq = pc->st.page_seq;
	pc->cut_off = record_end(pc);
	pc->cut_ts = kbuffer_timestamp(pc->st.kbuf);
	pc->have = ftc_stream_advance(&pc->st) == 1;
}

static bool new_page(const struct part_cpu *pc)
{
	return !pc->open || pc->seq != pc->st.page_seq;
}

/* Places the current record in this part. */
static int take(struct ftc_split *s, struct part_cpu *pc, struct ftc_writer *w)
{
	const char *page = pc->st.win + pc->st.win_off;

	if (new_page(pc)) {
		if (flush_piece(pc, w, s->wbuf[pc->buffer]) < 0)
			return -1;
		/* The window moves on with the stream: the page is kept. */
		memcpy(pc->src, page, pc->st.psize);
		pc->open = true;
		pc->seq = pc->st.page_seq;
		if (pc->cut_seq == pc->seq) {
			pc->from = pc->cut_off;
			pc->base = pc->cut_ts;
		} else {
			pc->from = pc->st.subbuf.data_off;
			memcpy(&pc->base, pc->src, 8);
		}
		pc->pages++;
	}
	pc->to = record_end(pc);
	s->records++;
	advance(pc);
	return 0;
}

static uint64_t ts(const struct part_cpu *pc)
{
	return pc->st.rec->ts;
}

static bool in_range(const struct ftc_split *s, const struct part_cpu *pc)
{
	return pc->have && (!s->o.end || ts(pc) <= s->o.end);
}

/* The next record in time among all CPUs (ties: earlier buffer, lower CPU). */
static struct part_cpu *next_in_time(struct ftc_split *s)
{
	struct part_cpu *best = NULL;

	for (int i = 0; i < s->ncpus; i++)
		if (in_range(s, &s->cpus[i]) && (!best || ts(&s->cpus[i]) < ts(best)))
			best = &s->cpus[i];
	return best;
}

/*
 * Whether the part, which holds n records (of this CPU with per_cpu), is
 * full before pc's record: the first record always goes in.
 */
static bool full(const struct ftc_split *s, const struct part_cpu *pc, uint64_t n,
		 uint64_t t0)
{
	if (!n)
		return false;
	switch (s->o.unit) {
	case FTC_SPLIT_EVENTS:
		return n >= s->o.count;
	case FTC_SPLIT_NSECS:
		return ts(pc) > t0 && ts(pc) - t0 > s->o.count;
	case FTC_SPLIT_PAGES:
		return new_page(pc) && pc->pages >= s->o.count;
	default:
		return false;
	}
}

/* The part's clock starts at the first record, or at start in the first part. */
static uint64_t part_start(const struct ftc_split *s, const struct part_cpu *pc)
{
	return s->first && s->o.start ? s->o.start : ts(pc);
}

static int fill_merged(struct ftc_split *s, struct ftc_writer *w)
{
	struct part_cpu *pc = next_in_time(s);
	uint64_t t0 = part_start(s, pc), n = 0;

	for (; pc && !full(s, pc, n, t0); pc = next_in_time(s), n++)
		if (take(s, pc, w) < 0)
			return -1;
	return 0;
}

static int fill_per_cpu(struct ftc_split *s, struct ftc_writer *w)
{
	for (int i = 0; i < s->ncpus; i++) {
		struct part_cpu *pc = &s->cpus[i];
		uint64_t t0 = in_range(s, pc) ? part_start(s, pc) : 0, n = 0;

		for (; in_range(s, pc) && !full(s, pc, n, t0); n++)
			if (take(s, pc, w) < 0)
				return -1;
	}
	return 0;
}

static int begin(struct ftc_split *s)
{
	struct ftc_reader *r = s->r;
	int n = 0;

	for (int b = 0; b < r->nbuffers; b++)
		n += r->buffers[b].ncpus;
	s->cpus = calloc((size_t)n + 1, sizeof(*s->cpus));
	if (!s->cpus)
		return ftc_error(ENOMEM, "out of memory");
	for (int b = 0; b < r->nbuffers; b++)
		for (int c = 0; c < r->buffers[b].ncpus; c++) {
			struct part_cpu *pc = &s->cpus[s->ncpus++];

			pc->buffer = b;
			pc->cpu_idx = c;
			/* A damaged CPU has no records: the reader's warnings say why. */
			if (ftc_stream_init(&pc->st, r, b, c) < 0 && errno == ENOMEM)
				return -1;
			pc->src = malloc(r->page_size);
			pc->out = malloc(r->page_size);
			if (!pc->src || !pc->out)
				return ftc_error(ENOMEM, "out of memory");
			pc->have = ftc_stream_advance(&pc->st) == 1;
			while (s->o.start && pc->have && ts(pc) < s->o.start)
				advance(pc);
		}
	s->begun = true;
	return 0;
}

struct ftc_split *ftc_split_open(struct ftc_reader *r, const struct ftc_split_opts *opts)
{
	struct ftc_split *s = calloc(1, sizeof(*s));

	if (!s) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	if (FTC_OPTS_COPY(&s->o, opts, ftc_split_opts, end) < 0)
		goto fail;
	if (s->o.unit < FTC_SPLIT_NONE || s->o.unit > FTC_SPLIT_NSECS ||
	    (s->o.unit != FTC_SPLIT_NONE && !s->o.count)) {
		ftc_error(EINVAL, "%s: a split needs a known unit and a count above 0", r->path);
		goto fail;
	}
	if (s->o.end && s->o.end < s->o.start) {
		ftc_error(EINVAL, "%s: the split's end comes before its start", r->path);
		goto fail;
	}
	/* Pages are counted per CPU, as trace-cmd does. */
	if (s->o.unit == FTC_SPLIT_PAGES)
		s->o.per_cpu = true;
	s->r = r;
	s->first = true;
	s->wbuf = calloc((size_t)r->nbuffers + 1, sizeof(*s->wbuf));
	if (!s->wbuf) {
		ftc_error(ENOMEM, "out of memory");
		goto fail;
	}
	return s;
fail:
	ftc_split_close(s);
	return NULL;
}

int ftc_split_next(struct ftc_split *s, const char *path)
{
	struct ftc_writer *w;
	int ret = -1;
	bool any = false;

	if (!s->begun && begin(s) < 0)
		return -1;
	for (int i = 0; i < s->ncpus; i++)
		any |= in_range(s, &s->cpus[i]);
	if (!any)
		return 0;
	/* Parts are in the file's own version and compression. */
	w = ftc_convert_writer(s->r, path, s->r->version,
			       s->r->version == 7 ? s->r->comp : FTC_COMPRESS_NONE, NULL, s->wbuf);
	if (!w)
		return -1;
	s->records = 0;
	for (int i = 0; i < s->ncpus; i++)
		s->cpus[i].pages = 0;
	if ((s->o.per_cpu ? fill_per_cpu(s, w) : fill_merged(s, w)) < 0)
		goto out;
	for (int i = 0; i < s->ncpus; i++)
		if (flush_piece(&s->cpus[i], w, s->wbuf[s->cpus[i].buffer]) < 0)
			goto out;
	s->first = false;
	if (ftc_writer_finish(w) == 0)
		ret = 1;
out:
	ftc_writer_free(w);
	if (ret < 0) {
		int err = errno;

		ftc_writer_unlink(path);	/* half a part is of no use */
		errno = err;
	}
	return ret;
}

uint64_t ftc_split_part_records(const struct ftc_split *s)
{
	return s->records;
}

void ftc_split_close(struct ftc_split *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->ncpus; i++) {
		ftc_stream_release(&s->cpus[i].st);
		free(s->cpus[i].src);
		free(s->cpus[i].out);
	}
	free(s->cpus);
	free(s->wbuf);
	free(s);
}
