// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * function_graph in the kernel's own trace-file layout (the function_graph
 * tracer's default options: funcgraph-cpu, -overhead and -duration on;
 * funcgraph-proc and -abstime on request):
 *
 *  0)               |  do_sys_openat2() {
 *  0)   0.530 us    |    getname();
 *  0) + 12.345 us   |  }
 *
 * Per CPU (of each buffer) it keeps what the kernel's reader keeps: the
 * last pid, for the context-switch banner; the depth of the last call, to
 * indent comments; and the function entered at each depth, so that an exit
 * whose entry was not seen names its function. Other events print as
 * comments, "/ * event: info * /", at the current depth. The layout follows
 * Linux 6.1 (kernel/trace/trace_functions_graph.c); the state is allocated
 * once, nothing per record.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "format.h"

/* FTRACE_RETFUNC_DEPTH: how many depths the kernel remembers entries for. */
#define KDEPTH		50
/* Indentation cap: a corrupt depth must not print megabytes of spaces. */
#define MAX_INDENT	1000
#define PROC_WIDTH	14	/* the kernel's TRACE_GRAPH_PROCINFO_LENGTH */
#define PEND_MAX	256	/* an entry record held back (6.1's is 24 bytes) */

struct gcpu {
	int last_pid;			/* -1 until the first record */
	int depth;			/* indentation of comments */
	unsigned long long enter[KDEPTH];	/* function entered at each depth */
};

struct ftc_graph_state {
	struct tep_event *ent, *ext;
	struct tep_format_field *ent_func, *ent_depth;
	struct tep_format_field *ext_func, *ext_depth, *ext_call, *ext_ret;
	int width;			/* digits of the CPU column */
	int stride, nbuf;		/* gcpu is [nbuf][stride] */
	/*
	 * An entry that ends its sub-buffer: the look-ahead cannot see the next
	 * record, so the entry waits for it (see hold_entry).
	 */
	bool pending;
	struct ftc_merge_record pend_mr;
	struct tep_record pend_rec;
	unsigned char pend_data[PEND_MAX];
	struct gcpu cpu[];
};


static int digits(int n)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

static struct ftc_graph_state *state_new(struct ftc_reader *r)
{
	int ncpus = ftc_reader_ncpus(r), stride = ncpus, nbuf = r->nbuffers;
	struct ftc_graph_state *st;

	/* CPU numbers index the state: leave room for the largest one. */
	for (int b = 0; b < r->nbuffers; b++)
		for (int c = 0; c < r->buffers[b].ncpus; c++)
			if (r->buffers[b].cpus[c].cpu >= stride)
				stride = r->buffers[b].cpus[c].cpu + 1;
	if (stride < 1)
		stride = 1;
	if (stride > FTC_MAX_CPUS)
		stride = FTC_MAX_CPUS;
	if (nbuf < 1)
		nbuf = 1;
	st = calloc(1, sizeof(*st) + (size_t)nbuf * (size_t)stride * sizeof(st->cpu[0]));
	if (!st)
		return NULL;
	st->stride = stride;
	st->nbuf = nbuf;
	/* The kernel sizes the column for nr_cpu_ids - 1. */
	st->width = digits(ncpus > 1 ? ncpus - 1 : 0);
	for (int i = 0; i < nbuf * stride; i++)
		st->cpu[i].last_pid = -1;
	return st;
}

static struct gcpu *cpu_state(struct ftc_graph_state *st, const struct ftc_merge_record *mr)
{
	if (mr->buffer < 0 || mr->buffer >= st->nbuf || mr->cpu < 0 || mr->cpu >= st->stride)
		return NULL;
	return &st->cpu[mr->buffer * st->stride + mr->cpu];
}

