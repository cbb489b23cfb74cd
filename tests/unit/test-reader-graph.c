// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the function and function_graph layouts on synthetic
 * records built from this kernel's own ftrace format files (the host
 * cannot run those tracers): leaf folding with the duration, nesting by
 * depth, the kernel's duration marks, and "func <-parent"; then the
 * kernel's trace-file layout line for line (expected lines written from
 * Linux 6.1's trace_functions_graph.c): CPU and duration columns, the
 * context-switch banner, comments, "} /" "* func *" "/", the CPU column
 * width, the TIME and TASK/PID columns and the headers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "check.h"
#include "ftc.h"
#include "format.h"

#define FMT_DIR "/sys/kernel/tracing/events/ftrace/"

static int load_event(struct tep_handle *tep, const char *dir, const char *name)
{
	char path[256], buf[8192];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s/format", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return tep_parse_event(tep, buf, n, strstr(dir, "/sched/") ? "sched" : "ftrace") ? -1 : 0;
}

static int load_format(struct tep_handle *tep, const char *name)
{
	return load_event(tep, FMT_DIR, name);
}

/* A record of event ev with its fields set by name. */
struct rec {
	unsigned char data[64];
	struct tep_record r;
	int cpu;
};

static void set(struct tep_event *ev, struct rec *x, const char *field, unsigned long long v)
{
	struct tep_format_field *f = tep_find_any_field(ev, field);

	if (f)
		memcpy(x->data + f->offset, &v, (size_t)f->size);
}

static void make(struct rec *x, struct tep_event *ev, unsigned long long ts, int pid,
		 unsigned long long func, unsigned long long depth, unsigned long long dur)
{
	memset(x, 0, sizeof(*x));
	set(ev, x, "common_type", (unsigned long long)ev->id);
	set(ev, x, "common_pid", (unsigned long long)pid);
	set(ev, x, "func", func);
	set(ev, x, "depth", depth);
	set(ev, x, "calltime", ts - dur);
	set(ev, x, "rettime", ts);
	set(ev, x, "ip", func);
	set(ev, x, "parent_ip", depth);
	x->r.ts = ts;
	x->r.data = x->data;
	x->r.size = sizeof(x->data);
}

/*
 * The look-ahead the merge gives: the next record if it is on the same CPU
 * and in the same sub-buffer (page_end: the index of a page's first record).
 */
struct seq {
	struct rec *recs;
	int n, cur;
	int page_end;
};

static int peek(void *ctx, struct tep_record *next)
{
	struct seq *s = ctx;

	if (s->cur + 1 >= s->n || s->cur + 1 == s->page_end ||
	    s->recs[s->cur + 1].cpu != s->recs[s->cur].cpu)
		return 0;
	*next = s->recs[s->cur + 1].r;
	return 1;
}

static void skip(void *ctx)
{
	((struct seq *)ctx)->cur++;
}

static char *run_flags(struct ftc_reader *r, struct seq *s, unsigned int flags, bool header)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct ftc_format *fm = ftc_format_new(r, f, flags);
	struct ftc_merge_record mr = { 0 };

	fm->peek = peek;
	fm->skip = skip;
	fm->peek_ctx = s;
	if (header)
		ftc_format_header(fm, "function_graph");
	for (s->cur = 0; s->cur < s->n; s->cur++) {
		mr.rec = &s->recs[s->cur].r;
		mr.cpu = s->recs[s->cur].cpu;
		ftc_format_record(fm, &mr);
	}
	ftc_format_flush(fm);
	ftc_format_free(fm);
	fclose(f);
	return out;
}

static char *run(struct ftc_reader *r, struct seq *s)
{
	return run_flags(r, s, FTC_FMT_NS, false);
}

/* The kernel layout of s; FAIL shows both texts when they differ. */
static void expect_kernel(const char *name, struct ftc_reader *r, struct seq *s,
			  unsigned int flags, const char *want)
{
	char *out = run_flags(r, s, FTC_FMT_GRAPH_KERNEL | flags, false);

	CHECK_STR(name, out, want);
	free(out);
}

static void durations(void)
{
	static const struct { unsigned long long ns; const char *want; } t[] = {
		{ 300, "  0.300 us    " },
		{ 15000, "+ 15.000 us   " },
		{ 150000, "! 150.000 us  " },
		{ 1234567, "# 1234.567 us " },
		{ 12345678, "* 12345.67 us " },
		{ 2000000000ULL, "$ 2000000 us  " },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct trace_seq s;
		char name[64];

		trace_seq_init(&s);
		ftc_graph_duration(&s, t[i].ns);
		trace_seq_terminate(&s);
		snprintf(name, sizeof(name), "duration %llu ns", t[i].ns);
		CHECK_STR(name, s.buffer, t[i].want);
		trace_seq_destroy(&s);
	}
}

