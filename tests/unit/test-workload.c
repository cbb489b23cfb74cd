// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the held workload: a failed exec is reported even when a
 * signal interrupts the wait for it, a failed fork leaks no pipe, and the
 * accessors say what a program needs (pid, pidfd, exit code, rusage).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-perf.h"

static pid_t stopped_child;

/* Interrupts the parent's read, then lets the child go on to fail exec. */
static void on_alarm(int sig)
{
	(void)sig;
	kill(stopped_child, SIGCONT);
}

static void test_eintr(void)
{
	char *argv[] = { "/nonexistent/ftc-test-no-such-program", NULL };
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval t = { .it_value = { 0, 200000 } };
	struct ftc_workload *w = ftc_workload_spawn(argv);
	int ret;

	if (!w) {
		SKIP("an interrupted wait still sees the failed exec", ftc_strerror());
		return;
	}
	/* Stopped, the child cannot exec before the signal reaches us. */
	stopped_child = ftc_workload_pid(w);
	kill(stopped_child, SIGSTOP);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &t, NULL);
	ret = ftc_workload_start(w);
	CHECK("an interrupted wait still sees the failed exec", ret < 0 && errno == ENOENT);
	signal(SIGALRM, SIG_DFL);
	ftc_workload_kill(w);
	/* 127 from the failed exec, or 137 when the kill came first */
	CHECK("killed and reaped: no pid, no pidfd", ftc_workload_pid(w) == 0 &&
	      ftc_workload_pidfd(w) == -1 && ftc_workload_exit_code(w) >= 127);
	ftc_workload_free(w);
}

/* The accessors of a command that runs and exits: pid, pidfd, status, rusage. */
static void test_accessors(void)
{
	char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exit 3",
			 NULL };
	struct ftc_workload *w = ftc_workload_spawn(argv);
	const struct rusage *ru;
	pid_t pid;

	if (!w) {
		SKIP("workload accessors", ftc_strerror());
		return;
	}
	pid = ftc_workload_pid(w);
	CHECK("a held command has a pid and is not done", pid > 0 && !ftc_workload_exited(w));
	if (ftc_workload_pidfd(w) < 0)
		SKIP("a pidfd while it runs", "no pidfd_open on this kernel");
	else
		CHECK("a pidfd while it runs", ftc_workload_pidfd(w) >= 0);
	CHECK("released", ftc_workload_start(w) == 0);
	ftc_workload_reap(w);
	ru = ftc_workload_rusage(w);
	CHECK("reaped: pid 0, pidfd -1", ftc_workload_pid(w) == 0 && ftc_workload_pidfd(w) == -1);
	CHECK("its exit code", ftc_workload_exit_code(w) == 3);
	CHECK("its CPU time in the rusage", ru && (ru->ru_utime.tv_sec || ru->ru_utime.tv_usec ||
						    ru->ru_stime.tv_sec || ru->ru_stime.tv_usec));
	ftc_workload_free(w);
	/* NULL is no command: nothing to reap, kill or free. */
	ftc_workload_reap(NULL);
	ftc_workload_kill(NULL);
	ftc_workload_free(NULL);
	CHECK("NULL is no command", ftc_workload_pid(NULL) == 0 &&
	      ftc_workload_pidfd(NULL) == -1 && ftc_workload_exited(NULL));
}

static int open_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

/* In a child that cannot fork: 0 when the spawn failed cleanly. */
static int fork_fails_cleanly(void)
{
	char *argv[] = { "true", NULL };
	struct rlimit none = { 0, 0 };
	struct ftc_workload *w;
	int before, err;

	/* root ignores RLIMIT_NPROC: become nobody first */
	if (setrlimit(RLIMIT_NPROC, &none) < 0 || (getuid() == 0 && setuid(65534) < 0))
		return 2;
	before = open_fds();
	w = ftc_workload_spawn(argv);
	err = errno;
	if (w) {
		ftc_workload_kill(w);
		ftc_workload_free(w);
		return 3;
	}
	if (open_fds() != before)
		return 5;
	if (err != EAGAIN || !strstr(ftc_strerror(), "fork"))
		return 4;
	return 0;
}

static void test_fork_failure(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fork_fails_cleanly());
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		SKIP("a failed fork leaks no pipe", "cannot run the test process");
		return;
	}
	if (WEXITSTATUS(status) == 2 || WEXITSTATUS(status) == 3) {
		SKIP("a failed fork leaks no pipe", "cannot make fork fail here (RLIMIT_NPROC)");
		return;
	}
	CHECK("a failed fork says fork's errno", WEXITSTATUS(status) != 4);
	CHECK("a failed fork leaks no pipe", WEXITSTATUS(status) != 5);
}

int main(void)
{
	test_eintr();
	test_accessors();
	test_fork_failure();
	return CHECK_DONE();
}
