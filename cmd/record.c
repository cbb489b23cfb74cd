// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc record: configure tracing (as ftc start does, journaled), capture
 * every traced CPU's raw ring buffer of every -B instance (or of the top
 * level) into a trace.dat, one buffer per instance, while a command runs
 * (or until Ctrl-C / --duration), then put tracefs back as it was.
 *
 * Order matters: the knobs are written with tracing still off, the file
 * head and the readers are set up, then tracing_on is set and only then
 * is the command let go to exec, so its first event is recorded.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "control-opts.h"
#include "journal.h"
#include "options.h"
#include "output.h"
#include "opt-values.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-capture.h"
#include "ftc-control.h"
#include "ftc-writer.h"
#include "ftc-stream.h"
#include "record-send.h"
#include "record-sample.h"

enum {
	OPT_DURATION = 2000,
	OPT_COMPRESSION,
	OPT_FILE_VERSION,
	OPT_SEND,
	OPT_MMAP,
};

static const struct cmd_option record_options[] = {
	FTC_HELP_OPTION,
	{ 'o', "output", "FILE", "write the trace to FILE (default trace.dat)", 'o' },
	{ 'F', "follow", NULL, "trace only the command (set_event_pid of its pid)", 'F' },
	{ 'm', "max-kb", "KB", "keep at most KB of trace per CPU in the file (the newest)", 'm' },
	{ 's', "sleep", "USECS", "longest reader sleep between kernel wake-ups (default 1000000)", 's' },
	CMD_OPT_RT_PRIORITY('r'),
	{ 'a', "all-formats", NULL, "save every event's format (ftc always does; as trace-cmd -a)",
	  'a' },
	{ 'q', "quiet", NULL, "no status line and no summary", 'q' },
	{ 0, "duration", "SECS", "stop after SECS seconds", OPT_DURATION },
	{ 0, "compression", "ALG", "zstd (default), zlib or none", OPT_COMPRESSION },
	{ 0, "file-version", "N", "trace.dat version 7 (default) or 6 (no compression)",
	  OPT_FILE_VERSION },
	{ 'N', "connect", "HOST:PORT", "send the trace to `ftc listen` there; no file here", 'N' },
	{ 0, "send", "DEST", "send the trace to fd:N or a device/FIFO (ftc listen reads it)",
	  OPT_SEND },
	{ 0, "mmap", NULL, "read the ring buffers through their memory maps (6.10+), not splice",
	  OPT_MMAP },
	FTC_RECORD_SAMPLE_OPTIONS,
	{ 0 }
};

struct record {
	struct ftc_session *session;
	const char *output;
	const char *send;		/* -N HOST:PORT or --send DEST: no file here */
	bool send_tcp, output_set, rt_priority_set, mmap;
	int rt_priority;
	bool follow, quiet;
	unsigned long long max_kb, sleep_us;
	double duration;
	int compression, version;
	bool compression_set;
	char **argv;			/* the command, NULL for none */
	struct ftc_workload *cmd;	/* held before exec, so -F can trace its pid */
	struct ftc_state *st;
	struct timespec t0;
	struct record_sample sample;	/* --sample, --count (record-sample.c) */
};

static int record_opt(int id, const char *arg, void *ctx)
{
	struct record *r = ctx;
	int ret = control_session_opt(r->session, id, arg);

	if (ret)
		return ret < 0 ? -1 : 0;
	ret = record_sample_opt(&r->sample, id, arg);
	if (ret)
		return ret < 0 ? -1 : 0;
	switch (id) {
	case 'o': r->output = arg; r->output_set = true; return cmd_output_no_stdout(arg);
	case 'N':
		if (!strrchr(arg, ':') || !strrchr(arg, ':')[1] || *arg == ':')
			return cmd_bad_value("not HOST:PORT (e.g. 192.0.2.1:12345, [::1]:12345)");
		r->send = arg;
		r->send_tcp = true;
		return 0;
	case OPT_SEND: r->send = arg; r->send_tcp = false; return 0;
	case OPT_MMAP: r->mmap = true; return 0;
	case 'F': r->follow = true; return 0;
	case 'a': return 0;
	case 'q': r->quiet = true; return 0;
	case 'm':
		if (cmd_parse_u64(arg, &r->max_kb) < 0 || !r->max_kb)
			return cmd_bad_value("not a size (use a number of KB from 1, e.g. 4096)");
		return 0;
	case 's':
		if (cmd_parse_u64(arg, &r->sleep_us) < 0)
			return cmd_bad_value("not a number of microseconds (e.g. 100000)");
		return 0;
	case 'r':
		if (cmd_opt_rt_priority(arg, &r->rt_priority) < 0)
			return -1;
		r->rt_priority_set = true;
		return 0;
	case OPT_DURATION:
		return cmd_opt_duration(arg, &r->duration);
	case OPT_COMPRESSION:
		r->compression_set = true;
		return cmd_opt_compression(arg, &r->compression);
	case OPT_FILE_VERSION:
		return cmd_opt_file_version(arg, &r->version);
	}
	return 0;
}

