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
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "control-opts.h"
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
#include "record-self.h"

enum {
	OPT_DURATION = 2000,
	OPT_COMPRESSION,
	OPT_FILE_VERSION,
	OPT_SEND,
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
	FTC_RECORD_SAMPLE_OPTIONS,
	{ 0 }
};

/* One buffer of the file: a -B section's instance (or the top level). */
struct rec_buf {
	const char *instance;	/* NULL: the top level */
	int *cpus, ncpus;
	int first_slot, nslots;	/* its capture slots (ftc_capture_cpu_stats) */
};

struct record {
	struct control_spec *spec;
	const char *output;
	const char *send;		/* -N HOST:PORT or --send DEST: no file here */
	bool send_tcp, output_set, rt_priority_set;
	int rt_priority;
	bool follow, quiet;
	bool refused;		/* the setup failed on a feature this machine lacks */
	unsigned long long max_kb, sleep_us;
	double duration;
	int compression, version;
	bool compression_set;
	char **argv;			/* the command, NULL for none */
	struct ftc_workload *cmd;	/* held before exec, so -F can trace its pid */
	struct ftc_state *st;
	struct ftc_writer *w;
	struct ftc_capture *cap;
	struct rec_buf *bufs;		/* one per -B section, in the order given */
	size_t nbufs;
	struct timespec t0;
	struct record_sample sample;	/* --sample, --count (record-sample.c) */
};

static int record_opt(int id, const char *arg, void *ctx)
{
	struct record *r = ctx;
	int ret = control_spec_opt(r->spec, id, arg);

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

const struct command cmd_record = {
	.name = "record",
	.summary = "trace a command or the system into a trace.dat file",
	.synopsis = "[options] [-o FILE] [[--] COMMAND [ARGS] | -P PID]",
	.options = record_options,
	.shared_options = control_options,
	.run = record_run,
	.stop_at_operand = true,
};

static double elapsed(const struct record *r)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - r->t0.tv_sec) + (double)(t.tv_nsec - r->t0.tv_nsec) / 1e9;
}

static int add_follow(struct record *r)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)ftc_workload_pid(r->cmd));
	return control_spec_follow(r->spec, pid);
}

static int bufs_init(struct record *r)
{
	r->nbufs = control_spec_count(r->spec);
	r->bufs = calloc(r->nbufs, sizeof(*r->bufs));
	if (!r->bufs)
		return ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < r->nbufs; i++)
		r->bufs[i].instance = control_spec_instance_at(r->spec, i);
	return 0;
}

static void bufs_free(struct record *r)
{
	for (size_t i = 0; r->bufs && i < r->nbufs; i++) {
		free(r->bufs[i].cpus);
	}
	free(r->bufs);
}

/* The CPUs of every buffer, before the file is laid out. */
static int bufs_cpus(struct record *r)
{
	for (size_t i = 0; i < r->nbufs; i++) {
		struct rec_buf *b = &r->bufs[i];

		b->ncpus = ftc_capture_cpus(b->instance, &b->cpus);
		if (b->ncpus < 0)
			return -1;
		if (b->ncpus == 0)
			return ftc_error(EINVAL, "tracing_cpumask%s%s selects no CPU: nothing to record",
					 b->instance ? " of instance " : "",
					 b->instance ? b->instance : "");
	}
	return 0;
}

/* Buffer i of the file is section i: the names are the instances'. */
static int add_buffers(struct record *r)
{
	for (size_t i = 0; i < r->nbufs; i++)
		if (ftc_writer_add_buffer(r->w, r->bufs[i].instance, r->bufs[i].ncpus,
					  r->bufs[i].cpus) != (int)i)
			return -1;
	return 0;
}

static int add_captures(struct record *r)
{
	for (size_t i = 0; i < r->nbufs; i++) {
		struct rec_buf *b = &r->bufs[i];

		b->first_slot = ftc_capture_nslots(r->cap);
		if (ftc_capture_add(r->cap, (int)i, b->instance, b->ncpus, b->cpus) < 0)
			return -1;
		b->nslots = ftc_capture_nslots(r->cap) - b->first_slot;
	}
	return 0;
}

