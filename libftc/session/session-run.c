// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a session runs or watches, and the wait for its end: the command
 * released once everything is on, or processes already running that it
 * attached to. The caller owns the signals: its stop descriptor (a
 * signal pipe) ends a wait, and it decides whether to pass a signal on.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "session.h"
#include "ftc.h"
#include "tracefs-layer.h"

/* How often an end no descriptor announces is looked for (old kernels, threads). */
#define POLL_SLICE_NS 20000000LL

int ftc_session_set_command(struct ftc_session *s, struct ftc_workload *w)
{
	if (s->recording)
		return ftc_error(EBUSY, "the session is recording: its command is set for good");
	s->command = w;
	s->released = s->forwarded = false;
	return 0;
}

int ftc_session_attach(struct ftc_session *s, pid_t id)
{
	struct ftc_session_target *t;

	if (id <= 0 || !ftc_task_running(id, NULL))
		return ftc_error(ESRCH, "no process or thread %d (/proc/%d/stat)", (int)id, (int)id);
	t = realloc(s->targets, (s->ntargets + 1) * sizeof(*t));
	if (!t)
		return ftc_error(ENOMEM, "out of memory");
	s->targets = t;
	t = &s->targets[s->ntargets++];
	t->id = id;
	t->ended = false;
	/* A thread other than a leader has none before 6.9: it is looked for instead. */
	t->pidfd = (int)syscall(SYS_pidfd_open, id, 0);
	return 0;
}

int ftc_session_release(struct ftc_session *s)
{
	if (!s->command || s->released)
		return 0;
	if (ftc_workload_start(s->command) < 0) {
		s->stage = FTC_SESSION_STAGE_EXEC;
		return -1;
	}
	s->released = true;
	return 0;
}

int ftc_session_forward(struct ftc_session *s, int sig)
{
	pid_t pid = s->released ? ftc_workload_pid(s->command) : 0;

	if (!pid || s->forwarded)
		return 0;
	s->forwarded = true;
	if (kill(pid, sig) < 0 && errno != ESRCH)
		return ftc_error(errno, "kill %d: %s", (int)pid, strerror(errno));
	return 1;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The command ended (and is reaped), or every attached process did. */
static bool ended(struct ftc_session *s)
{
	size_t alive = 0;

	if (s->command && s->released) {
		if (!ftc_workload_pid(s->command))
			return true;
		if (ftc_workload_exited(s->command)) {
			ftc_workload_reap(s->command);
			return true;
		}
		return false;
	}
	for (size_t i = 0; i < s->ntargets; i++) {
		struct ftc_session_target *t = &s->targets[i];

		if (!t->ended && t->pidfd >= 0) {
			struct pollfd p = { .fd = t->pidfd, .events = POLLIN };

			t->ended = poll(&p, 1, 0) > 0;
		} else if (!t->ended) {
			t->ended = !ftc_task_running(t->id, NULL);
		}
		alive += !t->ended;
	}
	return s->ntargets && !alive;
}

/* The descriptors to sleep on; *slice: whether some end must be looked for. */
static nfds_t watch_fds(struct ftc_session *s, int stop_fd, struct pollfd *p, bool *slice)
{
	nfds_t n = 0;
	int fd;

	*slice = false;
	if (stop_fd >= 0)
		p[n++] = (struct pollfd){ .fd = stop_fd, .events = POLLIN };
	if (s->command && s->released) {
		fd = ftc_workload_pidfd(s->command);
		if (fd >= 0)
			p[n++] = (struct pollfd){ .fd = fd, .events = POLLIN };
		*slice = fd < 0;
		return n;
	}
	for (size_t i = 0; i < s->ntargets; i++) {
		if (s->targets[i].ended)
			continue;
		if (s->targets[i].pidfd >= 0)
			p[n++] = (struct pollfd){ .fd = s->targets[i].pidfd, .events = POLLIN };
		else
			*slice = true;
	}
	return n;
}

static int sleep_once(struct ftc_session *s, int stop_fd, long long ns)
{
	struct pollfd *p = calloc(s->ntargets + 2, sizeof(*p));
	struct timespec ts;
	bool slice;
	nfds_t n;
	int r, err;

	if (!p)
		return ftc_error(ENOMEM, "out of memory");
	n = watch_fds(s, stop_fd, p, &slice);
	if (slice && (ns < 0 || ns > POLL_SLICE_NS))
		ns = POLL_SLICE_NS;
	ts.tv_sec = (time_t)(ns / 1000000000LL);
	ts.tv_nsec = (long)(ns % 1000000000LL);
	r = ppoll(p, n, ns < 0 ? NULL : &ts, NULL);
	err = errno;
	if (r > 0 && stop_fd >= 0 && p[0].revents)
		r = FTC_SESSION_WAKE_STOP;
	else if (r < 0 && err == EINTR)
		r = FTC_SESSION_WAKE_SIGNAL;
	else if (r >= 0)
		r = FTC_SESSION_WAKE_TIMEOUT;	/* look again */
	free(p);
	if (r < 0)
		return ftc_error(err, "poll: %s", strerror(err));
	return r;
}

/*
 * A task that has exited (its parent is told, it may be reaped) still runs
 * to its last switch, and on a busy or emulated machine the capture could
 * stop before that switch is written. Running on each CPU in turn makes
 * each one schedule once after the end was seen, so the task's last
 * switch is in the buffers before tracing stops. Best effort: a CPU this
 * process may not run on is passed over.
 */
static void visit_every_cpu(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t size;
	cpu_set_t *was, *one;

	if (ncpu <= 1)
		return;
	size = CPU_ALLOC_SIZE(ncpu);
	was = CPU_ALLOC(ncpu);
	one = CPU_ALLOC(ncpu);
	if (was && one && !sched_getaffinity(0, size, was)) {
		for (long c = 0; c < ncpu; c++) {
			if (!CPU_ISSET_S(c, size, was))
				continue;
			CPU_ZERO_S(size, one);
			CPU_SET_S(c, size, one);
			sched_setaffinity(0, size, one);
		}
		sched_setaffinity(0, size, was);
	}
	CPU_FREE(was);
	CPU_FREE(one);
}

int ftc_session_wait(struct ftc_session *s, int stop_fd, long long timeout_ns)
{
	long long deadline = timeout_ns < 0 ? -1 : now_ns() + timeout_ns;

	for (;;) {
		long long left = deadline < 0 ? -1 : deadline - now_ns();
		int r;

		if (s->cap && ftc_capture_failed(s->cap))
			return FTC_SESSION_WAKE_FAILED;
		if (ended(s)) {
			visit_every_cpu();
			return FTC_SESSION_WAKE_ENDED;
		}
		if (deadline >= 0 && left <= 0)
			return FTC_SESSION_WAKE_TIMEOUT;
		r = sleep_once(s, stop_fd, left);
		if (r != FTC_SESSION_WAKE_TIMEOUT)
			return r;
	}
}

void ftc_session_run_free(struct ftc_session *s)
{
	for (size_t i = 0; i < s->ntargets; i++)
		if (s->targets[i].pidfd >= 0)
			close(s->targets[i].pidfd);
	free(s->targets);
	s->targets = NULL;
	s->ntargets = 0;
}
