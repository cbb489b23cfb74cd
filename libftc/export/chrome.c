// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Chrome Trace Event Format writer (see ftc-chrome.h): one JSON object
 * a line inside "traceEvents", written as the records come. Times are
 * microseconds with the nanoseconds as three decimals. A function_graph
 * call is its funcgraph_exit record alone: the exit carries the call's
 * duration (rettime - calltime, on the kernel's graph clock), so the call
 * ends at the record and began that long before, with no entry to pair.
 * The CPU lanes are threads of a process no task has (pid 2^31 - 1).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-chrome.h"
#include "ftc-merge.h"
#include "ftc-reader.h"
#include "export-perf.h"
#include "export-util.h"
#include "pass-util.h"
#include "format.h"
#include "keytab.h"
#include "opts.h"
#include "reader.h"

#define LANES_PID	2147483647
#define MAX_COUNTERS	64

struct ch_cpu {
	bool known;			/* a switch was met: since is when it began */
	uint64_t since;
};

struct ch_counter {
	char name[64];
	double last;
};

struct ftc_chrome {
	struct ftc_reader *r;
	struct tep_handle *tep;
	FILE *out;
	struct ftc_chrome_opts o;
	struct ftc_chrome_stats st;
	struct trace_seq seq;
	bool failed, any;
	struct ch_cpu *cpus;
	int ncpus;
	struct ftc_keytab tasks;	/* the tids that events were written for */
	int perf_buffer;		/* the ftc_perf buffer's index, -1 */
	struct ftc_xperf xp;
	struct ftc_perf_frame frames[FTC_XPERF_MAX_FRAMES];
	struct ch_counter counters[MAX_COUNTERS];
	int ncounters;
	int id_switch, id_exit, id_print;
	struct tep_format_field *prev_pid, *prev_comm, *next_pid;
	struct tep_format_field *func, *calltime, *rettime, *depth;
	struct tep_format_field *buf;
};

/*
 * Numbers are written by hand: printf was half of a conversion's time.
 * num() puts v's digits before end and returns where they start.
 */
static char *num(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void put_int(struct trace_seq *s, long long v)
{
	char buf[24], *p = num(buf + sizeof(buf) - 1, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);

	buf[sizeof(buf) - 1] = '\0';
	if (v < 0)
		*--p = '-';
	trace_seq_puts(s, p);
}

/* ,"KEY":MICROSECONDS.NNN */
static void ts(struct trace_seq *s, const char *key, uint64_t ns)
{
	char buf[32], *p;

	buf[sizeof(buf) - 1] = '\0';
	p = num(buf + sizeof(buf) - 1, ns % 1000 + 1000) + 1;	/* three digits, zeros kept */
	*--p = '.';
	p = num(p, ns / 1000);
	trace_seq_puts(s, ",\"");
	trace_seq_puts(s, key);
	trace_seq_puts(s, "\":");
	trace_seq_puts(s, p);
}

/* Opens an event: its name (len bytes), category, phase and time. */
static struct trace_seq *head(struct ftc_chrome *c, const char *name, size_t len,
			      const char *cat, const char *ph, uint64_t at)
{
	struct trace_seq *s = &c->seq;

	trace_seq_reset(s);
	trace_seq_puts(s, c->any ? ",\n{\"name\":" : "{\"name\":");
	ftc_json_str(s, name, len);
	trace_seq_puts(s, ",\"cat\":\"");
	trace_seq_puts(s, cat);
	trace_seq_puts(s, "\",\"ph\":\"");
	trace_seq_puts(s, ph);
	trace_seq_putc(s, '"');
	ts(s, "ts", at);
	return s;
}

static void task(struct ftc_chrome *c, int tid)
{
	int added;

	ftc_keytab_get(&c->tasks, (uint64_t)(uint32_t)tid, &added);
}

/* Closes the event opened by head(), with its pid and tid, and writes it. */
static int put(struct ftc_chrome *c, int pid, int tid)
{
	struct trace_seq *s = &c->seq;

	trace_seq_puts(s, ",\"pid\":");
	put_int(s, pid);
	trace_seq_puts(s, ",\"tid\":");
	put_int(s, tid);
	trace_seq_putc(s, '}');
	if (pid != LANES_PID)
		task(c, tid);
	c->any = true;
	c->st.events++;
	if (s->state != TRACE_SEQ__GOOD)
		return ftc_error(ENOMEM, "out of memory");
	if (fwrite(s->buffer, 1, s->len, c->out) != s->len) {
		c->failed = true;
		return ftc_error(errno ? errno : EIO, "cannot write the JSON: %s",
				 strerror(errno ? errno : EIO));
	}
	return 0;
}

static int graph_exit(struct ftc_chrome *c, struct tep_record *rec, int pid)
{
	uint64_t call = (uint64_t)ftc_pass_num(c->calltime, rec);
	uint64_t ret = (uint64_t)ftc_pass_num(c->rettime, rec);
	uint64_t dur = ret >= call ? ret - call : 0;
	char hex[24];
	const char *fn = ftc_export_ksym(c->r, (uint64_t)ftc_pass_num(c->func, rec), hex);
	struct trace_seq *s = head(c, fn, strlen(fn), "function_graph", "X",
				   rec->ts >= dur ? rec->ts - dur : 0);

	ts(s, "dur", dur);
	if (c->depth) {
		trace_seq_puts(s, ",\"args\":{\"depth\":");
		put_int(s, ftc_pass_num(c->depth, rec));
		trace_seq_putc(s, '}');
	}
	c->st.calls++;
	return put(c, pid, pid);
}

/* atrace's "C|PID|NAME|VALUE": a counter; 0 when the text is not one. */
static int counter_marker(struct ftc_chrome *c, const char *t, size_t n, uint64_t at, int pid)
{
	const char *name = memchr(t + 2, '|', n - 2), *bar;
	char num[32], *end;
	double v;

	if (!name || !(bar = memchr(name + 1, '|', (size_t)(t + n - name - 1))) ||
	    (size_t)(t + n - bar - 1) >= sizeof(num) || t + n == bar + 1)
		return 0;
	memcpy(num, bar + 1, (size_t)(t + n - bar - 1));
	num[t + n - bar - 1] = '\0';
	v = strtod(num, &end);
	if (*end)
		return 0;
	trace_seq_printf(head(c, name + 1, (size_t)(bar - name - 1), "marker", "C", at),
			 ",\"args\":{\"value\":%.17g}", v);
	return put(c, pid, pid) < 0 ? -1 : 1;
}

static int marker(struct ftc_chrome *c, struct tep_record *rec, int pid)
{
	size_t n = 0;
	const char *t = ftc_pass_str(c->buf, rec, &n), *name;
	int ret;

	while (t && n && (t[n - 1] == '\n' || t[n - 1] == ' '))
		n--;
	if (!t || !n)
		return 0;
	c->st.markers++;
	if (n > 2 && !strncmp(t, "B|", 2) && (name = memchr(t + 2, '|', n - 2))) {
		head(c, name + 1, (size_t)(t + n - name - 1), "marker", "B", rec->ts);
		return put(c, pid, pid);
	}
	if (t[0] == 'E' && (n == 1 || t[1] == '|')) {
		head(c, "", 0, "marker", "E", rec->ts);
		return put(c, pid, pid);
	}
	if (n > 2 && !strncmp(t, "C|", 2) && (ret = counter_marker(c, t, n, rec->ts, pid)))
		return ret < 0 ? -1 : 0;
	trace_seq_puts(head(c, t, n, "marker", "i", rec->ts), ",\"s\":\"t\"");
	return put(c, pid, pid);
}

/* What ran on the CPU from the switch before to this one (the idle task: nothing). */
static int lane(struct ftc_chrome *c, struct tep_record *rec, int cpu)
{
	struct ch_cpu *l, *grown;
	int prev = (int)ftc_pass_num(c->prev_pid, rec), ret = 0;
	size_t n = 0;
	const char *comm;

	if (cpu < 0 || cpu >= FTC_MAX_CPUS)
		return 0;	/* a damaged file's CPU number: no lane for it */
	grown = ftc_export_grow(c->cpus, &c->ncpus, cpu, sizeof(*c->cpus));
	if (!grown)
		return -1;
	c->cpus = grown;
	l = &c->cpus[cpu];
	if (l->known && prev > 0) {
		comm = ftc_pass_str(c->prev_comm, rec, &n);
		head(c, comm ? comm : "", comm ? n : 0, "sched", "X", l->since);
		ts(&c->seq, "dur", rec->ts - l->since);
		trace_seq_puts(&c->seq, ",\"args\":{\"pid\":");
		put_int(&c->seq, prev);
		trace_seq_putc(&c->seq, '}');
		c->st.slices++;
		ret = put(c, LANES_PID, cpu);
	}
	l->known = true;
	l->since = rec->ts;
	return ret;
}

/*
 * The frames root first, joined by ';', the kernel's marked "_[k]": the
 * folded stacks of flame graphs (ftc report --folded, perf script).
 */
static void stack_text(struct trace_seq *s, const struct ftc_perf_frame *f, int n)
{
	char text[4096];
	size_t at = 0;

	for (int i = n - 1; i >= 0 && at < sizeof(text) - 1; i--)
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s%s",
				       i == n - 1 ? "" : ";", f[i].sym, f[i].kernel ? "_[k]" : "");
	ftc_json_str(s, text, sizeof(text));
}

static int sample(struct ftc_chrome *c, struct tep_record *rec)
{
	struct ftc_xperf_sample smp;
	const char *leaf;
	struct trace_seq *s;

	ftc_xperf_sample(&c->xp, rec, &smp, c->frames);
	leaf = smp.nframes > 0 ? c->frames[0].sym : "[unknown]";
	s = head(c, leaf, strlen(leaf), "sample", "i", rec->ts);
	trace_seq_puts(s, ",\"s\":\"t\",\"args\":{\"stack\":");
	stack_text(s, c->frames, smp.nframes);
	trace_seq_printf(s, ",\"period\":%" PRIu64 "}", smp.period);
	c->st.samples++;
	return put(c, (int)smp.pid, (int)smp.tid);
}

/* A reading as the count since the one before, on the CPU lanes' process. */
static int reading(struct ftc_chrome *c, struct tep_record *rec)
{
	struct ftc_xperf_reading rd;
	struct ch_counter *k = NULL;
	double delta;

	ftc_xperf_reading(&c->xp, rec, &rd);
	for (int i = 0; i < c->ncounters && !k; i++)
		if (strlen(c->counters[i].name) == rd.len &&
		    !strncmp(c->counters[i].name, rd.name, rd.len))
			k = &c->counters[i];
	if (!k && c->ncounters < MAX_COUNTERS) {
		k = &c->counters[c->ncounters++];
		snprintf(k->name, sizeof(k->name), "%.*s", (int)rd.len, rd.name);
	}
	if (!k)
		return 0;
	delta = rd.value - k->last;
	k->last = rd.value;
	trace_seq_printf(head(c, k->name, strlen(k->name), "perf", "C", rec->ts),
			 ",\"args\":{\"count\":%.17g}", delta);
	c->st.readings++;
	return put(c, LANES_PID, 0);
}

static int lost(struct ftc_chrome *c, const struct ftc_merge_record *mr)
{
	char name[64];

	if (mr->missed > 0)
		snprintf(name, sizeof(name), "lost %lld events", mr->missed);
	else
		snprintf(name, sizeof(name), "lost events");
	trace_seq_puts(head(c, name, strlen(name), "lost", "i", mr->rec->ts), ",\"s\":\"g\"");
	c->st.lost++;
	return put(c, LANES_PID, mr->cpu);
}

int ftc_chrome_add(struct ftc_chrome *c, const struct ftc_merge_record *mr)
{
	struct tep_record *rec = mr->rec;
	int id, pid;

	if (c->failed)
		return -1;
	c->st.records++;
	if (mr->missed && lost(c, mr) < 0)
		return -1;
	if (mr->buffer == c->perf_buffer) {
		switch (ftc_xperf_kind(&c->xp, rec)) {
		case FTC_XPERF_SAMPLE: return sample(c, rec);
		case FTC_XPERF_COUNTER: return reading(c, rec);
		default: return 0;
		}
	}
	id = tep_data_type(c->tep, rec);
	pid = tep_data_pid(c->tep, rec);
	if (id == c->id_exit)
		return graph_exit(c, rec, pid);
	if (id == c->id_print)
		return marker(c, rec, pid);
	if (id == c->id_switch && !c->o.no_cpu_lanes)
		return lane(c, rec, mr->cpu);
	return 0;
}

static int meta(struct ftc_chrome *c, const char *what, const char *name, int pid, int tid)
{
	struct trace_seq *s = &c->seq;

	trace_seq_reset(s);
	trace_seq_printf(s, "%s{\"name\":\"%s\",\"ph\":\"M\",\"args\":{\"name\":",
			 c->any ? ",\n" : "", what);
	ftc_json_str(s, name, 256);
	trace_seq_puts(s, "}");
	return put(c, pid, tid);
}

static int names(struct ftc_chrome *c)
{
	char lane_name[32];

	for (size_t i = 0; i < c->tasks.n; i++) {
		int tid = (int)c->tasks.keys[i];
		const char *comm = tep_data_comm_from_pid(c->tep, tid);

		if (meta(c, "thread_name", comm, tid, tid) < 0 ||
		    meta(c, "process_name", comm, tid, tid) < 0)
			return -1;
	}
	if (!c->ncpus && !c->ncounters && !c->st.lost)
		return 0;
	if (meta(c, "process_name", "CPUs", LANES_PID, 0) < 0)
		return -1;
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		snprintf(lane_name, sizeof(lane_name), "CPU %d", cpu);
		if (meta(c, "thread_name", lane_name, LANES_PID, cpu) < 0)
			return -1;
	}
	return 0;
}

