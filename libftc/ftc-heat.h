/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A latency heat map (libftc/analysis/heat.c): values in log2 buckets per
 * slice of time, for a run of any length in bounded memory. The slices
 * start at the first value's time; when a value falls past the last of
 * max_columns slices, neighbouring slices merge pairwise and the width
 * doubles, so the map always spans the whole run.
 */
#ifndef FTC_HEAT_H
#define FTC_HEAT_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* log2 buckets: bucket i holds [2^i, 2^(i+1)), bucket 0 also 0 */
#define FTC_HEAT_BUCKETS 64

struct ftc_heat;

/* max_columns >= 2 (0: 200); first_width_ns 0: 1 ms. */
FTC_API struct ftc_heat *ftc_heat_new(size_t max_columns, uint64_t first_width_ns);
FTC_API void ftc_heat_free(struct ftc_heat *h);
/* A value at time ts (ts not before the first value's: earlier ones count in slice 0). */
FTC_API int ftc_heat_add(struct ftc_heat *h, uint64_t ts, uint64_t value);
/* The bucket of a value. */
FTC_API int ftc_heat_bucket(uint64_t value);
/*
 * Bucket b's lower edge, 2^b ns, in the unit that keeps it short, to three
 * significant digits: "512ns", "1.02us", "16.4us", "2.1ms", "1.07s".
 */
FTC_API void ftc_heat_bucket_label(int b, char *buf, size_t size);
/* Any time in ns written so: 32000000 is "32ms" (the edges of coarser buckets). */
FTC_API void ftc_heat_time_label(double ns, char *buf, size_t size);
/*
 * The pct-th percentile of count values in FTC_HEAT_BUCKETS log2 buckets:
 * the top of the bucket that reaches it, never above max (the largest value).
 */
FTC_API uint64_t ftc_heat_percentile(const uint64_t *hist, uint64_t count, uint64_t max,
				     double pct);
FTC_API size_t ftc_heat_columns(const struct ftc_heat *h);
FTC_API uint64_t ftc_heat_start(const struct ftc_heat *h);
FTC_API uint64_t ftc_heat_width(const struct ftc_heat *h);
FTC_API uint64_t ftc_heat_count(const struct ftc_heat *h);
/* Slice i's FTC_HEAT_BUCKETS counts. */
FTC_API const uint64_t *ftc_heat_column(const struct ftc_heat *h, size_t i);
/*
 * The map as SVG: time across, the occupied buckets up (in ns, us and ms),
 * each cell's count as colour, with the title above. Returns 0, or -1 when
 * a write failed.
 */
FTC_API int ftc_heat_svg(FILE *f, const struct ftc_heat *h, const char *title);

#ifdef __cplusplus
}
#endif

#endif