static int record_run(int argc, char **argv);
static int sched_record_run(int argc, char **argv);

const struct command cmd_record = {
	.name = "record",
	.summary = "trace a command or the system into a trace.dat file",
	.synopsis = "[options] [-o FILE] [[--] COMMAND [ARGS] | -P PID]",
	.options = record_options,
	.shared_options = control_options,
	.run = record_run,
	.stop_at_operand = true,
};

/* ftc sched record: record, with the events ftc sched reads added last. */
const struct command cmd_sched_record = {
	.name = "sched record",
	.summary = "record what ftc sched reads: the scheduler's events and each switch's stack",
	.synopsis = "[record's options] [-o FILE] [[--] COMMAND [ARGS] | -P PID]",
	.options = record_options,
	.shared_options = control_options,
	.run = sched_record_run,
	.stop_at_operand = true,
};

static double elapsed(const struct record *r)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - r->t0.tv_sec) + (double)(t.tv_nsec - r->t0.tv_nsec) / 1e9;
}

struct totals {
	uint64_t events, lost;
};

/* The figures of section i's capture slots, the lost events of each CPU
 * appended to percpu as "0/12". */
static struct totals section_totals(struct record *r, size_t i, char *percpu, size_t len)
{
	struct ftc_capture *cap = ftc_session_capture(r->session);
	struct totals t = { 0, 0 };
	size_t used = strlen(percpu);
	int first, n;

	if (ftc_session_slots(r->session, i, &first, &n) < 0)
		return t;
	for (int k = first; k < first + n; k++) {
		struct ftc_capture_cpu_stats s = FTC_OPTS_INIT(ftc_capture_cpu_stats);

		if (ftc_capture_cpu_stats(cap, k, &s) < 0)
			continue;
		t.events += s.events;
		t.lost += s.lost;
		if (used < len)
			used += (size_t)snprintf(percpu + used, len - used, "%s%llu",
						 k > first ? "/" : "", (unsigned long long)s.lost);
	}
	return t;
}

/* All buffers; with several, percpu names each ("a 0/0, b 0/3"). */
static struct totals totals(struct record *r, char *percpu, size_t len)
{
	size_t nbufs = ftc_session_count(r->session);
	struct totals t = { 0, 0 };

	percpu[0] = '\0';
	for (size_t i = 0; i < nbufs; i++) {
		size_t used = strlen(percpu);
		struct totals bt;

		if (nbufs > 1 && used < len)
			snprintf(percpu + used, len - used, "%s%s ", i ? ", " : "",
				 ftc_session_instance_at(r->session, i));
		bt = section_totals(r, i, percpu, len);
		t.events += bt.events;
		t.lost += bt.lost;
	}
	return t;
}

static void status_line(struct record *r, struct totals *prev, double *prev_t)
{
	char lost[512];
	double now = elapsed(r);
	struct totals t = totals(r, lost, sizeof(lost));
	double rate = now > *prev_t ? (double)(t.events - prev->events) / (now - *prev_t) : 0;
	bool tty = isatty(2);

	/* Short captures stay quiet; a log gets a line every 10 seconds. */
	if (now < 2 || (!tty && (long)now % 10))
		goto out;
	fprintf(stderr, "%s%6.0fs %10.0f events/s %9.1f MB written  lost per CPU: %s%s",
		tty ? "\r" : "", now, rate, (double)ftc_writer_data_bytes(ftc_session_writer(r->session)) / 1e6, lost,
		tty ? "   " : "\n");
out:
	*prev = t;
	*prev_t = now;
}