/* Remembers the two graph events (formats are parsed lazily, on first use). */
static void learn_event(struct ftc_graph_state *st, struct tep_event *ev)
{
	if (!ev->system || strcmp(ev->system, "ftrace"))
		return;
	if (!strcmp(ev->name, "funcgraph_entry")) {
		st->ent = ev;
		st->ent_func = tep_find_field(ev, "func");
		st->ent_depth = tep_find_field(ev, "depth");
	} else if (!strcmp(ev->name, "funcgraph_exit")) {
		st->ext = ev;
		st->ext_func = tep_find_field(ev, "func");
		st->ext_depth = tep_find_field(ev, "depth");
		st->ext_call = tep_find_field(ev, "calltime");
		st->ext_ret = tep_find_field(ev, "rettime");
	}
}

static void put_inst(struct ftc_format *f, const struct ftc_merge_record *mr)
{
	const char *bname = f->r->buffers[mr->buffer].name;

	if ((f->flags & FTC_FMT_INSTANCE) && *bname)
		trace_seq_printf(&f->seq, "%s: ", bname);
}

static void put_cpu(struct ftc_format *f, int cpu)
{
	trace_seq_printf(&f->seq, " %*d) ", f->graph->width, cpu);
}

/* "comm-pid" centred in 14 columns, the comm cut to 7 characters. */
static void put_proc(struct ftc_format *f, int pid)
{
	const char *comm = tep_data_comm_from_pid(f->r->tep, pid);
	char pid_str[16];
	int clen = (int)strnlen(comm, 7);
	int len = clen + snprintf(pid_str, sizeof(pid_str), "%d", pid) + 1;
	int spaces = len < PROC_WIDTH ? PROC_WIDTH - len : 0;

	trace_seq_printf(&f->seq, "%*s%.*s-%s%*s", spaces / 2, "", clen, comm, pid_str,
			 spaces - spaces / 2, "");
}

/* The banner the kernel prints when a CPU's pid changes. */
static void verif_pid(struct ftc_format *f, const struct ftc_merge_record *mr,
		      struct gcpu *gc, int pid)
{
	static const char dashes[] = " ------------------------------------------\n";
	int prev;

	if (!gc || gc->last_pid == pid)
		return;
	prev = gc->last_pid;
	gc->last_pid = pid;
	if (prev == -1)
		return;
	put_inst(f, mr);
	trace_seq_puts(&f->seq, dashes);
	put_inst(f, mr);
	put_cpu(f, mr->cpu);
	put_proc(f, prev);
	trace_seq_puts(&f->seq, " => ");
	put_proc(f, pid);
	trace_seq_putc(&f->seq, '\n');
	put_inst(f, mr);
	trace_seq_puts(&f->seq, dashes);
	trace_seq_putc(&f->seq, '\n');
}

/* Banner, then the columns before the duration: TIME, CPU, TASK/PID. */
static void prologue(struct ftc_format *f, const struct ftc_merge_record *mr,
		     struct tep_record *rec, struct gcpu *gc, int pid)
{
	verif_pid(f, mr, gc, pid);
	put_inst(f, mr);
	if (f->flags & FTC_FMT_GRAPH_ABSTIME)
		/* Truncated to the microsecond, unlike the events layout. */
		trace_seq_printf(&f->seq, "%5llu.%06llu |  ", rec->ts / 1000000000ULL,
				 rec->ts % 1000000000ULL / 1000);
	put_cpu(f, mr->cpu);
	if (f->flags & FTC_FMT_GRAPH_PROC) {
		put_proc(f, pid);
		trace_seq_puts(&f->seq, " | ");
	}
}

/*
 * The kernel's depth is a small int; a damaged record's can be anything,
 * and depth - 1 or depth + 1 on INT_MIN or INT_MAX overflows. Past
 * MAX_INDENT nothing prints differently, so the value is kept in range.
 */
static int graph_depth(unsigned long long d)
{
	int depth = (int)d;

	if (depth < -1)
		return -1;
	return depth > MAX_INDENT ? MAX_INDENT : depth;
}

