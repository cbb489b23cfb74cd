// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libtraceevent 1.7's event-format parser crashes on some damaged formats
 * (a divide by zero while folding constants, a NULL dereference). The
 * library refuses the shapes it knows and installs no signal handler; ftc
 * passes this guard so that a damaged file cannot kill it: the parse runs
 * under SIGFPE/SIGSEGV/SIGBUS handlers that jump out of it, and the format
 * is abandoned (its records print as unknown). The handlers are there only
 * for the parse: the previous ones come back after it. The fuzz target
 * uses it too (tests/fuzz/run).
 */
#include <setjmp.h>
#include <signal.h>

#include "parse-guard.h"

static _Thread_local sigjmp_buf crash_jump;
static _Thread_local volatile sig_atomic_t in_parse;

static void on_crash(int sig)
{
	if (in_parse)
		siglongjmp(crash_jump, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

int parse_guard(int (*parse)(void *arg), void *arg, void *ctx)
{
	static const int sigs[] = { SIGFPE, SIGSEGV, SIGBUS };
	struct sigaction sa = { .sa_handler = on_crash }, old[3];
	int ret;

	(void)ctx;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER;
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	if (sigsetjmp(crash_jump, 1)) {
		ret = -1;
	} else {
		in_parse = 1;
		ret = parse(arg);
	}
	in_parse = 0;
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	return ret;
}
