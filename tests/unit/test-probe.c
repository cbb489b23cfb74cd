// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Capability names, states and the word matching that reads the kernel's
 * trigger list; then one real probe of this kernel, checked against what
 * the kernel answers when asked directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-probe.h"
#include "ftc-tracefs-info.h"
#include "probe.h"

static void test_names(void)
{
	int dup = 0, roundtrip = 1;

	for (int i = 0; i < FTC_CAP_COUNT; i++) {
		if (ftc_cap_lookup(ftc_cap_name(i)) != i)
			roundtrip = 0;
		for (int j = 0; j < i; j++)
			if (!strcmp(ftc_cap_name(i), ftc_cap_name(j)))
				dup++;
	}
	CHECK("every capability name looks up to itself", roundtrip);
	CHECK("capability names are unique", dup == 0);
	CHECK("an unknown name is -1/EINVAL", ftc_cap_lookup("no-such") == -1 && errno == EINVAL);
	CHECK("NULL name is -1", ftc_cap_lookup(NULL) == -1);
	CHECK_STR("id past the end has a name", ftc_cap_name(FTC_CAP_COUNT), "unknown");
	CHECK_STR("state ok", ftc_cap_state_name(FTC_CAP_OK), "ok");
	CHECK_STR("state refused", ftc_cap_state_name(FTC_CAP_REFUSED), "refused");
	CHECK_STR("state absent", ftc_cap_state_name(FTC_CAP_ABSENT), "absent");
	CHECK_STR("perf-hardware's name", ftc_cap_name(FTC_CAP_PERF_HARDWARE), "perf-hardware");
}

static void test_words(void)
{
	/* The trigger file's list as 6.1 (with hist) and 6.18 here show it. */
	const char *with_hist = "# Available triggers:\n# traceon traceoff snapshot stacktrace "
				"enable_event disable_event enable_hist disable_hist hist\n";
	const char *no_hist = "# Available triggers:\n# traceon traceoff stacktrace "
			      "enable_event disable_event enable_hist\n";

	CHECK("hist found as a word", ftc_probe_word_in(with_hist, "hist"));
	CHECK("enable_hist is not hist", !ftc_probe_word_in(no_hist, "hist"));
	CHECK("snapshot found", ftc_probe_word_in(with_hist, "snapshot"));
	CHECK("snapshot absent", !ftc_probe_word_in(no_hist, "snapshot"));
	CHECK("first word", ftc_probe_word_in("function nop", "function"));
	CHECK("function_graph is not function",
	      !ftc_probe_word_in("function_graph nop", "function"));
	CHECK("bracketed current clock", ftc_probe_word_in("[local] global", "local"));
	CHECK("NULL list", !ftc_probe_word_in(NULL, "x"));
	/* An empty word once looped forever (ftc start -C ''): a hang here
	 * ends in SIGALRM, which fails the test instead of stalling tests/run. */
	alarm(5);
	CHECK("empty word in a list", !ftc_probe_word_in("function nop", ""));
	CHECK("empty word, empty list", !ftc_tracefs_word_in("", ""));
	CHECK("empty word in trace_clock", !ftc_tracefs_word_in("[local] global\n", ""));
	CHECK("last clock before the newline", ftc_tracefs_word_in("[local] global\n", "global"));
	CHECK("a prefix is not a word", !ftc_tracefs_word_in("[local] global\n", "glob"));
	alarm(0);
}

static void test_errno_mapping(void)
{
	struct ftc_cap c;

	ftc_cap_from_errno(&c, EPERM, "f");
	CHECK("EPERM is refused", c.state == FTC_CAP_REFUSED && c.err == EPERM);
	CHECK_STR("the reason ends with the errno text", c.why, "f: Operation not permitted");
	ftc_cap_from_errno(&c, ENOENT, "g");
	CHECK("ENOENT is absent", c.state == FTC_CAP_ABSENT);
	ftc_cap_from_errno(&c, EINVAL, "h");
	CHECK("EINVAL is refused", c.state == FTC_CAP_REFUSED);
	ftc_cap_from_errno(&c, 0, "i ok");
	CHECK("0 is ok, reason as given", c.state == FTC_CAP_OK && !strcmp(c.why, "i ok"));
}

