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

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-merge.h"
#include "ftc-perf.h"
#include "ftc-reader.h"
#include "export-perf.h"
#include "perfetto.h"

/* Counter tracks' uuids: any that no other track of the file uses. */
#define COUNTER_UUID_BASE	0x6674635f70657266ull

/* A frame's names, by the ids of its function and its mapping. */
struct pf_frame {
	uint64_t fn, map;
};

struct pf_perf {
	struct ftc_xperf xp;
	struct pf_strings fnames;	/* function_names */
	struct pf_strings maps;		/* mapping_paths; a mapping per path, same id */
	struct pf_strings frame_keys;	/* "MAP FUNCTION" -> frame id */
	struct pf_frame *frames;
	size_t frames_emitted;
	struct pf_strings stacks;	/* "F1,F2,..." root first -> callstack id */
	size_t maps_emitted;
	struct pf_strings counters;	/* the counted events, by name */
	double *last;			/* each one's reading before */
	struct ftc_perf_frame resolved[FTC_XPERF_MAX_FRAMES];
	uint64_t ids[FTC_XPERF_MAX_FRAMES];
};

int ftc_pf_perf_open(struct ftc_perfetto *p)
{
	struct pf_perf *x = calloc(1, sizeof(*x));

	if (!x)
		return ftc_error(ENOMEM, "out of memory");
	p->perf = x;
	return ftc_xperf_open(&x->xp, p->r);
}

void ftc_pf_perf_free(struct ftc_perfetto *p)
{
	struct pf_perf *x = p->perf;

	if (!x)
		return;
	ftc_xperf_close(&x->xp);
	ftc_pf_strings_free(&x->fnames);
	ftc_pf_strings_free(&x->maps);
	ftc_pf_strings_free(&x->frame_keys);
	ftc_pf_strings_free(&x->stacks);
	ftc_pf_strings_free(&x->counters);
	free(x->last);
	free(x->frames);
	free(x);
	p->perf = NULL;
}

static uint64_t frame_id(struct pf_perf *x, const struct ftc_perf_frame *f)
{
	char key[512];
	size_t before = x->frame_keys.n;
	uint64_t id, map;

	map = ftc_pf_strings_id(&x->maps, f->dso, strlen(f->dso));
	snprintf(key, sizeof(key), "%" PRIu64 " %s", map, f->sym);
	id = ftc_pf_strings_id(&x->frame_keys, key, strlen(key));
	if (!id || !map || x->frame_keys.n == before)
		return id;
	struct pf_frame *n = realloc(x->frames, x->frame_keys.n * sizeof(*n));

	if (!n)
		return 0;
	x->frames = n;
	n[id - 1].map = map;
	n[id - 1].fn = ftc_pf_strings_id(&x->fnames, f->sym, strlen(f->sym));
	return n[id - 1].fn ? id : 0;
}

/* The stack's id, its frames root first; 0 when out of memory. */
static uint64_t stack_id(struct pf_perf *x, int nframes)
{
	char key[FTC_XPERF_MAX_FRAMES * 21];
	size_t at = 0;

	for (int i = nframes - 1; i >= 0; i--) {
		x->ids[i] = frame_id(x, &x->resolved[i]);
		if (!x->ids[i])
			return 0;
	}
	for (int i = nframes - 1; i >= 0; i--)
		at += (size_t)snprintf(key + at, sizeof(key) - at, "%s%" PRIu64,
				       i == nframes - 1 ? "" : ",", x->ids[i]);
	return ftc_pf_strings_id(&x->stacks, key, at);
}

static void emit_mappings(struct pf_perf *x, struct ftc_pb *pb)
{
	for (size_t i = x->maps_emitted; i < x->maps.n; i++) {
		size_t m = ftc_pb_open(pb, INTERNED_MAPPINGS);

		ftc_pb_uint(pb, MAP_IID, i + 1);
		ftc_pb_uint(pb, MAP_PATH_STRING_IDS, i + 1);
		ftc_pb_close(pb, m);
	}
	ftc_pf_strings_emit(&x->maps, pb, INTERNED_MAPPING_PATHS);
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
	ftc_pf_strings_emit(&x->fnames, pkt, INTERNED_FUNCTION_NAMES);
	emit_mappings(x, pkt);
	emit_frames(x, pkt);
	emit_stacks(x, pkt);
	ftc_pb_close(pkt, m);
}

