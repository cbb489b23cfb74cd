// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc report: print a trace.dat (v6/v7, trace-cmd's or ftc's) the way the
 * kernel's trace file reads, or as JSON lines, or as statistics, or draw it
 * as an HTML timeline; with selection by filter, CPU, pid, comm, event,
 * time window, first/last N.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "format-env.h"
#include "input.h"
#include "output.h"
#include "options.h"
#include "ftc.h"
#include "ftc-reader.h"
#include "parse-guard.h"
#include "pass.h"
#include "rec-select.h"
#include "report-initcalls.h"
#include "report-jobs.h"
#include "report-profile.h"
#include "report-sched.h"
#include "report-timeline.h"

enum {
	OPT_CPU = 0x100, OPT_PID, OPT_COMM, OPT_FROM, OPT_TO, OPT_FIRST, OPT_LAST,
	OPT_STAT, OPT_JSON, OPT_NO_HEADER, OPT_NO_GRAPH, OPT_NO_PLUGINS, OPT_INSTANCE,
	OPT_GRAPH_LAYOUT, OPT_GRAPH_PROC, OPT_GRAPH_ABSTIME, OPT_EVENT, OPT_INITCALLS, OPT_JOBS,
	OPT_TIMELINE,
};

static const struct cmd_option report_options[] = {
	{ 'i', "input", "FILE", "the trace.dat to read (default: trace.dat, or the argument)", 0 },
	{ 'F', "filter", "FILTER", "libtraceevent filter, e.g. 'sched_switch: prev_pid != 0' "
	  "(repeatable)", 0 },
	{ 0, "event", "EVENT", "only EVENT (name or system:name, globs allowed; repeatable)",
	  OPT_EVENT },
	{ 'e', "endian", NULL, "print the file's and this host's byte order and exit", 0 },
	{ 0, "cpu", "CPUS", "only these CPUs, e.g. 0-1,3", OPT_CPU },
	{ 0, "pid", "PIDS", "only these pids, comma-separated", OPT_PID },
	{ 0, "comm", "COMM", "only tasks with this command name (glob; repeatable)", OPT_COMM },
	{ 0, "instance", "NAME", "only this instance (top for the top buffer)",
	  OPT_INSTANCE },
	{ 0, "from", "SECONDS", "only records at or after this timestamp", OPT_FROM },
	{ 0, "to", "SECONDS", "only records at or before this timestamp", OPT_TO },
	{ 0, "first", "N", "print only the first N selected records", OPT_FIRST },
	{ 0, "last", "N", "print only the last N selected records", OPT_LAST },
	{ 'R', "raw", NULL, "print raw fields (name=value) instead of the print format", 0 },
	{ 't', "ns", NULL, "print timestamps in nanoseconds", 0 },
	{ 0, "stat", NULL, "counts per CPU and per event, lost events, overruns, clock, "
	  "instances", OPT_STAT },
	{ 0, "initcalls", NULL, "a boot-time capture's initcalls, slowest first",
	  OPT_INITCALLS },
	{ 0, "json", NULL, "one JSON object per record (see report-json.md)", OPT_JSON },
	{ 0, "timeline", "FILE.html", "draw CPUs, tasks' states, markers and samples into "
	  "one HTML page", OPT_TIMELINE },
	{ 0, "no-header", NULL, "do not print the '# tracer' header", OPT_NO_HEADER },
	{ 0, "no-graph", NULL, "do not fold function_graph entries and exits", OPT_NO_GRAPH },
	{ 0, "graph-layout", "LAYOUT", "function_graph layout: 'kernel' (default) or "
	  "'events' (with prefixes)", OPT_GRAPH_LAYOUT },
	{ 0, "graph-proc", NULL, "kernel layout: add the TASK/PID column (funcgraph-proc)",
	  OPT_GRAPH_PROC },
	{ 0, "graph-abstime", NULL, "kernel layout: add the TIME column (funcgraph-abstime)",
	  OPT_GRAPH_ABSTIME },
	{ 'N', "no-plugins", NULL, "do not load libtraceevent plugins", OPT_NO_PLUGINS },
	{ 0, "jobs", "N", "format with N processes, 1 to 16 (default: a CPU each, for big files)",
	  OPT_JOBS },
	REPORT_PROFILE_OPTIONS,
	FTC_HELP_OPTION,
	{ 0 }
};

