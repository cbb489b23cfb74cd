// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The guardian: a child forked before anything is written, holding one
 * end of a socket whose other end only its parent holds. When the parent
 * finishes it sends "d" and the guardian exits; when the socket reads end
 * of file without that byte, the parent died before it could restore
 * (SIGKILL, a crash), and the guardian restores tracefs from the journal
 * file. A socket rather than a pipe: send() with MSG_NOSIGNAL cannot kill
 * the parent with SIGPIPE when the guardian was killed first.
 *
 * The guardian leaves the parent's process group (setsid) before it says
 * it is armed, and ftc_state_guard waits for that word before it returns,
 * that is before the parent's first write: timeout(1), a shell's kill of
 * a job, a supervisor's kill -9 -PGID all SIGKILL the whole group, and a
 * guardian in it died with its parent and restored nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-control.h"
#include "state.h"

/*
 * Ctrl-C and kill(0, ...) reach the whole process group: the parent
 * handles them and restores, and the guardian must outlive it to cover a
 * parent that dies on the way. Its stdout and stdin go, and every other
 * file, so that it holds nothing of tracefs or of the capture open; stderr
 * stays for the program's report callback (ftc_journal_set_report). The
 * dispositions set here are the forked guardian's own, never the
 * program's: libftc installs no handler in its caller.
 */
static void guardian_setup(int sock)
{
	static const int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP,
				       SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2 };
	sigset_t none;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	prctl(PR_SET_NAME, "ftc-guardian", 0, 0, 0);
	setsid();
	for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		signal(ignored[i], SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
	}
	if (sock != 3) {
		dup2(sock, 3);
		close(sock);
	}
	fcntl(3, F_SETFD, FD_CLOEXEC);
	close_range(4, ~0U, 0);
}

static bool parent_finished(void)
{
	char c;

	for (;;) {
		ssize_t n = read(3, &c, 1);

		if (n == 1)
			return c == 'd';
		if (n == 0 || errno != EINTR)
			return false;
	}
}

static ftc_journal_report_fn *guard_report;
static void *guard_report_arg;

void ftc_journal_set_report(ftc_journal_report_fn *report, void *arg)
{
	guard_report = report;
	guard_report_arg = arg;
}

/* What the guardian did, for the program to show (the library prints nothing). */
static void guardian_say(const char *fmt, ...)
{
	char *text;
	va_list ap;
	int n;

	if (!guard_report)
		return;
	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	guard_report(text, guard_report_arg);
	free(text);
}

static _Noreturn void guardian_main(int sock, pid_t owner, unsigned long long start,
				    const char *command)
{
	struct ftc_journal_info info = { 0 };
	char *path = NULL;
	bool failed;
	int ret;

	guardian_setup(sock);
	if (send(3, "a", 1, MSG_NOSIGNAL) < 0)
		_exit(1);
	if (parent_finished())
		_exit(0);
	ret = ftc_journal_restore_owner(owner, start, &path, &info);
	failed = ret < 0 && errno != ENOENT;
	if (failed)
		guardian_say("pid %d (ftc %s) died before restoring tracefs; "
			     "restoring it from %s failed: %s", (int)owner, command, path,
			     ftc_strerror());
	else if (ret == 0 && info.changes)
		guardian_say("pid %d (ftc %s) died before restoring tracefs: "
			     "%zu changes restored from %s", (int)owner, command, info.changes, path);
	ftc_journal_info_free(&info);
	free(path);
	_exit(failed ? 1 : 0);
}

/* The guardian's word that it is out of our process group and listening. */
static int wait_armed(struct ftc_state *st)
{
	char c = 0;
	ssize_t n;
	int err;

	do
		n = recv(st->jf.guard_fd, &c, 1, 0);
	while (n < 0 && errno == EINTR);
	err = n < 0 ? errno : ECHILD;
	if (n == 1 && c == 'a')
		return 0;
	ftc_journal_guard_release(st);
	return ftc_error(err, "the guardian ended before it was armed: %s", strerror(err));
}

int ftc_state_guard(struct ftc_state *st, const char *command)
{
	pid_t owner = getpid();
	unsigned long long start = ftc_pid_start_time(owner);
	int sv[2];

	if (!st || st->jf.guardian)
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return ftc_error(errno, "socketpair for the guardian: %s", strerror(errno));
	fflush(NULL);	/* what is buffered would be written twice */
	st->jf.guardian = fork();
	if (st->jf.guardian < 0) {
		int err = errno;

		st->jf.guardian = 0;
		close(sv[0]);
		close(sv[1]);
		return ftc_error(err, "fork of the guardian: %s", strerror(err));
	}
	if (st->jf.guardian == 0)
		guardian_main(sv[1], owner, start, command);
	close(sv[1]);
	ftc_journal_guard_link(st, sv[0]);
	/* The journal after the guardian: a kill in between leaves no file behind. */
	if (wait_armed(st) < 0)
		return -1;
	if (ftc_journal_file_open(st, command) < 0) {
		int err = errno;

		ftc_journal_guard_done(st);
		errno = err;
		return -1;
	}
	return 0;
}

pid_t ftc_state_guardian(const struct ftc_state *st)
{
	return st ? st->jf.guardian : 0;
}

int ftc_state_keep(struct ftc_state *st)
{
	if (!st)
		return 0;
	ftc_journal_file_done(st);
	ftc_journal_guard_done(st);
	while (st->n)
		ftc_journal_entry_free(&st->e[--st->n]);
	return 0;
}
