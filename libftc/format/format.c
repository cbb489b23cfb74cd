// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Records as the kernel's trace file shows them:
 *   TASK-PID [CPU] flags TIMESTAMP: event: fields
 * The fields come from the event's print format through libtraceevent (and
 * its plugins); the rest of the line is laid out here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "format.h"
#include "merge.h"

/* Output is gathered in f->outbuf and written in large blocks. */
#define OUT_CAP		(256 * 1024)
#define OUT_START	(16 * 1024)	/* grows to OUT_CAP: a short report stays small */

/*
 * A reader may format again (report --last, the fuzzer's text, JSON and
 * function_graph walks): the last format freed waits in the reader, and the
 * next one takes over its buffers and caches (record shapes, comms, latency
 * columns, the info memo), which depend on the reader alone; the memo also
 * on FTC_FMT_RAW. Making them afresh was a short file's largest cost.
 */
static struct ftc_format *take_spare(struct ftc_reader *r, FILE *out, unsigned int flags)
{
	struct ftc_format *f = r->spare_format;

	if (!f)
		return NULL;
	r->spare_format = NULL;
	if ((f->flags ^ flags) & FTC_FMT_RAW)
		ftc_format_memo_free(f);
	f->out = out;
	f->flags = flags;
	f->comm_gen++;	/* comms registered since may have replaced the cached strings */
	ftc_format_set_merge(f, NULL);
	return f;
}

struct ftc_format *ftc_format_new(struct ftc_reader *r, FILE *out, unsigned int flags)
{
	struct ftc_format *f = take_spare(r, out, flags);

	if (f)
		return f;
	f = calloc(1, sizeof(*f));
	if (!f) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	f->r = r;
	f->out = out;
	f->flags = flags;
	f->scratch_cap = (size_t)r->page_size + FTC_SCRATCH_SLACK;
	f->scratch = calloc(1, f->scratch_cap);
	f->flags_off = f->preempt_off = f->pid_off = -1;
	if (!f->scratch) {
		free(f);
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	f->outbuf = malloc(OUT_START);
	f->out_cap = f->outbuf ? OUT_START : 0;
	trace_seq_init(&f->seq);
	trace_seq_init(&f->tmp);
	return f;
}

void ftc_format_destroy(struct ftc_format *f)
{
	if (!f)
		return;
	ftc_format_memo_free(f);
	ftc_compile_free(f);
	ftc_format_check_free(f);
	free(f->outbuf);
	trace_seq_destroy(&f->seq);
	trace_seq_destroy(&f->tmp);
	free(f->scratch);
	free(f);
}

void ftc_format_free(struct ftc_format *f)
{
	if (!f)
		return;
	ftc_graph_free(f);
	ftc_format_flush(f);
	if (f->r->spare_format) {
		ftc_format_destroy(f);
		return;
	}
	trace_seq_reset(&f->seq);
	trace_seq_reset(&f->tmp);
	f->r->spare_format = f;
	f->r->spare_destroy = ftc_format_destroy;
}

static int merge_peek(void *ctx, struct tep_record *next)
{
	return ftc_merge_peek_same_cpu(ctx, next);
}

static void merge_skip(void *ctx)
{
	ftc_merge_skip_peeked(ctx);
}

void ftc_format_set_merge(struct ftc_format *f, struct ftc_merge *m)
{
	f->peek = m ? merge_peek : NULL;
	f->skip = m ? merge_skip : NULL;
	f->peek_ctx = m;
}

void ftc_format_safe_record(struct ftc_format *f, const struct tep_record *rec,
			    struct tep_record *copy)
{
	size_t n = rec->size > 0 ? (size_t)rec->size : 0;

	if (n > f->scratch_cap - FTC_SCRATCH_SLACK)
		n = f->scratch_cap - FTC_SCRATCH_SLACK;
	/* Only the bytes the last record left need clearing. */
	if (f->scratch_used > (int)n)
		memset(f->scratch + n, 0, (size_t)f->scratch_used - n);
	memcpy(f->scratch, rec->data, n);
	f->scratch_used = (int)n;
	*copy = *rec;
	copy->data = f->scratch;
	copy->size = (int)n;
}

/* Microseconds rounded to the nearest, as the kernel's ns2usecs() prints them. */
const char *ftc_record_event_name(struct ftc_reader *r, struct tep_record *rec)
{
	struct tep_event *ev = ftc_reader_event(r, rec);

	return ev ? ev->name : "unknown";
}

static void out_flush(struct ftc_format *f)
{
	if (f->out_len)
		fwrite(f->outbuf, 1, f->out_len, f->out);
	f->out_len = 0;
}

/* Room for n more bytes; NULL only when out of memory (the text is dropped). */
static char *out_room(struct ftc_format *f, size_t n)
{
	if (f->out_len + n > f->out_cap && f->out_cap < OUT_CAP) {
		char *b = realloc(f->outbuf, f->out_cap * 4);

		if (b) {
			f->outbuf = b;
			f->out_cap *= 4;
		}
	}
	if (f->out_len + n > f->out_cap)
		out_flush(f);
	if (n > f->out_cap) {
		char *b = realloc(f->outbuf, n);

		if (!b)
			return NULL;
		f->outbuf = b;
		f->out_cap = n;
	}
	return f->outbuf + f->out_len;
}

static void out_put(struct ftc_format *f, const char *s, size_t n)
{
	char *p = out_room(f, n);

	if (p) {
		memcpy(p, s, n);
		f->out_len += n;
	}
}

/* Moves what the slow paths printed into f->seq to the output. */
static void out_seq(struct ftc_format *f)
{
	/* Most records leave it empty: a reset is a call and three stores. */
	if (!f->seq.len && !f->seq.readpos)
		return;
	if (f->seq.len)
		out_put(f, f->seq.buffer, (size_t)f->seq.len);
	trace_seq_reset(&f->seq);
}

void ftc_format_line(struct ftc_format *f, const struct ftc_merge_record *mr,
		     struct tep_record *rec, struct tep_event *ev)
{
	size_t nlen = ev ? strlen(ev->name) : 0;
	char *p = out_room(f, ftc_format_prefix_room(f, mr) + nlen + 4);
	const char *info;
	int len;

