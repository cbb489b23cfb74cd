// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ftc record's perf data as the exporters take it (see export-perf.h).
 */
#include <errno.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-capture-perf.h"
#include "ftc-perf.h"
#include "ftc-reader.h"
#include "ftc-symbols.h"
#include "export-perf.h"
#include "pass-util.h"

static bool no_sample(const struct ftc_merge_record *mr, void *ctx)
{
	return false;
}

static void fields(struct ftc_xperf *x, struct ftc_reader *r)
{
	x->sample_ev = ftc_reader_find_event(r, FTC_PERF_FTRACE_SYSTEM,
					     ftc_perf_ftrace_name(FTC_PERF_EV_SAMPLE));
	if (x->sample_ev) {
		x->f_ip = tep_find_field(x->sample_ev, "ip");
		x->f_tid = tep_find_field(x->sample_ev, "tid");
		x->f_cpu = tep_find_field(x->sample_ev, "cpu");
		x->f_period = tep_find_field(x->sample_ev, "period");
		x->f_chain = tep_find_field(x->sample_ev, "callchain");
	}
	x->counter_ev = ftc_reader_find_event(r, FTC_PERF_FTRACE_SYSTEM,
					      ftc_perf_ftrace_name(FTC_PERF_EV_COUNTER));
	if (x->counter_ev) {
		x->f_value = tep_find_field(x->counter_ev, "value");
		x->f_ena = tep_find_field(x->counter_ev, "enabled");
		x->f_run = tep_find_field(x->counter_ev, "running");
		x->f_name = tep_find_field(x->counter_ev, "name");
	}
}

int ftc_xperf_buffer(struct ftc_reader *r)
{
	for (int b = 0; b < ftc_reader_nbuffers(r); b++)
		if (!strcmp(ftc_reader_buffer(r, b)->name, FTC_CAPTURE_PERF_INSTANCE))
			return b;
	return -1;
}

int ftc_xperf_open(struct ftc_xperf *x, struct ftc_reader *r)
{
	memset(x, 0, sizeof(*x));
	x->tep = ftc_reader_tep(r);
	x->prof = ftc_perf_profile_new(0);
	x->syms = ftc_symbols_new();
	if (!x->prof || !x->syms)
		return ftc_error(ENOMEM, "out of memory");
	/* the code mappings only: the samples are taken as the caller meets them */
	if (ftc_reader_profile_select(r, x->prof, NULL, no_sample, NULL) < 0)
		return -1;
	ftc_reader_profile_symbols(r, x->syms);
	fields(x, r);
	return 0;
}

void ftc_xperf_close(struct ftc_xperf *x)
{
	ftc_perf_profile_free(x->prof);
	ftc_symbols_free(x->syms);
	memset(x, 0, sizeof(*x));
}

enum ftc_xperf_kind ftc_xperf_kind(const struct ftc_xperf *x, struct tep_record *rec)
{
	int id = tep_data_type(x->tep, rec);

	if (x->sample_ev && id == x->sample_ev->id)
		return FTC_XPERF_SAMPLE;
	if (x->counter_ev && id == x->counter_ev->id)
		return FTC_XPERF_COUNTER;
	return FTC_XPERF_OTHER;
}

void ftc_xperf_sample(struct ftc_xperf *x, struct tep_record *rec, struct ftc_xperf_sample *s,
		      struct ftc_perf_frame *frames)
{
	uint64_t ips[FTC_XPERF_MAX_FRAMES];
	size_t len = 0, nr;
	const char *chain = ftc_pass_bytes(x->f_chain, rec, &len);

	s->pid = (uint32_t)tep_data_pid(x->tep, rec);
	s->tid = (uint32_t)ftc_pass_field(x->f_tid, rec);
	s->cpu = (uint32_t)ftc_pass_field(x->f_cpu, rec);
	s->ip = ftc_pass_field(x->f_ip, rec);
	s->period = ftc_pass_field(x->f_period, rec);
	s->kernel = s->ip >> 63;
	nr = chain ? len / 8 : 0;
	if (nr > FTC_XPERF_MAX_FRAMES)
		nr = FTC_XPERF_MAX_FRAMES;
	memcpy(ips, chain, nr * 8);
	if (!nr) {	/* without a chain the sampled address is the whole stack */
		ips[0] = s->ip;
		nr = 1;
	}
	s->nframes = ftc_perf_profile_resolve(x->prof, x->syms, s->pid, s->kernel, ips, nr,
					      frames, FTC_XPERF_MAX_FRAMES);
	s->nframes = ftc_perf_frames_one_unknown(frames, s->nframes);
}

void ftc_xperf_reading(const struct ftc_xperf *x, const struct tep_record *rec,
		       struct ftc_xperf_reading *rd)
{
	uint64_t ena = ftc_pass_field(x->f_ena, rec), run = ftc_pass_field(x->f_run, rec);

	rd->name = ftc_pass_bytes(x->f_name, rec, &rd->len);
	if (!rd->name) {
		rd->name = "?";
		rd->len = 1;
	}
	rd->len = strnlen(rd->name, rd->len);
	rd->value = (double)ftc_pass_field(x->f_value, rec);
	if (run && run < ena)
		rd->value = rd->value * (double)ena / (double)run;	/* multiplexed */
}