static void put_indent(struct ftc_format *f, int depth)
{
	if (depth > MAX_INDENT)
		depth = MAX_INDENT;
	if (depth > 0)
		trace_seq_printf(&f->seq, "%*s", depth * 2, "");
}

static void put_duration(struct ftc_format *f, unsigned long long ns)
{
	ftc_graph_duration(&f->seq, ns);
	trace_seq_puts(&f->seq, "|  ");
}

static void put_no_duration(struct ftc_format *f)
{
	trace_seq_puts(&f->seq, "              |  ");
}

/* Whether next is the exit of func by pid, with the call's duration. */
static bool closes(struct ftc_format *f, struct tep_record *next, unsigned long long func,
		   int pid, unsigned long long *dur)
{
	struct ftc_graph_state *st = f->graph;
	unsigned long long nf, ct, rt;

	struct tep_event *ev;

	if (next->size < 8 || !(ev = ftc_reader_event(f->r, next)))
		return false;
	if (!st->ext)
		learn_event(st, ev);
	if (ev != st->ext)
		return false;
	if (!ftc_graph_read_field(st->ext_func, next, &nf) || nf != func ||
	    tep_data_pid(f->r->tep, next) != pid)
		return false;
	if (ftc_graph_read_field(st->ext_call, next, &ct) && ftc_graph_read_field(st->ext_ret, next, &rt))
		*dur = rt - ct;
	else
		*dur = 0;
	return true;
}

/* An entry line: a leaf "func();" with the duration, or "func() {". */
static void entry_line(struct ftc_format *f, const struct ftc_merge_record *mr,
		       struct tep_record *rec, bool leaf, unsigned long long dur)
{
	struct ftc_graph_state *st = f->graph;
	struct gcpu *gc = cpu_state(st, mr);
	unsigned long long func = 0, d = 0;
	int pid = tep_data_pid(f->r->tep, rec), depth;

	ftc_graph_read_field(st->ent_func, rec, &func);
	ftc_graph_read_field(st->ent_depth, rec, &d);
	depth = graph_depth(d);
	prologue(f, mr, rec, gc, pid);
	if (leaf)
		put_duration(f, dur);
	else
		put_no_duration(f);
	if (gc) {
		/* Comments sit one level in from the last open call. */
		gc->depth = leaf ? depth - 1 : depth;
		if (depth >= 0 && depth < KDEPTH)
			gc->enter[depth] = leaf ? 0 : func;
	}
	put_indent(f, depth);
	ftc_graph_func(f, func);
	trace_seq_puts(&f->seq, leaf ? "();\n" : "() {\n");
}

/*
 * The merge looks ahead only inside the current sub-buffer, where the
 * kernel's reader sees the next page too. An entry that ends its page waits
 * for the next record: when that is on the same CPU, the entry is folded
 * or opened exactly as the kernel does and the order is the kernel's; a
 * record of another CPU first makes it open a block ("func() {" and a later
 * "}"), which is what a reader without the next page can say. Live output
 * (no merge: ftc stream) holds every entry so, for the next record delivered.
 */
static void hold_entry(struct ftc_graph_state *st, const struct ftc_merge_record *mr,
		       struct tep_record *rec)
{
	st->pending = true;
	st->pend_mr = *mr;
	st->pend_mr.rec = &st->pend_rec;
	st->pend_rec = *rec;
	memcpy(st->pend_data, rec->data, (size_t)rec->size);
	st->pend_rec.data = st->pend_data;
}

static void release_entry(struct ftc_format *f)
{
	struct ftc_graph_state *st = f->graph;

	if (st && st->pending) {
		st->pending = false;
		entry_line(f, &st->pend_mr, &st->pend_rec, false, 0);
	}
}

/* 1 when rec is the exit that folds the held entry into a leaf. */
static int resolve_pending(struct ftc_format *f, const struct ftc_merge_record *mr,
			   struct tep_record *rec)
{
	struct ftc_graph_state *st = f->graph;
	unsigned long long func, dur;

