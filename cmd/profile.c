// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc profile: sample a command (or every CPU) with perf_event_open and
 * show where the time went: a table by symbol, folded stacks, or an SVG
 * flame graph drawn by ftc itself.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "call-graph.h"
#include "options.h"
#include "output.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-perf.h"

enum { OPT_FOLDED = 0x100, OPT_FLAME, OPT_LIMIT, OPT_CALL_GRAPH };

static const struct cmd_option profile_options[] = {
	{ 'e', "event", "EVENT", "event to sample (default cpu-clock)", 0 },
	{ 'F', "freq", "HZ", "samples per second (default 4000)", 0 },
	{ 'c', "count", "PERIOD", "one sample every PERIOD events, instead of -F", 0 },
	{ 'g', NULL, NULL, "record call chains by frame pointers (--call-graph fp)", 0 },
	{ 0, "call-graph", "MODE", "record call chains: fp, dwarf or dwarf,SIZE (stack bytes, 8192)",
	  OPT_CALL_GRAPH },
	{ 'a', "all-cpus", NULL, "sample every CPU, every task", 0 },
	{ 'C', "cpu", "CPUS", "sample these CPUs only (implies -a)", 0 },
	{ 'p', "pid", "PID", "sample a running process (every thread) until it ends or Ctrl-C", 0 },
	{ 'm', "mmap-pages", "PAGES", "ring size per CPU in pages, a power of two (64)", 0 },
	{ 'o', "output", "FILE", "write the table or the folded stacks to FILE", 0 },
	{ 0, "folded", NULL, "print folded stacks (comm;outer;...;leaf count)", OPT_FOLDED },
	{ 0, "flamegraph", "FILE.svg", "draw an SVG flame graph into FILE.svg", OPT_FLAME },
	{ 0, "limit", "N", "print at most N rows of the table", OPT_LIMIT },
	FTC_HELP_OPTION,
	{ 0 }
};

struct profile_opts {
	const char *event, *cpu_list, *output, *flame;
	struct ftc_perf_sample_opts s;
	bool all_cpus, folded;
	unsigned long long limit;
	pid_t pid;
};

static int profile_run(int argc, char **argv);

const struct command cmd_profile = {
	.name = "profile",
	.summary = "sample a command with perf_event_open: profile table, folded stacks, flame graph",
	.synopsis = "[-e EVENT] [-F HZ | -c PERIOD] [-g | --call-graph MODE] [-a | -C CPUS | -p PID]\n"
		    "                   [--folded] [--flamegraph FILE.svg] [-- COMMAND]",
	.options = profile_options,
	.run = profile_run,
	.stop_at_operand = true,
};


static int profile_opt(int id, const char *arg, void *ctx)
{
	struct profile_opts *o = ctx;
	unsigned long long v;

	switch (id) {
	case 'e': o->event = arg; break;
	case 'F':
		if (cmd_parse_u64(arg, &o->s.freq) < 0 || !o->s.freq)
			return cmd_bad_value("not a frequency (samples per second from 1)");
		break;
	case 'c':
		if (cmd_parse_u64(arg, &o->s.period) < 0 || !o->s.period)
			return cmd_bad_value("not a period (events per sample from 1)");
		break;
	case 'g':
		o->s.callchain = true;
		o->s.dwarf_stack = 0;
		break;
	case OPT_CALL_GRAPH:
		o->s.callchain = true;
		return cmd_parse_call_graph(arg, &o->s.dwarf_stack);
	case 'a': o->all_cpus = true; break;
	case 'C': o->cpu_list = arg; o->all_cpus = true; break;
	case 'p':
		if (cmd_parse_u64(arg, &v) < 0 || !v || v > 0x7fffffff)
			return cmd_bad_value("not a process id (1 to 2147483647)");
		o->pid = (pid_t)v;
		break;
	case 'm':
		if (cmd_parse_u64(arg, &v) < 0 || !v || (v & (v - 1)) || v > 65536)
			return cmd_bad_value("not a number of pages (a power of two, 1 to 65536)");
		o->s.pages = (size_t)v;
		break;
	case 'o': o->output = arg; break;
	case OPT_FOLDED: o->folded = true; break;
	case OPT_FLAME: o->flame = arg; break;
	case OPT_LIMIT:
		if (cmd_parse_u64(arg, &o->limit) < 0)
			return cmd_bad_value("not a number of rows");
		break;
	}
	return 0;
}

/* ---- stopping: the command's end, or Ctrl-C without a command ---- */

/*
 * Until the command ends, the -p process ends, or a signal; the rings are
 * read meanwhile. The command's pidfd wakes the rings' poll the moment it
 * exits; the session then says it ended.
 */
static int sample_loop(struct ftc_perf_sampler *s, struct ftc_session *ss, struct ftc_workload *w)
{
	int pidfd = ftc_workload_pidfd(w);

	for (;;) {
		int wake;

		if (ftc_perf_sampler_poll(s, pidfd >= 0 ? pidfd : cmd_signal_fd(), 100) < 0)
			return -1;
		wake = ftc_session_wait(ss, cmd_signal_fd(), 0);
		if (wake < 0)
			return -1;
		if (wake == FTC_SESSION_WAKE_ENDED)
			return 0;
		if (wake != FTC_SESSION_WAKE_STOP && !cmd_signal_caught())
			continue;
		cmd_signal_drain();
		if (!w)
			return 0;
		/* Passed on once: the command decides how it ends. */
		if (ftc_session_forward(ss, cmd_signal_caught()) < 0)
			return -1;
	}
}

