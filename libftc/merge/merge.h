/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The merge's internals that the formatters use (libftc/merge/). */
#ifndef FTC_MERGE_INTERNAL_H
#define FTC_MERGE_INTERNAL_H

#include "ftc-merge.h"

/* Look-ahead in a merge, for folding function_graph entry/exit pairs
 * (format*.c). The next record on the CPU of the one last returned, if in
 * the same page; skip consumes it; peek_events sees the head of every CPU
 * (before the first ftc_merge_next). */
struct ftc_merge;
int ftc_merge_peek_same_cpu(struct ftc_merge *m, struct tep_record *next);
void ftc_merge_skip_peeked(struct ftc_merge *m);
int ftc_merge_peek_events(struct ftc_merge *m, int (*fn)(struct tep_record *rec, void *ctx),
			  void *ctx);

#endif
