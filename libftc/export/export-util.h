/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A kernel address's function from the file's kallsyms, as the exporters
 * name it, and their tables by CPU (export-util.c); they read fields with the passes' readers
 * (libftc/analysis/pass-util.h).
 */
#ifndef FTC_EXPORT_UTIL_H
#define FTC_EXPORT_UTIL_H

#include <stddef.h>
#include <stdint.h>

struct ftc_reader;

/* The function at addr, or "0xADDR" in hex (room for 24 bytes). */
const char *ftc_export_ksym(struct ftc_reader *r, uint64_t addr, char *hex);

/*
 * table (n entries of size bytes), grown with zeroed entries to hold index;
 * NULL when out of memory (table is then left as it was).
 */
void *ftc_export_grow(void *table, int *n, int index, size_t size);

#endif
