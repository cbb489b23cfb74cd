// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The perf samples that ftc record --sample stored (ftc_perf:sample) as
 * Perfetto's PerfSample packets on a sequence of their own, each naming an
 * interned call stack. A stack is its frames root first (Perfetto's
 * "bottom frame first"); a frame is a function name in a mapping (the
 * binary's or the kernel's), named as ftc report --sample-profile names
 * it, from the code mappings the file's comm and mmap records give, read
 * in a first pass. Interned entries go out in the packet of the first
 * sample that uses them; the tables grow with the stacks, not the samples.
 * The readings of ftc record --counters (ftc_perf:counter) are a counter
 * track per event, its value the count since the reading before (scaled
 * when the counter was multiplexed), as perf stat -I prints it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-merge.h"
#include "ftc-perf.h"
#include "ftc-reader.h"
#include "ftc-symbols.h"
#include "perfetto.h"

#define MAX_FRAMES	256
/* Counter tracks' uuids: any that no other track of the file uses. */
#define COUNTER_UUID_BASE	0x6674635f70657266ull

/* A frame's names, by the ids of its function and its mapping. */
struct pf_frame {
	uint64_t fn, map;
};

struct pf_perf {
	struct ftc_perf_profile *prof;
	struct ftc_symbols *syms;
	struct pf_strings fnames;	/* function_names */
	struct pf_strings maps;		/* mapping_paths; a mapping per path, same id */
	struct pf_strings frame_keys;	/* "MAP FUNCTION" -> frame id */
	struct pf_frame *frames;
	size_t frames_emitted;
	struct pf_strings stacks;	/* "F1,F2,..." root first -> callstack id */
	size_t maps_emitted;
	struct tep_event *sample_ev, *counter_ev;
	struct tep_format_field *f_ip, *f_tid, *f_cpu, *f_period, *f_chain;
	struct tep_format_field *f_value, *f_ena, *f_run, *f_name;
	struct pf_strings counters;	/* the counted events, by name */
	double *last;			/* each one's reading before */
	struct ftc_perf_frame resolved[MAX_FRAMES];
	uint64_t ids[MAX_FRAMES];
};

static bool no_sample(const struct ftc_merge_record *mr, void *ctx)
{
	return false;
}

int pf_perf_open(struct ftc_perfetto *p)
{
	struct pf_perf *x = calloc(1, sizeof(*x));

	if (!x)
		return ftc_error(ENOMEM, "out of memory");
	p->perf = x;
	x->prof = ftc_perf_profile_new(0);
	x->syms = ftc_symbols_new();
	if (!x->prof || !x->syms)
		return ftc_error(ENOMEM, "out of memory");
	/* the code mappings only: samples are taken as the main pass meets them */
	if (ftc_reader_profile_select(p->r, x->prof, NULL, no_sample, NULL) < 0)
		return -1;
	ftc_reader_profile_symbols(p->r, x->syms);
	x->sample_ev = ftc_reader_find_event(p->r, FTC_PERF_FTRACE_SYSTEM,
					     ftc_perf_ftrace_name(FTC_PERF_EV_SAMPLE));
	if (x->sample_ev) {
		x->f_ip = tep_find_field(x->sample_ev, "ip");
		x->f_tid = tep_find_field(x->sample_ev, "tid");
		x->f_cpu = tep_find_field(x->sample_ev, "cpu");
		x->f_period = tep_find_field(x->sample_ev, "period");
		x->f_chain = tep_find_field(x->sample_ev, "callchain");
	}
	x->counter_ev = ftc_reader_find_event(p->r, FTC_PERF_FTRACE_SYSTEM,
					      ftc_perf_ftrace_name(FTC_PERF_EV_COUNTER));
	if (x->counter_ev) {
		x->f_value = tep_find_field(x->counter_ev, "value");
		x->f_ena = tep_find_field(x->counter_ev, "enabled");
		x->f_run = tep_find_field(x->counter_ev, "running");
		x->f_name = tep_find_field(x->counter_ev, "name");
	}
	return 0;
}

void pf_perf_free(struct ftc_perfetto *p)
{
	struct pf_perf *x = p->perf;

	if (!x)
		return;
	ftc_perf_profile_free(x->prof);
	ftc_symbols_free(x->syms);
	pf_strings_free(&x->fnames);
	pf_strings_free(&x->maps);
	pf_strings_free(&x->frame_keys);
	pf_strings_free(&x->stacks);
	pf_strings_free(&x->counters);
	free(x->last);
	free(x->frames);
	free(x);
	p->perf = NULL;
}

static uint64_t field(const struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f && (unsigned int)(f->offset + f->size) <= (unsigned int)rec->size)
		tep_read_number_field((struct tep_format_field *)f, rec->data, &v);
	return v;
}

