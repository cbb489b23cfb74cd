// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the control layer's bookkeeping: trigger lines as the
 * kernel reads them back, the journal's save/restore and hist triggers'
 * text against a mock tracefs of plain files (the real kernel is tested
 * in tests/host).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-control.h"
#include "control.h"

static void check_trigger(const char *line, bool func, const char *readd, const char *rm)
{
	char name[256], *a = ftc_trigger_readd(line, func), *r = ftc_trigger_removal(line, func);

	snprintf(name, sizeof(name), "re-add '%s'", line);
	CHECK_STR(name, a, readd);
	snprintf(name, sizeof(name), "remove '%s'", line);
	CHECK_STR(name, r, rm);
	free(a);
	free(r);
}

static void triggers(void)
{
	check_trigger("traceon:unlimited", false, "traceon", "!traceon");
	check_trigger("traceoff:count=3 if prev_pid == 1", false, "traceoff:3 if prev_pid == 1",
		      "!traceoff");
	check_trigger("stacktrace:count=0", false, "stacktrace:0", "!stacktrace");
	check_trigger("enable_event:sched:sched_wakeup:count=2", false,
		      "enable_event:sched:sched_wakeup:2", "!enable_event:sched:sched_wakeup");
	check_trigger("disable_event:irq:softirq_entry:unlimited if vec == 1", false,
		      "disable_event:irq:softirq_entry if vec == 1",
		      "!disable_event:irq:softirq_entry");
	check_trigger("hist:keys=pid:vals=hitcount:sort=hitcount:size=2048 [active]", false,
		      "hist:keys=pid:vals=hitcount:sort=hitcount:size=2048",
		      "!hist:keys=pid:vals=hitcount:sort=hitcount:size=2048");
	/* a filtered hist trigger is removed only with its filter */
	check_trigger("hist:keys=bytes_req.log2:vals=hitcount:sort=hitcount:size=2048 "
		      "if bytes_req > 64 [paused]", false,
		      "hist:keys=bytes_req.log2:vals=hitcount:sort=hitcount:size=2048 "
		      "if bytes_req > 64",
		      "!hist:keys=bytes_req.log2:vals=hitcount:sort=hitcount:size=2048 "
		      "if bytes_req > 64");
	check_trigger("hist:keys=pid if comm == \"a [b]\"", false,
		      "hist:keys=pid if comm == \"a [b]\"",
		      "!hist:keys=pid if comm == \"a [b]\"");
	check_trigger("vfs_read:traceon:count=5", true, "vfs_read:traceon:5", "!vfs_read:traceon:0");
	check_trigger("ksys_write:traceon:unlimited", true, "ksys_write:traceon",
		      "!ksys_write:traceon");
	check_trigger("do_sys_openat2:enable_event:sched:sched_switch:count=1", true,
		      "do_sys_openat2:enable_event:sched:sched_switch:1",
		      "!do_sys_openat2:enable_event:sched:sched_switch:0");
	check_trigger("!vfs_read:traceoff:3", true, "vfs_read:traceoff:3", "!vfs_read:traceoff:0");
	check_trigger("vfs_read:dump", true, "vfs_read:dump", "!vfs_read:dump");
	/* a module's function reads back with its module (6.1) */
	check_trigger("ftclab_step_b [ftclab]:traceon:count=0", true, "ftclab_step_b:traceon:0",
		      "!ftclab_step_b:traceon:0");
	CHECK("func trigger", ftc_is_func_trigger("vfs_read:traceon"));
	CHECK("mod filter is no trigger", !ftc_is_func_trigger("*:mod:ext4"));
	CHECK("plain filter is no trigger", !ftc_is_func_trigger("vfs_read"));
	CHECK("regex", ftc_is_regex("^vfs_(read|write)$") && !ftc_is_regex("do_sys_open*"));
}

static char *get(const char *file)
{
	char *v = NULL;

	if (ftc_knob_read(NULL, file, &v) < 0)
		return strdup("(unreadable)");
	return v;
}

/* A mock tracefs in a new directory from template dir: events/sched/sched_switch. */
static char *mock_tracefs(char *dir)
{
	char path[600];

	if (!mkdtemp(dir))
		return NULL;
	snprintf(path, sizeof(path), "%s/events", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/sched", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", dir);
	mkdir(path, 0700);
	return dir;
}