#define NEST	" 0)               |  "	/* CPU 0, no duration (a block or comment) */

static void kernel_blocks(struct ftc_reader *r, struct tep_event *ent, struct tep_event *ext)
{
	struct rec recs[8];
	struct seq s = { recs, 0, 0, 0 };

	/* do_sys_open() { getname(); kfree() { getname(); } } */
	make(&recs[0], ent, 1000000000, 42, 0x1000, 0, 0);
	make(&recs[1], ent, 1000000100, 42, 0x2000, 1, 0);
	make(&recs[2], ext, 1000000400, 42, 0x2000, 1, 300);
	make(&recs[3], ent, 1000000500, 42, 0x3000, 1, 0);
	make(&recs[4], ent, 1000000600, 42, 0x2000, 2, 0);
	make(&recs[5], ext, 1000002600, 42, 0x2000, 2, 2000);
	make(&recs[6], ext, 1000150500, 42, 0x3000, 1, 150000);
	make(&recs[7], ext, 1001234567, 42, 0x1000, 0, 1234567);
	s.n = 8;
	expect_kernel("kernel layout: leaves, blocks, exits with duration marks", r, &s, 0,
		      NEST "do_sys_open() {\n"
		      " 0)   0.300 us    |    getname();\n"
		      NEST "  kfree() {\n"
		      " 0)   2.000 us    |      getname();\n"
		      " 0) ! 150.000 us  |    }\n"
		      " 0) # 1234.567 us |  }\n");
	/* The entry ends its sub-buffer: it waits for the exit, then folds. */
	s.n = 3;
	s.page_end = 2;
	expect_kernel("kernel layout: a leaf folds across a sub-buffer end", r, &s, 0,
		      NEST "do_sys_open() {\n"
		      " 0)   0.300 us    |    getname();\n");
	s.page_end = 0;
	s.n = 1;
	expect_kernel("kernel layout: an entry held at the end opens a block", r, &s, 0,
		      NEST "do_sys_open() {\n");

	/* An exit whose entry was not seen, then one whose depth held another call. */
	make(&recs[0], ext, 1000000400, 42, 0x3000, 1, 300);
	make(&recs[1], ent, 1000000500, 42, 0x1000, 0, 0);
	make(&recs[2], ext, 1000001000, 42, 0x3000, 0, 500);
	s.n = 3;
	expect_kernel("kernel layout: exit without its entry names the function", r, &s, 0,
		      " 0)   0.300 us    |    } /* kfree */\n"
		      NEST "do_sys_open() {\n"
		      " 0)   0.500 us    |  } /* kfree */\n");

	/* A record of another CPU comes before the held entry's exit. */
	make(&recs[0], ent, 1000000000, 42, 0x2000, 0, 0);
	make(&recs[1], ent, 1000000100, 7, 0x3000, 0, 0);
	make(&recs[2], ext, 1000000400, 7, 0x3000, 0, 300);
	make(&recs[3], ext, 1000002000, 42, 0x2000, 0, 2000);
	recs[1].cpu = recs[2].cpu = 1;
	s.n = 4;
	expect_kernel("kernel layout: CPUs interleave, each keeps its own calls", r, &s, 0,
		      NEST "getname() {\n"
		      " 1)   0.300 us    |  kfree();\n"
		      " 0)   2.000 us    |  }\n");
}

static void kernel_context(struct ftc_reader *r, struct tep_event *ent, struct tep_event *ext,
			   struct tep_event *fn)
{
	struct tep_event *prt = tep_find_event_by_name(r->tep, "ftrace", "print");
	struct tep_event *exec = tep_find_event_by_name(r->tep, "sched", "sched_process_exec");
	struct rec recs[8];
	struct seq s = { recs, 0, 0, 0 };
	const char *want;
	char *out;

	/* Two tasks on one CPU: the banner between them. */
	make(&recs[0], ent, 1000000000, 42, 0x2000, 0, 0);
	make(&recs[1], ext, 1000000300, 42, 0x2000, 0, 300);
	make(&recs[2], ent, 1000000400, 7, 0x2000, 0, 0);
	make(&recs[3], ext, 1000000700, 7, 0x2000, 0, 300);
	s.n = 4;
	expect_kernel("kernel layout: context-switch banner", r, &s, 0,
		      " 0)   0.300 us    |  getname();\n"
		      " ------------------------------------------\n"
		      " 0)     cat-42     =>      sh-7     \n"
		      " ------------------------------------------\n"
		      "\n"
		      " 0)   0.300 us    |  getname();\n");

