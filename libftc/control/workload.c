// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A command started held: forked, waiting on a pipe, so that counters can
 * be opened on its pid before it calls exec (and enable_on_exec starts
 * them exactly there), then released.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-workload.h"
#include "state.h"

struct ftc_workload {
	pid_t pid;		/* 0 once reaped */
	int go_fd, err_fd;
	int pidfd;		/* readable when it exits; -1 on kernels without pidfd */
	const char *argv0;
	int status;
	struct rusage ru;
};

static int spawn(struct ftc_workload *w, char **argv)
{
	int go[2], err[2];

	w->go_fd = w->err_fd = w->pidfd = -1;
	w->argv0 = argv[0];
	if (pipe2(go, O_CLOEXEC) < 0)
		return ftc_error(errno, "pipe: %s", strerror(errno));
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		return ftc_error(errno, "pipe: %s", strerror(errno));
	}
	w->pid = fork();
	if (w->pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		/* pid -1 would make ftc_workload_kill signal every process */
		w->pid = 0;
		return ftc_error(e, "cannot start '%s': fork: %s", argv[0], strerror(e));
	}
	if (w->pid == 0) {
		struct sigaction hup;
		char c;
		int e;

		/* The child's own set-up before exec, not a handler in the
		 * program: a SIG_IGN the program inherited (a background job's
		 * SIGINT) would outlive exec; the command gets the default. */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* A program's SIGHUP handler would turn a hangup before exec into
		 * a failed exec; nohup's SIG_IGN stays for the command. */
		if (sigaction(SIGHUP, NULL, &hup) == 0 && hup.sa_handler != SIG_IGN)
			signal(SIGHUP, SIG_DFL);
		/* only ftc may tell its guardian that it finished */
		ftc_journal_guard_forget();
		close(go[1]);
		close(err[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	w->go_fd = go[1];
	w->err_fd = err[0];
	w->pidfd = (int)syscall(SYS_pidfd_open, w->pid, 0);
	return 0;
}

struct ftc_workload *ftc_workload_spawn(char **argv)
{
	struct ftc_workload *w = calloc(1, sizeof(*w));

	if (!w) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	if (spawn(w, argv) < 0) {
		free(w);
		return NULL;
	}
	return w;
}

int ftc_workload_start(struct ftc_workload *w)
{
	int e = 0;
	ssize_t n;

	if (write(w->go_fd, "g", 1) != 1)
		return ftc_error(errno, "cannot start '%s': %s", w->argv0, strerror(errno));
	close(w->go_fd);
	w->go_fd = -1;
	/* The error pipe closes on a successful exec, or carries its errno.
	 * A signal (SIGCHLD, the user's SIGINT) must not pass for an exec. */
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		e = errno;
	close(w->err_fd);
	w->err_fd = -1;
	if (n < 0)
		return ftc_error(e, "cannot tell whether '%s' started: %s", w->argv0, strerror(e));
	if (n == (ssize_t)sizeof(e))
		return ftc_error(e, "cannot run '%s': %s", w->argv0, strerror(e));
	return 0;
}

bool ftc_workload_exited(const struct ftc_workload *w)
{
	siginfo_t info = { 0 };

	/* WNOWAIT: look without reaping, so reap still gets status and rusage. */
	if (!w || !w->pid)
		return true;
	if (waitid(P_PID, (id_t)w->pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
		return false;
	return info.si_pid == w->pid;
}

static void close_pipes(struct ftc_workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
}

void ftc_workload_reap(struct ftc_workload *w)
{
	if (!w)
		return;
	close_pipes(w);
	if (!w->pid)
		return;
	while (wait4(w->pid, &w->status, 0, &w->ru) < 0 && errno == EINTR)
		;
	if (w->pidfd >= 0)
		close(w->pidfd);
	w->pidfd = -1;
	w->pid = 0;
}

void ftc_workload_kill(struct ftc_workload *w)
{
	if (w && w->pid)
		kill(w->pid, SIGKILL);
	ftc_workload_reap(w);
}

void ftc_workload_free(struct ftc_workload *w)
{
	if (!w)
		return;
	close_pipes(w);
	if (w->pidfd >= 0)
		close(w->pidfd);
	free(w);
}

pid_t ftc_workload_pid(const struct ftc_workload *w)
{
	return w ? w->pid : 0;
}

int ftc_workload_pidfd(const struct ftc_workload *w)
{
	return w ? w->pidfd : -1;
}

const struct rusage *ftc_workload_rusage(const struct ftc_workload *w)
{
	return &w->ru;
}

int ftc_workload_exit_code(const struct ftc_workload *w)
{
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status))
		return 128 + WTERMSIG(w->status);
	return 1;
}
