/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the analysis passes share when they take a record (pass-util.c):
 * the buffer they read, chosen at the first record that concerns them,
 * and a number field read at its offset.
 */
#ifndef FTC_PASS_UTIL_H
#define FTC_PASS_UTIL_H

#include <stdbool.h>
#include <stdint.h>

struct ftc_reader;
struct ftc_merge_record;
struct tep_format_field;
struct tep_record;

/*
 * Whether mr is in the pass's buffer (*chosen; -1 until chosen): the
 * instance named (NULL: the first buffer whose record is one of the pass's,
 * ours), else none. The events mr says were lost before it, in the chosen
 * buffer, are added to *lost.
 */
bool ftc_pass_buffer(struct ftc_reader *r, const char *instance, bool ours,
		     const struct ftc_merge_record *mr, int *chosen, uint64_t *lost);

/* A number field of rec (0 when the format lacks the field). */
uint64_t ftc_pass_field(const struct tep_format_field *f, const struct tep_record *rec);

/*
 * The letter of a sched_switch's prev_state: R (preempted), S (I too: idle
 * kernel threads), D, T, t, X, Z, or P.
 */
char ftc_pass_state_letter(long long state);

#endif