	if (!p)
		return;
	f->out_len += ftc_format_prefix_put(f, mr, rec, ev, p);
	if (!ev) {
		trace_seq_printf(&f->seq, ": [unknown event %d, %d bytes]\n",
				 f->r->tep ? tep_data_type(f->r->tep, rec) : -1, rec->size);
		out_seq(f);
		return;
	}
	p = f->outbuf + f->out_len;
	memcpy(p, ": ", 2);
	memcpy(p + 2, ev->name, nlen);
	memcpy(p + 2 + nlen, ": ", 2);
	f->out_len += nlen + 4;
	info = ftc_format_info(f, rec, ev, &len);
	/* trace_marker text ends with its own newline: one line per record. */
	while (len && info[len - 1] == '\n')
		len--;
	p = out_room(f, (size_t)len + 1);
	if (p) {
		memcpy(p, info, (size_t)len);
		p[len] = '\n';
		f->out_len += (size_t)len + 1;
	}
	if (f->seq.len || f->seq.readpos)
		trace_seq_reset(&f->seq);
}

static void lost_marker(struct ftc_format *f, const struct ftc_merge_record *mr)
{
	const char *bname = f->r->buffers[mr->buffer].name;

	if (f->flags & FTC_FMT_JSON) {
		ftc_format_json_lost(f, mr);
		return;
	}
	if ((f->flags & FTC_FMT_INSTANCE) && *bname)
		trace_seq_printf(&f->seq, "%s: ", bname);
	if (mr->missed > 0)
		trace_seq_printf(&f->seq, "CPU %d: [LOST %lld EVENTS]\n", mr->cpu, mr->missed);
	else
		trace_seq_printf(&f->seq, "CPU %d: [LOST EVENTS]\n", mr->cpu);
}

/* A record libtraceevent must not see: where it is and what is wrong with it. */
static void damaged_marker(struct ftc_format *f, const struct ftc_merge_record *mr,
			   const struct tep_record *rec, struct tep_event *ev, const char *why)
{
	const char *bname = f->r->buffers[mr->buffer].name;

	ftc_graph_flush(f);	/* a held function_graph entry came before it */
	if (f->flags & FTC_FMT_JSON) {
		ftc_format_json_damaged(f, mr, ev, why);
		return;
	}
	if ((f->flags & FTC_FMT_INSTANCE) && *bname)
		trace_seq_printf(&f->seq, "%s: ", bname);
	trace_seq_printf(&f->seq, "<damaged record: cpu %d offset 0x%llx: %s:%s %s>\n",
			 mr->cpu, rec->offset, ev->system, ev->name, why);
}

/*
 * Whether printing ev registers comms: plugin handlers (sched_switch's) do,
 * pure ones (ftc's syscalls plugin) do not, and -R text prints fields
 * without any handler, as trace-cmd -R does. Records not printed follow the
 * same rule, or the names would depend on the selection and on --jobs.
 */
static bool registers_comms(struct ftc_format *f, struct tep_event *ev)
{
	return ev->handler && !ftc_reader_handler_is_pure(f->r, ev) &&
	       (f->flags & (FTC_FMT_RAW | FTC_FMT_JSON)) != FTC_FMT_RAW;
}

int ftc_format_record(struct ftc_format *f, const struct ftc_merge_record *mr)
{
	struct tep_record rec;
	struct tep_event *ev;
	char why[160];

	ftc_format_safe_record(f, mr->rec, &rec);
	ev = ftc_reader_event(f->r, &rec);

	if (mr->missed) {
		ftc_graph_flush(f);	/* a held function_graph entry came before the loss */
		lost_marker(f, mr);
	}
	out_seq(f);
	if (ev && ftc_format_check(f, &rec, ev, why, sizeof(why)) < 0)
		damaged_marker(f, mr, &rec, ev, why);
	else if (f->flags & FTC_FMT_JSON)
		ftc_format_json(f, mr, &rec, ev);
	else if ((f->flags & FTC_FMT_NO_GRAPH) || !ftc_graph_record(f, mr, &rec, ev))
		ftc_format_line(f, mr, &rec, ev);
	/* Registered comms can replace the strings the cache points at: start it afresh. */
	if (ev && registers_comms(f, ev))
		f->comm_gen++;
	out_seq(f);
	return 0;
}

/* Runs an impure plugin handler for what it leaves behind (comms), printing nothing. */
static void run_handler(struct ftc_format *f, const struct ftc_merge_record *mr,
			struct tep_event *ev)
{
	struct tep_record rec;
	char why[160];