/*
 * Which options go together. The outputs: text (no mode option), --json,
 * --stat, -e, --initcalls, and the sample profile's three, which combine.
 * Each row says which outputs an option applies to (an option without a
 * row applies to all): cmd_options_parse refuses the rest, --help marks
 * them, completion leaves them out.
 */
#define M_TEXT CMD_MODE_DEFAULT
#define M_JSON CMD_MODE(1)
#define M_STAT CMD_MODE(2)
#define M_ENDIAN CMD_MODE(3)
#define M_INITCALLS CMD_MODE(4)
#define M_PROF CMD_MODE(5)
#define M_FOLDED CMD_MODE(6)
#define M_FLAME CMD_MODE(7)
#define M_SCHED CMD_MODE(8)
#define M_TIMELINE CMD_MODE(9)
#define M_SAMPLES (M_PROF | M_FOLDED | M_FLAME)
#define M_RECORDS (M_TEXT | M_JSON)
/* the records a selection picks are also counted (--stat) or profiled */
#define M_SELECT (M_RECORDS | M_STAT | M_SAMPLES)
/* not the samples: they are one event of one buffer (profile_keep) */
#define M_EVENTS (M_RECORDS | M_STAT)

static const struct cmd_mode_rule report_modes[] = {
	{ OPT_JSON, M_JSON, 0 },
	{ OPT_STAT, M_STAT, 0 },
	{ 'e', M_ENDIAN, 0 },
	{ OPT_INITCALLS, M_INITCALLS, 0 },
	{ OPT_RP_PROFILE, M_PROF, M_FOLDED | M_FLAME },
	{ OPT_RP_FOLDED, M_FOLDED, M_PROF | M_FLAME },
	{ OPT_RP_FLAME, M_FLAME, M_PROF | M_FOLDED },
	{ OPT_RP_TC_PROFILE, M_SCHED, 0 },
	{ OPT_TIMELINE, M_TIMELINE, 0 },
	{ 'F', 0, M_SELECT },
	{ OPT_CPU, 0, M_SELECT | M_TIMELINE },
	{ OPT_PID, 0, M_SELECT | M_TIMELINE },
	{ OPT_COMM, 0, M_SELECT },
	{ OPT_FROM, 0, M_SELECT | M_TIMELINE },
	{ OPT_TO, 0, M_SELECT | M_TIMELINE },
	{ OPT_EVENT, 0, M_EVENTS },
	{ OPT_INSTANCE, 0, M_EVENTS | M_SCHED | M_TIMELINE },
	{ OPT_FIRST, 0, M_RECORDS },
	{ OPT_LAST, 0, M_RECORDS },
	{ OPT_JOBS, 0, M_RECORDS },
	{ 't', 0, M_TEXT | M_INITCALLS },
	{ 'R', 0, M_TEXT },
	{ OPT_NO_HEADER, 0, M_TEXT },
	{ OPT_NO_GRAPH, 0, M_TEXT },
	{ OPT_GRAPH_LAYOUT, 0, M_TEXT },
	{ OPT_GRAPH_PROC, 0, M_TEXT },
	{ OPT_GRAPH_ABSTIME, 0, M_TEXT },
	{ OPT_RP_LIMIT, 0, M_PROF },
	{ OPT_RP_SYMFS, 0, M_RECORDS | M_SAMPLES },	/* samples print symbols in text too */
	{ 0 }
};

