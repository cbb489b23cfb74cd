// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the held workload: a failed exec is reported even when a
 * signal interrupts the wait for it, and a failed fork leaks no pipe.
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
	struct ftc_workload w;
	int ret;

	if (ftc_workload_spawn(&w, argv) < 0) {
		SKIP("an interrupted wait still sees the failed exec", ftc_strerror());
		return;
	}
	/* Stopped, the child cannot exec before the signal reaches us. */
	stopped_child = w.pid;
	kill(w.pid, SIGSTOP);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &t, NULL);
	ret = ftc_workload_start(&w);
	CHECK("an interrupted wait still sees the failed exec", ret < 0 && errno == ENOENT);
	signal(SIGALRM, SIG_DFL);
	ftc_workload_kill(&w);
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
	struct ftc_workload w;
	int before;

	/* root ignores RLIMIT_NPROC: become nobody first */
	if (setrlimit(RLIMIT_NPROC, &none) < 0 || (getuid() == 0 && setuid(65534) < 0))
		return 2;
	before = open_fds();
	if (ftc_workload_spawn(&w, argv) == 0)
		return 3;
	if (open_fds() != before)
		return 5;
	if (w.pid != 0)
		return 4;
	ftc_workload_kill(&w);
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
	CHECK("a failed fork resets the pid", WEXITSTATUS(status) != 4);
	CHECK("a failed fork leaks no pipe", WEXITSTATUS(status) != 5);
}

int main(void)
{
	test_eintr();
	test_fork_failure();
	return CHECK_DONE();
}
