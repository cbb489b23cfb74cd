/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to ftc import (libftc/import/): the parsed dumps. */
#ifndef FTC_IMPORT_INTERNAL_H
#define FTC_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-import.h"

enum imp_kind {
	IMP_TEXT,		/* any other line: a "text" record */
	IMP_EVENT,		/* "name: text" */
	IMP_FUNC,		/* "func <-parent" */
	IMP_GRAPH_ENTRY,	/* "func() {" */
	IMP_GRAPH_EXIT,		/* "}" (name from the matching entry) */
	IMP_GRAPH_LEAF,		/* "func();": an entry and an exit */
};

#define IMP_COMM_LEN	16
#define IMP_TEXT_MAX	2048	/* longer texts are cut: a record must fit a page */

struct imp_rec {
	unsigned long line;
	int cpu;
	int pid;		/* -1: not known (a graph line before any task banner) */
	uint64_t ts;		/* ns */
	uint64_t calltime;	/* graph exits and leaves: ns */
	uint8_t flags, preempt;	/* common_flags, common_preempt_count */
	uint8_t kind;
	int depth;
	char *name;		/* event or function name */
	char *parent;		/* IMP_FUNC */
	char *text;		/* what is printed: the event's text, or the line */
};

struct imp_bad {
	unsigned long line;
	char text[81];
};

struct imp_task {
	int pid;
	char comm[IMP_COMM_LEN];
};

/* Per CPU, while a function_graph dump is parsed. */
struct imp_gcpu {
	int cpu;
	int pid;		/* the task the last banner switched to, -1 */
	size_t first_unknown;	/* records before then whose pid is not known */
	struct { int depth; char *name; uint64_t ts; } *stack;
	int nstack, capstack;
};

struct imp_dump {
	unsigned long first, end;
	char caller[16];	/* printk caller id of the "Dumping" line, "" */
	int level;		/* its log level, -1 */
	struct imp_rec *recs;
	size_t nrecs, caprecs;
	struct imp_bad *bad;
	size_t nbad, capbad;
	size_t foreign;
	bool in;		/* past the opening dashes */
	bool graph, latency, trace_layout, non_ns, abstime;
	bool gproc, glat;	/* function_graph's funcgraph-proc and latency columns */
	bool empty;		/* "(ftrace buffer empty)" */
	char *hash_lines;	/* the dump's own "# ..." lines */
	char *header;		/* built by ftc_imp_header() */
	uint64_t gclock;	/* function_graph: the clock rebuilt from durations */
	struct imp_gcpu *gcpus;
	int ngcpus;
	struct imp_task *tasks;	/* comm of each pid, from the records */
	size_t ntasks, captasks;
};

struct imp_sym {
	char *name;
	uint64_t addr;
};

struct ftc_import {
	struct imp_dump *dumps;
	int ndumps, capdumps;
	char *ksyms_text;
	size_t ksyms_len;
	struct imp_sym *syms;	/* sorted by name */
	size_t nsyms;
	size_t unresolved;
};

/* import-line.c: one log line without its printk, syslog or journal prefix. */
struct imp_line {
	const char *s;		/* the message */
	size_t len;
	int level;		/* <N>, -1 */
	char caller[16];	/* "T123", "C1", "" */
};
void ftc_imp_strip(const char *line, size_t len, struct imp_line *out);

/* import-parse.c: a dump's line, once known to be inside a dump. */
int ftc_imp_parse_line(struct imp_dump *d, const char *s, size_t len, unsigned long lineno);
int ftc_imp_add_bad(struct imp_dump *d, const char *s, size_t len, unsigned long lineno);
void ftc_imp_free_dump(struct imp_dump *d);
int ftc_imp_header(struct imp_dump *d);

/* import-syms.c */
const struct imp_sym *ftc_imp_sym(const struct ftc_import *im, const char *name);

#endif
