// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of a session's description (libftc/session/session-spec.c):
 * what each setting refuses before tracefs is touched, how sections open,
 * and which sections a followed command's pid goes to. Applying it is
 * tested against the kernel (tests/host: record, start, stream, top; the
 * lab: function_graph through Documentation/examples/ftc-graph.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

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

int main(void)
{
	test_sections();
	test_values();
	test_follow();
	test_record_opts();
	ftc_session_free(NULL);
	return CHECK_DONE();
}