static int report(struct profile_opts *o, struct ftc_perf_sampler *s)
{
	struct ftc_symbols *syms = ftc_symbols_new();
	struct ftc_perf_agg *a = ftc_perf_agg_new();
	struct ftc_perf_profile *p = ftc_perf_sampler_profile(s);
	const char *event = ftc_perf_sampler_event(s);
	FILE *out = stdout;
	int ret = -1;

	if (!syms || !a)
		goto out;
	if (ftc_symbols_load_kallsyms(syms, NULL) < 0)
		fprintf(stderr, "ftc profile: kernel frames stay unnamed: %s\n", ftc_strerror());
	if (ftc_perf_agg_build(a, p, syms) < 0)
		goto out;
	if (ftc_perf_profile_lost(p))
		fprintf(stderr, "ftc profile: the kernel lost %llu samples (rings full): "
			"use a larger -m or a lower -F\n",
			(unsigned long long)ftc_perf_profile_lost(p));
	if (o->output && !(out = cmd_output_open(&cmd_profile, o->output))) {
		out = stdout;
		goto quiet;
	}
	if (o->flame && cmd_output_flame(&cmd_profile, o->flame, a, event) < 0)
		goto quiet;
	if (o->folded)
		ftc_perf_agg_folded(out, a);
	else if (!o->flame || o->output)
		ftc_perf_agg_table(out, a, o->s.callchain, o->limit, event,
				   ftc_perf_profile_lost(p));
	ret = cmd_output_close(&cmd_profile, out, o->output) < 0 ? -2 : 0;
	out = stdout;
	goto out;
quiet:
	ret = -2;	/* said why */
out:
	if (out != stdout)
		fclose(out);
	ftc_perf_agg_free(a);
	ftc_symbols_free(syms);
	return ret;
}

static struct ftc_perf_sampler *open_sampler(struct profile_opts *o, struct ftc_workload *w)
{
	int *cpus = NULL, ncpus = ftc_perf_parse_cpus(o->all_cpus ? o->cpu_list : NULL, &cpus);
	struct ftc_perf_sampler *s = NULL;
	pid_t *pids = NULL;
	int npids = 0;

	if (ncpus < 0)
		return NULL;
	if (o->pid) {
		npids = ftc_perf_pid_threads(o->pid, &pids);
		if (npids < 0)
			goto out;
		o->s.flags = FTC_PERF_INHERIT;
	} else if (!o->all_cpus) {
		pids = malloc(sizeof(*pids));
		if (!pids) {
			ftc_error(ENOMEM, "out of memory");
			goto out;
		}
		pids[0] = ftc_workload_pid(w);
		npids = 1;
		o->s.flags = FTC_PERF_ENABLE_ON_EXEC | FTC_PERF_INHERIT;
	}
	s = ftc_perf_sampler_open(o->event, &o->s, pids, npids, cpus, ncpus);
	if (s && *ftc_perf_sampler_note(s))
		fprintf(stderr, "ftc profile: %s\n", ftc_perf_sampler_note(s));
out:
	free(pids);
	free(cpus);
	return s;
}

static const char *check_usage(const struct profile_opts *o, char **cmd)
{
	if (!cmd[0] && !o->all_cpus && !o->pid)
		return "give a command after '--', or -a, -C or -p";
	if (o->s.freq && o->s.period)
		return "-F and -c do not mix: choose one";
	if (o->pid && (o->all_cpus || cmd[0]))
		return "-p samples one process: no -a, -C or command with it";
	return NULL;
}

static int profile_run(int argc, char **argv)
{
	struct profile_opts o = { .s = FTC_OPTS_INIT(ftc_perf_sample_opts) };
	struct ftc_perf_sampler *s = NULL;
	struct ftc_session *ss = NULL;
	struct ftc_workload *w = NULL;
	int ret = cmd_options_parse(&cmd_profile, argc, argv, profile_opt, &o);
	int code = FTC_EXIT_FAIL;
	const char *why;
	char **cmd;

	if (ret < 0)
		return cmd_options_exit(ret);
	cmd = argv + ret;
	why = check_usage(&o, cmd);
	if (why) {
		cmd_error(&cmd_profile, "%s (see 'ftc profile --help')", why);
		return FTC_EXIT_USAGE;
	}
	if (cmd_signals_catch() < 0 || !(ss = ftc_session_new()))
		goto fail;
	if (cmd[0] && (!(w = ftc_workload_spawn(cmd)) || ftc_session_set_command(ss, w) < 0))
		goto fail;
	if (!(s = open_sampler(&o, w))) {
		code = errno == EINVAL || errno == ENOENT ? FTC_EXIT_USAGE : FTC_EXIT_REFUSED;
		goto fail;
	}
	if (o.pid && ftc_session_attach(ss, o.pid) < 0)
		goto fail;
	/* Processes already running told the kernel nothing: read /proc. */
	if ((o.all_cpus || o.pid) && ftc_perf_profile_synthesize(ftc_perf_sampler_profile(s)) < 0)
		goto fail;
	if (o.all_cpus || o.pid)
		ftc_perf_sampler_enable(s, true);
	if (ftc_session_release(ss) < 0) {
		code = 127;
		goto fail;
	}
	if (sample_loop(s, ss, w) < 0)
		goto fail;
	ftc_perf_sampler_enable(s, false);
	ftc_workload_reap(w);
	if (ftc_perf_sampler_drain(s) < 0)
		goto fail;
	ret = report(&o, s);
	if (ret == -2) {
		code = FTC_EXIT_FAIL;
		goto out;
	}
	if (ret < 0)
		goto fail;
	code = w ? ftc_workload_exit_code(w) : FTC_EXIT_OK;
	goto out;
fail:
	cmd_error(&cmd_profile, "%s", ftc_strerror());
	ftc_workload_kill(w);
out:
	ftc_session_free(ss);
	ftc_workload_free(w);
	ftc_perf_sampler_close(s);
	return code;
}
