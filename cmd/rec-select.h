/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which records to print: CPUs, pids, comms and libtraceevent filters, the
 * one copy of those rules for ftc report (--cpu, --pid, --comm, -F) and
 * ftc stream (--cpu, --comm, --match; its pids are selected by the
 * kernel, -P).
 */
#ifndef FTC_CMD_REC_SELECT_H
#define FTC_CMD_REC_SELECT_H

#include <stdbool.h>
#include <stdint.h>

struct command;
struct ftc_reader;
struct ftc_merge_record;
struct tep_event_filter;

struct rec_select {
	uint64_t cpu_mask[16];
	bool have_cpus;
	char **comms, **filters;
	int ncomms, nfilters;
	int *pids;
	int npids;
	struct tep_event_filter *filter;
};

/* From option handlers: stores one value of a CPU list (CPUS), a pid list,
 * a comm glob or a filter; -1 after cmd_bad_value() or out of memory. */
int rec_select_cpus(struct rec_select *s, const char *arg);
int rec_select_pids(struct rec_select *s, const char *arg);
int rec_select_push(char ***list, int *n, const char *arg);
/* A filter: its syntax is checked now (exit 2 with a caret under the
 * place), its events and fields by rec_select_setup(). */
int rec_select_filter(struct rec_select *s, const char *arg);
/* Prints a filter on one line and a caret under column pos (stderr). */
void rec_filter_caret(const char *text, size_t pos);
/* From an option's handler: a kernel filter (record, start, stream -f, hist
 * -f) whose syntax is wrong is refused (exit 2, with a caret); 0 if good. */
int rec_filter_kernel(const char *arg);
/* Checks the filters against r's formats (ftc-filter.h) and compiles them;
 * 0, or the exit status after a message naming cmd, the option (opt) that
 * gave the filter, and the place in it that is wrong: 2 a malformed filter,
 * 3 an event or field the file lacks, 1 out of memory. */
int rec_select_setup(struct rec_select *s, struct ftc_reader *r, const struct command *cmd,
		     const char *opt);
/* Whether any selection was asked for. */
bool rec_select_any(const struct rec_select *s);
bool rec_select_cpu(const struct rec_select *s, int cpu);
/* The CPU, pid, comm and filter selections together. */
bool rec_select_match(struct rec_select *s, struct ftc_reader *r,
		      const struct ftc_merge_record *mr);
void rec_select_free(struct rec_select *s);

/* The output options of ftc report and ftc stream: --ns, --raw, --json,
 * --no-graph, --graph-proc, --graph-abstime. */
struct rec_output {
	bool ns, raw, json, no_graph, graph_proc, graph_abstime;
};

/* Their ftc_format_new() flags; graph: the kernel's function_graph layout
 * is wanted (the tracer is function_graph), unless an option says no. */
unsigned int rec_output_flags(const struct rec_output *o, bool graph);

#endif