/* A __data_loc field's bytes and their number; NULL when not inside the record. */
static const char *dyn(const struct tep_format_field *f, const struct tep_record *rec,
		       size_t *len)
{
	uint32_t loc;

	if (!f || (unsigned int)f->offset + 4 > (unsigned int)rec->size)
		return NULL;
	memcpy(&loc, (const char *)rec->data + f->offset, 4);
	if ((loc & 0xffff) + (loc >> 16) > (unsigned int)rec->size)
		return NULL;
	*len = loc >> 16;
	return (const char *)rec->data + (loc & 0xffff);
}

/* The call chain's addresses, copied out: payloads are 4-byte aligned. */
static size_t chain(struct pf_perf *x, const struct tep_record *rec, uint64_t *ips, size_t max)
{
	size_t len = 0, n;
	const char *b = dyn(x->f_chain, rec, &len);

	n = b ? len / 8 : 0;
	if (n > max)
		n = max;
	memcpy(ips, b, n * 8);
	return n;
}

static uint64_t frame_id(struct pf_perf *x, const struct ftc_perf_frame *f)
{
	char key[512];
	size_t before = x->frame_keys.n;
	uint64_t id, map;

	map = pf_strings_id(&x->maps, f->dso, strlen(f->dso));
	snprintf(key, sizeof(key), "%" PRIu64 " %s", map, f->sym);
	id = pf_strings_id(&x->frame_keys, key, strlen(key));
	if (!id || !map || x->frame_keys.n == before)
		return id;
	struct pf_frame *n = realloc(x->frames, x->frame_keys.n * sizeof(*n));

	if (!n)
		return 0;
	x->frames = n;
	n[id - 1].map = map;
	n[id - 1].fn = pf_strings_id(&x->fnames, f->sym, strlen(f->sym));
	return n[id - 1].fn ? id : 0;
}

/* The stack's id, its frames root first; 0 when out of memory. */
static uint64_t stack_id(struct pf_perf *x, int nframes)
{
	char key[MAX_FRAMES * 21];
	size_t at = 0;

	for (int i = nframes - 1; i >= 0; i--) {
		x->ids[i] = frame_id(x, &x->resolved[i]);
		if (!x->ids[i])
			return 0;
	}
	for (int i = nframes - 1; i >= 0; i--)
		at += (size_t)snprintf(key + at, sizeof(key) - at, "%s%" PRIu64,
				       i == nframes - 1 ? "" : ",", x->ids[i]);
	return pf_strings_id(&x->stacks, key, at);
}

static void emit_mappings(struct pf_perf *x, struct ftc_pb *pb)
{
	for (size_t i = x->maps_emitted; i < x->maps.n; i++) {
		size_t m = ftc_pb_open(pb, INTERNED_MAPPINGS);

		ftc_pb_uint(pb, MAP_IID, i + 1);
		ftc_pb_uint(pb, MAP_PATH_STRING_IDS, i + 1);
		ftc_pb_close(pb, m);
	}
	pf_strings_emit(&x->maps, pb, INTERNED_MAPPING_PATHS);
	x->maps_emitted = x->maps.n;
}

static void emit_frames(struct pf_perf *x, struct ftc_pb *pb)
{
	for (size_t i = x->frames_emitted; i < x->frame_keys.n; i++) {
		size_t m = ftc_pb_open(pb, INTERNED_FRAMES);

		ftc_pb_uint(pb, FRAME_IID, i + 1);
		ftc_pb_uint(pb, FRAME_FUNCTION_NAME_ID, x->frames[i].fn);
		ftc_pb_uint(pb, FRAME_MAPPING_ID, x->frames[i].map);
		ftc_pb_close(pb, m);
	}
	x->frames_emitted = x->frame_keys.n;
	x->frame_keys.emitted = x->frame_keys.n;
}

/* "F1,F2,...": the frame ids of stack i, written as its Callstack. */
static void emit_stacks(struct pf_perf *x, struct ftc_pb *pb)
{
	for (size_t i = x->stacks.emitted; i < x->stacks.n; i++) {
		size_t m = ftc_pb_open(pb, INTERNED_CALLSTACKS);

		ftc_pb_uint(pb, CALLSTACK_IID, i + 1);
		for (const char *s = x->stacks.s[i]; *s; s += *s == ',') {
			char *end;

			ftc_pb_uint(pb, CALLSTACK_FRAME_IDS, strtoull(s, &end, 10));
			s = end;
		}
		ftc_pb_close(pb, m);
	}
	x->stacks.emitted = x->stacks.n;
}

static void emit_interned(struct pf_perf *x, struct ftc_pb *pkt)
{
	size_t m;

	if (x->stacks.emitted == x->stacks.n && x->maps_emitted == x->maps.n &&
	    x->fnames.emitted == x->fnames.n && x->frames_emitted == x->frame_keys.n)
		return;
	m = ftc_pb_open(pkt, PKT_INTERNED_DATA);
	pf_strings_emit(&x->fnames, pkt, INTERNED_FUNCTION_NAMES);
	emit_mappings(x, pkt);
	emit_frames(x, pkt);
	emit_stacks(x, pkt);
	ftc_pb_close(pkt, m);
}