static void journal(void)
{
	char dir[] = "/tmp/ftc-unit-XXXXXX", path[600];
	struct ftc_state *st;
	char *v;

	if (!mock_tracefs(dir)) {
		SKIP("journal", "cannot make a temporary directory");
		return;
	}
	check_put_file(dir, "trace_clock", "[local] global counter\n");
	check_put_file(dir, "tracing_on", "1\n");
	check_put_file(dir, "max_graph_depth", "0\n");
	check_put_file(dir, "buffer_size_kb", "7 (expanded: 1410)\n");
	check_put_file(dir, "set_event", "sched:sched_wakeup\nirq:softirq_entry\n");
	check_put_file(dir, "set_event_pid", "");
	check_put_file(dir, "events/sched/sched_switch/filter", "none\n");
	if (tracefs_set_tracing_dir(dir) < 0) {
		SKIP("journal", "libtracefs cannot use a mock directory");
		return;
	}
	st = ftc_state_new();
	CHECK("write clock", ftc_knob_write(st, NULL, "trace_clock", "global") == 0);
	CHECK("write tracing_on", ftc_knob_write(st, NULL, "tracing_on", "0") == 0);
	/* Three distinct values: restoring in the wrong order leaves 5,
	 * not restoring leaves 9; only newest-first gives back 0. */
	CHECK("write a knob", ftc_knob_write(st, NULL, "max_graph_depth", "5") == 0);
	CHECK("write it twice", ftc_knob_write(st, NULL, "max_graph_depth", "9") == 0);
	CHECK("write buffer", ftc_knob_write(st, NULL, "buffer_size_kb", "300") == 0);
	CHECK("append set_event", ftc_knob_append(st, NULL, "set_event", "sched:sched_switch") == 0);
	CHECK("write pid", ftc_knob_write(st, NULL, "set_event_pid", "42") == 0);
	CHECK("write filter", ftc_knob_write(st, NULL, "events/sched/sched_switch/filter",
					     "prev_pid == 1") == 0);
	CHECK("save before an indirect change", ftc_knob_save(st, NULL, "set_event_pid") == 0);
	CHECK("indirect change", ftc_knob_set(NULL, "set_event_pid", "7", false) == 0);
	CHECK("journal counts writes", ftc_state_count(st) == 9);
	CHECK("absent knob fails", ftc_knob_write(st, NULL, "no_such_knob", "1") < 0 &&
	      errno == ENOENT && strstr(ftc_strerror(), "no_such_knob"));
	CHECK("restore", ftc_state_restore(st) == 0);
	CHECK("journal empty after restore", ftc_state_count(st) == 0);
	v = get("trace_clock");
	CHECK_STR("clock restored by name", v, "local");
	free(v);
	v = get("tracing_on");
	CHECK_STR("tracing_on restored", v, "1");
	free(v);
	v = get("max_graph_depth");
	CHECK_STR("knob written twice gets the first old value", v, "0");
	free(v);
	v = get("buffer_size_kb");
	CHECK_STR("buffer size restored expanded", v, "1410");
	free(v);
	v = get("set_event");
	CHECK_STR("list restored", v, "sched:sched_wakeup\nirq:softirq_entry");
	free(v);
	v = get("set_event_pid");
	CHECK_STR("empty list restored empty", v, "");
	free(v);
	v = get("events/sched/sched_switch/filter");
	CHECK_STR("filter none restored with 0", v, "0");
	free(v);
	ftc_state_free(st);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		printf("# could not remove %s\n", dir);
}

static const char switch_format[] =
	"name: sched_switch\nID: 316\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t next_pid;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid\n";

/* ftc_hist_compose's result for keys/values/sort, or NULL; fault filled. */
static char *compose(const char *const *keys, size_t nk, const char *const *vals, size_t nv,
		     const char *const *sort, size_t ns, struct ftc_hist_fault *f)
{
	struct ftc_hist_opts o = FTC_OPTS_INIT(ftc_hist_opts, .keys = keys, .nkeys = nk,
					       .values = vals, .nvalues = nv, .sort = sort,
					       .nsort = ns, .entries = 2048,
					       .filter = "prev_pid > 1");
	char *start, *pause;

	if (ftc_hist_compose("sched", "sched_switch", &o, &start, &pause, f) < 0)
		return NULL;
	free(pause);
	return start;
}

/* A mistake in the request: NULL, the fault pointing at it and the message. */
static void check_mistake(const char *name, const char *const *keys, size_t nk,
			  const char *const *vals, size_t nv, const char *const *sort, size_t ns,
			  int list, size_t index, const char *msg)
{
	struct ftc_hist_fault f = { .list = -1 };
	char *start = compose(keys, nk, vals, nv, sort, ns, &f);

	CHECK(name, !start && errno == EINVAL && f.list == list && f.index == index &&
	      strstr(ftc_strerror(), msg));
	if (f.list != list || !strstr(ftc_strerror(), msg))
		printf("# list %d index %zu: %s\n", f.list, f.index, ftc_strerror());
	free(start);
}

