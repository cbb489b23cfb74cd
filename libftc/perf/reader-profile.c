// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The profile that ftc record's stored samples describe: the ftc_perf
 * events of a trace.dat (sample, comm, mmap, lost) turned back into the
 * perf records that ftc profile drains live, so both commands share one
 * profile model, one aggregation and one set of outputs. Payloads are
 * only 4-byte aligned: every field is copied out, never cast.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <linux/perf_event.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"
#include "ftc-reader.h"
#include "reader.h"

/* ip, pid+tid, time, cpu+res, period, nr: 8-byte words after the header. */
#define SAMPLE_WORDS	6
#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
/* A record's size is 16 bits: a longer chain keeps its leaf end. */
#define MAX_CHAIN	((0xffffu - 8 * (SAMPLE_WORDS + 1)) / 8)

struct rp {
	struct ftc_reader *r;
	struct ftc_perf_profile *p;
	uint64_t *buf;		/* one synthesized perf record, 8-byte aligned */
	size_t cap;		/* words */
	bool callchain;
	ftc_profile_keep_fn keep;	/* NULL: every sample */
	void *keep_ctx;
};

static uint64_t num(struct tep_event *ev, struct tep_record *rec, const char *name)
{
	unsigned long long v = 0;
	struct tep_format_field *f = tep_find_field(ev, name);

	if (f && (unsigned int)(f->offset + f->size) <= (unsigned int)rec->size)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

/* A __data_loc field: where its bytes are in rec, and how many. */
static const char *dyn(struct tep_event *ev, struct tep_record *rec, const char *name,
		       unsigned int *len)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned int loc = 0;

	*len = 0;
	if (!f || (unsigned int)f->offset + 4 > (unsigned int)rec->size)
		return NULL;
	memcpy(&loc, (const char *)rec->data + f->offset, 4);
	if ((loc & 0xffff) + (loc >> 16) > (unsigned int)rec->size)
		return NULL;
	*len = loc >> 16;
	return (const char *)rec->data + (loc & 0xffff);
}

static uint64_t *record(struct rp *x, size_t words)
{
	if (words > x->cap) {
		uint64_t *n = realloc(x->buf, words * 8);

		if (!n)
			return NULL;
		x->buf = n;
		x->cap = words;
	}
	memset(x->buf, 0, words * 8);
	return x->buf;
}

static int add(struct rp *x, uint32_t type, uint16_t misc, size_t words)
{
	struct perf_event_header h = { type, misc, (uint16_t)(words * 8) };

	memcpy(x->buf, &h, sizeof(h));
	return ftc_perf_profile_add((const void *)x->buf, x->p);
}

static int on_sample(struct rp *x, struct tep_event *ev, struct tep_record *rec)
{
	unsigned int bytes;
	const char *chain = dyn(ev, rec, "callchain", &bytes);
	uint64_t nr = chain ? bytes / 8 : 0, ip = num(ev, rec, "ip");
	uint32_t ids[2] = { (uint32_t)tep_data_pid(ftc_reader_tep(x->r), rec),
			    (uint32_t)num(ev, rec, "tid") };
	uint16_t misc = ip >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	uint64_t *w;

	if (nr > MAX_CHAIN)
		nr = MAX_CHAIN;
	w = record(x, 1 + SAMPLE_WORDS + (nr ? nr : 1));
	if (!w)
		return ftc_error(ENOMEM, "out of memory");
	w[1] = ip;
	memcpy(&w[2], ids, 8);
	w[3] = rec->ts;
	w[4] = num(ev, rec, "cpu");
	w[5] = num(ev, rec, "period");
	/* Without a chain the sampled address is the whole stack. */
	w[6] = nr ? nr : 1;
	if (nr) {
		memcpy(&w[7], chain, nr * 8);
		x->callchain = true;
	} else {
		w[7] = ip;
	}
	return add(x, PERF_RECORD_SAMPLE, misc, 1 + SAMPLE_WORDS + (nr ? nr : 1));
}