	/* Other events are comments at the depth of the open call. */
	if (!prt || !exec) {
		SKIP("kernel layout: comments", "no ftrace/print or sched_process_exec format");
		return;
	}
	make(&recs[0], ent, 1000000000, 42, 0x1000, 0, 0);
	make(&recs[1], ent, 1000000100, 42, 0x3000, 1, 0);
	make(&recs[2], prt, 1000000200, 42, 0x2000, 0, 0);
	memcpy(recs[2].data + 16, "hello\n", 7);
	make(&recs[3], exec, 1000000300, 42, 0, 0, 0);
	set(exec, &recs[3], "filename", (8U << 16) | 24);
	set(exec, &recs[3], "pid", 42);
	set(exec, &recs[3], "old_pid", 42);
	memcpy(recs[3].data + 24, "/bin/ls", 8);
	make(&recs[4], ext, 1000000400, 42, 0x3000, 1, 300);
	make(&recs[5], prt, 1000000500, 42, 0x2000, 0, 0);
	memcpy(recs[5].data + 16, "bye", 4);
	make(&recs[6], fn, 1000000600, 42, 0x2000, 0x1000, 0);
	s.n = 7;
	out = run_flags(r, &s, FTC_FMT_GRAPH_KERNEL | FTC_FMT_NS, false);
	want = NEST "do_sys_open() {\n"
	       NEST "  kfree() {\n"
	       NEST "    /* hello */\n"
	       NEST "    /* sched_process_exec: filename=/bin/ls pid=42 old_pid=42 */\n"
	       " 0)   0.300 us    |    }\n"
	       NEST "/* bye */\n"
	       "             cat-42      [000] .....     1.000000600: function: ";
	CHECK("kernel layout: comments, indented one level in from the open call",
	      !strncmp(out, want, strlen(want)));
	CHECK("kernel layout: function records keep the per-event line",
	      strstr(out, "] .....     1.000000600: function: ") && !strstr(out, "/* function"));
	if (check_failures)
		fputs(out, stdout);
	free(out);

	/* An entry held at a sub-buffer end still comes before a function line. */
	{
		struct seq one = { recs + 6, 1, 0, 0 };
		char *alone = run_flags(r, &one, FTC_FMT_GRAPH_KERNEL | FTC_FMT_NS, false);
		char *both, want2[512];

		make(&recs[5], ent, 1000000500, 42, 0x2000, 0, 0);
		s = (struct seq){ recs + 5, 2, 0, 1 };
		both = run_flags(r, &s, FTC_FMT_GRAPH_KERNEL | FTC_FMT_NS, false);
		snprintf(want2, sizeof(want2), NEST "getname() {\n%s", alone);
		CHECK_STR("kernel layout: a held entry, then a function line", both, want2);
		free(alone);
		free(both);
	}
}

static void kernel_columns(struct ftc_reader *r, struct ftc_dat_buffer *buf,
			   struct tep_event *ent, struct tep_event *ext)
{
	struct rec recs[4];
	struct seq s = { recs, 0, 0, 0 };
	char *out;

	make(&recs[0], ent, 1000000000, 42, 0x1000, 0, 0);
	make(&recs[1], ent, 1000000100, 42, 0x2000, 1, 0);
	make(&recs[2], ext, 1000000400, 42, 0x2000, 1, 300);
	make(&recs[3], ext, 1000015000, 42, 0x1000, 0, 15000);
	s.n = 4;
	out = run_flags(r, &s, FTC_FMT_GRAPH_KERNEL, true);
	CHECK_STR("kernel layout: default header", out,
		  "# tracer: function_graph\n#\n"
		  "# CPU  DURATION                  FUNCTION CALLS\n"
		  "# |     |   |                     |   |   |   |\n"
		  NEST "do_sys_open() {\n"
		  " 0)   0.300 us    |    getname();\n"
		  " 0) + 15.000 us   |  }\n");
	free(out);
	out = run_flags(r, &s, FTC_FMT_GRAPH_KERNEL | FTC_FMT_GRAPH_PROC | FTC_FMT_GRAPH_ABSTIME,
			true);
	CHECK_STR("kernel layout: --graph-proc --graph-abstime header and columns", out,
		  "# tracer: function_graph\n#\n"
		  "#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
		  "#      |          |     |    |           |   |                     |   |   |   |\n"
		  "    1.000000 |   0)     cat-42     |               |  do_sys_open() {\n"
		  "    1.000000 |   0)     cat-42     |   0.300 us    |    getname();\n"
		  "    1.000015 |   0)     cat-42     | + 15.000 us   |  }\n");
	free(out);
	out = run_flags(r, &s, FTC_FMT_GRAPH_KERNEL | FTC_FMT_GRAPH_PROC, true);
	CHECK("kernel layout: --graph-proc alone", strstr(out,
	      "# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
	      "# |     |    |           |   |                     |   |   |   |\n"
	      " 0)     cat-42     |               |  do_sys_open() {\n"
	      " 0)     cat-42     |   0.300 us    |    getname();\n") != NULL);
	free(out);

