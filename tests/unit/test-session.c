// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of a session's description (libftc/session/session-spec.c):
 * what each setting refuses before tracefs is touched, how sections open,
 * and which sections a followed command's pid goes to. Applying it is
 * tested against the kernel (tests/host: record, start, stream, top; the
 * lab: function_graph through Documentation/examples/ftc-graph.c).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "session.h"

static bool says(const char *what)
{
	return strstr(ftc_strerror(), what) != NULL;
}

static void test_sections(void)
{
	struct ftc_session *s = ftc_session_new();

	CHECK("a new session has one section, the top level",
	      s && ftc_session_count(s) == 1 && !ftc_session_instance_at(s, 0));
	CHECK("and asks for nothing", s && ftc_session_empty(s));
	CHECK("the first name names the first section",
	      !ftc_session_instance(s, "a") && ftc_session_count(s) == 1 &&
	      !strcmp(ftc_session_instance_at(s, 0), "a"));
	CHECK("the next one opens a second", !ftc_session_instance(s, "b") &&
	      ftc_session_count(s) == 2 && !strcmp(ftc_session_instance_at(s, 1), "b"));
	CHECK("a name given twice is refused",
	      ftc_session_instance(s, "a") < 0 && errno == EEXIST && says("already given"));
	CHECK("a name with a slash is refused", ftc_session_instance(s, "x/y") < 0 &&
	      errno == EINVAL && ftc_session_count(s) == 2);
	CHECK("a named section is not empty", !ftc_session_empty(s));
	CHECK("out of range is the top level", !ftc_session_instance_at(s, 9));
	ftc_session_free(s);
}

static void test_values(void)
{
	struct ftc_session *s = ftc_session_new();

	CHECK("a filter needs an event first",
	      ftc_session_set(s, FTC_SESSION_EVENT_FILTER, "pid == 1") < 0 &&
	      says("give the event first"));
	CHECK("a trigger too", ftc_session_set(s, FTC_SESSION_EVENT_TRIGGER, "traceoff") < 0);
	CHECK("an event", !ftc_session_set(s, FTC_SESSION_EVENT, "sched:sched_switch"));
	CHECK("a half-typed filter is refused",
	      ftc_session_set(s, FTC_SESSION_EVENT_FILTER, "prev_pid ==") < 0);
	CHECK("a whole one is taken", !ftc_session_set(s, FTC_SESSION_EVENT_FILTER, "prev_pid == 1"));
	CHECK("a second filter for the same event is refused",
	      ftc_session_set(s, FTC_SESSION_EVENT_FILTER, "prev_pid == 2") < 0 &&
	      says("already has a filter"));
	CHECK("a CPU mask must be hex", ftc_session_set(s, FTC_SESSION_CPUMASK, "0-1") < 0 &&
	      !ftc_session_set(s, FTC_SESSION_CPUMASK, "3"));
	CHECK("a function trigger has a command",
	      ftc_session_set(s, FTC_SESSION_FUNC_TRIGGER, "vfs_read") < 0 &&
	      !ftc_session_set(s, FTC_SESSION_FUNC_TRIGGER, "vfs_read:traceoff:5"));
	CHECK("a probe spec is parsed when given",
	      ftc_session_set(s, FTC_SESSION_PROBE, "") < 0 &&
	      !ftc_session_set(s, FTC_SESSION_PROBE, "/bin/true:main"));
	CHECK("a buffer size of 0 is refused",
	      ftc_session_set_number(s, FTC_SESSION_BUFFER_KB, 0) < 0 &&
	      !ftc_session_set_number(s, FTC_SESSION_BUFFER_KB, 1024));
	CHECK("a graph depth of 0 means no limit",
	      !ftc_session_set_number(s, FTC_SESSION_MAX_GRAPH_DEPTH, 0) &&
	      s->secs[0]->has_max_depth && !s->secs[0]->max_depth);
	CHECK("no value is refused", ftc_session_set(s, FTC_SESSION_TRACER, NULL) < 0);
	CHECK("an unknown setting is refused", ftc_session_set(s, (enum ftc_session_knob)99, "x") < 0 &&
	      ftc_session_set_flag(s, (enum ftc_session_flag)99) < 0);
	ftc_session_free(s);
}

