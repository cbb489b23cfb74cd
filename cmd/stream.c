// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc stream: configure tracing as ftc start does (journaled), print the
 * buffer's records live, every CPU merged by timestamp (libftc's live
 * reader), with report's formatting and selections, until Ctrl-C,
 * SIGTERM, a closed output, --duration or the end of the command; then
 * put tracefs back as it was. --record FILE also writes the capture.
 */
#include <errno.h>
#include <poll.h>
#include <sys/mman.h>
#include <signal.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "control-opts.h"
#include "journal.h"
#include "format-env.h"
#include "options.h"
#include "output.h"
#include "opt-values.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-control.h"
#include "ftc-live.h"
#include "ftc-reader.h"
#include "ftc-writer.h"
#include "rec-select.h"

enum {
	OPT_DURATION = 2000, OPT_COMPRESSION, OPT_FILE_VERSION, OPT_RECORD, OPT_WINDOW,
	OPT_CPU, OPT_COMM, OPT_MATCH, OPT_JSON, OPT_RAW, OPT_NS,
	OPT_NO_GRAPH, OPT_GRAPH_PROC, OPT_GRAPH_ABSTIME, OPT_NO_PLUGINS,
};

static const struct cmd_option stream_options[] = {
	FTC_HELP_OPTION,
	{ 'F', "follow", NULL, "trace only the command (set_event_pid of its pid)", 'F' },
	{ 'q', "quiet", NULL, "no summary at the end", 'q' },
	CMD_OPT_RT_PRIORITY('r'),
	{ 0, "duration", "SECS", "stop after SECS seconds", OPT_DURATION },
	{ 0, "window", "MS", "longest wait for a late CPU reader, in ms (default 1000; 5 to 10000)",
	  OPT_WINDOW },
	{ 0, "record", "FILE", "also write the capture into FILE (a trace.dat)", OPT_RECORD },
	{ 0, "compression", "ALG", "--record: zstd (default), zlib or none", OPT_COMPRESSION },
	{ 0, "file-version", "N", "--record: trace.dat version 7 (default) or 6",
	  OPT_FILE_VERSION },
	{ 0, "cpu", "CPUS", "print only these CPUs, e.g. 0-1,3", OPT_CPU },
	{ 0, "comm", "COMM", "print only tasks with this command name (glob; repeatable)",
	  OPT_COMM },
	{ 0, "match", "FILTER", "print only what this filter takes (as report -F; repeatable)",
	  OPT_MATCH },
	{ 0, "json", NULL, "one JSON object per record (as ftc report --json)", OPT_JSON },
	{ 0, "raw", NULL, "print raw fields (name=value) instead of the print format", OPT_RAW },
	{ 0, "ns", NULL, "print timestamps in nanoseconds", OPT_NS },
	{ 0, "no-graph", NULL, "do not fold function_graph entries and exits", OPT_NO_GRAPH },
	{ 0, "graph-proc", NULL, "function_graph: add the TASK/PID column", OPT_GRAPH_PROC },
	{ 0, "graph-abstime", NULL, "function_graph: add the TIME column", OPT_GRAPH_ABSTIME },
	{ 0, "no-plugins", NULL, "do not load libtraceevent plugins", OPT_NO_PLUGINS },
	{ 0 }
};

struct stream {
	struct ftc_session *spec;
	struct rec_select sel;
	int sel_status;		/* rec_select_setup()'s exit status */
	bool follow, quiet, no_plugins;
	struct rec_output out;
	double duration;
	unsigned long long window;
	const char *record;
	int compression, version;
	bool compression_set, version_set;
	int rt_priority;	/* ftc_live_opts' */
	char **argv;
	struct ftc_workload *cmd;
	struct ftc_state *st;
	struct ftc_live *live;
	struct ftc_format *fmt;
	const char *instance;
	bool out_closed;
	uint64_t printed;
};