	/* More than 10 CPUs: the column is as wide as the largest number. */
	r->ncpus = 12;
	s.n = 3;
	recs[0].cpu = 11;
	recs[1].cpu = recs[2].cpu = 3;
	expect_kernel("kernel layout: CPU column for 12 CPUs", r, &s, 0,
		      " 11)               |  do_sys_open() {\n"
		      "  3)   0.300 us    |    getname();\n");
	r->ncpus = 0;
	recs[0].cpu = recs[1].cpu = recs[2].cpu = 0;

	/* Records of an instance keep its name in front. */
	buf->name = (char *)"inst";
	s.n = 3;
	expect_kernel("kernel layout: instance prefix", r, &s, FTC_FMT_INSTANCE,
		      "inst: " NEST "do_sys_open() {\n"
		      "inst:  0)   0.300 us    |    getname();\n");
	buf->name = (char *)"";
}

int main(void)
{
	struct ftc_dat_buffer buf = { .name = (char *)"" };
	struct ftc_reader r = { .page_size = 4096, .buffers = &buf, .nbuffers = 1 };
	struct tep_event *ent, *ext, *fn;
	struct rec recs[6];
	struct seq s = { recs, 0, 0, 0 };
	char *out;

	durations();
	r.tep = tep_alloc();
	tep_set_long_size(r.tep, 8);
	tep_set_file_bigendian(r.tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(r.tep, TEP_LITTLE_ENDIAN);
	if (load_format(r.tep, "funcgraph_entry") || load_format(r.tep, "funcgraph_exit") ||
	    load_format(r.tep, "function") || load_format(r.tep, "print")) {
		SKIP("function_graph layout", "no ftrace format files under " FMT_DIR);
		tep_free(r.tep);
		return CHECK_DONE();
	}
	ent = tep_find_event_by_name(r.tep, "ftrace", "funcgraph_entry");
	ext = tep_find_event_by_name(r.tep, "ftrace", "funcgraph_exit");
	fn = tep_find_event_by_name(r.tep, "ftrace", "function");
	tep_register_function(r.tep, (char *)"do_sys_open", 0x1000, NULL);
	tep_register_function(r.tep, (char *)"getname", 0x2000, NULL);
	tep_register_function(r.tep, (char *)"kfree", 0x3000, NULL);
	tep_register_comm(r.tep, "cat", 42);
	tep_register_comm(r.tep, "sh", 7);
	load_event(r.tep, "/sys/kernel/tracing/events/sched/", "sched_process_exec");

	/* do_sys_open() { getname(); kfree() { } } */
	make(&recs[0], ent, 1000000000, 42, 0x1000, 0, 0);
	make(&recs[1], ent, 1000000100, 42, 0x2000, 1, 0);
	make(&recs[2], ext, 1000000400, 42, 0x2000, 1, 300);
	make(&recs[3], ent, 1000000500, 42, 0x3000, 1, 0);
	make(&recs[4], fn, 1000000600, 42, 0x2000, 0x1000, 0);
	make(&recs[5], ext, 1000015000, 42, 0x1000, 0, 15000);
	s.n = 6;
	out = run(&r, &s);
	CHECK("entry with children opens a block",
	      strstr(out, "cat-42      [000] .....     1.000000000: funcgraph_entry: "
		     "              |  do_sys_open() {\n") != NULL);
	CHECK("entry + exit fold into a leaf with the duration",
	      strstr(out, "funcgraph_entry:   0.300 us    |    getname();\n") != NULL);
	CHECK("a folded exit prints no line", !strstr(out, "|    }\n"));
	CHECK("entry followed by another event stays open",
	      strstr(out, "|    kfree() {\n") != NULL);
	CHECK("function event: func <-parent", strstr(out, ": getname <-do_sys_open\n") != NULL);
	CHECK("exit closes with the duration mark",
	      strstr(out, "funcgraph_exit: + 15.000 us   |  }\n") != NULL);
	{
		int lines = 0;

		for (char *p = out; *p; p++)
			lines += *p == '\n';
		CHECK("five lines for six records (one fold)", lines == 5);
	}
	if (check_failures)
		fputs(out, stdout);
	free(out);

	/* Without look-ahead (--no-graph is not set): entry and exit apart. */
	s.n = 3;
	{
		struct seq none = s;
		char *o2;

		none.n = 1;	/* the exit is on another page: nothing to peek */
		o2 = run(&r, &none);
		CHECK("entry without a visible exit stays open", strstr(o2, "do_sys_open() {") != NULL);
		free(o2);
	}
	kernel_blocks(&r, ent, ext);
	kernel_context(&r, ent, ext, fn);
	kernel_columns(&r, &buf, ent, ext);
	ftc_format_destroy(r.spare_format);	/* ftc_reader_close() would */
	tep_free(r.tep);
	return CHECK_DONE();
}