static void test_option_defaults(void)
{
	CHECK("print-parent is on by default", ftc_info_option_default("print-parent", false) == 1);
	CHECK("sym-offset is off by default", ftc_info_option_default("sym-offset", true) == 0);
	CHECK("trace_printk_dest is on at the top level",
	      ftc_info_option_default("trace_printk_dest", true) == 1);
	CHECK("trace_printk_dest is off in an instance",
	      ftc_info_option_default("trace_printk_dest", false) == 0);
	CHECK("an unknown option has no default", ftc_info_option_default("zz-new", true) == -1);
}

/* The probe against the kernel asked directly, for what a direct ask can tell. */
static void test_real_kernel(void)
{
	struct ftc_cap c;
	char *path;
	int fd, err;

	if (!ftc_tracefs_dir() || geteuid() != 0) {
		SKIP("probe of the running kernel", "needs root and a mounted tracefs");
		return;
	}
	CHECK("an invalid id is -1", ftc_probe_one(NULL, FTC_CAP_COUNT, &c) == -1);
	CHECK("tracefs probes ok", ftc_probe_one(NULL, FTC_CAP_TRACEFS, &c) == 0 &&
	      c.state == FTC_CAP_OK);
	path = ftc_tracefs_path(NULL, "set_ftrace_filter");
	fd = path ? open(path, O_RDONLY) : -1;
	err = errno;
	ftc_probe_one(NULL, FTC_CAP_FTRACE_FILTER, &c);
	if (fd >= 0) {
		CHECK("set_ftrace_filter readable: the probe does not say refused-by-read",
		      c.state == FTC_CAP_OK || !strstr(c.why, "reading"));
		close(fd);
	} else if (err == ENOENT) {
		CHECK("set_ftrace_filter missing: absent", c.state == FTC_CAP_ABSENT);
	} else {
		CHECK("set_ftrace_filter refused when read: refused", c.state == FTC_CAP_REFUSED &&
		      c.err == err);
	}
	free(path);
	ftc_probe_one(NULL, FTC_CAP_FTRACE_ENABLED, &c);
	CHECK("ftrace_enabled is probed by writing its value back",
	      strstr(c.why, "/proc/sys/kernel/ftrace_enabled") != NULL);
}

/* The info readers against the files they read. */
static void test_info(void)
{
	char **list, *cur = NULL, *clock_file = NULL;

	if (!ftc_tracefs_dir() || geteuid() != 0) {
		SKIP("info readers on the running kernel", "needs root and a mounted tracefs");
		return;
	}
	list = ftc_info_events("sched:sched_switch");
	CHECK("one event matches system:event", ftc_list_count(list) == 1 &&
	      !strcmp(list[0], "sched:sched_switch"));
	ftc_list_free(list);
	list = ftc_info_events("no_such_system_xyz");
	CHECK("no match is an empty list, not NULL", list && !list[0]);
	ftc_list_free(list);
	list = ftc_info_clocks(NULL, &cur);
	clock_file = ftc_info_value(NULL, "trace_clock");
	if (cur && clock_file) {
		char want[80];

		snprintf(want, sizeof(want), "[%s]", cur);
		CHECK("the current clock is the bracketed one", strstr(clock_file, want) != NULL);
	} else {
		CHECK("the current clock is found", 0);
	}
	CHECK("no brackets left in the clock list", list && list[0] && !strchr(list[0], '['));
	free(cur);
	free(clock_file);
	ftc_list_free(list);
	ftc_list_free(NULL);
	CHECK("a missing file is NULL with ENOENT", !ftc_info_value(NULL, "no_such_file") &&
	      errno == ENOENT && strstr(ftc_strerror(), "no_such_file"));
}

int main(void)
{
	test_names();
	test_words();
	test_errno_mapping();
	test_option_defaults();
	test_real_kernel();
	test_info();
	return CHECK_DONE();
}
