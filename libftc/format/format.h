/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The formatter's internals, shared by libftc/format/'s files. */
#ifndef FTC_FORMAT_INTERNAL_H
#define FTC_FORMAT_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>
#include <traceevent/trace-seq.h>

#include "ftc-format.h"
#include "ftc-merge.h"
#include "reader.h"

#define FTC_SCRATCH_SLACK	(1U << 17)	/* covers any u16 offset + u16 length */
struct ftc_format {
	struct ftc_reader *r;
	FILE *out;
	unsigned int flags;
	struct trace_seq seq;
	struct trace_seq tmp;		/* latency columns, JSON info: reused, not re-made per record */
	char *outbuf;
	size_t out_len, out_cap;
	char *scratch;			/* a record copy followed by zeros */
	size_t scratch_cap;
	int scratch_used;
	/* Memos of what libtraceevent printed: comm by pid, latency by flags. */
	struct { int pid; unsigned int gen; const char *comm; } comm_cache[1024];
	unsigned int comm_gen;		/* bumped when a plugin may register comms */
	struct { int key; char text[12]; } lat_cache[1024];
	int flags_off, preempt_off;	/* -1 until known */
	int pid_off;			/* common_pid: offset of a host-order s32, -2 none, -1 unknown */
	struct ftc_info_memo *memo;	/* format-memo.c */
	struct ftc_compiler *compiler;	/* format-compile.c */
	unsigned int memo_wait;		/* lookups before the memo is made */
	struct ftc_rec_shape **shapes;	/* format-check.c: by event id */
	int nshapes;
	/* One record of look-ahead on the current CPU, for function_graph. */
	int (*peek)(void *ctx, struct tep_record *next);
	void (*skip)(void *ctx);
	void *peek_ctx;
	/* The kernel's function_graph layout: per-CPU state (format-graph-kernel.c). */
	struct ftc_graph_state *graph;
};

/* Frees f for good (ftc_format_free parks one in its reader). */
void ftc_format_destroy(struct ftc_format *f);
/* Copies rec into f->scratch so printing never reads past the record. */
void ftc_format_safe_record(struct ftc_format *f, const struct tep_record *rec,
			    struct tep_record *copy);
void ftc_format_time(struct ftc_format *f, unsigned long long ts);
/* The record's pid, its comm and its latency columns, memoized (format-prefix.c). */
int ftc_format_pid(struct ftc_format *f, struct tep_record *rec, struct tep_event *ev);
const char *ftc_format_comm(struct ftc_format *f, int pid);
const char *ftc_format_latency(struct ftc_format *f, struct tep_record *rec,
			       struct tep_event *ev);
/* Appends "[inst: ]COMM-PID [CPU] flags TIMESTAMP" to f->seq. */
void ftc_format_prefix(struct ftc_format *f, const struct ftc_merge_record *mr,
		       struct tep_record *rec, struct tep_event *ev);
/* The same into dst, which has ftc_format_prefix_room bytes; its length. */
size_t ftc_format_prefix_put(struct ftc_format *f, const struct ftc_merge_record *mr,
			     struct tep_record *rec, struct tep_event *ev, char *dst);
size_t ftc_format_prefix_room(struct ftc_format *f, const struct ftc_merge_record *mr);
void ftc_format_line(struct ftc_format *f, const struct ftc_merge_record *mr,
		     struct tep_record *rec, struct tep_event *ev);
/* A JSON string of p's first max bytes (to a NUL); other bytes than ASCII as \u00XX. */
void ftc_json_str(struct trace_seq *s, const char *p, size_t max);
int ftc_format_json(struct ftc_format *f, const struct ftc_merge_record *mr,
		    struct tep_record *rec, struct tep_event *ev);
void ftc_format_json_lost(struct ftc_format *f, const struct ftc_merge_record *mr);
void ftc_format_json_damaged(struct ftc_format *f, const struct ftc_merge_record *mr,
			     struct tep_event *ev, const char *why);
/* The event's info text (what follows "name: "), from the memo when it can. */
const char *ftc_format_info(struct ftc_format *f, struct tep_record *rec, struct tep_event *ev,
			    int *len);
/* The same, printed into seq (not f->seq) when not memoized; raw: TEP_PRINT_INFO_RAW. */
const char *ftc_format_info_in(struct ftc_format *f, struct trace_seq *seq, bool raw,
			       struct tep_record *rec, struct tep_event *ev, int *len);
void ftc_format_memo_free(struct ftc_format *f);
/*
 * The info text of rec through ev's compiled print format (format-compile.c),
 * NUL-terminated, valid until the next call; NULL: libtraceevent prints it.
 */
const char *ftc_compile_print(struct ftc_format *f, struct tep_record *rec,
			      struct tep_event *ev, int *len);
void ftc_compile_free(struct ftc_format *f);
/*
 * 0 when libtraceevent can print rec as ev safely; -1 when the record is
 * damaged, with the reason in why.
 */
int ftc_format_check(struct ftc_format *f, struct tep_record *rec, struct tep_event *ev,
		     char *why, size_t n);
void ftc_format_check_free(struct ftc_format *f);
/* 1 when the graph code printed (or held back) the record. */
int ftc_graph_record(struct ftc_format *f, const struct ftc_merge_record *mr,
		     struct tep_record *rec, struct tep_event *ev);
void ftc_graph_flush(struct ftc_format *f);
/* What ftc_graph_record does to the merge, printing nothing (not for the kernel layout). */
void ftc_graph_skip(struct ftc_format *f, struct tep_record *rec, struct tep_event *ev);
void ftc_graph_free(struct ftc_format *f);
void ftc_graph_duration(struct trace_seq *s, unsigned long long ns);
/* A numeric field of rec, false when fd is NULL or lies past the record. */
struct tep_format_field;
bool ftc_graph_read_field(struct tep_format_field *fd, struct tep_record *rec,
			  unsigned long long *v);
/* The symbol of a kernel address, or 0x..., appended to f->seq. */
void ftc_graph_func(struct ftc_format *f, unsigned long long addr);
/* format-graph-kernel.c: the trace file's layout (FTC_FMT_GRAPH_KERNEL). */
int ftc_graph_kernel_record(struct ftc_format *f, const struct ftc_merge_record *mr,
			    struct tep_record *rec, struct tep_event *ev);
void ftc_graph_header(struct ftc_format *f, const char *tracer);
void ftc_graph_kernel_flush(struct ftc_format *f);
void ftc_graph_kernel_free(struct ftc_format *f);

#endif
