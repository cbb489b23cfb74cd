/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The journal a command writes tracefs through (ftc_state): guarded before
 * the first write, with the command's signals as its stop, and restored at
 * the end. record, start, stream, top and hist open it the same way.
 */
#ifndef FTC_CMD_JOURNAL_H
#define FTC_CMD_JOURNAL_H

#include <stddef.h>

#include "options.h"

struct ftc_state;

/*
 * A new journal whose guardian exists before the first write and before
 * any thread or command (ftc_state_guard: without one, a warning and the
 * command goes on), with SIGINT, SIGTERM and SIGHUP caught and given to it
 * as its stop. NULL with the error printed.
 */
struct ftc_state *cmd_journal_open(const struct command *cmd);
/* Restores and frees it: ret, or 1 for a ret of 0 when the restore failed (printed). */
int cmd_journal_close(const struct command *cmd, struct ftc_state *st, int ret);

#endif
