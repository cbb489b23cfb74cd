// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc report --initcalls: the initcalls of a boot-time capture, slowest
 * first. Two sources, the first the file holds wins:
 *   initcall:initcall_start / initcall_finish pairs (their return value);
 *   function_graph records under do_one_initcall: the duration of its one
 *   child that is not do_one_initcall's own helper (the initcall itself).
 * Pairs are matched per task (the idle task per CPU): an initcall that
 * sleeps may finish on another CPU than it started on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "options.h"
#include "ftc.h"
#include "ftc-merge.h"
#include "report-initcalls.h"

extern const struct command cmd_report;

#define NAME_LEN 128
#define MAX_OPEN 16

struct call {
	char name[NAME_LEN];
	unsigned long long start, dur;
	long long ret;
	int cpu;
	bool has_ret;
};

struct open_call {
	unsigned long long addr, ts;
	int cpu;
};

/* One task's initcalls in progress. */
struct task {
	long key;
	struct open_call ev[MAX_OPEN];	/* initcall_start without its finish yet */
	int nev;
	/* function_graph: the do_one_initcall in progress */
	bool graph;
	unsigned long long graph_depth, graph_ts;
	int graph_cpu, others;
	char child[NAME_LEN];
	unsigned long long child_dur;
};

struct initcalls {
	struct ftc_reader *r;
	struct tep_handle *tep;
	struct call *calls;
	size_t n, cap;
	size_t n_graph;			/* how many came from function_graph */
	struct task *tasks;
	size_t ntasks;
};