static int setup_capture(struct record *r)
{
	struct rec_buf *first = &r->bufs[0];

	if (bufs_cpus(r) < 0)
		return -1;
	if (r->send) {
		int fd = record_send_open(r->send, r->send_tcp);

		if (fd < 0)
			return -1;
		r->output = r->send;
		r->w = ftc_writer_create_stream(fd, r->send, r->version,
						(enum ftc_compression)r->compression);
	} else {
		if (cmd_output_keep_old(&cmd_record, r->output) < 0)
			return -1;
		r->w = ftc_writer_create(r->output, r->version,
					 (enum ftc_compression)r->compression);
	}
	if (!r->w)
		return -1;
	if (r->max_kb)
		ftc_writer_set_max(r->w, r->max_kb << 10);
	/* perf samples take the first buffer's clock and CPUs */
	if (add_buffers(r) < 0)
		return -1;
	if (record_sample_setup(&r->sample, r->w, first->instance, first->ncpus, first->cpus,
				ftc_workload_pid(r->cmd)) < 0) {
		/* a counter this machine lacks (no PMU) is a missing feature */
		r->refused = ftc_errno_refused(errno);
		return -1;
	}
	if (ftc_writer_start(r->w) < 0)
		return -1;
	r->cap = ftc_capture_new(r->w, (unsigned int)r->sleep_us);
	if (r->cap && r->rt_priority_set)
		ftc_capture_set_rt_priority(r->cap, r->rt_priority);
	if (!r->cap || add_captures(r) < 0 || ftc_capture_start(r->cap) < 0 ||
	    record_sample_start(&r->sample) < 0)
		return -1;
	return 0;
}

struct totals {
	uint64_t events, lost;
};

/* The figures of capture slots [first, first + n), the lost events of
 * each CPU appended to percpu as "0/12". */
static struct totals slot_totals(struct record *r, int first, int n, char *percpu,
				 size_t len)
{
	struct totals t = { 0, 0 };
	size_t used = strlen(percpu);

	for (int i = first; i < first + n; i++) {
		struct ftc_capture_cpu_stats s = FTC_OPTS_INIT(ftc_capture_cpu_stats);

		if (ftc_capture_cpu_stats(r->cap, i, &s) < 0)
			continue;
		t.events += s.events;
		t.lost += s.lost;
		if (used < len)
			used += (size_t)snprintf(percpu + used, len - used, "%s%llu",
						 i > first ? "/" : "", (unsigned long long)s.lost);
	}
	return t;
}

/* All buffers; with several, percpu names each ("a 0/0, b 0/3"). */
static struct totals totals(struct record *r, char *percpu, size_t len)
{
	struct totals t = { 0, 0 };

	percpu[0] = '\0';
	for (size_t i = 0; i < r->nbufs; i++) {
		struct rec_buf *b = &r->bufs[i];
		size_t used = strlen(percpu);
		struct totals bt;

		if (r->nbufs > 1 && used < len)
			snprintf(percpu + used, len - used, "%s%s ", i ? ", " : "", b->instance);
		bt = slot_totals(r, b->first_slot, b->nslots, percpu, len);
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
		tty ? "\r" : "", now, rate, (double)ftc_writer_data_bytes(r->w) / 1e6, lost,
		tty ? "   " : "\n");
out:
	*prev = t;
	*prev_t = now;
}

/* Waits for the end: the command exits, the time is up, Ctrl-C, or an error. */
static int wait_loop(struct record *r, int *child_status)
{
	struct totals prev = { 0, 0 };
	double prev_t = 0, last_cp = 0;
	/* A pidfd turns readable the moment the command exits: no polling lag. */
	int pidfd = ftc_workload_pidfd(r->cmd);
	int ret = 0;

	for (;;) {
		struct pollfd p = { .fd = pidfd, .events = POLLIN };
		double now;

		if (cmd_signal_caught()) {
			ret = 1;
			break;
		}
		if (ftc_capture_failed(r->cap)) {
			ret = -1;
			break;
		}
		if (ftc_workload_pid(r->cmd) > 0 && ftc_workload_exited(r->cmd)) {
			ftc_workload_reap(r->cmd);
			*child_status = ftc_workload_exit_code(r->cmd);
			break;
		}
		now = elapsed(r);
		if (r->duration > 0 && now >= r->duration)
			break;
		if (now - last_cp >= 1) {
			last_cp = now;
			if (ftc_capture_checkpoint(r->cap) < 0) {
				ret = -1;
				break;
			}
			if (!r->quiet)
				status_line(r, &prev, &prev_t);
		}
		poll(&p, pidfd >= 0 ? 1 : 0, 100);
	}
	/* the pidfd is the workload's: ftc_workload_reap() closes it, once */
	if (!r->quiet && isatty(2) && elapsed(r) >= 2)
		fputc('\n', stderr);
	return ret;
}