static int on_comm(struct rp *x, struct tep_event *ev, struct tep_record *rec)
{
	struct tep_format_field *f = tep_find_field(ev, "comm");
	uint32_t ids[2] = { (uint32_t)tep_data_pid(ftc_reader_tep(x->r), rec),
			    (uint32_t)num(ev, rec, "tid") };
	uint64_t *w = record(x, 1 + 1 + 3);	/* ids, comm[16] and its NUL */

	if (!w)
		return ftc_error(ENOMEM, "out of memory");
	memcpy(&w[1], ids, 8);
	if (f && (unsigned int)f->offset + 16 <= (unsigned int)rec->size)
		memcpy(&w[2], (const char *)rec->data + f->offset, 16);
	return add(x, PERF_RECORD_COMM, 0, 5);
}

static int on_mmap(struct rp *x, struct tep_event *ev, struct tep_record *rec)
{
	unsigned int len;
	const char *file = dyn(ev, rec, "filename", &len);
	uint32_t ids[2] = { (uint32_t)tep_data_pid(ftc_reader_tep(x->r), rec), 0 };
	size_t words = 1 + 4 + (len + 8) / 8;	/* ids, addr, len, pgoff, name + NUL */
	uint64_t *w;

	if (!file || !len)
		return 0;
	ids[1] = ids[0];
	w = record(x, words);
	if (!w)
		return ftc_error(ENOMEM, "out of memory");
	memcpy(&w[1], ids, 8);
	w[2] = num(ev, rec, "start");
	w[3] = num(ev, rec, "len");
	w[4] = num(ev, rec, "pgoff");
	memcpy(&w[5], file, len);
	return add(x, PERF_RECORD_MMAP, 0, words);
}

static bool is_event(const struct tep_event *ev, enum ftc_perf_fevent e)
{
	return !strcmp(ev->name, ftc_perf_ftrace_name(e));
}

static int on_record(struct rp *x, const struct ftc_merge_record *mr)
{
	struct tep_record *rec = mr->rec;
	struct tep_event *ev = ftc_reader_event(x->r, rec);

	if (!ev || !ev->system || strcmp(ev->system, FTC_PERF_FTRACE_SYSTEM))
		return 0;
	/* comm and mmap records always count: they name every sample's frames. */
	if (is_event(ev, FTC_PERF_EV_SAMPLE))
		return x->keep && !x->keep(mr, x->keep_ctx) ? 0 : on_sample(x, ev, rec);
	if (is_event(ev, FTC_PERF_EV_COMM))
		return on_comm(x, ev, rec);
	if (is_event(ev, FTC_PERF_EV_MMAP))
		return on_mmap(x, ev, rec);
	if (is_event(ev, FTC_PERF_EV_LOST))
		x->p->lost += num(ev, rec, "lost");
	return 0;
}

int ftc_reader_profile_select(struct ftc_reader *r, struct ftc_perf_profile *p, bool *callchain,
			      ftc_profile_keep_fn keep, void *keep_ctx)
{
	struct rp x = { .r = r, .p = p, .keep = keep, .keep_ctx = keep_ctx };
	struct ftc_merge *m = ftc_merge_open(r, NULL);
	struct ftc_merge_record mr;
	int ret;

	if (!m)
		return -1;
	p->sample_type = SAMPLE_TYPE;
	while ((ret = ftc_merge_next(m, &mr)) == 1)
		if (on_record(&x, &mr) < 0) {
			ret = -1;
			break;
		}
	ftc_merge_close(m);
	free(x.buf);
	if (callchain)
		*callchain = x.callchain;
	return ret < 0 ? -1 : 0;
}

static const char *kernel_name(void *ctx, uint64_t addr, uint64_t *off)
{
	struct ftc_reader *r = ctx;
	const char *name;

	if (r->kallsyms_state == 0)
		ftc_load_kallsyms(r);
	name = tep_find_function(r->tep, addr);
	if (name && off)
		*off = addr - tep_find_function_address(r->tep, addr);
	return name;
}

static const char *kernel_module(void *ctx, uint64_t addr)
{
	struct ftc_reader *r = ctx;

	if (r->kallsyms_state == 0)
		ftc_load_kallsyms(r);
	return ftc_syms_module(r->syms, addr);
}

void ftc_reader_profile_symbols(struct ftc_reader *r, struct ftc_symbols *s)
{
	ftc_symbols_set_kernel_resolver(s, kernel_name, r);
	ftc_symbols_set_module_resolver(s, kernel_module, r);
}