struct report {
	const char *input;
	char **events;
	int nevents;
	struct rec_select sel;	/* --cpu, --pid, --comm, -F */
	struct rec_output out;	/* --ns, -R, --json, --no-graph, --graph-proc/-abstime */
	bool stat, no_header;
	bool graph_events, graph_kernel;
	const char *tracer;		/* guessed from the records, for the graph layout */
	bool no_plugins;
	const char *instance;
	const char *timeline;		/* --timeline FILE.html */
	unsigned long long first, last;
	struct cmd_window win;		/* --from, --to */
	int jobs;			/* --jobs; 0: report_jobs_count's choice */
	bool have_first, have_last, endian, initcalls;

	struct report_profile prof;

	struct ftc_reader *r;
	int buffer_sel;
};

static int report_run(int argc, char **argv);

const struct command cmd_report = {
	.name = "report",
	.summary = "print a trace.dat (v6/v7) as text, JSON or statistics",
	.synopsis = "[options] [FILE]",
	.options = report_options,
	.run = report_run,
	.mode_rules = report_modes,
	.default_mode = "text",
};

static int report_opt(int id, const char *arg, void *ctx)
{
	struct report *rp = ctx;

	switch (id) {
	case 'i': rp->input = arg; return 0;
	case 'F': return rec_select_filter(&rp->sel, arg);
	case OPT_EVENT: return rec_select_push(&rp->events, &rp->nevents, arg);
	case 'e': rp->endian = true; return 0;
	case OPT_COMM: return rec_select_push(&rp->sel.comms, &rp->sel.ncomms, arg);
	case OPT_CPU: return rec_select_cpus(&rp->sel, arg);
	case OPT_PID: return rec_select_pids(&rp->sel, arg);
	case OPT_INSTANCE: rp->instance = arg; return 0;
	case 'R': rp->out.raw = true; return 0;
	case 't': rp->out.ns = true; return 0;
	case OPT_STAT: rp->stat = true; return 0;
	case OPT_INITCALLS: rp->initcalls = true; return 0;
	case OPT_JSON: rp->out.json = true; return 0;
	case OPT_TIMELINE: rp->timeline = arg; return report_timeline_opt(arg);
	case OPT_NO_HEADER: rp->no_header = true; return 0;
	case OPT_JOBS: {
		unsigned long long n;

		if (cmd_parse_u64(arg, &n) < 0 || n < 1 || n > REPORT_JOBS_MAX)
			return cmd_bad_value("not a number of processes (1 to 16)");
		rp->jobs = (int)n;
		return 0;
	}
	case OPT_NO_GRAPH: rp->out.no_graph = true; return 0;
	case OPT_NO_PLUGINS: rp->no_plugins = true; return 0;
	case OPT_GRAPH_PROC: rp->out.graph_proc = true; return 0;
	case OPT_GRAPH_ABSTIME: rp->out.graph_abstime = true; return 0;
	case OPT_GRAPH_LAYOUT:
		if (strcmp(arg, "kernel") && strcmp(arg, "events"))
			return cmd_bad_value("not a layout (kernel or events)");
		rp->graph_events = !strcmp(arg, "events");
		rp->graph_kernel = !rp->graph_events;	/* asked for: whatever the guess */
		return 0;
	case OPT_RP_PROFILE:
	case OPT_RP_TC_PROFILE:
	case OPT_RP_FOLDED:
	case OPT_RP_FLAME:
	case OPT_RP_SYMFS:
	case OPT_RP_LIMIT: return report_profile_opt(&rp->prof, id, arg);
	case OPT_FROM:
	case OPT_TO:
		return cmd_window_opt(&rp->win, id == OPT_FROM, arg);
	case OPT_FIRST:
	case OPT_LAST:
		if (cmd_parse_u64(arg, id == OPT_FIRST ? &rp->first : &rp->last) < 0)
			return cmd_bad_value("not a count of records");
		if (id == OPT_FIRST)
			rp->have_first = true;
		else
			rp->have_last = true;
		return 0;
	}
	return 0;
}

