/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A kernel address's function from the file's kallsyms, as the exporters
 * name it (export-util.c); they read fields with the passes' readers
 * (libftc/analysis/pass-util.h).
 */
#ifndef FTC_EXPORT_UTIL_H
#define FTC_EXPORT_UTIL_H

#include <stdint.h>

struct ftc_reader;

/* The function at addr, or "0xADDR" in hex (room for 24 bytes). */
const char *ftc_export_ksym(struct ftc_reader *r, uint64_t addr, char *hex);

#endif
