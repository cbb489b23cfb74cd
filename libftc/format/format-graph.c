// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The function and function_graph tracers' layouts, as the kernel prints
 * them:
 *   function:        func <-parent
 *   function_graph:  an entry directly followed (same CPU) by its exit is
 *                    folded into one leaf line "func();" with its duration;
 *                    otherwise "func() {" ... "}" nested by depth.
 * Folding looks one record ahead on the same CPU (through the merge), so
 * the output order stays the timestamp order. This file prints the graph
 * after each record's "TASK-PID [CPU] flags TIMESTAMP: event:" prefix (the
 * events layout); FTC_FMT_GRAPH_KERNEL hands every record to
 * format-graph-kernel.c, the trace file's own columns.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "format.h"

static bool field_u64(struct tep_event *ev, struct tep_record *rec, const char *name,
		      unsigned long long *v)
{
	return ftc_graph_read_field(tep_find_field(ev, name), rec, v);
}

static void graph_prefix(struct ftc_format *f, const struct ftc_merge_record *mr,
			 struct tep_record *rec, struct tep_event *ev)
{
	ftc_format_prefix(f, mr, rec, ev);
	trace_seq_printf(&f->seq, ": %s: ", ev->name);
}

static void indent(struct ftc_format *f, unsigned long long depth)
{
	trace_seq_printf(&f->seq, "|  %*s", (int)(depth > 64 ? 128 : depth * 2), "");
}

static bool is_exit_of(struct ftc_format *f, struct tep_record *next, unsigned long long func,
		       unsigned long long depth, int pid, unsigned long long *dur,
		       unsigned long long entry_ts)
{
	struct tep_event *ev;
	unsigned long long nf, nd, ct, rt;

	if (next->size < 8)
		return false;
	ev = ftc_reader_event(f->r, next);
	if (!ev || strcmp(ev->name, "funcgraph_exit") || strcmp(ev->system, "ftrace"))
		return false;
	if (!field_u64(ev, next, "func", &nf) || !field_u64(ev, next, "depth", &nd) ||
	    nf != func || nd != depth || tep_data_pid(f->r->tep, next) != pid)
		return false;
	if (field_u64(ev, next, "calltime", &ct) && field_u64(ev, next, "rettime", &rt) &&
	    rt >= ct)
		*dur = rt - ct;
	else
		*dur = next->ts >= entry_ts ? next->ts - entry_ts : 0;
	return true;
}

/* Whether the entry's exit comes next on its CPU (then the merge skips it). */
static bool takes_exit(struct ftc_format *f, struct tep_record *rec, unsigned long long func,
		       unsigned long long depth, unsigned long long *dur)
{
	struct tep_record next;

	/* next points into the reader's window, which stays put until skip. */
	if (!f->peek || f->peek(f->peek_ctx, &next) != 1 ||
	    !is_exit_of(f, &next, func, depth, tep_data_pid(f->r->tep, rec), dur, rec->ts))
		return false;
	f->skip(f->peek_ctx);
	return true;
}

static int graph_entry(struct ftc_format *f, const struct ftc_merge_record *mr,
		       struct tep_record *rec, struct tep_event *ev)
{
	unsigned long long func, depth, dur = 0;

	if (!field_u64(ev, rec, "func", &func) || !field_u64(ev, rec, "depth", &depth))
		return 0;
	graph_prefix(f, mr, rec, ev);
	if (takes_exit(f, rec, func, depth, &dur)) {
		ftc_graph_duration(&f->seq, dur);
		indent(f, depth);
		ftc_graph_func(f, func);
		trace_seq_puts(&f->seq, "();\n");
	} else {
		trace_seq_printf(&f->seq, "%14s", "");
		indent(f, depth);
		ftc_graph_func(f, func);
		trace_seq_puts(&f->seq, "() {\n");
	}
	return 1;
}

static int graph_exit(struct ftc_format *f, const struct ftc_merge_record *mr,
		      struct tep_record *rec, struct tep_event *ev)
{
	unsigned long long depth, ct, rt;

	if (!field_u64(ev, rec, "depth", &depth))
		return 0;
	graph_prefix(f, mr, rec, ev);
	if (field_u64(ev, rec, "calltime", &ct) && field_u64(ev, rec, "rettime", &rt) && rt >= ct)
		ftc_graph_duration(&f->seq, rt - ct);
	else
		trace_seq_printf(&f->seq, "%14s", "");
	indent(f, depth);
	trace_seq_puts(&f->seq, "}\n");
	return 1;
}

static int function_line(struct ftc_format *f, const struct ftc_merge_record *mr,
			 struct tep_record *rec, struct tep_event *ev)
{
	unsigned long long ip, parent;

	if (!field_u64(ev, rec, "ip", &ip) || !field_u64(ev, rec, "parent_ip", &parent))
		return 0;
	ftc_format_prefix(f, mr, rec, ev);
	trace_seq_puts(&f->seq, ": ");
	ftc_graph_func(f, ip);
	trace_seq_puts(&f->seq, " <-");
	ftc_graph_func(f, parent);
	trace_seq_putc(&f->seq, '\n');
	return 1;
}

int ftc_graph_record(struct ftc_format *f, const struct ftc_merge_record *mr,
		     struct tep_record *rec, struct tep_event *ev)
{
	if (f->flags & FTC_FMT_GRAPH_KERNEL)
		return (f->flags & FTC_FMT_RAW) ? 0 : ftc_graph_kernel_record(f, mr, rec, ev);
	/* Cheap test first: this runs for every record. */
	if (!ev || !ev->system || ev->system[0] != 'f' || strcmp(ev->system, "ftrace") ||
	    (f->flags & FTC_FMT_RAW))
		return 0;
	if (!strcmp(ev->name, "funcgraph_entry"))
		return graph_entry(f, mr, rec, ev);
	if (!strcmp(ev->name, "funcgraph_exit"))
		return graph_exit(f, mr, rec, ev);
	if (!strcmp(ev->name, "function"))
		return function_line(f, mr, rec, ev);
	return 0;
}

void ftc_graph_skip(struct ftc_format *f, struct tep_record *rec, struct tep_event *ev)
{
	unsigned long long func, depth, dur;

	if ((f->flags & (FTC_FMT_GRAPH_KERNEL | FTC_FMT_RAW)) || !ev || !ev->system ||
	    strcmp(ev->system, "ftrace") || strcmp(ev->name, "funcgraph_entry") ||
	    !field_u64(ev, rec, "func", &func) || !field_u64(ev, rec, "depth", &depth))
		return;
	takes_exit(f, rec, func, depth, &dur);
}

void ftc_graph_flush(struct ftc_format *f)
{
	ftc_graph_kernel_flush(f);
}

void ftc_graph_free(struct ftc_format *f)
{
	ftc_graph_kernel_free(f);
}