int ftc_chrome_finish(struct ftc_chrome *c)
{
	if (c->failed || names(c) < 0)
		return -1;
	if (fputs("\n]}\n", c->out) == EOF || fflush(c->out) != 0) {
		c->failed = true;
		return ftc_error(errno, "cannot write the JSON: %s", strerror(errno));
	}
	return 0;
}

static int event_id(struct ftc_reader *r, const char *sys, const char *name)
{
	struct tep_event *ev = ftc_reader_find_event(r, sys, name);

	return ev ? ev->id : -1;
}

static struct tep_format_field *field_of(struct ftc_reader *r, const char *sys,
					 const char *event, const char *name)
{
	struct tep_event *ev = ftc_reader_find_event(r, sys, event);

	return ev ? tep_find_field(ev, name) : NULL;
}

/* The events written and their fields; one that lacks a field is not taken. */
static void look_up(struct ftc_chrome *c)
{
	struct ftc_reader *r = c->r;

	c->id_switch = event_id(r, "sched", "sched_switch");
	c->prev_pid = field_of(r, "sched", "sched_switch", "prev_pid");
	c->prev_comm = field_of(r, "sched", "sched_switch", "prev_comm");
	if (!c->prev_pid || !c->prev_comm)
		c->id_switch = -1;
	c->id_exit = event_id(r, "ftrace", "funcgraph_exit");
	c->func = field_of(r, "ftrace", "funcgraph_exit", "func");
	c->calltime = field_of(r, "ftrace", "funcgraph_exit", "calltime");
	c->rettime = field_of(r, "ftrace", "funcgraph_exit", "rettime");
	c->depth = field_of(r, "ftrace", "funcgraph_exit", "depth");
	if (!c->func || !c->calltime || !c->rettime)
		c->id_exit = -1;
	c->id_print = event_id(r, "ftrace", "print");
	c->buf = field_of(r, "ftrace", "print", "buf");
	if (!c->buf)
		c->id_print = -1;
}

