/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the analysis passes share when they take a record (pass-util.c):
 * the buffer they read, chosen at the first record that concerns them,
 * and a field read at its offset: a number, or the bytes of a string or
 * array wherever its format puts them. The exporters (libftc/export/)
 * read records through them too.
 */
#ifndef FTC_PASS_UTIL_H
#define FTC_PASS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
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

/* Whether rec holds the field whole: a damaged file's formats may say otherwise. */
bool ftc_pass_holds(const struct tep_format_field *f, const struct tep_record *rec);

/* A number field of rec (0 when the format lacks the field or rec does not hold it). */
uint64_t ftc_pass_field(const struct tep_format_field *f, const struct tep_record *rec);

/* The same, sign-extended when the format says the field is signed. */
int64_t ftc_pass_num(const struct tep_format_field *f, const struct tep_record *rec);

/* A 4-byte field as a signed int (pids, CPUs: formats say int or u32 alike); others as read. */
long long ftc_pass_int(const struct tep_format_field *f, const struct tep_record *rec);

/* A fixed char array (a comm) into buf, which holds 17; false when rec does not hold it. */
bool ftc_pass_comm(const struct tep_format_field *f, const struct tep_record *rec, char *buf);

/*
 * A __data_loc or __rel_loc field's bytes, a fixed array's, or a flexible
 * array's (print's buf: to the record's end); NULL when they are not
 * inside the record or f is NULL.
 */
const char *ftc_pass_bytes(const struct tep_format_field *f, const struct tep_record *rec,
			   size_t *len);

/* The same, to its NUL. */
const char *ftc_pass_str(const struct tep_format_field *f, const struct tep_record *rec,
			 size_t *len);

/*
 * The letter of a sched_switch's prev_state: R (preempted), S (I too: idle
 * kernel threads), D, T, t, X, Z, or P.
 */
char ftc_pass_state_letter(long long state);

#endif
