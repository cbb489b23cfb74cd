/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the exporters share to read a record (export-util.c): a number
 * field sign-extended as its format says, a field's bytes wherever its
 * format puts them, a string field to its NUL, and a kernel address's
 * function from the file's kallsyms.
 */
#ifndef FTC_EXPORT_UTIL_H
#define FTC_EXPORT_UTIL_H

#include <stddef.h>
#include <stdint.h>

struct ftc_reader;
struct tep_format_field;
struct tep_record;

/* 0 when the format lacks the field (f NULL) or it is not inside the record. */
int64_t ftc_export_num(const struct tep_format_field *f, const struct tep_record *rec);
/*
 * A __data_loc or __rel_loc field's bytes, a fixed array's, or a flexible
 * array's (print's buf: to the record's end); NULL when they are not
 * inside the record or f is NULL.
 */
const char *ftc_export_bytes(const struct tep_format_field *f, const struct tep_record *rec,
			     size_t *len);
/* The same, to its NUL. */
const char *ftc_export_str(const struct tep_format_field *f, const struct tep_record *rec,
			   size_t *len);
/* The function at addr, or "0xADDR" in hex (room for 24 bytes). */
const char *ftc_export_ksym(struct ftc_reader *r, uint64_t addr, char *hex);

#endif
