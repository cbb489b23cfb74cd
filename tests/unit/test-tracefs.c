// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tracefs layer against a mock tracefs directory (libtracefs is
 * pointed at it): whole and bounded reads, empty and missing files,
 * writes, listings, instance directories, list words, CPU masks and CPU
 * lists, and the metadata collection, through the public writer calls,
 * into a file the reader opens. Nothing here touches the real tracefs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>
#include <event-parse.h>

#include "check.h"
#include "fixture.h"
#include "ftc.h"
#include "meta.h"
#include "tracefs-layer.h"

static char top[] = "/tmp/ftc-unit-tracefs-XXXXXX";

static void put(const char *file, const char *text)
{
	check_put_file(top, file, text);
}

static void dir(const char *d)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", top, d);
	mkdir(path, 0700);
}

static char *get(const char *file)
{
	char path[600], *text = NULL;

	snprintf(path, sizeof(path), "%s/%s", top, file);
	ftc_path_read(path, &text, NULL);
	return text;
}

static void mock_tree(void)
{
	static const char *const dirs[] = {
		"events", "events/sched", "events/sched/sched_switch", "events/ftrace",
		"events/ftrace/function", "options", "per_cpu", "per_cpu/cpu0", "per_cpu/cpu1",
		"instances", "instances/one", "instances/one/per_cpu", "instances/one/per_cpu/cpu1",
	};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		dir(dirs[i]);
	put("events/enable", "0\n");
	put("events/sched/enable", "0\n");
	put("events/header_page", FIXTURE_HEADER_PAGE);
	put("events/header_event", "# compressed entry header\n\ttype_len    :    5 bits\n"
	    "\ttime_delta  :   27 bits\n\tarray       :   32 bits\n");
	put("events/sched/sched_switch/format", "name: sched_switch\nID: 316\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
	    "\tfield:int next_pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	    "print fmt: \"next_pid=%d\", REC->next_pid\n");
	put("events/sched/sched_switch/id", "316\n");
	put("events/ftrace/function/format", "name: function\nID: 1\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
	    "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \" %ps\", (void *)REC->ip\n");
	put("printk_formats", "");
	put("saved_cmdlines", "42 mock-task\n");
	put("trace_clock", "local [mono] global\n");
	put("instances/one/trace_clock", "[global] local\n");
	put("tracing_cpumask", "2\n");
	put("instances/one/tracing_cpumask", "00000000,00000001\n");
	put("set_event_pid", "");
	put("options/print-parent", "1\n");
	put("options/irq-info", "1\n");
	put("per_cpu/cpu0/stats", "entries: 3\noverrun: 0\n");
	put("per_cpu/cpu1/stats", "entries: 4\noverrun: 0\n");
	put("available_filter_functions", "first_func\nsecond_func [mod]\n");
}

static void reads(void)
{
	char *text = NULL;
	size_t len = 99;

	CHECK("read: a file",
	      ftc_tracefs_read(NULL, "saved_cmdlines", &text, &len) == 0 && len == 13 &&
	      !strcmp(text, "42 mock-task\n"));
	free(text);
	text = NULL;
	CHECK("read: an empty file is \"\", not a failure",
	      ftc_tracefs_read(NULL, "set_event_pid", &text, &len) == 0 && len == 0 &&
	      text && !*text);
	free(text);
	CHECK("read: a missing file names its path",
	      ftc_tracefs_read(NULL, "no_such_file", &text, NULL) < 0 && errno == ENOENT &&
	      strstr(ftc_strerror(), "/no_such_file: No such file"));
	CHECK("read: a missing instance names the path",
	      ftc_tracefs_read("nope", "trace_clock", &text, NULL) < 0 &&
	      strstr(ftc_strerror(), "instances/nope/trace_clock: "));
	CHECK("read: an instance's file",
	      ftc_tracefs_read("one", "trace_clock", &text, NULL) == 0 &&
	      !strcmp(text, "[global] local\n"));
	free(text);
	CHECK("read_max: at most max bytes",
	      ftc_tracefs_read_max(NULL, "available_filter_functions", 5, &text) == 0 &&
	      !strcmp(text, "first"));
	free(text);
	CHECK("read_max: -errno",
	      ftc_tracefs_read_max(NULL, "nothing", 5, &text) == -ENOENT && !text);
}

static void writes(void)
{
	char *text = NULL;

	CHECK("put: truncates", ftc_tracefs_put(NULL, "set_event_pid", "1 2", 3, false) == 0 &&
	      ftc_tracefs_put(NULL, "set_event_pid", "7", 1, false) == 0 &&
	      (text = get("set_event_pid")) && !strcmp(text, "7"));
	free(text);
	text = NULL;
	CHECK("put: appends", ftc_tracefs_put(NULL, "set_event_pid", " 8", 2, true) == 0 &&
	      (text = get("set_event_pid")) && !strcmp(text, "7 8"));
	free(text);
	CHECK("put: -errno for a missing instance",
	      ftc_tracefs_put("nope", "trace_clock", "x", 1, false) == -ENOENT);
	CHECK("exists: files and directories", ftc_tracefs_exists(NULL, "trace_clock") &&
	      ftc_tracefs_exists(NULL, "instances") && !ftc_tracefs_exists(NULL, "nope") &&
	      ftc_tracefs_exists("one", "trace_clock") && !ftc_tracefs_exists("nope", "x"));
	CHECK("is_dir: an event system", ftc_tracefs_is_dir(NULL, "events/sched") &&
	      !ftc_tracefs_is_dir(NULL, "events/enable"));
	CHECK("mkdir: a new instance, never an existing one",
	      ftc_tracefs_mkdir("two") == 0 && ftc_tracefs_mkdir("two") == -EEXIST &&
	      ftc_tracefs_rmdir("two") == 0 && !ftc_tracefs_exists("two", "."));
}

