/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ftc convert's outputs that are not trace.dat (--to). */
#ifndef FTC_CMD_CONVERT_TO_H
#define FTC_CMD_CONVERT_TO_H

#include <stdbool.h>

#include "options.h"

enum convert_to { CONVERT_TO_DAT, CONVERT_TO_PERFETTO, CONVERT_TO_CHROME };

/* The format named (trace.dat, perfetto, chrome), or -1. */
int convert_to_parse(const char *name);
const char *convert_to_name(int to);
/*
 * The trace as Perfetto's protobuf trace (no_compact: sched_switch and
 * sched_waking typed) or Chrome's JSON: an FTC_EXIT_* status, after a
 * message.
 */
int convert_to(const struct command *cmd, int to, const char *input, const char *output,
	       bool no_compact);

#endif
