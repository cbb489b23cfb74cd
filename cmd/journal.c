// SPDX-License-Identifier: GPL-2.0-or-later
#include "journal.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-control.h"

struct ftc_state *cmd_journal_open(const struct command *cmd)
{
	struct ftc_state *st = ftc_state_new();

	if (!st) {
		cmd_error(cmd, "%s", ftc_strerror());
		return NULL;
	}
	if (ftc_state_guard(st, cmd->name) < 0)
		cmd_error(cmd, "warning: tracefs stays changed if ftc is killed: %s",
			  ftc_strerror());
	cmd_signals_catch();
	/* a glob of events stops between its events on Ctrl-C */
	ftc_state_set_stop(st, cmd_signal_flag());
	return st;
}

int cmd_journal_close(const struct command *cmd, struct ftc_state *st, int ret)
{
	if (ftc_state_restore(st) < 0) {
		cmd_error(cmd, "%s", ftc_strerror());
		if (ret == FTC_EXIT_OK)
			ret = FTC_EXIT_FAIL;
	}
	ftc_state_free(st);
	return ret;
}