static void hist(void)
{
	char dir[] = "/tmp/ftc-unit-XXXXXX", path[600];
	const char *keys[] = { "prev_pid.execname", "next_pid" }, *vals[] = { "prev_prio" };
	const char *sort[] = { "hitcount.descending", "prev_pid" }, *bad[] = { "prev_pid.bogus" };
	const char *three[] = { "hitcount", "prev_pid", "next_pid" }, *nokey[] = { "nope" };
	struct ftc_hist_opts o = FTC_OPTS_INIT(ftc_hist_opts, .keys = keys, .nkeys = 1);
	struct ftc_hist_fault f = { .list = -1 };
	char *start = NULL, *pause = NULL;

	if (!mock_tracefs(dir)) {
		SKIP("hist", "cannot make a temporary directory");
		return;
	}
	check_put_file(dir, "events/sched/sched_switch/format", switch_format);
	if (tracefs_set_tracing_dir(dir) < 0) {
		SKIP("hist", "libtracefs cannot use a mock directory");
		return;
	}
	CHECK("hist: NULL options are refused, not a mistake of the request",
	      ftc_hist_compose("sched", "sched_switch", NULL, &start, &pause, &f) < 0 &&
	      errno == EINVAL && f.list == FTC_HIST_NONE && !start && !pause);
	start = compose(keys, 2, vals, 1, sort, 2, &f);
	CHECK_STR("hist: keys, values, sort, size and filter composed", start,
		  "hist:keys=prev_pid.execname,next_pid:vals=prev_prio:"
		  "sort=hitcount.descending,prev_pid:size=2048 if prev_pid > 1");
	free(start);
	CHECK("hist: its pause", ftc_hist_compose("sched", "sched_switch", &o, &start, &pause,
						  NULL) == 0 && strstr(pause, ":pause"));
	free(start);
	free(pause);
	check_mistake("hist: an unknown key type names the types", bad, 1, NULL, 0, NULL, 0,
		      FTC_HIST_KEYS, 0, "unknown key type '.bogus' (sym, sym-offset, hex, "
		      "execname, syscall, log2, usecs or buckets=N)");
	check_mistake("hist: a field the event lacks", keys, 1, nokey, 1, NULL, 0,
		      FTC_HIST_VALUES, 0, "sched:sched_switch has no field 'nope'");
	check_mistake("hist: a sort key that is no key", keys, 1, NULL, 0, nokey, 1,
		      FTC_HIST_SORT, 0, "not hitcount, nor one of the keys or values");
	check_mistake("hist: a third sort key", keys, 2, NULL, 0, three, 3, FTC_HIST_SORT, 2,
		      "two keys at most");
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/format", dir);
	unlink(path);
	check_mistake("hist: an unreadable format is a failure, not a mistake", keys, 1, NULL, 0,
		      NULL, 0, FTC_HIST_NONE, 0, "events/sched/sched_switch/format: cannot read");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		printf("# could not remove %s\n", dir);
}

/* Journals are looked for where the program says, and only there. */
static void journal_dirs(void)
{
	char dir[] = "/tmp/ftc-unit-XXXXXX", path[600];
	const char *dirs[FTC_JOURNAL_DIRS_MAX + 1] = { dir };
	struct ftc_journal_info *list;
	size_t n = 0;
	FILE *f;

	if (!mkdtemp(dir)) {
		SKIP("journal directories", "cannot make a temporary directory");
		return;
	}
	CHECK("too many journal directories refused",
	      ftc_journal_set_dirs(dirs, FTC_JOURNAL_DIRS_MAX + 1) < 0 && errno == EINVAL);
	CHECK("an empty journal directory refused",
	      ftc_journal_set_dirs((const char *[]){ "" }, 1) < 0 && errno == EINVAL);
	CHECK("journal directory set", ftc_journal_set_dirs(dirs, 1) == 0);
	CHECK("no journal there yet", ftc_journals_find(&list, &n) == 0 && n == 0);
	ftc_journals_free(list, n);
	snprintf(path, sizeof(path), "%s/journal.1", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("not a journal\n", f);
		fclose(f);
	}
	CHECK("a journal there is found", ftc_journals_find(&list, &n) == 0 && n == 1);
	CHECK_STR("found in the directory set", n == 1 ? list[0].path : NULL, path);
	CHECK("a damaged journal says why", n == 1 && list[0].error != NULL);
	ftc_journals_free(list, n);
	CHECK("the default put back", ftc_journal_set_dirs(NULL, 0) == 0);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	triggers();
	journal();
	hist();
	journal_dirs();
	return CHECK_DONE();
}
