/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the perf files: what the sampler and capture-perf share. */
#ifndef FTC_PERF_INTERNAL_H
#define FTC_PERF_INTERNAL_H

#include <stdbool.h>

#include "ftc-perf.h"

/*
 * Sampling attributes shared by ftc profile and record --sample: ip, tid,
 * time, cpu, period (and the callchain), by frequency (default 4000 Hz) or
 * period, with the side-band records (comm, mmap2) that symbolize samples.
 */
void ftc_perf_sampling_attr(struct perf_event_attr *a, unsigned long long freq,
			    unsigned long long period, bool callchain);
/* Whether perf_event_open's errno means "this PMU lacks the event". */
bool ftc_perf_refused_by_pmu(int err);

#endif