/* With several buffers, one line per instance before the total. */
static void instance_summary(struct record *r)
{
	for (size_t i = 0; r->nbufs > 1 && i < r->nbufs; i++) {
		struct rec_buf *b = &r->bufs[i];
		char lost[256] = "";
		struct totals t = slot_totals(r, b->first_slot, b->nslots, lost, sizeof(lost));

		fprintf(stderr, "ftc record: instance %s: %llu events, %llu lost (per CPU: %s)\n",
			b->instance, (unsigned long long)t.events, (unsigned long long)t.lost,
			lost);
	}
}

static void summary(struct record *r)
{
	char lost[512];
	struct totals t = totals(r, lost, sizeof(lost));

	instance_summary(r);
	fprintf(stderr, "ftc record: %llu events, %llu lost (per CPU: %s), %.1f MB of trace "
		"in %s, %.1f s\n", (unsigned long long)t.events, (unsigned long long)t.lost,
		lost, (double)ftc_writer_data_bytes(r->w) / 1e6, r->output, elapsed(r));
	if (t.lost)
		fprintf(stderr, "ftc record: events were lost: a bigger buffer (-b KB) or fewer "
			"events (-e, -f) keeps them\n");
}

/* Stops tracing, drains the readers and completes the file. */
static int finish(struct record *r, bool failed)
{
	int ret = 0;

	/* Quiet the buffers so the last drain ends (the journal restores them). */
	for (size_t i = 0; i < r->nbufs; i++)
		if (ftc_knob_write(r->st, r->bufs[i].instance, "tracing_on", "0") < 0)
			cmd_error(&cmd_record, "%s", ftc_strerror());
	if (ftc_capture_stop(r->cap) < 0) {
		if (!failed)	/* a reader's failure was reported already */
			cmd_error(&cmd_record, "%s", ftc_strerror());
		ret = -1;
	}
	if (record_sample_stop(&r->sample) < 0) {
		cmd_error(&cmd_record, "%s", ftc_strerror());
		ret = -1;
	}
	if (ftc_writer_finish(r->w) < 0) {
		cmd_error(&cmd_record, "%s", ftc_strerror());
		ret = -1;
	}
	if (!r->quiet) {
		summary(r);
		record_sample_summary(&r->sample);
	}
	return ret;
}

/*
 * The recorder's own threads (their syscalls, their scheduling) would fill
 * the trace with ftc's activity: keep them out with set_event_notrace_pid
 * (journaled like every other knob), as trace-cmd keeps itself out with
 * filters. Best effort: an old kernel without the file records them.
 */
static int main_tids(void *ctx, pid_t *tids, int max)
{
	struct record *r = ctx;
	int n = 0;

	tids[n++] = getpid();
	/* the guardian wakes only to restore, after the capture */
	if (max > 1 && ftc_state_guardian(r->st))
		tids[n++] = ftc_state_guardian(r->st);
	return n;
}

static int reader_tids(void *ctx, pid_t *tids, int max)
{
	return ftc_capture_tids(ctx, tids, max);
}

static int sampler_tids(void *ctx, pid_t *tids, int max)
{
	return record_sample_tids(ctx, tids, max);
}

static void exclude_self(struct record *r)
{
	const struct tid_source src[] = {
		{ main_tids, r, 2 },
		{ reader_tids, r->cap, ftc_capture_nslots(r->cap) },
		{ sampler_tids, &r->sample, 1 },
	};
	size_t n = 0;
	char **v = self_tids(src, sizeof(src) / sizeof(src[0]), &n);

	if (!v) {
		if (!r->quiet)
			cmd_error(&cmd_record, "warning: ftc's own threads will be traced: out of memory");
		return;
	}
	for (size_t i = 0; i < r->nbufs; i++) {
		const char *inst = r->bufs[i].instance;

		if (!ftc_knob_exists(inst, "set_event_notrace_pid"))
			continue;
		if (ftc_set_pids(r->st, inst, "set_event_notrace_pid", v, n) < 0 &&
		    !r->quiet)
			cmd_error(&cmd_record, "warning: ftc's own threads will be traced: %s",
				  ftc_strerror());
	}
	self_tids_free(v, n);
}

/* Each buffer, before anything is written: the top level or the instance. */
/*
 * The file's buffers are merged by timestamp when read: instances on
 * different trace clocks (-C in one section only, or an existing instance
 * set otherwise) interleave wrongly. Say so; the capture itself is fine.
 */