static bool event_matches(const char *want, const struct tep_event *ev)
{
	char full[512];

	snprintf(full, sizeof(full), "%s:%s", ev->system, ev->name);
	return !fnmatch(want, ev->name, 0) || !fnmatch(want, full, 0) ||
	       !strcmp(want, ev->system);
}

static bool event_selected(struct report *rp, struct tep_event *ev)
{
	if (!rp->nevents)
		return true;
	if (!ev)
		return false;
	for (int i = 0; i < rp->nevents; i++)
		if (event_matches(rp->events[i], ev))
			return true;
	return false;
}

/* An --event that names no event of the file is a slip, not an empty report. */
static int check_events(struct report *rp)
{
	struct tep_handle *tep = ftc_reader_tep(rp->r);
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID);

	for (int i = 0; i < rp->nevents; i++) {
		int k = 0;

		while (all && all[k] && !event_matches(rp->events[i], all[k]))
			k++;
		if (!all || !all[k]) {
			cmd_error(&cmd_report, "--event '%s': %s has no such event (`ftc report "
				  "--stat %s` counts those it holds)", rp->events[i], rp->input,
				  rp->input);
			return -1;
		}
	}
	return 0;
}

/* Every selection except the time window; 1 when the record is wanted. */
static bool selected(struct report *rp, const struct ftc_merge_record *mr)
{
	if (rp->buffer_sel >= 0 && mr->buffer != rp->buffer_sel)
		return false;
	if (!rec_select_cpu(&rp->sel, mr->cpu))
		return false;
	if (!event_selected(rp, ftc_reader_event(rp->r, mr->rec)))
		return false;
	return rec_select_match(&rp->sel, rp->r, mr);
}

/*
 * The samples a profile takes: the time window, --cpu and the task
 * selections. -e and -B do not apply: the samples are one event of one
 * buffer (ftc_perf), and their comm and mmap records are always read.
 */
static bool profile_keep(const struct ftc_merge_record *mr, void *ctx)
{
	struct report *rp = ctx;

	if (cmd_window_before(&rp->win, mr->rec->ts) || cmd_window_after(&rp->win, mr->rec->ts))
		return false;
	return rec_select_match(&rp->sel, rp->r, mr);
}

static bool profile_selects(const struct report *rp)
{
	return rp->win.have_from || rp->win.have_to || rec_select_any(&rp->sel);
}

static int find_instance(struct report *rp)
{
	const char *want = rp->instance;

	rp->buffer_sel = -1;
	if (!want)
		return 0;
	if (!strcmp(want, "top"))
		want = "";
	for (int i = 0; i < ftc_reader_nbuffers(rp->r); i++)
		if (!strcmp(ftc_reader_buffer(rp->r, i)->name, want))
			return rp->buffer_sel = i, 0;
	cmd_error(&cmd_report, "--instance '%s': %s has no such instance ('ftc dump "
		  "--buffers %s' lists them)", rp->instance, rp->input, rp->input);
	return -1;
}

/* --last N keeps the last N formatted records in a ring of strings. */
struct ring {
	char **lines;
	size_t n, head, count;
};

static void ring_push(struct ring *rg, char *text)
{
	free(rg->lines[rg->head]);
	rg->lines[rg->head] = text;
	rg->head = (rg->head + 1) % rg->n;
	if (rg->count < rg->n)
		rg->count++;
}

static void ring_print(struct ring *rg, FILE *out)
{
	size_t start = (rg->head + rg->n - rg->count) % rg->n;

	for (size_t i = 0; i < rg->count; i++) {
		size_t k = (start + i) % rg->n;

		fputs(rg->lines[k], out);
		free(rg->lines[k]);
		rg->lines[k] = NULL;
	}
}

static unsigned int format_flags(struct report *rp)
{
	unsigned int fl;
	bool instances = false;

	for (int i = 0; i < ftc_reader_nbuffers(rp->r); i++)
		if (*ftc_reader_buffer(rp->r, i)->name && ftc_reader_buffer(rp->r, i)->ncpus)
			instances = true;
	fl = rec_output_flags(&rp->out, ((rp->tracer && !strcmp(rp->tracer, "function_graph")) ||
					 rp->graph_kernel) && !rp->graph_events);
	if (instances && rp->buffer_sel < 0)
		fl |= FTC_FMT_INSTANCE;
	return fl;
}