/* The wait until the next checkpoint, or the end of -d, whichever comes first. */
static long long next_wake_ns(const struct record *r, double last_cp)
{
	double now = elapsed(r), until = last_cp + 1 - now;

	if (r->duration > 0 && r->duration - now < until)
		until = r->duration - now;
	return until > 0 ? (long long)(until * 1e9) : 0;
}

/* Waits for the end: the command exits, the time is up, Ctrl-C, or an error. */
static int wait_loop(struct record *r, int *child_status)
{
	struct totals prev = { 0, 0 };
	double prev_t = 0, last_cp = 0;
	int ret = 0;

	for (;;) {
		int wake = ftc_session_wait(r->session, cmd_signal_fd(), next_wake_ns(r, last_cp));
		double now = elapsed(r);

		if (wake < 0 || wake == FTC_SESSION_WAKE_FAILED) {
			ret = -1;
			break;
		}
		if (wake == FTC_SESSION_WAKE_STOP || cmd_signal_caught()) {
			ret = 1;
			break;
		}
		if (wake == FTC_SESSION_WAKE_ENDED) {
			*child_status = ftc_workload_exit_code(r->cmd);
			break;
		}
		if (r->duration > 0 && now >= r->duration)
			break;
		if (now - last_cp >= 1) {
			last_cp = now;
			if (ftc_session_checkpoint(r->session) < 0) {
				ret = -1;
				break;
			}
			if (!r->quiet)
				status_line(r, &prev, &prev_t);
		}
	}
	if (!r->quiet && isatty(2) && elapsed(r) >= 2)
		fputc('\n', stderr);
	return ret;
}

/* With several buffers, one line per instance before the total. */
static void instance_summary(struct record *r)
{
	size_t nbufs = ftc_session_count(r->session);

	for (size_t i = 0; nbufs > 1 && i < nbufs; i++) {
		char lost[256] = "";
		struct totals t = section_totals(r, i, lost, sizeof(lost));

		fprintf(stderr, "ftc record: instance %s: %llu events, %llu lost (per CPU: %s)\n",
			ftc_session_instance_at(r->session, i), (unsigned long long)t.events,
			(unsigned long long)t.lost, lost);
	}
}

/* --mmap: how many CPUs were read through their maps, and why not the others. */
static void mmap_summary(struct record *r)
{
	struct ftc_capture *cap = ftc_session_capture(r->session);
	int n = cap ? ftc_capture_nslots(cap) : 0, mapped = 0;

	for (int k = 0; k < n; k++) {
		struct ftc_capture_cpu_stats s = FTC_OPTS_INIT(ftc_capture_cpu_stats);

		mapped += ftc_capture_cpu_stats(cap, k, &s) == 0 && s.mapped;
	}
	if (mapped == n)
		fprintf(stderr, "ftc record: read through the ring buffers' memory maps (%d CPUs)\n",
			n);
	else
		fprintf(stderr, "ftc record: --mmap: %d of %d CPUs' buffers mapped, splice read the "
			"others (the kernel maps buffers from 6.10, and no memmap= persistent one)\n",
			mapped, n);
}

static void summary(struct record *r)
{
	char lost[512];
	struct totals t = totals(r, lost, sizeof(lost));

	instance_summary(r);
	if (r->mmap)
		mmap_summary(r);
	fprintf(stderr, "ftc record: %llu events, %llu lost (per CPU: %s), %.1f MB of trace "
		"in %s, %.1f s\n", (unsigned long long)t.events, (unsigned long long)t.lost,
		lost, (double)ftc_writer_data_bytes(ftc_session_writer(r->session)) / 1e6, r->output, elapsed(r));
	if (t.lost)
		fprintf(stderr, "ftc record: events were lost: a bigger buffer (-b KB) or fewer "
			"events (-e, -f) keeps them\n");
}

/* Stops tracing, drains the readers and completes the file. */
static int finish(struct record *r)
{
	int ret = ftc_session_record_stop(r->session);

	if (ret < 0)
		cmd_error(&cmd_record, "%s", ftc_strerror());
	if (!r->quiet) {
		summary(r);
		record_sample_summary(&r->sample, ftc_session_perf(r->session));
	}
	return ret;
}