	/* Lost events between them: the exit may not be the next call's. */
	if (mr->buffer == st->pend_mr.buffer && mr->cpu == st->pend_mr.cpu && !mr->missed &&
	    ftc_graph_read_field(st->ent_func, &st->pend_rec, &func) &&
	    closes(f, rec, func, tep_data_pid(f->r->tep, &st->pend_rec), &dur)) {
		st->pending = false;
		entry_line(f, &st->pend_mr, &st->pend_rec, true, dur);
		return 1;
	}
	release_entry(f);
	return 0;
}

static int entry(struct ftc_format *f, const struct ftc_merge_record *mr,
		 struct tep_record *rec)
{
	struct ftc_graph_state *st = f->graph;
	unsigned long long func, d, dur = 0;
	struct tep_record next;

	if (!ftc_graph_read_field(st->ent_func, rec, &func) ||
	    !ftc_graph_read_field(st->ent_depth, rec, &d))
		return 0;
	if (f->peek && f->peek(f->peek_ctx, &next) == 1) {
		/* next points into the reader's window, which stays put until skip. */
		bool leaf = closes(f, &next, func, tep_data_pid(f->r->tep, rec), &dur);

		if (leaf)
			f->skip(f->peek_ctx);
		entry_line(f, mr, rec, leaf, dur);
	} else if (rec->size > 0 && rec->size <= PEND_MAX) {
		/* no merge to look in (live output): the next record decides */
		hold_entry(st, mr, rec);
	} else {
		entry_line(f, mr, rec, false, 0);
	}
	return 1;
}

static int exit_line(struct ftc_format *f, const struct ftc_merge_record *mr,
		     struct tep_record *rec)
{
	struct ftc_graph_state *st = f->graph;
	struct gcpu *gc = cpu_state(st, mr);
	unsigned long long func, d, ct, rt;
	int pid = tep_data_pid(f->r->tep, rec), depth;
	bool match = true;

	if (!ftc_graph_read_field(st->ext_func, rec, &func) ||
	    !ftc_graph_read_field(st->ext_depth, rec, &d))
		return 0;
	depth = graph_depth(d);
	if (gc) {
		gc->depth = depth - 1;
		if (depth >= 0 && depth < KDEPTH) {
			match = gc->enter[depth] == func;
			gc->enter[depth] = 0;
		}
	}
	prologue(f, mr, rec, gc, pid);
	if (ftc_graph_read_field(st->ext_call, rec, &ct) && ftc_graph_read_field(st->ext_ret, rec, &rt))
		put_duration(f, rt - ct);
	else
		put_no_duration(f);
	put_indent(f, depth);
	if (match) {
		trace_seq_puts(&f->seq, "}\n");
	} else {
		/* The entry was lost: say which call this closes. */
		trace_seq_puts(&f->seq, "} /* ");
		ftc_graph_func(f, func);
		trace_seq_puts(&f->seq, " */\n");
	}
	return 1;
}

/* trace_printk and trace_marker text: the kernel shows the message alone. */
static bool message_only(struct tep_event *ev)
{
	return !strcmp(ev->system, "ftrace") &&
	       (!strcmp(ev->name, "print") || !strcmp(ev->name, "bprint") ||
		!strcmp(ev->name, "bputs"));
}

static int comment(struct ftc_format *f, const struct ftc_merge_record *mr,
		   struct tep_record *rec, struct tep_event *ev)
{
	struct gcpu *gc = cpu_state(f->graph, mr);
	int depth = gc ? gc->depth : 0;
	unsigned int start;

