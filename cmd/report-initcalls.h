/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc report --initcalls: which initcalls took longest, from a boot-time
 * capture (ftc boot-args, then ftc extract).
 */
#ifndef FTC_REPORT_INITCALLS_H
#define FTC_REPORT_INITCALLS_H

#include <stdbool.h>

#include "ftc-reader.h"

/* Prints r's initcalls, slowest first; returns an exit status. */
int report_initcalls_run(struct ftc_reader *r, const char *path, bool ns);

#endif