static int print_records(struct report *rp, struct ftc_merge *m)
{
	struct ftc_format *f;
	struct ftc_merge_record mr;
	struct ring rg = { 0 };
	unsigned long long printed = 0;
	FILE *mem = NULL;
	char *buf = NULL;
	size_t blen = 0;
	struct report_jobs jobs = { .n = 1, .input = rp->input, .chunk = REPORT_JOBS_CHUNK };
	int ret;

	rp->tracer = ftc_merge_guess_tracer(m, rp->r);
	f = ftc_format_new(rp->r, stdout, format_flags(rp));
	if (!f)
		return -1;
	ftc_format_set_merge(f, m);
	if (!rp->no_header && !rp->out.json)
		ftc_format_header(f, rp->tracer);
	if (rp->have_last) {
		if (!rp->last)
			goto done;
		rg.n = rp->last;
		rg.lines = calloc(rg.n, sizeof(*rg.lines));
		if (!rg.lines || !(mem = open_memstream(&buf, &blen)))
			goto nomem;
		ftc_format_free(f);	/* its figures go on to the next */
		f = ftc_format_new(rp->r, mem, format_flags(rp));
		if (!f)
			goto nomem;
		ftc_format_set_merge(f, m);
	}
	/* --last keeps lines in memory: one process. */
	if (!mem && report_jobs_start(&jobs, report_jobs_count(rp->r, format_flags(rp), rp->jobs),
				      &f, m, rp->r, format_flags(rp)) < 0)
		goto fail;
	while ((ret = ftc_merge_next(m, &mr)) == 1) {
		if (cmd_window_after(&rp->win, mr.rec->ts))
			break;
		if (cmd_window_before(&rp->win, mr.rec->ts) || !selected(rp, &mr)) {
			ftc_format_pass_over(f, &mr);
			continue;
		}
		if (rp->have_first && printed >= rp->first)
			break;
		if (report_jobs_mine(&jobs, printed))
			ftc_format_record(f, &mr);
		else
			ftc_format_skip_record(f, &mr);
		printed++;
		if (report_jobs_step(&jobs, f, printed) < 0)
			goto fail;
		/* a full disk: main says so; formatting the rest would be wasted */
		if (cmd_output_failed())
			goto fail;
		if (mem) {
			ftc_format_flush(f);
			fflush(mem);
			ring_push(&rg, strndup(buf, blen));
			rewind(mem);
			blen = 0;
		}
	}
	if (report_jobs_finish(&jobs, f, printed) < 0)
		goto fail;
	ftc_format_flush(f);
	if (mem)
		ring_print(&rg, stdout);
done:
	format_env_free(f);
	if (mem)
		fclose(mem);
	free(buf);
	free(rg.lines);
	return 0;
nomem:
	format_env_free(f);
	if (mem)
		fclose(mem);
	free(buf);
	free(rg.lines);
	cmd_error(&cmd_report, "out of memory for --last %llu", rp->last);
	return -1;
fail:
	ftc_format_sync(f);	/* what came before the failure */
	format_env_free(f);
	return -1;
}

/* --stat: counts per event and per CPU, lost events, and the file's CPUSTAT. */
struct ev_count {
	char name[128];
	unsigned long long n;
};

/*
 * Counts per event name, in order of first appearance. An event id (the
 * record's 16-bit common_type) finds its name's slot at once: a search by
 * name for each of millions of records over hundreds of names was most of
 * --stat's time.
 */
struct ev_counts {
	struct ev_count *evs;
	int nevs;
	int *slot_of_id;	/* 65536 entries: slot + 1, 0: not seen yet */
};