/* The pid goes where something is traced, or everywhere when nothing is. */
static void test_follow(void)
{
	struct ftc_session *s = ftc_session_new();

	ftc_session_instance(s, "quiet");
	ftc_session_set_number(s, FTC_SESSION_BUFFER_KB, 64);
	ftc_session_instance(s, "busy");
	ftc_session_set(s, FTC_SESSION_EVENT, "sched");
	ftc_session_set_flag(s, FTC_SESSION_EVENT_FORK);
	CHECK("follow", !ftc_session_follow(s, 42));
	CHECK("the traced section gets the pid", s->secs[1]->pids.n == 1 &&
	      !strcmp(s->secs[1]->pids.v[0], "42"));
	CHECK("the untraced one does not", !s->secs[0]->pids.n);
	ftc_session_free(s);

	s = ftc_session_new();
	ftc_session_instance(s, "a");
	ftc_session_instance(s, "b");
	ftc_session_set_flag(s, FTC_SESSION_EVENT_FORK);
	CHECK("with nothing traced every section gets it, children too",
	      !ftc_session_follow(s, 7) && s->secs[0]->pids.n == 1 && s->secs[1]->pids.n == 1 &&
	      s->secs[0]->event_fork);
	ftc_session_free(s);
}

static void test_record_opts(void)
{
	struct ftc_session *s = ftc_session_new();
	struct ftc_session_record_opts o = FTC_OPTS_INIT(ftc_session_record_opts,
							 .output = "/nonexistent/x.dat");

	o.size = 3;
	CHECK("record refuses options of size 3 before touching tracefs",
	      ftc_session_record_start(s, NULL, &o) < 0 && errno == EINVAL &&
	      says("struct ftc_session_record_opts: size 3 is too small"));
	o.size = sizeof(o);
	o.output = NULL;
	CHECK("and no output", ftc_session_record_start(s, NULL, &o) < 0 && says("no output"));
	CHECK("stop without a start does nothing", !ftc_session_record_stop(s));
	CHECK("nothing to count before a start", !ftc_session_writer(s) &&
	      !ftc_session_capture(s) && ftc_session_slots(s, 0, &(int){ 0 }, &(int){ 0 }) < 0);
	ftc_session_free(s);
}

#define MS 1000000LL

static double since_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

static void test_command(void)
{
	char *status3[] = { "sh", "-c", "exit 3", NULL };
	char *sleeper[] = { "sleep", "5", NULL };
	char *missing[] = { "/nonexistent/ftc-no-such-command", NULL };
	struct ftc_session *s = ftc_session_new();
	struct ftc_workload *w = ftc_workload_spawn(status3);
	struct timespec t0;

	CHECK("with nothing to run, release does nothing", !ftc_session_release(s));
	CHECK("nor wait anything but the time",
	      ftc_session_wait(s, -1, 10 * MS) == FTC_SESSION_WAKE_TIMEOUT);
	CHECK("a held command is not waited for before its release",
	      !ftc_session_set_command(s, w) &&
	      ftc_session_wait(s, -1, 10 * MS) == FTC_SESSION_WAKE_TIMEOUT &&
	      ftc_workload_pid(w) > 0);
	CHECK("released, it runs to its end, reaped, its status kept",
	      !ftc_session_release(s) && ftc_session_wait(s, -1, 5000 * MS) ==
	      FTC_SESSION_WAKE_ENDED && !ftc_workload_pid(w) && ftc_workload_exit_code(w) == 3);
	CHECK("a second release does nothing", !ftc_session_release(s));

	CHECK("another command once the first ended", !ftc_session_set_command(s, NULL));
	ftc_workload_free(w);
	w = ftc_workload_spawn(sleeper);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK("a long one: the wait gives up at its time",
	      !ftc_session_set_command(s, w) && !ftc_session_release(s) &&
	      ftc_session_wait(s, -1, 30 * MS) == FTC_SESSION_WAKE_TIMEOUT &&
	      since_ms(&t0) >= 29 && since_ms(&t0) < 2000);
	CHECK("a signal is passed on once", ftc_session_forward(s, SIGTERM) == 1 &&
	      ftc_session_forward(s, SIGKILL) == 0);
	CHECK("and the command ends by it", ftc_session_wait(s, -1, 5000 * MS) ==
	      FTC_SESSION_WAKE_ENDED && ftc_workload_exit_code(w) == 128 + SIGTERM);
	CHECK("nothing is passed on to an ended command", !ftc_session_forward(s, SIGTERM));
	ftc_session_set_command(s, NULL);
	ftc_workload_free(w);

	w = ftc_workload_spawn(missing);
	CHECK("a command that cannot run: release fails with exec's errno, stage EXEC",
	      w && !ftc_session_set_command(s, w) && ftc_session_release(s) < 0 &&
	      errno == ENOENT && ftc_session_stage(s) == FTC_SESSION_STAGE_EXEC);
	ftc_workload_reap(w);
	ftc_session_set_command(s, NULL);
	ftc_workload_free(w);
	ftc_session_free(s);
}

