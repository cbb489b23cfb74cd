// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The block pass: a request is known by its device and first sector from
 * block_rq_insert (the task that queued it) or block_rq_issue (sent to the
 * device) to block_rq_complete. A bio-based device (dm, md) has no
 * requests: its bios are timed from block_bio_queue to block_bio_complete,
 * which the kernel traces for those devices alone (a request's bios have
 * their completion traced by the request's). The requests in flight are
 * few (a queue's depth), so they are kept in a small array and searched; a
 * completion without its issue (issued before the trace) is counted apart.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-block.h"
#include "opts.h"
#include "pass-util.h"

enum bk_kind { BK_INSERT, BK_ISSUE, BK_COMPLETE, BK_BIO_QUEUE, BK_BIO_COMPLETE, NKINDS };

static const char *const kind_names[NKINDS] = {
	"block_rq_insert", "block_rq_issue", "block_rq_complete",
	"block_bio_queue", "block_bio_complete",
};

enum bk_field { F_DEV, F_SECTOR, F_BYTES, F_NR_SECTOR, F_RWBS, F_COMM, F_ERROR, NFIELDS };

static const char *const field_names[NFIELDS] = {
	"dev", "sector", "bytes", "nr_sector", "rwbs", "comm", "error",
};

struct inflight {
	struct ftc_block_io io;
	char comm[17];
	bool bio;		/* a bio of a bio-based device, not a request */
};

struct ftc_block {
	struct ftc_reader *r;
	struct tep_handle *tep;
	struct ftc_block_opts o;
	int buffer;
	int id[NKINDS];
	struct tep_format_field *f[NKINDS][NFIELDS];
	struct inflight *fly;
	size_t nfly, capfly;
	struct ftc_block_dev *devs;
	size_t ndevs, capdevs;
	uint32_t *rq_devs;	/* the devices with requests: their bios are not timed */
	size_t nrq_devs;
	uint64_t records, unmatched, lost;
};

struct ftc_block *ftc_block_new(struct ftc_reader *r, const struct ftc_block_opts *o)
{
	struct ftc_block *b = calloc(1, sizeof(*b));

	if (!b) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	b->r = r;
	b->tep = ftc_reader_tep(r);
	b->buffer = -1;
	if (o && FTC_OPTS_COPY(&b->o, o, ftc_block_opts, lat_unit_ns) < 0) {
		ftc_block_free(b);
		return NULL;
	}
	for (int k = 0; k < NKINDS; k++) {
		struct tep_event *e = ftc_reader_find_event(r, "block", kind_names[k]);

		b->id[k] = e ? e->id : -1;
		for (int f = 0; e && f < NFIELDS; f++)
			b->f[k][f] = tep_find_field(e, field_names[f]);
	}
	return b;
}

void ftc_block_free(struct ftc_block *b)
{
	if (!b)
		return;
	free(b->fly);
	free(b->devs);
	free(b->rq_devs);
	free(b);
}

static uint64_t num(const struct ftc_block *b, int k, enum bk_field f, const struct tep_record *rec)
{
	return ftc_pass_field(b->f[k][f], rec);
}

/* A fixed char array field (rwbs, comm) into buf, NUL-ended. */
static void text(const struct ftc_block *b, int k, enum bk_field f, const struct tep_record *rec,
		 char *buf, size_t size)
{
	const struct tep_format_field *fd = b->f[k][f];
	size_t n;

	buf[0] = '\0';
	if (!fd || fd->offset < 0 || fd->offset + fd->size > rec->size)
		return;
	n = (size_t)fd->size < size - 1 ? (size_t)fd->size : size - 1;
	memcpy(buf, (const char *)rec->data + fd->offset, n);
	buf[n] = '\0';
}

static struct inflight *find(struct ftc_block *b, uint32_t dev, uint64_t sector, bool bio)
{
	for (size_t i = b->nfly; i-- > 0;)
		if (b->fly[i].io.dev == dev && b->fly[i].io.sector == sector && b->fly[i].bio == bio)
			return &b->fly[i];
	return NULL;
}

/*
 * A request inserted and merged into another is never issued, and a bio
 * whose completion was lost never completes: past MAX_FLY entries, the
 * requests not issued go, then if need be every bio, so that the array
 * stays a queue's size however long the trace.
 */
#define MAX_FLY 4096

static void prune(struct ftc_block *b, bool bios)
{
	size_t k = 0;

	for (size_t i = 0; i < b->nfly; i++)
		if (b->fly[i].io.issue && !(bios && b->fly[i].bio))
			b->fly[k++] = b->fly[i];
	b->nfly = k;
}

static struct inflight *add_fly(struct ftc_block *b, uint32_t dev, uint64_t sector, bool bio)
{
	struct inflight *f = find(b, dev, sector, bio);

	if (f)
		return f;
	if (b->nfly >= MAX_FLY)
		prune(b, false);
	if (b->nfly >= MAX_FLY)
		prune(b, true);
	if (b->nfly == b->capfly) {
		size_t cap = b->capfly ? b->capfly * 2 : 64;
		struct inflight *v = realloc(b->fly, cap * sizeof(*v));

		if (!v) {
			ftc_error(ENOMEM, "out of memory");
			return NULL;
		}
		b->fly = v;
		b->capfly = cap;
	}
	f = &b->fly[b->nfly++];
	memset(f, 0, sizeof(*f));
	f->io.dev = dev;
	f->io.sector = sector;
	f->bio = bio;
	return f;
}

static bool has_requests(const struct ftc_block *b, uint32_t dev)
{
	for (size_t i = 0; i < b->nrq_devs; i++)
		if (b->rq_devs[i] == dev)
			return true;
	return false;
}

/* dev has requests: the bios queued on it before its first are not a bio-based device's. */
static int mark_requests(struct ftc_block *b, uint32_t dev)
{
	uint32_t *v;
	size_t k = 0;

	if (has_requests(b, dev))
		return 0;
	v = realloc(b->rq_devs, (b->nrq_devs + 1) * sizeof(*v));
	if (!v) {
		ftc_error(ENOMEM, "out of memory");
		return -1;
	}
	b->rq_devs = v;
	b->rq_devs[b->nrq_devs++] = dev;
	for (size_t i = 0; i < b->nfly; i++)
		if (!b->fly[i].bio || b->fly[i].io.dev != dev)
			b->fly[k++] = b->fly[i];
	b->nfly = k;
	return 0;
}

static struct ftc_block_dev *dev_of(struct ftc_block *b, uint32_t dev)
{
	for (size_t i = 0; i < b->ndevs; i++)
		if (b->devs[i].dev == dev)
			return &b->devs[i];
	if (b->ndevs == b->capdevs) {
		size_t cap = b->capdevs ? b->capdevs * 2 : 8;
		struct ftc_block_dev *v = realloc(b->devs, cap * sizeof(*v));

		if (!v) {
			ftc_error(ENOMEM, "out of memory");
			return NULL;
		}
		b->devs = v;
		b->capdevs = cap;
	}
	memset(&b->devs[b->ndevs], 0, sizeof(b->devs[b->ndevs]));
	b->devs[b->ndevs].dev = dev;
	b->devs[b->ndevs].major = dev >> 20;
	b->devs[b->ndevs].minor = dev & 0xfffff;
	return &b->devs[b->ndevs++];
}

static int bucket(uint64_t v)
{
	return v ? 63 - __builtin_clzll(v) : 0;
}

static int completed(struct ftc_block *b, struct inflight *f, int k, const struct tep_record *rec)
{
	struct ftc_block_dev *d = dev_of(b, f->io.dev);
	uint64_t ns = rec->ts > f->io.issue ? rec->ts - f->io.issue : 0;

	if (!d)
		return -1;
	f->io.complete = rec->ts;
	f->io.error = (int)num(b, k, F_ERROR, rec);
	f->io.comm = f->comm;
	d->bio_based = f->bio;
	d->count++;
	d->errors += f->io.error != 0;
	d->bytes += f->io.bytes;
	d->reads += strchr(f->io.rwbs, 'R') != NULL;
	d->writes += strchr(f->io.rwbs, 'W') != NULL;
	d->lat_ns += ns;
	if (ns > d->lat_max_ns || d->count == 1) {
		d->lat_max_ns = ns;
		d->lat_max_at = f->io.issue;
	}
	d->lat_hist[bucket(b->o.lat_unit_ns > 1 ? ns / b->o.lat_unit_ns : ns)]++;
	d->size_hist[bucket(f->io.bytes)]++;
	if (b->o.on_io)
		b->o.on_io(&f->io, b->o.ctx);
	*f = b->fly[--b->nfly];	/* the last takes its place */
	return 0;
}

static int dispatch(struct ftc_block *b, int k, const struct tep_record *rec)
{
	uint32_t dev = (uint32_t)num(b, k, F_DEV, rec);
	uint64_t sector = num(b, k, F_SECTOR, rec);
	bool bio = k == BK_BIO_QUEUE || k == BK_BIO_COMPLETE;
	struct inflight *f;

	if (bio && has_requests(b, dev))
		return 0;	/* its requests time it */
	if (!bio && mark_requests(b, dev) < 0)
		return -1;
	if (k == BK_COMPLETE || k == BK_BIO_COMPLETE) {
		f = find(b, dev, sector, bio);
		if (!f || !f->io.issue) {
			b->unmatched++;
			if (f)
				*f = b->fly[--b->nfly];
			return 0;
		}
		return completed(b, f, k, rec);
	}
	f = add_fly(b, dev, sector, bio);
	if (!f)
		return -1;
	f->io.bytes = (uint32_t)num(b, k, F_BYTES, rec);
	if (!f->io.bytes)
		f->io.bytes = (uint32_t)num(b, k, F_NR_SECTOR, rec) * 512;
	text(b, k, F_RWBS, rec, f->io.rwbs, sizeof(f->io.rwbs));
	if (k != BK_ISSUE || !f->comm[0]) {
		text(b, k, F_COMM, rec, f->comm, sizeof(f->comm));
		f->io.pid = tep_data_pid(b->tep, (struct tep_record *)rec);
	}
	if (k == BK_ISSUE || k == BK_BIO_QUEUE)
		f->io.issue = rec->ts;
	return 0;
}

int ftc_block_add(struct ftc_block *b, const struct ftc_merge_record *mr)
{
	int type = tep_data_type(b->tep, mr->rec), k;

	for (k = 0; k < NKINDS && b->id[k] != type; k++)
		;
	if (!ftc_pass_buffer(b->r, b->o.instance, k != NKINDS, mr, &b->buffer, &b->lost))
		return 0;
	if (k == NKINDS || !b->f[k][F_DEV] || !b->f[k][F_SECTOR])
		return 0;
	b->records++;
	return dispatch(b, k, mr->rec);
}

size_t ftc_block_ndevs(const struct ftc_block *b)
{
	return b->ndevs;
}

const struct ftc_block_dev *ftc_block_dev_at(const struct ftc_block *b, size_t i)
{
	return i < b->ndevs ? &b->devs[i] : NULL;
}

uint64_t ftc_block_records(const struct ftc_block *b)
{
	return b->records;
}

uint64_t ftc_block_unmatched(const struct ftc_block *b)
{
	return b->unmatched;
}

uint64_t ftc_block_in_flight(const struct ftc_block *b)
{
	uint64_t n = 0;

	for (size_t i = 0; i < b->nfly; i++)
		n += b->fly[i].io.issue != 0;
	return n;
}

uint64_t ftc_block_lost(const struct ftc_block *b)
{
	return b->lost;
}