static int ev_slot(struct ev_counts *c, const char *name)
{
	struct ev_count *n;
	int i;

	for (i = 0; i < c->nevs && strcmp(c->evs[i].name, name); i++)
		;
	if (i < c->nevs)
		return i;
	n = realloc(c->evs, (size_t)(c->nevs + 1) * sizeof(*n));
	if (!n)
		return -1;
	c->evs = n;
	snprintf(n[i].name, sizeof(n[i].name), "%s", name);
	n[i].n = 0;
	return c->nevs++;
}

/* Counts one record of ev (NULL: an unknown event); -1 when out of memory. */
static int ev_count_one(struct ev_counts *c, const struct tep_event *ev)
{
	int id = ev && ev->id >= 0 && ev->id < 65536 ? ev->id : -1;
	int i = id >= 0 ? c->slot_of_id[id] - 1 : -1;

	if (i < 0) {
		i = ev_slot(c, ev ? ev->name : "unknown");
		if (i < 0)
			return -1;
		if (id >= 0)
			c->slot_of_id[id] = i + 1;
	}
	c->evs[i].n++;
	return 0;
}

static int print_stat(struct report *rp, struct ftc_merge *m)
{
	struct ftc_reader *r = rp->r;
	int nb = ftc_reader_nbuffers(r);
	/* records, events lost, lost-event markers */
	unsigned long long (*per_cpu)[3] = calloc((size_t)nb * 1024, sizeof(*per_cpu));
	struct ev_counts counts = { .slot_of_id = calloc(65536, sizeof(int)) };
	unsigned long long total = 0, lost_unknown = 0;
	struct ftc_merge_record mr;

	if (!per_cpu || !counts.slot_of_id) {
		free(per_cpu);
		free(counts.slot_of_id);
		return -1;
	}
	while (ftc_merge_next(m, &mr) == 1) {
		if (cmd_window_before(&rp->win, mr.rec->ts))
			continue;
		if (cmd_window_after(&rp->win, mr.rec->ts))
			break;
		if (mr.missed && mr.cpu >= 0 && mr.cpu < 1024)
			per_cpu[mr.buffer * 1024 + mr.cpu][2]++;
		if (mr.missed > 0 && mr.cpu >= 0 && mr.cpu < 1024)
			per_cpu[mr.buffer * 1024 + mr.cpu][1] += (unsigned long long)mr.missed;
		else if (mr.missed < 0)
			lost_unknown++;
		if (!selected(rp, &mr))
			continue;
		total++;
		if (mr.cpu >= 0 && mr.cpu < 1024)
			per_cpu[mr.buffer * 1024 + mr.cpu][0]++;
		if (ev_count_one(&counts, ftc_reader_event(r, mr.rec)) < 0)
			break;
	}
	printf("file:       %s\nversion:    %d\ncompression: %s\nclock:      %s\n"
	       "cpus:       %d\npage size:  %u\n", rp->input, ftc_reader_version(r),
	       ftc_reader_compression(r), ftc_reader_clock(r), ftc_reader_ncpus(r),
	       ftc_reader_page_size(r));
	printf("instances:  %d\n", nb);
	printf("records:    %llu\n\nevents:\n", total);
	for (int i = 0; i < counts.nevs; i++)
		printf("  %-32s %llu\n", counts.evs[i].name, counts.evs[i].n);
	printf("\n%-20s %4s %10s %10s %7s %10s %10s %10s %10s\n", "instance", "cpu", "records",
	       "lost", "markers", "entries", "overrun", "commit-ovr", "dropped");
	for (int b = 0; b < nb; b++) {
		const struct ftc_dat_buffer *buf = ftc_reader_buffer(r, b);

		for (int c = 0; c < buf->ncpus; c++) {
			const struct ftc_dat_cpu *cpu = &buf->cpus[c];
			int idx = cpu->cpu >= 0 && cpu->cpu < 1024 ? cpu->cpu : 0;

			printf("%-20s %4d %10llu %10llu %7llu %10lld %10lld %10lld %10lld\n",
			       *buf->name ? buf->name : "(top)", cpu->cpu,
			       per_cpu[b * 1024 + idx][0], per_cpu[b * 1024 + idx][1],
			       per_cpu[b * 1024 + idx][2], cpu->entries, cpu->overrun, cpu->commit_overrun, cpu->dropped);
		}
	}
	if (lost_unknown)
		printf("\nlost-event markers without a count: %llu (their events are not in "
		       "'lost')\n", lost_unknown);
	free(per_cpu);
	free(counts.evs);
	free(counts.slot_of_id);
	return 0;
}