static int stream_opt(int id, const char *arg, void *ctx)
{
	struct stream *s = ctx;
	int ret = control_session_opt(s->spec, id, arg);

	if (ret)
		return ret < 0 ? -1 : 0;
	switch (id) {
	case 'F': s->follow = true; return 0;
	case 'q': s->quiet = true; return 0;
	case 'r': return cmd_opt_live_rt_priority(arg, &s->rt_priority);
	case OPT_RECORD: s->record = arg; return cmd_output_no_stdout(arg);
	case OPT_CPU: return rec_select_cpus(&s->sel, arg);
	case OPT_COMM: return rec_select_push(&s->sel.comms, &s->sel.ncomms, arg);
	case OPT_MATCH: return rec_select_filter(&s->sel, arg);
	case OPT_JSON: s->out.json = true; return 0;
	case OPT_RAW: s->out.raw = true; return 0;
	case OPT_NS: s->out.ns = true; return 0;
	case OPT_NO_GRAPH: s->out.no_graph = true; return 0;
	case OPT_GRAPH_PROC: s->out.graph_proc = true; return 0;
	case OPT_GRAPH_ABSTIME: s->out.graph_abstime = true; return 0;
	case OPT_NO_PLUGINS: s->no_plugins = true; return 0;
	case OPT_WINDOW:
		if (cmd_parse_u64(arg, &s->window) < 0 || s->window < 5 || s->window > 10000)
			return cmd_bad_value("not a window (milliseconds, 5 to 10000)");
		return 0;
	case OPT_DURATION:
		return cmd_opt_duration(arg, &s->duration);
	case OPT_COMPRESSION:
		s->compression_set = true;
		return cmd_opt_compression(arg, &s->compression);
	case OPT_FILE_VERSION:
		s->version_set = true;
		return cmd_opt_file_version(arg, &s->version);
	}
	return 0;
}

static int stream_run(int argc, char **argv);

/*
 * Which options go together (options.h): text or --json; the print
 * format's options do not apply to JSON, which holds every field and the
 * timestamp in nanoseconds already.
 */
#define M_TEXT CMD_MODE_DEFAULT
#define M_JSON CMD_MODE(1)

static const struct cmd_mode_rule stream_modes[] = {
	{ OPT_JSON, M_JSON, 0 },
	{ OPT_RAW, 0, M_TEXT },
	{ OPT_NS, 0, M_TEXT },
	{ OPT_NO_GRAPH, 0, M_TEXT },
	{ OPT_GRAPH_PROC, 0, M_TEXT },
	{ OPT_GRAPH_ABSTIME, 0, M_TEXT },
	{ 0 }
};

