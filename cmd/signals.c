// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SIGINT, SIGTERM and SIGHUP for every command: see signals.h. The
 * handler only stores the signal and writes a byte; what stopping means is
 * each command's business (restore tracefs, pass the signal on to the
 * traced command, print what was counted).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "signals.h"

static volatile sig_atomic_t caught;
static int sig_pipe[2] = { -1, -1 };
static bool installed;

static void on_signal(int sig)
{
	int saved = errno;

	caught = sig;
	/* full or absent pipe: the flag alone says it */
	if (sig_pipe[1] >= 0 && write(sig_pipe[1], "s", 1) < 0)
		errno = saved;
	errno = saved;
}

int cmd_signals_catch(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal };
	int ret = 0;

	if (installed)
		return sig_pipe[0] >= 0 ? 0 : -1;
	installed = true;
	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		ret = ftc_error(errno, "pipe: %s", strerror(errno));
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* nohup's SIG_IGN stays: ftc and its command outlive the terminal */
		if (sigs[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	return ret;
}

int cmd_signal_caught(void)
{
	return caught;
}

const volatile sig_atomic_t *cmd_signal_flag(void)
{
	return &caught;
}

int cmd_signal_fd(void)
{
	return sig_pipe[0];
}

void cmd_signal_drain(void)
{
	char buf[16];

	while (sig_pipe[0] >= 0 && read(sig_pipe[0], buf, sizeof(buf)) > 0)
		;
}