static void free_report(struct report *rp)
{
	rec_select_free(&rp->sel);
	ftc_reader_close(rp->r);
	free(rp->events);
}

/*
 * What the table of modes (report_modes) cannot say: two counts that exclude
 * each other and a window that holds nothing.
 */
static int check_combination(const struct report *rp)
{
	if (rp->have_first && rp->have_last) {
		cmd_error(&cmd_report, "--first and --last ask for different records: give one");
		return -1;
	}
	return cmd_window_check(&cmd_report, &rp->win);
}

/* Whether the file has CPU cpu: the recording machine's, or a buffer's. */
static bool file_has_cpu(struct ftc_reader *r, int cpu)
{
	if (cpu < ftc_reader_ncpus(r))
		return true;
	for (int b = 0; b < ftc_reader_nbuffers(r); b++) {
		const struct ftc_dat_buffer *buf = ftc_reader_buffer(r, b);

		for (int c = 0; c < buf->ncpus; c++)
			if (buf->cpus[c].cpu == cpu)
				return true;
	}
	return false;
}

/* A --cpu the file lacks is a slip, as an --event it lacks: not an empty report. */
static int check_cpus(struct report *rp)
{
	int lacking = -1, nlacking = 0, ncpus = ftc_reader_ncpus(rp->r);

	if (!rp->sel.have_cpus)
		return 0;
	for (int c = 0; c < 1024; c++)
		if (rec_select_cpu(&rp->sel, c) && !file_has_cpu(rp->r, c)) {
			if (lacking < 0)
				lacking = c;
			nlacking++;
		}
	if (lacking < 0)
		return 0;
	if (ncpus > 1)
		cmd_error(&cmd_report, "--cpu: %s has no CPU %d%s: it holds CPUs 0-%d",
			  rp->input, lacking, nlacking > 1 ? " and others" : "", ncpus - 1);
	else
		cmd_error(&cmd_report, "--cpu: %s has no CPU %d%s: it holds CPU 0 only",
			  rp->input, lacking, nlacking > 1 ? " and others" : "");
	return -1;
}

/* What the reader met in a damaged or cut file, said: exit 1 so that scripts notice. */
static int damage_said(struct report *rp, const char *done)
{
	const char *warn = ftc_reader_warnings(rp->r);

	if (!warn)
		return FTC_EXIT_OK;
	/* one line (a cut file) needs no heading */
	if (strchr(warn, '\n') == warn + strlen(warn) - 1)
		fprintf(stderr, "ftc report: %s", warn);
	else
		fprintf(stderr, "ftc report: the file is damaged; what precedes the damage was "
			"%s:\n%s", done, warn);
	return FTC_EXIT_FAIL;
}

static int run_timeline(struct report *rp)
{
	struct report_timeline o = { .path = rp->timeline, .input = rp->input,
				     .cpu_mask = rp->sel.have_cpus ? rp->sel.cpu_mask : NULL,
				     .pids = rp->sel.npids ? rp->sel.pids : NULL,
				     .npids = rp->sel.npids, .win = &rp->win };

	int status;

	if (rp->instance)
		o.instance = strcmp(rp->instance, "top") ? rp->instance : "";
	status = report_timeline_run(rp->r, &o);
	return status == FTC_EXIT_OK ? damage_said(rp, "drawn") : status;
}

