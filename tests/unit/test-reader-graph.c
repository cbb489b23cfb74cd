// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the function and function_graph layouts on synthetic
 * records built from this kernel's own ftrace format files (the host
 * cannot run those tracers): leaf folding with the duration, nesting by
 * depth, the kernel's duration marks, and "func <-parent".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "check.h"
#include "ftc.h"
#include "reader.h"

#define FMT_DIR "/sys/kernel/tracing/events/ftrace/"

static int load_format(struct tep_handle *tep, const char *name)
{
	char path[256], buf[8192];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), FMT_DIR "%s/format", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return tep_parse_event(tep, buf, n, "ftrace") ? -1 : 0;
}

/* A record of event ev with its fields set by name. */
struct rec {
	unsigned char data[64];
	struct tep_record r;
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

/* The look-ahead the merge gives: the records of one CPU, in order. */
struct seq {
	struct rec *recs;
	int n, cur;
};

static int peek(void *ctx, struct tep_record *next)
{
	struct seq *s = ctx;

	if (s->cur + 1 >= s->n)
		return 0;
	*next = s->recs[s->cur + 1].r;
	return 1;
}

static void skip(void *ctx)
{
	((struct seq *)ctx)->cur++;
}

static char *run(struct ftc_reader *r, struct seq *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct ftc_format *fm = ftc_format_new(r, f, FTC_FMT_NS);
	struct ftc_merge_record mr = { 0 };

	fm->peek = peek;
	fm->skip = skip;
	fm->peek_ctx = s;
	for (s->cur = 0; s->cur < s->n; s->cur++) {
		mr.rec = &s->recs[s->cur].r;
		ftc_format_record(fm, &mr);
	}
	ftc_format_flush(fm);
	ftc_format_free(fm);
	fclose(f);
	return out;
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

int main(void)
{
	struct ftc_dat_buffer buf = { .name = (char *)"" };
	struct ftc_reader r = { .page_size = 4096, .buffers = &buf, .nbuffers = 1 };
	struct tep_event *ent, *ext, *fn;
	struct rec recs[6];
	struct seq s = { recs, 0, 0 };
	char *out;

	durations();
	r.tep = tep_alloc();
	tep_set_long_size(r.tep, 8);
	tep_set_file_bigendian(r.tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(r.tep, TEP_LITTLE_ENDIAN);
	if (load_format(r.tep, "funcgraph_entry") || load_format(r.tep, "funcgraph_exit") ||
	    load_format(r.tep, "function")) {
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
	tep_free(r.tep);
	return CHECK_DONE();
}