static void test_stop_fd(void)
{
	struct ftc_session *s = ftc_session_new();
	int p[2];

	if (pipe(p) < 0)
		return;
	CHECK("a quiet stop descriptor: the time ends the wait",
	      ftc_session_wait(s, p[0], 10 * MS) == FTC_SESSION_WAKE_TIMEOUT);
	CHECK("a readable one ends it at once, and again until drained",
	      write(p[1], "x", 1) == 1 && ftc_session_wait(s, p[0], -1) == FTC_SESSION_WAKE_STOP &&
	      ftc_session_wait(s, p[0], -1) == FTC_SESSION_WAKE_STOP);
	close(p[0]);
	close(p[1]);
	ftc_session_free(s);
}

static void *short_thread(void *arg)
{
	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	usleep(100 * 1000);
	return NULL;
}

static void test_attach(void)
{
	struct ftc_session *s = ftc_session_new();
	volatile pid_t tid = 0;
	pthread_t th;
	pid_t child;

	CHECK("a process that is not there is refused",
	      ftc_session_attach(s, 4194000) < 0 && errno == ESRCH && says("no process"));
	CHECK("as is pid 0", ftc_session_attach(s, 0) < 0 && errno == ESRCH);
	child = fork();
	if (child == 0) {
		usleep(150 * 1000);
		_exit(0);
	}
	CHECK("a running process is attached", child > 0 && !ftc_session_attach(s, child));
	CHECK("the wait runs while it does",
	      ftc_session_wait(s, -1, 20 * MS) == FTC_SESSION_WAKE_TIMEOUT);
	CHECK("and ends with it (a zombie has ended)",
	      ftc_session_wait(s, -1, 5000 * MS) == FTC_SESSION_WAKE_ENDED);
	waitpid(child, NULL, 0);
	ftc_session_free(s);

	/* A thread other than the leader has no pidfd before 6.9: it is looked for. */
	s = ftc_session_new();
	if (pthread_create(&th, NULL, short_thread, (void *)&tid))
		return;
	while (!tid)
		usleep(1000);
	CHECK("a thread is attached", !ftc_session_attach(s, tid));
	CHECK("the wait ends with the thread",
	      ftc_session_wait(s, -1, 5000 * MS) == FTC_SESSION_WAKE_ENDED);
	pthread_join(th, NULL);
	ftc_session_free(s);
}

int main(void)
{
	test_sections();
	test_values();
	test_follow();
	test_record_opts();
	test_command();
	test_stop_fd();
	test_attach();
	ftc_session_free(NULL);
	return CHECK_DONE();
}