/*
 * The file's buffers are merged by timestamp when read: instances on
 * different trace clocks (-C in one section only, or an existing instance
 * set otherwise) interleave wrongly. Say so; the capture itself is fine.
 */
static void warn_mixed_clocks(struct record *r)
{
	size_t n = ftc_session_count(r->session);
	const char *name0 = ftc_session_instance_at(r->session, 0);
	char *first = n > 1 ? ftc_tracefs_clock(name0) : NULL;

	for (size_t i = 1; first && i < n; i++) {
		const char *name = ftc_session_instance_at(r->session, i);
		char *c = ftc_tracefs_clock(name);

		if (c && strcmp(c, first))
			fprintf(stderr, "ftc record: warning: instance %s uses trace clock '%s' but "
				"%s uses '%s': a report merges their records by timestamp, so give "
				"every section the same -C\n", name, c, name0, first);
		free(c);
	}
	free(first);
}

static int check_readers(struct record *r)
{
	int ret = 0;

	for (size_t i = 0; i < ftc_session_count(r->session); i++) {
		const char *inst = ftc_session_instance_at(r->session, i);
		char *who = NULL;

		if (ftc_capture_find_readers(inst, &who) > 0) {
			cmd_error(&cmd_record, "another reader already drains %s%s%s and "
				  "would take events from the capture:\n%sstop it, or record in "
				  "a private instance (-B NAME)", inst ? "instance '" : "the top-level buffer",
				  inst ? inst : "", inst ? "'" : "", who);
			ret = -1;
		}
		free(who);
	}
	return ret;
}

/* The file, or the descriptor the trace is sent to (-N, --send). */
static int open_output(struct record *r, struct ftc_session_record_opts *o)
{
	if (r->send) {
		o->fd = record_send_open(r->send, r->send_tcp);
		r->output = r->send;
		o->output = r->send;
		return o->fd < 0 ? -1 : 0;
	}
	o->output = r->output;
	return cmd_output_keep_old(&cmd_record, r->output);
}

/* Why the start failed, as an exit status; the command, never run, is reaped. */
static int start_failed(struct record *r)
{
	int err = cmd_signal_caught() ? EINTR : errno;
	enum ftc_session_stage stage = ftc_session_stage(r->session);

	cmd_error(&cmd_record, "%s", ftc_strerror());
	ftc_workload_reap(r->cmd);	/* it reads EOF instead of "go" and exits */
	if (err == EINTR)
		return FTC_EXIT_INTERRUPTED;
	/* a setting the kernel lacks, or a counter this machine lacks (no PMU), is refused */
	if (stage == FTC_SESSION_STAGE_CONFIGURE || stage == FTC_SESSION_STAGE_PERF)
		return control_exit_status(err);
	switch (stage) {
	case FTC_SESSION_STAGE_EXEC: return 127;	/* as a shell, and ftc stat */
	default: return FTC_EXIT_FAIL;
	}
}

static int start(struct record *r)
{
	struct ftc_session_record_opts o = FTC_OPTS_INIT(ftc_session_record_opts,
		.version = r->version,
		.compression = (enum ftc_compression)r->compression,
		.max_bytes = r->max_kb << 10,
		.wake_usecs = (unsigned int)r->sleep_us,
		.perf = record_sample_opts(&r->sample));

	if (r->rt_priority_set)
		o.rt_priority = r->rt_priority ? r->rt_priority : FTC_CAPTURE_NO_RT;
	o.mmap = r->mmap;
	if (r->argv && !(r->cmd = ftc_workload_spawn(r->argv)))
		return -1;
	if (ftc_session_set_command(r->session, r->cmd) < 0)
		return -1;
	if (r->follow && ftc_session_follow(r->session, ftc_workload_pid(r->cmd)) < 0)
		return -1;
	/* the output is touched (an old file kept, a listener called) once the kernel took it all */
	if (ftc_session_configure(r->session, r->st) < 0)
		return -1;
	if (open_output(r, &o) < 0)
		return -1;
	if (ftc_session_record_start(r->session, r->st, &o) < 0)
		return -1;
	/* the time traced, from tracing on (the setup is not the user's) */
	clock_gettime(CLOCK_MONOTONIC, &r->t0);
	warn_mixed_clocks(r);
	return 0;
}