static int sample(struct ftc_perfetto *p, struct tep_record *rec)
{
	struct pf_perf *x = p->perf;
	struct ftc_pb *pkt = &p->pkt;
	uint64_t ips[MAX_FRAMES], ip, stack;
	uint32_t pid = (uint32_t)tep_data_pid(p->tep, rec);
	size_t nr, m;
	int n;

	ip = field(x->f_ip, rec);
	nr = chain(x, rec, ips, MAX_FRAMES);
	if (!nr) {
		ips[0] = ip;
		nr = 1;
	}
	n = ftc_perf_profile_resolve(x->prof, x->syms, pid, ip >> 63, ips, nr, x->resolved,
				     MAX_FRAMES);
	stack = n > 0 ? stack_id(x, n) : 0;
	if (n > 0 && !stack)
		return ftc_error(ENOMEM, "out of memory");
	ftc_pb_reset(pkt);
	ftc_pb_uint(pkt, PKT_TIMESTAMP, rec->ts);
	pf_sequence(p, pkt, SEQ_PERF);
	emit_interned(x, pkt);
	m = ftc_pb_open(pkt, PKT_PERF_SAMPLE);
	ftc_pb_uint(pkt, PS_CPU, field(x->f_cpu, rec));
	ftc_pb_uint(pkt, PS_PID, pid);
	ftc_pb_uint(pkt, PS_TID, field(x->f_tid, rec));
	ftc_pb_uint(pkt, PS_CPU_MODE, ip >> 63 ? MODE_KERNEL : MODE_USER);
	ftc_pb_uint(pkt, PS_TIMEBASE_COUNT, field(x->f_period, rec));
	if (stack)
		ftc_pb_uint(pkt, PS_CALLSTACK_IID, stack);
	ftc_pb_close(pkt, m);
	pf_task(p, (int)field(x->f_tid, rec), (int)pid);
	p->st.samples++;
	return pf_write_packet(p, pkt);
}

/* A new counter's track, named after its event. */
static int describe(struct ftc_perfetto *p, uint64_t id, const char *name)
{
	struct ftc_pb *pkt = &p->pkt;
	char title[160];
	size_t m, c;

	snprintf(title, sizeof(title), "%s (per interval)", name);
	ftc_pb_reset(pkt);
	pf_sequence(p, pkt, SEQ_COUNTERS);
	m = ftc_pb_open(pkt, PKT_TRACK_DESCRIPTOR);
	ftc_pb_uint(pkt, TD_UUID, COUNTER_UUID_BASE + id);
	ftc_pb_str(pkt, TD_NAME, title);
	c = ftc_pb_open(pkt, TD_COUNTER);
	ftc_pb_str(pkt, CD_UNIT_NAME, "count");
	ftc_pb_close(pkt, c);
	ftc_pb_close(pkt, m);
	return pf_write_packet(p, pkt);
}

static int counter(struct ftc_perfetto *p, struct tep_record *rec)
{
	struct pf_perf *x = p->perf;
	struct ftc_pb *pkt = &p->pkt;
	size_t len = 0, before = x->counters.n, m;
	const char *name = dyn(x->f_name, rec, &len);
	uint64_t id, ena = field(x->f_ena, rec), run = field(x->f_run, rec);
	double value = (double)field(x->f_value, rec), delta;

	id = pf_strings_id(&x->counters, name ? name : "?", name ? len : 1);
	if (!id)
		return ftc_error(ENOMEM, "out of memory");
	if (x->counters.n != before) {
		double *n = realloc(x->last, x->counters.n * sizeof(*n));

		if (!n)
			return ftc_error(ENOMEM, "out of memory");
		x->last = n;
		n[id - 1] = 0;
		if (describe(p, id, x->counters.s[id - 1]) < 0)
			return -1;
	}
	if (run && run < ena)
		value = value * (double)ena / (double)run;	/* multiplexed */
	delta = value - x->last[id - 1];
	x->last[id - 1] = value;
	ftc_pb_reset(pkt);
	ftc_pb_uint(pkt, PKT_TIMESTAMP, rec->ts);
	pf_sequence(p, pkt, SEQ_COUNTERS);
	m = ftc_pb_open(pkt, PKT_TRACK_EVENT);
	ftc_pb_uint(pkt, TE_TYPE, TE_TYPE_COUNTER);
	ftc_pb_uint(pkt, TE_TRACK_UUID, COUNTER_UUID_BASE + id);
	ftc_pb_double(pkt, TE_DOUBLE_COUNTER_VALUE, delta);
	ftc_pb_close(pkt, m);
	p->st.readings++;
	return pf_write_packet(p, pkt);
}

int pf_perf_record(struct ftc_perfetto *p, const struct ftc_merge_record *mr)
{
	struct pf_perf *x = p->perf;
	int id = tep_data_type(p->tep, mr->rec);

	if (x->sample_ev && id == x->sample_ev->id)
		return sample(p, mr->rec);
	if (x->counter_ev && id == x->counter_ev->id)
		return counter(p, mr->rec);
	return 0;	/* comm, mmap, lost: read in the first pass */
}