static void warn_mixed_clocks(struct record *r)
{
	char *first = r->nbufs > 1 ? ftc_tracefs_clock(r->bufs[0].instance) : NULL;

	for (size_t i = 1; first && i < r->nbufs; i++) {
		char *c = ftc_tracefs_clock(r->bufs[i].instance);

		if (c && strcmp(c, first))
			fprintf(stderr, "ftc record: warning: instance %s uses trace clock '%s' but "
				"%s uses '%s': a report merges their records by timestamp, so give "
				"every section the same -C\n", r->bufs[i].instance, c,
				r->bufs[0].instance, first);
		free(c);
	}
	free(first);
}

static int check_readers(struct record *r)
{
	int ret = 0;

	for (size_t i = 0; i < r->nbufs; i++) {
		const char *inst = r->bufs[i].instance;
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

static int capture(struct record *r)
{
	int child_status = 0, stop, ret = FTC_EXIT_OK;
	bool exec_failed = false;

	if (r->argv && !(r->cmd = ftc_workload_spawn(r->argv)))
		goto fail;
	if (r->follow && add_follow(r) < 0)
		goto fail;
	/* Configure with tracing off; it is turned on once the readers run. */
	if (control_spec_configure(r->spec, r->st) < 0) {
		int err = cmd_signal_caught() ? EINTR : errno;

		cmd_error(&cmd_record, "%s", ftc_strerror());
		ftc_workload_reap(r->cmd);	/* it reads EOF instead of "go" and exits */
		return control_exit_status(err);
	}
	warn_mixed_clocks(r);
	if (setup_capture(r) < 0)
		goto fail;
	exclude_self(r);
	clock_gettime(CLOCK_MONOTONIC, &r->t0);
	if (control_spec_tracing_on(r->spec, r->st) < 0)
		goto fail_started;
	if (r->argv && ftc_workload_start(r->cmd) < 0) {
		exec_failed = true;
		goto fail_started;
	}
	if (r->argv)
		record_sample_command_started(&r->sample);
	stop = wait_loop(r, &child_status);
	if (stop < 0)
		cmd_error(&cmd_record, "%s", ftc_capture_failed(r->cap) ?
			  ftc_capture_error(r->cap) : ftc_strerror());
	if (finish(r, stop < 0) < 0 || stop < 0)
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
fail_started:
	/* The command never ran: say why, then leave a finished (empty) file. */
	cmd_error(&cmd_record, "%s", ftc_strerror());
	ftc_workload_reap(r->cmd);
	ftc_capture_stop(r->cap);
	record_sample_stop(&r->sample);
	ftc_writer_finish(r->w);
	if (cmd_signal_caught())
		return FTC_EXIT_INTERRUPTED;
	return exec_failed ? 127 : FTC_EXIT_FAIL;	/* as a shell, and ftc stat */
fail:
	cmd_error(&cmd_record, "%s", ftc_strerror());
	ftc_workload_reap(r->cmd);
	return r->refused ? FTC_EXIT_REFUSED : FTC_EXIT_FAIL;
}

static int record_run(int argc, char **argv)
{
	struct record r = { .output = "trace.dat", .version = 7,
			    .compression = FTC_COMPRESS_ZSTD };
	int ret;

	r.spec = control_spec_new();
	if (!r.spec) {
		cmd_error(&cmd_record, "out of memory");
		return FTC_EXIT_FAIL;
	}
	ret = cmd_options_parse(&cmd_record, argc, argv, record_opt, &r);
	if (ret < 0) {
		control_spec_free(r.spec);
		return cmd_options_exit(ret);
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
	if (bufs_init(&r) < 0) {
		cmd_error(&cmd_record, "%s", ftc_strerror());
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	if (check_readers(&r) < 0) {
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	r.st = ftc_state_new();
	if (!r.st) {
		cmd_error(&cmd_record, "%s", ftc_strerror());
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	/* Before the first write and before any thread: see ftc_state_guard. */
	if (ftc_state_guard(r.st, "record") < 0)
		cmd_error(&cmd_record, "warning: tracefs stays changed if ftc is killed: %s",
			  ftc_strerror());
	cmd_signals_catch();
	ret = capture(&r);
	ftc_capture_free(r.cap);
	record_sample_free(&r.sample);
	ftc_writer_free(r.w);
	if (ftc_state_restore(r.st) < 0) {
		cmd_error(&cmd_record, "%s", ftc_strerror());
		if (ret == FTC_EXIT_OK)
			ret = FTC_EXIT_FAIL;
	}
	ftc_state_free(r.st);
	/* --duration ended the capture first: the command finishes on its own. */
	ftc_workload_reap(r.cmd);
	ftc_workload_free(r.cmd);
out:
	bufs_free(&r);
	control_spec_free(r.spec);
	return ret;
}