	prologue(f, mr, rec, gc, tep_data_pid(f->r->tep, rec));
	put_no_duration(f);
	if (depth > 0)
		put_indent(f, depth + 1);
	trace_seq_puts(&f->seq, "/* ");
	start = f->seq.len;
	if (!message_only(ev))
		trace_seq_printf(&f->seq, "%s: ", ev->name);
	tep_print_event(f->r->tep, &f->seq, rec, "%s", TEP_PRINT_INFO);
	if (message_only(ev)) {
		/* libtraceevent prints "caller: message": drop the caller. */
		char *colon = memmem(f->seq.buffer + start, f->seq.len - start, ": ", 2);

		if (colon) {
			unsigned int cut = (unsigned int)(colon + 2 - (f->seq.buffer + start));

			memmove(f->seq.buffer + start, f->seq.buffer + start + cut,
				f->seq.len - start - cut);
			f->seq.len -= cut;
		}
	}
	while (f->seq.len > start && f->seq.buffer[f->seq.len - 1] == '\n')
		f->seq.len--;
	trace_seq_puts(&f->seq, " */\n");
	return 1;
}

/*
 * Records the kernel leaves to its default layout: format.c prints them,
 * unless a released entry already waits in f->seq, which must come first
 * (format.c's line would start afresh).
 */
static int plain(struct ftc_format *f, const struct ftc_merge_record *mr,
		 struct tep_record *rec, struct tep_event *ev)
{
	unsigned int start;

	if (!f->seq.len)
		return 0;
	ftc_format_prefix(f, mr, rec, ev);
	if (!ev) {
		trace_seq_printf(&f->seq, ": [unknown event %d, %d bytes]\n",
				 tep_data_type(f->r->tep, rec), rec->size);
		return 1;
	}
	trace_seq_printf(&f->seq, ": %s: ", ev->name);
	start = f->seq.len;
	tep_print_event(f->r->tep, &f->seq, rec, "%s", TEP_PRINT_INFO);
	while (f->seq.len > start && f->seq.buffer[f->seq.len - 1] == '\n')
		f->seq.len--;
	trace_seq_putc(&f->seq, '\n');
	return 1;
}

int ftc_graph_kernel_record(struct ftc_format *f, const struct ftc_merge_record *mr,
			    struct tep_record *rec, struct tep_event *ev)
{
	struct ftc_graph_state *st = f->graph;

	if (!st) {
		st = f->graph = state_new(f->r);
		if (!st)
			return 0;
	}
	if (st->pending && resolve_pending(f, mr, rec))
		return 1;
	if (!ev)
		return plain(f, mr, rec, ev);
	if (ev == st->ent)
		return entry(f, mr, rec);
	if (ev == st->ext)
		return exit_line(f, mr, rec);
	if (ev->system && !strcmp(ev->system, "ftrace")) {
		if (!st->ent || !st->ext) {
			learn_event(st, ev);
			if (ev == st->ent)
				return entry(f, mr, rec);
			if (ev == st->ext)
				return exit_line(f, mr, rec);
		}
		/* The kernel leaves these to the default layout too. */
		if (!strcmp(ev->name, "function") || !strcmp(ev->name, "kernel_stack"))
			return plain(f, mr, rec, ev);
	}
	return comment(f, mr, rec, ev);
}

void ftc_graph_header(struct ftc_format *f, const char *tracer)
{
	bool abstime = f->flags & FTC_FMT_GRAPH_ABSTIME, proc = f->flags & FTC_FMT_GRAPH_PROC;

	fprintf(f->out, "# tracer: %s\n#\n", tracer);
	fprintf(f->out, "#%s CPU%s  DURATION                  FUNCTION CALLS\n",
		abstime ? "     TIME       " : "", proc ? "  TASK/PID       " : "");
	fprintf(f->out, "#%s |  %s   |   |                     |   |   |   |\n",
		abstime ? "      |         " : "", proc ? "   |    |        " : "");
}

void ftc_graph_kernel_flush(struct ftc_format *f)
{
	release_entry(f);
}

void ftc_graph_kernel_free(struct ftc_format *f)
{
	/* ftc_format_free prints what this leaves in f->seq. */
	release_entry(f);
	free(f->graph);
	f->graph = NULL;
}
