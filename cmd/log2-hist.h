/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The log2 histograms the analysis commands print (sched hist, block,
 * funclatency), as bcc's tools draw them: one row per bucket from the
 * first occupied to the last, "from -> below  count  |****|".
 */
#ifndef FTC_CMD_LOG2_HIST_H
#define FTC_CMD_LOG2_HIST_H

#include <stdint.h>

/* The rows' unit for bytes, named as bitesize names them (512, 4K, 1M). */
#define LOG2_BYTES 0

/*
 * n buckets, bucket i holding [2^i, 2^(i+1)) units of unit_ns nanoseconds
 * (1: ns; 1000000: ms, as biolatency -m), or of bytes for LOG2_BYTES.
 */
void cmd_log2_hist(const uint64_t *h, int n, uint64_t unit_ns);

#endif