	/* Only those events are printed: copy just them into the scratch record. */
	if (!registers_comms(f, ev))
		return;
	ftc_format_safe_record(f, mr->rec, &rec);
	if (ftc_format_check(f, &rec, ev, why, sizeof(why)) < 0)
		return;
	trace_seq_reset(&f->tmp);
	tep_print_event(f->r->tep, &f->tmp, &rec, "%s", TEP_PRINT_INFO);
	f->comm_gen++;
}

void ftc_format_pass_over(struct ftc_format *f, const struct ftc_merge_record *mr)
{
	struct tep_event *ev = ftc_reader_event(f->r, mr->rec);

	if (ev)
		run_handler(f, mr, ev);
}

void ftc_format_skip_record(struct ftc_format *f, const struct ftc_merge_record *mr)
{
	struct tep_event *ev = ftc_reader_event(f->r, mr->rec);
	struct tep_record rec;
	char why[160];

	if (!ev)
		return;
	run_handler(f, mr, ev);
	/* As ftc_format_record: damaged records and JSON never fold. */
	if ((f->flags & (FTC_FMT_JSON | FTC_FMT_NO_GRAPH)) || !ev->system ||
	    ev->system[0] != 'f' || strcmp(ev->system, "ftrace"))
		return;
	ftc_format_safe_record(f, mr->rec, &rec);
	if (ftc_format_check(f, &rec, ev, why, sizeof(why)) == 0)
		ftc_graph_skip(f, &rec, ev);
}

void ftc_format_sync(struct ftc_format *f)
{
	out_seq(f);
	out_flush(f);
}

void ftc_format_flush(struct ftc_format *f)
{
	ftc_graph_flush(f);
	out_seq(f);
	out_flush(f);
}

static long long sum_stat(struct ftc_reader *r, int which)
{
	long long sum = 0;

	for (int b = 0; b < r->nbuffers; b++)
		for (int c = 0; c < r->buffers[b].ncpus; c++) {
			const struct ftc_dat_cpu *cpu = &r->buffers[b].cpus[c];
			long long v = which ? cpu->overrun : cpu->entries;

			/* A capture reads the buffer: what it read was in the buffer too. */
			if (!which && cpu->read_events > 0)
				v = (v > 0 ? v : 0) + cpu->read_events;
			if (v > 0)
				sum += v;
		}
	return sum;
}

void ftc_format_header(struct ftc_format *f, const char *tracer)
{
	long long entries = sum_stat(f->r, 0), overrun = sum_stat(f->r, 1);

	if (f->flags & FTC_FMT_JSON)
		return;
	if (f->flags & FTC_FMT_GRAPH_KERNEL) {
		ftc_graph_header(f, tracer);
		return;
	}
	fprintf(f->out, "# tracer: %s\n#\n", tracer);
	fprintf(f->out, "# entries-in-buffer/entries-written: %lld/%lld   #P:%d\n#\n",
		entries, entries + overrun, ftc_reader_ncpus(f->r));
	fputs("#                                _-----=> irqs-off/BH-disabled\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| / _-=> migrate-disable\n"
	      "#                              |||| /     delay\n"
	      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	      "#              | |         |   |||||     |         |\n", f->out);
}

static int guess_one(struct tep_record *rec, void *ctx)
{
	void **c = ctx;
	struct ftc_reader *r = c[0];
	const char *name = ftc_record_event_name(r, rec);

	if (!strcmp(name, "funcgraph_entry") || !strcmp(name, "funcgraph_exit")) {
		c[1] = "function_graph";
		return 1;
	}
	if (!strcmp(name, "function"))
		c[1] = "function";
	return 0;
}

/* How far past the heads a guess looks: a graph's records come early, or not at all. */
#define GUESS_RECORDS 4096

/*
 * The heads of m first; when none is the graph's, the first records of
 * the file in order: an event enabled before the tracer (a fork, a
 * marker) can head every CPU's stream (a busy lab guest did, in B11).
 */
const char *ftc_merge_guess_tracer(struct ftc_merge *m, struct ftc_reader *r)
{
	void *ctx[2] = { r, (void *)"nop" };
	struct ftc_merge_record mr;
	struct ftc_merge *ahead;

	if (ftc_merge_peek_events(m, guess_one, ctx))
		return ctx[1];
	ahead = ftc_merge_open(r, NULL);
	for (int n = 0; ahead && n < GUESS_RECORDS && ftc_merge_next(ahead, &mr) == 1; n++)
		if (guess_one(mr.rec, ctx))
			break;
	ftc_merge_close(ahead);
	return ctx[1];
}
