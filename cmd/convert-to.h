/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ftc convert's outputs that are not trace.dat (--to). */
#ifndef FTC_CMD_CONVERT_TO_H
#define FTC_CMD_CONVERT_TO_H

#include <stdbool.h>

#include "options.h"

/*
 * The trace as Perfetto's protobuf trace (no_compact: sched_switch and
 * sched_waking typed): an FTC_EXIT_* status, after a message.
 */
int convert_to_perfetto(const struct command *cmd, const char *input, const char *output,
			bool no_compact);

#endif