static void lists(void)
{
	char **names, *sel;
	int *cpus = NULL, n;

	n = ftc_tracefs_list(NULL, "options", &names);
	CHECK("list: sorted, without dot files", n == 2 && !strcmp(names[0], "irq-info") &&
	      !strcmp(names[1], "print-parent") && !names[2]);
	tracefs_list_free(names);
	CHECK("list: a missing directory", ftc_tracefs_list("one", "options", &names) < 0 &&
	      !names && strstr(ftc_strerror(), "instances/one/options"));
	n = ftc_info_percpu_cpus(NULL, &cpus);
	CHECK("per_cpu CPUs", n == 2 && cpus[0] == 0 && cpus[1] == 1);
	free(cpus);
	n = ftc_tracefs_cpumask_cpus(NULL, &cpus);
	CHECK("tracing_cpumask 2 is CPU 1", n == 1 && cpus[0] == 1);
	free(cpus);
	n = ftc_tracefs_cpumask_cpus("one", &cpus);
	CHECK("tracing_cpumask in groups", n == 1 && cpus[0] == 0);
	free(cpus);
	sel = ftc_cpumask_format((const int[]){ 0, 33, 1 }, 3);
	CHECK_STR("cpumask format", sel, "2,00000003");
	free(sel);
	CHECK("cpulist: ranges", ftc_cpulist_parse("0-1", &cpus) == 2 && cpus[1] == 1);
	free(cpus);
	CHECK("cpulist: a bad range", ftc_cpulist_parse("1-0", &cpus) < 0 && !cpus &&
	      strstr(ftc_strerror(), "bad CPU list '1-0'"));
	CHECK("words: whole words only", ftc_tracefs_word_in("local [mono] global", "mono") &&
	      ftc_tracefs_word_in("function nop", "nop") &&
	      !ftc_tracefs_word_in("function_graph nop", "function") &&
	      !ftc_tracefs_word_in("nop", ""));
	sel = ftc_tracefs_selected("local [mono] global\n");
	CHECK_STR("words: the selected one", sel, "mono");
	free(sel);
	CHECK("words: none selected", !ftc_tracefs_selected("local global") &&
	      !ftc_tracefs_selected("[] x"));
	sel = ftc_tracefs_clock("one");
	CHECK_STR("clock of an instance", sel, "global");
	free(sel);
}

/* The public writer calls read the mock's metadata and stats. */
static void capture_meta(void)
{
	char path[] = "/tmp/ftc-unit-tracefs-dat-XXXXXX";
	const int cpus[] = { 0, 1 };
	struct ftc_writer *w;
	struct ftc_reader *r = NULL;
	struct ftc_meta m;
	int fd = mkstemp(path);

	CHECK("meta: collected from the mock", ftc_meta_collect(&m, NULL) == 0 &&
	      m.nsystems == 1 && !strcmp(m.systems[0].name, "sched") &&
	      m.systems[0].nformats == 1 && m.ftrace.nformats == 1 &&
	      !strcmp(m.trace_clock, "local [mono] global\n") && m.cmdlines.len == 13 &&
	      m.kallsyms.data && m.uname);
	ftc_meta_free(&m);
	if (fd < 0)
		return;
	close(fd);
	w = ftc_writer_create(path, 7, FTC_COMPRESS_ZSTD);
	CHECK("meta: a v7 file from the mock",
	      w && ftc_writer_add_buffer(w, NULL, 2, cpus) == 0 && ftc_writer_start(w) == 0 &&
	      ftc_writer_finish(w) == 0);
	ftc_writer_free(w);
	r = ftc_reader_open(path, FTC_READER_NO_PLUGINS | FTC_READER_ALL_EVENTS);
	CHECK("meta: read back", r && !strcmp(ftc_reader_clock(r), "mono") &&
	      tep_find_event_by_name(ftc_reader_tep(r), "sched", "sched_switch") &&
	      !strcmp(tep_data_comm_from_pid(ftc_reader_tep(r), 42), "mock-task") &&
	      ftc_reader_buffer(r, 0)->cpus[1].entries == 4);
	if (!r)
		printf("# %s\n", ftc_strerror());
	ftc_reader_close(r);
	unlink(path);
}

int main(void)
{
	char cmd[600];

	if (!mkdtemp(top)) {
		SKIP("tracefs layer", "cannot make a temporary directory");
		return 0;
	}
	mock_tree();
	if (tracefs_set_tracing_dir(top) < 0) {
		SKIP("tracefs layer", "libtracefs cannot use a mock directory");
		return 0;
	}
	reads();
	writes();
	lists();
	capture_meta();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd))
		printf("# could not remove %s\n", top);
	return CHECK_DONE();
}