/* Functions do_one_initcall calls around the initcall itself (6.1 and later). */
static bool helper(const char *name)
{
	static const char *const names[] = {
		"initcall_blacklisted", "add_device_randomness", "add_latent_entropy",
		"do_trace_initcall_start", "do_trace_initcall_finish", "trace_initcall_start",
		"trace_initcall_finish", "_printk", "printk", "__warn_printk", "ktime_get",
		"local_clock", "sched_clock",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

static bool field(struct tep_event *ev, struct tep_record *rec, const char *name,
		  unsigned long long *v)
{
	struct tep_format_field *fd = tep_find_field(ev, name);

	if (!fd || fd->offset + fd->size > rec->size)
		return false;
	return tep_read_number_field(fd, rec->data, v) == 0;
}

static void func_name(struct initcalls *ic, unsigned long long addr, char *out)
{
	const char *name = tep_find_function(ic->tep, addr);

	if (name)
		snprintf(out, NAME_LEN, "%s", name);
	else
		snprintf(out, NAME_LEN, "0x%llx", addr);
}

static struct task *task_of(struct initcalls *ic, const struct ftc_merge_record *mr)
{
	int pid = tep_data_pid(ic->tep, mr->rec);
	long key = pid > 0 ? pid : -1 - mr->cpu;
	struct task *t;

	for (size_t i = 0; i < ic->ntasks; i++)
		if (ic->tasks[i].key == key)
			return &ic->tasks[i];
	t = realloc(ic->tasks, (ic->ntasks + 1) * sizeof(*t));
	if (!t)
		return NULL;
	ic->tasks = t;
	t = &ic->tasks[ic->ntasks++];
	memset(t, 0, sizeof(*t));
	t->key = key;
	return t;
}

static struct call *call_add(struct initcalls *ic)
{
	if (ic->n == ic->cap) {
		size_t cap = ic->cap ? ic->cap * 2 : 256;
		struct call *c = realloc(ic->calls, cap * sizeof(*c));

		if (!c)
			return NULL;
		ic->calls = c;
		ic->cap = cap;
	}
	memset(&ic->calls[ic->n], 0, sizeof(ic->calls[0]));
	return &ic->calls[ic->n++];
}

static int on_start(struct initcalls *ic, struct task *t, struct tep_event *ev,
		    const struct ftc_merge_record *mr)
{
	unsigned long long addr;

	if (!field(ev, mr->rec, "func", &addr))
		return 0;
	if (t->nev == MAX_OPEN) {
		memmove(t->ev, t->ev + 1, (MAX_OPEN - 1) * sizeof(t->ev[0]));
		t->nev--;
	}
	t->ev[t->nev++] = (struct open_call){ addr, mr->rec->ts, mr->cpu };
	return 0;
}

static int on_finish(struct initcalls *ic, struct task *t, struct tep_event *ev,
		     const struct ftc_merge_record *mr)
{
	unsigned long long addr, ret = 0;
	struct call *c;
	int i;

	if (!field(ev, mr->rec, "func", &addr))
		return 0;
	for (i = t->nev - 1; i >= 0 && t->ev[i].addr != addr; i--)
		;
	if (i < 0)
		return 0;	/* its start was lost or came before the capture */
	c = call_add(ic);
	if (!c)
		return -1;
	func_name(ic, addr, c->name);
	c->start = t->ev[i].ts;
	c->dur = mr->rec->ts - t->ev[i].ts;
	c->cpu = t->ev[i].cpu;
	c->has_ret = field(ev, mr->rec, "ret", &ret);
	c->ret = (int)ret;
	t->nev = i;
	return 0;
}

static int graph_close(struct initcalls *ic, struct task *t, unsigned long long dur)
{
	struct call *c = call_add(ic);

	if (!c)
		return -1;
	/*
	 * One child besides the helpers: the initcall. Else the initcall is not
	 * traceable (inlined, notrace) and its callees are the children: "?",
	 * with the first of them as a hint.
	 */
	if (t->others == 1)
		snprintf(c->name, NAME_LEN, "%s", t->child);
	else if (t->others)
		snprintf(c->name, NAME_LEN, "? (calls %.80s%s)", t->child,
			 t->others > 2 ? " and others" : t->others == 2 ? " and another" : "");
	else
		snprintf(c->name, NAME_LEN, "?");
	c->dur = t->others == 1 ? t->child_dur : dur;
	c->start = t->graph_ts;
	c->cpu = t->graph_cpu;
	ic->n_graph++;
	t->graph = false;
	return 0;
}

static int on_graph(struct initcalls *ic, struct task *t, struct tep_event *ev,
		    const struct ftc_merge_record *mr, bool exit)
{
	unsigned long long addr, depth, call, ret;
	char name[NAME_LEN];

	if (!field(ev, mr->rec, "func", &addr) || !field(ev, mr->rec, "depth", &depth))
		return 0;
	func_name(ic, addr, name);
	if (!exit) {
		if (!t->graph && !strcmp(name, "do_one_initcall")) {
			t->graph = true;
			t->graph_depth = depth;
			t->graph_ts = mr->rec->ts;
			t->graph_cpu = mr->cpu;
			t->others = 0;
		}
		return 0;
	}
	if (!t->graph || !field(ev, mr->rec, "calltime", &call) ||
	    !field(ev, mr->rec, "rettime", &ret))
		return 0;
	if (depth == t->graph_depth + 1 && !helper(name)) {
		if (!t->others++) {
			snprintf(t->child, NAME_LEN, "%s", name);
			t->child_dur = ret - call;
		}
	} else if (depth <= t->graph_depth) {
		if (!strcmp(name, "do_one_initcall"))
			return graph_close(ic, t, ret - call);
		t->graph = false;	/* records were lost: start over */
	}
	return 0;
}

static int feed(struct initcalls *ic, const struct ftc_merge_record *mr)
{
	struct tep_event *ev = ftc_reader_event(ic->r, mr->rec);
	struct task *t;

	if (!ev || !ev->name)
		return 0;
	if (strcmp(ev->name, "initcall_start") && strcmp(ev->name, "initcall_finish") &&
	    strcmp(ev->name, "funcgraph_entry") && strcmp(ev->name, "funcgraph_exit"))
		return 0;
	t = task_of(ic, mr);
	if (!t)
		return -1;
	if (!strcmp(ev->name, "initcall_start"))
		return on_start(ic, t, ev, mr);
	if (!strcmp(ev->name, "initcall_finish"))
		return on_finish(ic, t, ev, mr);
	return on_graph(ic, t, ev, mr, !strcmp(ev->name, "funcgraph_exit"));
}

static int by_duration(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	if (x->dur != y->dur)
		return x->dur < y->dur ? 1 : -1;
	return (x->start > y->start) - (x->start < y->start);
}

/* Keeps the calls of one source: the events' when there are any. */
static void keep_one_source(struct initcalls *ic)
{
	size_t k = 0;

	if (ic->n_graph == ic->n || !ic->n_graph)
		return;
	for (size_t i = 0; i < ic->n; i++)
		if (ic->calls[i].has_ret)
			ic->calls[k++] = ic->calls[i];
	ic->n = k;
	ic->n_graph = 0;
}

/* Clocks that count cycles, not nanoseconds: their values are printed as they are. */
static bool counts_cycles(const char *clock)
{
	return clock && (!strcmp(clock, "counter") || !strcmp(clock, "x86-tsc"));
}

static void print_table(const struct initcalls *ic, const char *path, bool ns)
{
	const char *clock = ftc_reader_clock(ic->r);
	unsigned long long total = 0;
	bool graph = ic->n_graph > 0, cycles = counts_cycles(clock);

	if (cycles)
		ns = true;
	printf("# %zu initcalls in %s, from %s, slowest first; clock %s\n", ic->n, path,
	       graph ? "function_graph records of do_one_initcall"
		     : "initcall_start/initcall_finish events", clock ? clock : "unknown");
	printf("# %15s %4s %16s %5s  %s\n",
	       cycles ? "DURATION" : ns ? "DURATION(ns)" : "DURATION(us)", "CPU",
	       "START", "RET", "INITCALL");
	for (size_t i = 0; i < ic->n; i++) {
		const struct call *c = &ic->calls[i];
		char ret[24] = "-";

		if (c->has_ret)
			snprintf(ret, sizeof(ret), "%lld", c->ret);
		if (ns)
			printf("  %15llu %4d %16llu %5s  %s\n", c->dur, c->cpu, c->start, ret,
			       c->name);
		else
			printf("  %15.3f %4d %9llu.%06llu %5s  %s\n", c->dur / 1000.0, c->cpu,
			       c->start / 1000000000ULL, c->start % 1000000000ULL / 1000, ret,
			       c->name);
		total += c->dur;
	}
	if (ns)
		printf("# total %llu%s\n", total, cycles ? "" : " ns");
	else
		printf("# total %.3f us\n", total / 1000.0);
}

int report_initcalls_run(struct ftc_reader *r, const char *path, bool ns)
{
	struct initcalls ic = { .r = r, .tep = ftc_reader_tep(r) };
	struct ftc_merge *m = ftc_merge_open(r, NULL);
	struct ftc_merge_record mr;
	int ret, status = FTC_EXIT_FAIL;

	if (!m) {
		cmd_error(&cmd_report, "%s", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	while ((ret = ftc_merge_next(m, &mr)) == 1)
		if (feed(&ic, &mr) < 0) {
			cmd_error(&cmd_report, "out of memory reading %s", path);
			goto out;
		}
	if (ret < 0) {
		cmd_error(&cmd_report, "%s", ftc_strerror());
		goto out;
	}
	if (!ic.n) {
		cmd_error(&cmd_report, "%s holds no initcall: neither initcall_start/"
			  "initcall_finish pairs nor function_graph records of do_one_initcall "
			  "(boot with 'ftc boot-args -e initcall:* -C local' or "
			  "'-p function_graph -g do_one_initcall --max-graph-depth 2')", path);
		goto out;
	}
	keep_one_source(&ic);
	qsort(ic.calls, ic.n, sizeof(ic.calls[0]), by_duration);
	print_table(&ic, path, ns);
	status = FTC_EXIT_OK;
out:
	ftc_merge_close(m);
	free(ic.calls);
	free(ic.tasks);
	return status;
}