const struct command cmd_stream = {
	.mode_rules = stream_modes,
	.default_mode = "text",
	.name = "stream",
	.summary = "trace and print the records live, CPUs merged by timestamp",
	.synopsis = "[options] [[--] COMMAND [ARGS] | -P PID]",
	.options = stream_options,
	.shared_options = control_options,
	.run = stream_run,
	.stop_at_operand = true,
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A lost-events marker of a record the selection leaves out still shows. */
static void lost_line(struct stream *s, const struct ftc_merge_record *mr)
{
	ftc_format_sync(s->fmt);	/* after the lines before it */
	if (s->out.json) {
		printf("{\"type\":\"lost\",\"ts\":%llu,\"cpu\":%d,\"instance\":\"%s\",\"count\":",
		       (unsigned long long)mr->rec->ts, mr->cpu, s->instance ? s->instance : "");
		if (mr->missed > 0)
			printf("%lld}\n", mr->missed);
		else
			printf("null}\n");
	} else if (mr->missed > 0) {
		printf("CPU:%d [%lld EVENTS DROPPED]\n", mr->cpu, mr->missed);
	} else {
		printf("CPU:%d [EVENTS DROPPED]\n", mr->cpu);
	}
}

static int print_one(const struct ftc_merge_record *mr, void *ctx)
{
	struct stream *s = ctx;
	struct ftc_reader *r = ftc_live_reader(s->live);

	if (s->out_closed)
		return 1;
	if (rec_select_match(&s->sel, r, mr)) {
		ftc_format_record(s->fmt, mr);
		s->printed++;
	} else {
		if (mr->missed)
			lost_line(s, mr);
		ftc_format_pass_over(s->fmt, mr);
	}
	return 0;
}

/* Output that nobody reads any more ends the stream (| head). */
static bool flush_out(struct stream *s)
{
	ftc_format_sync(s->fmt);
	if (cmd_output_flush() < 0) {
		s->out_closed = true;
		/*
		 * A reader that went away is stream's normal end (exit 0): what
		 * it could not take is dropped. Any other failure (a full disk)
		 * stays for cmd_output_finish to report.
		 */
		if (cmd_output_closed()) {
			__fpurge(stdout);
			clearerr(stdout);
		}
		return false;
	}
	return true;
}

static unsigned int format_flags(struct stream *s)
{
	char *tracer = NULL;
	bool graph = false;

	if (ftc_tracefs_read(s->instance, "current_tracer", &tracer, NULL) == 0)
		graph = !strncmp(tracer, "function_graph", 14);
	free(tracer);
	return rec_output_flags(&s->out, graph);
}

/* ftc's own syscalls, wake-ups and function calls stay out of what it prints. */
static void exclude_self(struct stream *s)
{
	int most = ftc_live_ncpus(s->live);
	pid_t *tids = calloc((size_t)most + 1, sizeof(*tids));
	int n = tids ? ftc_live_tids(s->live, tids, most) : 0;

	if ((!tids || ftc_exclude_self(s->st, s->instance, tids, (size_t)n) < 0) && !s->quiet)
		cmd_error(&cmd_stream, "warning: ftc's own threads will be traced: %s",
			  tids ? ftc_strerror() : "out of memory");
	free(tids);
}

static int open_live(struct stream *s)
{
	char dir[PATH_MAX];
	struct ftc_live_opts o = FTC_OPTS_INIT(ftc_live_opts,
		.window_ms = (unsigned int)s->window,
		.record_path = s->record,
		.file_version = s->version,
		.compression = (enum ftc_compression)s->compression,
		.reader_flags = s->no_plugins ? FTC_READER_NO_PLUGINS : 0,
		.rt_priority = s->rt_priority,
		.plugin_dir = s->no_plugins ? NULL : cmd_plugin_dir(dir, sizeof(dir)));

	s->live = ftc_live_open(s->instance, &o);
	if (!s->live)
		return -1;
	s->sel_status = rec_select_setup(&s->sel, ftc_live_reader(s->live), &cmd_stream, "--match");
	if (s->sel_status)
		return -2;
	s->fmt = ftc_format_new(ftc_live_reader(s->live), stdout, format_flags(s));
	return s->fmt ? 0 : -1;
}

/* 1 interrupted, 0 the end came, -1 a reader failed. */
static int stream_loop(struct stream *s, int *child_status)
{
	double t0 = now_s();

	for (;;) {
		int n;

		if (cmd_signal_caught())
			return 1;
		/* the session reaps the command once it ended */
		if (s->cmd && ftc_session_wait(s->spec, -1, 0) == FTC_SESSION_WAKE_ENDED) {
			*child_status = ftc_workload_exit_code(s->cmd);
			return 0;
		}
		if (s->duration > 0 && now_s() - t0 >= s->duration)
			return 0;
		n = ftc_live_poll(s->live, 100, print_one, s);
		if (n < 0 && n != -EINTR)
			return -1;
		if (n > 0 && !flush_out(s))
			return 0;
		if (s->out_closed)
			return 0;
	}
}

static void summary(struct stream *s)
{
	uint64_t ev = 0, lost = 0, late = 0, del = 0;

	for (int i = 0; i < ftc_live_ncpus(s->live); i++) {
		struct ftc_live_cpu_stats c = FTC_OPTS_INIT(ftc_live_cpu_stats);

		if (ftc_live_cpu_stats(s->live, i, &c) < 0)
			continue;
		ev += c.events;
		lost += c.lost;
		late += c.late;
		del += c.delivered;
	}
	fprintf(stderr, "ftc stream: %llu events read, %llu printed, %llu lost",
		(unsigned long long)del, (unsigned long long)s->printed,
		(unsigned long long)lost);
	if (late)
		fprintf(stderr, ", %llu out of order (a longer --window keeps them in order)",
			(unsigned long long)late);
	if (s->record)
		fprintf(stderr, "; capture in %s", s->record);
	fputc('\n', stderr);
	if (lost)
		fprintf(stderr, "ftc stream: events were lost: a bigger buffer (-b KB) or fewer "
			"events (-e, -f) keeps them\n");
	(void)ev;
}

/* The end: tracing off, the rest printed (unless nobody reads), the file finished. */
static int finish(struct stream *s)
{
	int ret = 0, n;

	if (ftc_knob_write(s->st, s->instance, "tracing_on", "0") < 0)
		cmd_error(&cmd_stream, "%s", ftc_strerror());
	n = ftc_live_flush(s->live, print_one, s);
	if (n < 0) {
		cmd_error(&cmd_stream, "%s", ftc_strerror());
		ret = -1;
	}
	if (!s->out_closed) {
		ftc_format_flush(s->fmt);
		flush_out(s);
	}
	if (!s->quiet)
		summary(s);
	return ret;
}

static int run_traced(struct stream *s)
{
	int child_status = 0, stop, ret = FTC_EXIT_OK, o;

	if (s->argv && !(s->cmd = ftc_workload_spawn(s->argv)))
		goto fail;
	if (ftc_session_set_command(s->spec, s->cmd) < 0)
		goto fail;
	if (s->follow && ftc_session_follow(s->spec, ftc_workload_pid(s->cmd)) < 0)
		goto fail;
	if (ftc_session_configure(s->spec, s->st) < 0) {
		int err = cmd_signal_caught() ? EINTR : errno;

		cmd_error(&cmd_stream, "%s", ftc_strerror());
		ftc_workload_reap(s->cmd);
		return control_exit_status(err);
	}
	if (s->record && cmd_output_keep_old(&cmd_stream, s->record) < 0) {
		ftc_workload_reap(s->cmd);
		return FTC_EXIT_FAIL;
	}
	o = open_live(s);
	if (o == -2) {
		ftc_workload_reap(s->cmd);
		return s->sel_status;
	}
	if (o < 0)
		goto fail;
	exclude_self(s);
	if (ftc_session_tracing_on(s->spec, s->st) < 0)
		goto fail;
	if (ftc_session_release(s->spec) < 0) {
		cmd_error(&cmd_stream, "%s", ftc_strerror());
		ftc_workload_reap(s->cmd);
		return 127;
	}
	stop = stream_loop(s, &child_status);
	if (stop < 0)
		cmd_error(&cmd_stream, "%s", ftc_strerror());
	if (finish(s) < 0 || stop < 0)
		ret = FTC_EXIT_FAIL;
	else if (stop > 0 && s->argv)
		ret = FTC_EXIT_INTERRUPTED;
	else if (s->argv && ftc_workload_exited(s->cmd))
		ret = child_status;
	if (stop) {
		ftc_workload_free(s->cmd);
		s->cmd = NULL;
	}
	return ret;
fail:
	cmd_error(&cmd_stream, "%s", ftc_strerror());
	ftc_workload_reap(s->cmd);
	return cmd_signal_caught() ? FTC_EXIT_INTERRUPTED : FTC_EXIT_FAIL;
}

/*
 * A --match the formats refuse is a usage error, told before tracefs is
 * touched: it was found after the instance was made and configured, which
 * took past 2 s under ASan on a busy machine (cli-fuzz's limit), only to
 * be undone. The formats are the kernel's, the same in every instance:
 * the top level's, in a file of metadata only.
 */
static int check_matches(struct stream *s)
{
	char path[64], dir[PATH_MAX];
	struct ftc_reader_opts ro = FTC_OPTS_INIT(ftc_reader_opts,
		.flags = FTC_READER_NO_SYMS | (s->no_plugins ? FTC_READER_NO_PLUGINS : 0),
		.plugin_dir = s->no_plugins ? NULL : cmd_plugin_dir(dir, sizeof(dir)));
	struct rec_select trial = { .filters = s->sel.filters, .nfilters = s->sel.nfilters };
	struct ftc_writer *w = NULL;
	struct ftc_reader *r = NULL;
	int fd, ret = -1, cpu0 = 0;

	if (!s->sel.nfilters)
		return 0;
	fd = memfd_create("ftc-match", MFD_CLOEXEC);
	if (fd < 0) {
		cmd_error(&cmd_stream, "memfd_create: %s", strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	w = ftc_writer_create(path, 6, FTC_COMPRESS_NONE);
	if (!w || ftc_writer_add_buffer(w, NULL, 1, &cpu0) < 0 || ftc_writer_start(w) < 0 ||
	    !(r = ftc_reader_open_opts(path, &ro))) {
		cmd_error(&cmd_stream, "reading the event formats for --match: %s", ftc_strerror());
		goto out;
	}
	/* 2 or 3 as ftc(1) says: a bad value, or a name the kernel lacks */
	s->sel_status = rec_select_setup(&trial, r, &cmd_stream, "--match");
	ret = s->sel_status ? -2 : 0;
out:
	if (trial.filter)
		tep_filter_free(trial.filter);
	ftc_reader_close(r);
	ftc_writer_free(w);
	close(fd);
	return ret;
}

static int check_args(struct stream *s)
{
	if (ftc_session_count(s->spec) > 1) {
		cmd_error(&cmd_stream, "ftc stream reads one buffer: give one -B NAME at most "
			  "(ftc record takes several)");
		return -1;
	}
	if (s->version == 6 && s->compression_set && s->compression != FTC_COMPRESS_NONE) {
		cmd_error(&cmd_stream, "--file-version 6 has no compression: "
			  "use --compression none or version 7");
		return -1;
	}
	if (s->version == 6)
		s->compression = FTC_COMPRESS_NONE;
	if (s->follow && !s->argv) {
		cmd_error(&cmd_stream, "-F follows a command: give one after --");
		return -1;
	}
	/* without --record they would be ignored: no file is written */
	if (!s->record && (s->compression_set || s->version_set)) {
		cmd_error(&cmd_stream, "%s applies to the file --record writes: give --record "
			  "FILE, or leave it out", s->compression_set ? "--compression" :
			  "--file-version");
		return -1;
	}
	return 0;
}

static int stream_run(int argc, char **argv)
{
	struct stream s = { .version = 7, .compression = FTC_COMPRESS_ZSTD };
	int ret;

	s.spec = control_session_new();
	if (!s.spec) {
		cmd_error(&cmd_stream, "out of memory");
		return FTC_EXIT_FAIL;
	}
	ret = cmd_options_parse(&cmd_stream, argc, argv, stream_opt, &s);
	if (ret < 0) {
		ret = cmd_options_exit(ret);
		goto out;
	}
	if (ret < argc)
		s.argv = argv + ret;
	if (check_args(&s) < 0) {
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	ret = check_matches(&s);
	if (ret < 0) {
		ret = ret == -2 ? s.sel_status : FTC_EXIT_FAIL;
		goto out;
	}
	s.instance = ftc_session_instance_at(s.spec, 0);
	/* A closed pipe is an answer (| head), not a death: see flush_out. */
	signal(SIGPIPE, SIG_IGN);
	s.st = cmd_journal_open(&cmd_stream);
	if (!s.st) {
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	ret = run_traced(&s);
	if (s.fmt)
		format_env_free(s.fmt);
	if (ftc_live_close(s.live) < 0) {
		cmd_error(&cmd_stream, "%s", ftc_strerror());
		if (ret == FTC_EXIT_OK)
			ret = FTC_EXIT_FAIL;
	}
	ret = cmd_journal_close(&cmd_stream, s.st, ret);
	ftc_workload_reap(s.cmd);
	ftc_workload_free(s.cmd);
out:
	rec_select_free(&s.sel);
	ftc_session_free(s.spec);
	return ret;
}
