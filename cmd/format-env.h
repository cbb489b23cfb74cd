/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FTC_FORMAT_TEP and FTC_FORMAT_STATS (ftc-report.1, ENVIRONMENT): read
 * here, since libftc reads no environment, and turned into the format's
 * flag and its figures on stderr.
 */
#ifndef FTC_CMD_FORMAT_ENV_H
#define FTC_CMD_FORMAT_ENV_H

#include <stdbool.h>

struct ftc_format;

/* FTC_FMT_NO_COMPILE when FTC_FORMAT_TEP is set (and not "0"), else 0. */
unsigned int format_env_flags(void);
/* FTC_FORMAT_STATS is set (and not "0"): the figures are wanted. */
bool format_env_stats(void);
/* ftc_format_free(), after the figures on stderr when they are wanted. */
void format_env_free(struct ftc_format *f);

#endif
