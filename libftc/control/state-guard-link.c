// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Our end of the guardian's socket (the guardian: state-guard.c): the
 * journal (state.c) ends the guardian through it when it restores or is
 * freed, below the guardian, which restores through the journal.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ftc.h"
#include "state.h"

/* The parent's end, for children forked later to close (ftc_journal_guard_forget). */
static int parent_end = -1;

void ftc_journal_guard_link(struct ftc_state *st, int fd)
{
	st->jf.guard_fd = parent_end = fd;
}

static void guard_end(struct ftc_state *st, bool done)
{
	int status;

	if (st->jf.guard_fd < 0)
		return;
	if (done && send(st->jf.guard_fd, "d", 1, MSG_NOSIGNAL) < 0 && errno != EPIPE)
		ftc_error(errno, "telling the guardian: %s", strerror(errno));
	close(st->jf.guard_fd);
	st->jf.guard_fd = parent_end = -1;
	while (waitpid(st->jf.guardian, &status, 0) < 0 && errno == EINTR)
		;
	st->jf.guardian = 0;
}

void ftc_journal_guard_done(struct ftc_state *st)
{
	guard_end(st, true);
}

void ftc_journal_guard_release(struct ftc_state *st)
{
	guard_end(st, false);
}

void ftc_journal_guard_forget(void)
{
	if (parent_end >= 0)
		close(parent_end);
	parent_end = -1;
}