static int capture(struct record *r)
{
	int child_status = 0, stop, ret = FTC_EXIT_OK;

	if (start(r) < 0)
		return start_failed(r);
	stop = wait_loop(r, &child_status);
	if (stop < 0)
		cmd_error(&cmd_record, "%s", ftc_session_error(r->session));
	if (finish(r) < 0 || stop < 0)
		ret = FTC_EXIT_FAIL;
	else if (stop > 0 && r->argv)
		ret = FTC_EXIT_INTERRUPTED;
	else if (r->argv && ftc_workload_exited(r->cmd))
		ret = child_status;	/* as stat does: the command's own status */
	if (stop) {	/* interrupted: do not wait for the command */
		ftc_workload_free(r->cmd);
		r->cmd = NULL;
	}
	return ret;
}

/*
 * What ftc sched reads, after the user's options (so in the instance of
 * the last -B): each switch with its kernel stack (the trigger), wakeups,
 * new tasks and migrations; with --call-graph, perf samples of every
 * switch too, for the user stacks.
 */
static int add_sched_events(struct record *r)
{
	static const struct { int id; const char *arg; } ev[] = {
		{ 'e', "sched:sched_switch" }, { 'R', "stacktrace" },
		{ 'e', "sched:sched_wakeup" }, { 'e', "sched:sched_wakeup_new" },
		{ 'e', "sched:sched_migrate_task" },
	};

	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		if (record_opt(ev[i].id, ev[i].arg, r) < 0)
			return -1;
	if (r->sample.o.callchain && !r->sample.o.sample &&
	    (record_sample_opt(&r->sample, OPT_RS_SAMPLE, "sched:sched_switch") < 0 ||
	     record_sample_opt(&r->sample, OPT_RS_PERIOD, "1") < 0))
		return -1;
	return 0;
}

static int record_main(const struct command *cmd, int argc, char **argv)
{
	struct record r = { .output = "trace.dat", .version = 7,
			    .compression = FTC_COMPRESS_ZSTD };
	int ret;

	r.session = control_session_new();
	if (!r.session) {
		cmd_error(cmd, "out of memory");
		return FTC_EXIT_FAIL;
	}
	ret = cmd_options_parse(cmd, argc, argv, record_opt, &r);
	if (ret < 0) {
		ftc_session_free(r.session);
		return cmd_options_exit(ret);
	}
	if (cmd == &cmd_sched_record && add_sched_events(&r) < 0) {
		ftc_session_free(r.session);
		return FTC_EXIT_USAGE;
	}
	if (ret < argc)
		r.argv = argv + ret;
	if (r.version == 6 && r.compression_set && r.compression != FTC_COMPRESS_NONE) {
		cmd_error(&cmd_record, "--file-version 6 has no compression: "
			  "use --compression none or version 7");
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	if (r.version == 6)
		r.compression = FTC_COMPRESS_NONE;
	if (record_sample_check(&r.sample) < 0) {
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	if (r.send && (r.output_set || r.max_kb)) {
		char dest[128];

		cmd_quote(dest, sizeof(dest), r.send);
		cmd_error(&cmd_record, "%s '%s' sends the trace away: leave out %s",
			  r.send_tcp ? "-N" : "--send", dest,
			  r.output_set ? "-o (the listener names the file)" :
			  "-m (keeping the newest reads the file back)");
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	if (r.follow && !r.argv) {
		cmd_error(&cmd_record, "-F follows a command: give one after --");
		ret = FTC_EXIT_USAGE;
		goto out;
	}
	if (check_readers(&r) < 0) {
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	r.st = cmd_journal_open(&cmd_record);
	if (!r.st) {
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	ret = capture(&r);
	/* the readers and the file let go of tracefs before it is restored */
	ftc_session_free(r.session);
	r.session = NULL;
	ret = cmd_journal_close(&cmd_record, r.st, ret);
	/* --duration ended the capture first: the command finishes on its own. */
	ftc_workload_reap(r.cmd);
	ftc_workload_free(r.cmd);
out:
	ftc_session_free(r.session);
	return ret;
}

static int record_run(int argc, char **argv)
{
	return record_main(&cmd_record, argc, argv);
}

static int sched_record_run(int argc, char **argv)
{
	return record_main(&cmd_sched_record, argc, argv);
}