struct ftc_chrome *ftc_chrome_new(struct ftc_reader *r, FILE *out, const struct ftc_chrome_opts *o)
{
	struct ftc_chrome *c = calloc(1, sizeof(*c));

	if (!c) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	c->r = r;
	c->tep = ftc_reader_tep(r);
	c->out = out;
	c->st.size = sizeof(c->st);
	trace_seq_init(&c->seq);
	c->perf_buffer = -1;
	if (o && FTC_OPTS_COPY(&c->o, o, ftc_chrome_opts, no_cpu_lanes) < 0)
		goto fail;
	if (!c->tep) {
		ftc_error(EINVAL, "the reader was opened for metadata only");
		goto fail;
	}
	look_up(c);
	c->perf_buffer = ftc_xperf_buffer(r);
	if (c->perf_buffer >= 0 && ftc_xperf_open(&c->xp, r) < 0)
		goto fail;
	if (fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"writer\":\"ftc\"},"
		  "\"traceEvents\":[\n", out) == EOF) {
		ftc_error(errno, "cannot write the JSON: %s", strerror(errno));
		goto fail;
	}
	return c;
fail:
	ftc_chrome_free(c);
	return NULL;
}

int ftc_chrome_stats(const struct ftc_chrome *c, struct ftc_chrome_stats *st)
{
	return FTC_SIZED_FILL(st, &c->st, ftc_chrome_stats);
}

void ftc_chrome_free(struct ftc_chrome *c)
{
	if (!c)
		return;
	if (c->perf_buffer >= 0)
		ftc_xperf_close(&c->xp);
	trace_seq_destroy(&c->seq);
	free(c->cpus);
	ftc_keytab_free(&c->tasks);
	free(c);
}