static int sample(struct ftc_perfetto *p, struct tep_record *rec)
{
	struct pf_perf *x = p->perf;
	struct ftc_pb *pkt = &p->pkt;
	struct ftc_xperf_sample smp;
	uint64_t stack;
	size_t m;

	ftc_xperf_sample(&x->xp, rec, &smp, x->resolved);
	stack = smp.nframes > 0 ? stack_id(x, smp.nframes) : 0;
	if (smp.nframes > 0 && !stack)
		return ftc_error(ENOMEM, "out of memory");
	ftc_pb_reset(pkt);
	ftc_pb_uint(pkt, PKT_TIMESTAMP, rec->ts);
	ftc_pf_sequence(p, pkt, SEQ_PERF);
	emit_interned(x, pkt);
	m = ftc_pb_open(pkt, PKT_PERF_SAMPLE);
	ftc_pb_uint(pkt, PS_CPU, smp.cpu);
	ftc_pb_uint(pkt, PS_PID, smp.pid);
	ftc_pb_uint(pkt, PS_TID, smp.tid);
	ftc_pb_uint(pkt, PS_CPU_MODE, smp.kernel ? MODE_KERNEL : MODE_USER);
	ftc_pb_uint(pkt, PS_TIMEBASE_COUNT, smp.period);
	if (stack)
		ftc_pb_uint(pkt, PS_CALLSTACK_IID, stack);
	ftc_pb_close(pkt, m);
	ftc_pf_task(p, (int)smp.tid, (int)smp.pid);
	p->st.samples++;
	return ftc_pf_write_packet(p, pkt);
}

/* A new counter's track, named after its event. */
static int describe(struct ftc_perfetto *p, uint64_t id, const char *name)
{
	struct ftc_pb *pkt = &p->pkt;
	char title[160];
	size_t m, c;

	snprintf(title, sizeof(title), "%s (per interval)", name);
	ftc_pb_reset(pkt);
	ftc_pf_sequence(p, pkt, SEQ_COUNTERS);
	m = ftc_pb_open(pkt, PKT_TRACK_DESCRIPTOR);
	ftc_pb_uint(pkt, TD_UUID, COUNTER_UUID_BASE + id);
	ftc_pb_str(pkt, TD_NAME, title);
	c = ftc_pb_open(pkt, TD_COUNTER);
	ftc_pb_str(pkt, CD_UNIT_NAME, "count");
	ftc_pb_close(pkt, c);
	ftc_pb_close(pkt, m);
	return ftc_pf_write_packet(p, pkt);
}

static int counter(struct ftc_perfetto *p, struct tep_record *rec)
{
	struct pf_perf *x = p->perf;
	struct ftc_pb *pkt = &p->pkt;
	struct ftc_xperf_reading rd;
	size_t before = x->counters.n, m;
	uint64_t id;
	double delta;

	ftc_xperf_reading(&x->xp, rec, &rd);
	id = ftc_pf_strings_id(&x->counters, rd.name, rd.len);
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
	delta = rd.value - x->last[id - 1];
	x->last[id - 1] = rd.value;
	ftc_pb_reset(pkt);
	ftc_pb_uint(pkt, PKT_TIMESTAMP, rec->ts);
	ftc_pf_sequence(p, pkt, SEQ_COUNTERS);
	m = ftc_pb_open(pkt, PKT_TRACK_EVENT);
	ftc_pb_uint(pkt, TE_TYPE, TE_TYPE_COUNTER);
	ftc_pb_uint(pkt, TE_TRACK_UUID, COUNTER_UUID_BASE + id);
	ftc_pb_double(pkt, TE_DOUBLE_COUNTER_VALUE, delta);
	ftc_pb_close(pkt, m);
	p->st.readings++;
	return ftc_pf_write_packet(p, pkt);
}

int ftc_pf_perf_record(struct ftc_perfetto *p, const struct ftc_merge_record *mr)
{
	switch (ftc_xperf_kind(&p->perf->xp, mr->rec)) {
	case FTC_XPERF_SAMPLE:
		return sample(p, mr->rec);
	case FTC_XPERF_COUNTER:
		return counter(p, mr->rec);
	default:
		return 0;	/* comm, mmap, lost: read when opened */
	}
}