static int report_run(int argc, char **argv)
{
	struct report rp = { .input = NULL };
	struct ftc_merge *m = NULL;
	const char *path;
	int ret = cmd_options_parse(&cmd_report, argc, argv, report_opt, &rp);
	int status = FTC_EXIT_FAIL, sel;
	char dir[PATH_MAX + 16], stdin_path[64];
	struct ftc_reader_opts ro = FTC_OPTS_INIT(ftc_reader_opts, .parse_guard = parse_guard);

	if (ret < 0) {
		free_report(&rp);
		return cmd_options_exit(ret);
	}
	if (ret < argc && !rp.input)
		rp.input = argv[ret++];
	if (ret < argc) {
		cmd_error(&cmd_report, "unexpected argument '%s'", argv[ret]);
		free_report(&rp);
		return FTC_EXIT_USAGE;
	}
	if (!rp.input)
		rp.input = "trace.dat";
	path = cmd_input_path("report", rp.input, stdin_path, sizeof(stdin_path));
	if (!path) {
		free_report(&rp);
		return FTC_EXIT_FAIL;
	}
	rp.input = ro.name = cmd_input_name(rp.input);
	if (check_combination(&rp) < 0) {
		free_report(&rp);
		return FTC_EXIT_USAGE;
	}
	/* a filter or --event names events that may have no record */
	if (rp.sel.nfilters || rp.nevents)
		ro.flags |= FTC_READER_ALL_EVENTS;
	if (rp.no_plugins)
		ro.flags |= FTC_READER_NO_PLUGINS;
	else
		ro.plugin_dir = cmd_plugin_dir(dir, sizeof(dir));
	rp.r = ftc_reader_open_opts(path, &ro);
	if (!rp.r) {
		cmd_error(&cmd_report, "%s", ftc_strerror());
		goto out;
	}
	if (rp.endian) {
		printf("file is %s endian and host is %s endian\n",
		       ftc_reader_big_endian(rp.r) ? "big" : "little",
		       __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "big" : "little");
		status = FTC_EXIT_OK;
		goto out;
	}
	if (rp.prof.symfs && ftc_reader_set_symfs(rp.r, rp.prof.symfs) < 0) {
		cmd_error(&cmd_report, "--symfs %s: %s", rp.prof.symfs, ftc_strerror());
		goto out;
	}
	sel = rec_select_setup(&rp.sel, rp.r, &cmd_report, "-F");
	if (sel) {
		status = sel;
		goto out;
	}
	/* as a missing instance or event in tracefs: a name that is not there */
	if (find_instance(&rp) < 0 || check_events(&rp) < 0 || check_cpus(&rp) < 0) {
		status = FTC_EXIT_REFUSED;
		goto out;
	}
	if (rp.timeline) {
		status = run_timeline(&rp);
		goto out;
	}
	if (rp.prof.sched) {
		status = report_sched_profile(rp.r, rp.input, rp.buffer_sel < 0 ? NULL :
					      ftc_reader_buffer(rp.r, rp.buffer_sel)->name);
		goto out;
	}
	if (report_profile_wanted(&rp.prof)) {
		status = report_profile_run(rp.r, &rp.prof, rp.input,
					    profile_selects(&rp) ? profile_keep : NULL, &rp);
		goto out;
	}
	if (rp.initcalls) {
		status = report_initcalls_run(rp.r, rp.input, rp.out.ns);
		goto out;
	}
	/*
	 * Printing reads every CPU (selected() picks them): the records of the
	 * others still register the comms the selected ones print with.
	 */
	m = ftc_merge_open(rp.r, rp.sel.have_cpus && rp.stat ? rp.sel.cpu_mask : NULL);
	if (!m) {
		cmd_error(&cmd_report, "%s", ftc_strerror());
		goto out;
	}
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	if ((rp.stat ? print_stat(&rp, m) : print_records(&rp, m)) < 0)
		goto out;
	cmd_output_flush();
	status = damage_said(&rp, "printed");
out:
	ftc_merge_close(m);
	free_report(&rp);
	return status;
}
