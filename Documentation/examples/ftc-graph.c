// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc-graph: a function_graph capture of one command, written through
 * libftc's session API alone (libftc-session(3)), as ftc record does it:
 * describe the session, let it configure tracefs in the kernel's order
 * with tracing off, start the readers, turn tracing on, release the
 * command, and put every knob back afterwards (the journal's guardian
 * puts them back even if this program is killed).
 *
 *	ftc-graph [-B INSTANCE] [-o FILE] [-g FUNC]... [-d DEPTH] [-p TRACER] [-e EVENT]...
 *		-- COMMAND [ARG]...
 *
 * Only the command is traced, in the top-level buffer or in INSTANCE.
 * -p picks another tracer (nop with -e events, where function_graph is
 * refused). Exit status: the
 * command's own; 1 when the capture failed; 2 for bad usage; 3 when the
 * kernel refused something (a tracer or a file it does not have).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ftc.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: ftc-graph [-B INSTANCE] [-o FILE] [-g FUNC]... [-d DEPTH] "
		"[-p TRACER] [-e EVENT]... -- COMMAND [ARG]...\n");
	return 2;
}

/* The command-line options, one session setting each. */
static int describe(struct ftc_session *s, int argc, char **argv, const char **output)
{
	const char *tracer = "function_graph";
	int c, bad = 0;

	while (!bad && (c = getopt(argc, argv, "+B:o:g:d:p:e:")) != -1) {
		switch (c) {
		case 'B': bad = ftc_session_instance(s, optarg); break;
		case 'o': *output = optarg; break;
		case 'g': bad = ftc_session_set(s, FTC_SESSION_GRAPH_FUNC, optarg); break;
		case 'd':
			bad = ftc_session_set_number(s, FTC_SESSION_MAX_GRAPH_DEPTH,
						     strtoull(optarg, NULL, 10));
			break;
		case 'p': tracer = optarg; break;
		case 'e': bad = ftc_session_set(s, FTC_SESSION_EVENT, optarg); break;
		default: return -1;
		}
	}
	if (bad) {
		fprintf(stderr, "ftc-graph: -%c %s: %s\n", c, optarg, ftc_strerror());
		return -1;
	}
	return ftc_session_set(s, FTC_SESSION_TRACER, tracer);
}

/* How many events the readers took, and lost, over every CPU. */
static void summary(struct ftc_session *s, const char *output)
{
	struct ftc_capture *cap = ftc_session_capture(s);
	unsigned long long events = 0, lost = 0;

	for (int i = 0; i < ftc_capture_nslots(cap); i++) {
		struct ftc_capture_cpu_stats st = FTC_OPTS_INIT(ftc_capture_cpu_stats);

		if (ftc_capture_cpu_stats(cap, i, &st) == 0) {
			events += st.events;
			lost += st.lost;
		}
	}
	fprintf(stderr, "ftc-graph: %llu events, %llu lost, in %s\n", events, lost, output);
}

/* Until the command exits, a signal, or a full disk; a checkpoint each second. */
static int wait_command(struct ftc_session *s, struct ftc_workload *w)
{
	int wake = FTC_SESSION_WAKE_TIMEOUT;

	while (!stop && wake == FTC_SESSION_WAKE_TIMEOUT) {
		wake = ftc_session_wait(s, -1, 1000000000LL);
		ftc_session_checkpoint(s);
	}
	if (wake == FTC_SESSION_WAKE_FAILED || wake < 0) {
		fprintf(stderr, "ftc-graph: %s\n", ftc_session_error(s));
		return 1;
	}
	if (wake != FTC_SESSION_WAKE_ENDED)
		return 130;
	return ftc_workload_exit_code(w);
}

static int record(struct ftc_session *s, struct ftc_state *st, char **command,
		  const char *output)
{
	struct ftc_workload *w = ftc_workload_spawn(command);
	struct ftc_session_record_opts o = FTC_OPTS_INIT(ftc_session_record_opts,
		.output = output, .compression = FTC_COMPRESS_ZSTD);
	int ret;

	if (!w || ftc_session_set_command(s, w) < 0 ||
	    ftc_session_follow(s, ftc_workload_pid(w)) < 0 ||
	    ftc_session_record_start(s, st, &o) < 0) {
		fprintf(stderr, "ftc-graph: %s\n", ftc_strerror());
		ret = ftc_session_stage(s) == FTC_SESSION_STAGE_EXEC ? 127 :
		      ftc_errno_refused(errno) ? 3 : 1;
		ftc_workload_reap(w);	/* never released, it exits */
		ftc_workload_free(w);
		return ret;
	}
	ret = wait_command(s, w);
	if (ftc_session_record_stop(s) < 0) {
		fprintf(stderr, "ftc-graph: %s\n", ftc_strerror());
		ret = 1;
	} else {
		summary(s, output);
	}
	ftc_workload_kill(w);	/* interrupted: the command goes too */
	ftc_workload_free(w);
	return ret;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct ftc_session *s = ftc_session_new();
	const char *output = "trace.dat";
	struct ftc_state *st;
	int ret;

	if (!s || describe(s, argc, argv, &output) < 0 || optind >= argc) {
		ftc_session_free(s);
		return usage();
	}
	st = ftc_state_new();
	/* the guardian exists before the first write: a kill cannot strand a knob */
	if (!st || ftc_state_guard(st, "ftc-graph") < 0) {
		fprintf(stderr, "ftc-graph: %s\n", ftc_strerror());
		ftc_state_free(st);
		ftc_session_free(s);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ftc_state_set_stop(st, &stop);
	ret = record(s, st, argv + optind, output);
	ftc_session_free(s);	/* the readers let go of tracefs before it is restored */
	if (ftc_state_restore(st) < 0) {
		fprintf(stderr, "ftc-graph: %s\n", ftc_strerror());
		ret = ret ? ret : 1;
	}
	ftc_state_free(st);
	return ret;
}
