// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc stat: count events with perf_event_open while a command runs, or
 * system wide, or on a process, with perf stat's habits and layout.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "ftc.h"
#include "ftc-perf.h"

#define DEFAULT_EVENTS "context-switches,cpu-migrations,page-faults," \
	"cycles,instructions,branches,branch-misses"

enum { OPT_LIST = 0x100 };

static const struct cmd_option stat_options[] = {
	{ 'e', "event", "EVENTS", "events to count, comma-separated; {a,b} groups, sys:event globs", 0 },
	{ 'a', "all-cpus", NULL, "count on every CPU (system wide)", 0 },
	{ 'A', "no-aggr", NULL, "with -a or -C: show each CPU apart", 0 },
	{ 'C', "cpu", "CPUS", "count on these CPUs only, e.g. 0-1,3 (implies -a)", 0 },
	{ 'p', "pid", "PID", "count on an existing process (every thread)", 0 },
	{ 'I', "interval-print", "MS", "print the counts of each MS milliseconds (>= 10)", 0 },
	{ 'x', "field-separator", "SEP", "CSV output with this separator", 0 },
	{ 'r', "repeat", "N", "run the command N times; show means and their spread", 0 },
	{ 'o', "output", "FILE", "write the counts to FILE instead of stderr", 0 },
	{ 0, "list", NULL, "list the symbolic event names and exit", OPT_LIST },
	FTC_HELP_OPTION,
	{ 0 }
};

struct stat_opts {
	char *events;
	bool all_cpus, no_aggr, list;
	const char *cpu_list;
	pid_t pid;
	unsigned long long interval_ms, repeat;
	const char *sep;
	const char *output;
};

static int stat_run(int argc, char **argv);

const struct command cmd_stat = {
	.name = "stat",
	.summary = "count events (hardware, software, tracepoints) with perf_event_open",
	.synopsis = "[-e EVENTS] [-a] [-A] [-C CPUS] [-p PID] [-I MS] [-x SEP] [-r N] [-- COMMAND]",
	.options = stat_options,
	.run = stat_run,
	.stop_at_operand = true,
};

static int append_events(struct stat_opts *o, const char *arg)
{
	char *s;

	if (asprintf(&s, "%s%s%s", o->events ? o->events : "", o->events ? "," : "", arg) < 0)
		return -1;
	free(o->events);
	o->events = s;
	return 0;
}


static int stat_opt(int id, const char *arg, void *ctx)
{
	struct stat_opts *o = ctx;
	unsigned long long v;

	switch (id) {
	case 'e': return append_events(o, arg);
	case 'a': o->all_cpus = true; break;
	case 'A': o->no_aggr = true; break;
	case 'C': o->cpu_list = arg; o->all_cpus = true; break;
	case 'p':
		if (cmd_parse_u64(arg, &v) < 0 || !v || v > 0x7fffffff)
			return cmd_bad_value("not a process id (1 to 2147483647)");
		o->pid = (pid_t)v;
		break;
	case 'I':
		if (cmd_parse_u64(arg, &o->interval_ms) < 0 || o->interval_ms < 10)
			return cmd_bad_value("not a number of milliseconds from 10");
		break;
	case 'x':
		o->sep = arg;
		break;
	case 'r':
		if (cmd_parse_u64(arg, &o->repeat) < 0 || !o->repeat || o->repeat > 100000)
			return cmd_bad_value("not a repeat count (1 to 100000)");
		break;
	case 'o': o->output = arg; break;
	case OPT_LIST: o->list = true; break;
	}
	return 0;
}

/* ---- signals: Ctrl-C ends a count that has no command ---- */

static volatile sig_atomic_t stop_signal;
static int sig_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved = errno;

	stop_signal = sig;
	if (write(sig_pipe[1], "s", 1) < 0)
		errno = saved;
	errno = saved;
}

static int signals_setup(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	if (sig_pipe[0] < 0 && pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return ftc_error(errno, "pipe: %s", strerror(errno));
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return 0;
}

/* ---- results ---- */

struct slot_result {
	struct ftc_perf_count *sum;	/* per event, summed over runs */
	struct ftc_perf_stats *stats;	/* per event, scaled values over runs */
};

struct stat_state {
	struct stat_opts *o;
	struct ftc_perf_evlist *l;
	char **argv;
	FILE *out;
	int nslots;			/* CPUs shown apart (-A) or 1 */
	struct slot_result *res;
	struct ftc_perf_count *prev;	/* nslots * n, last interval reading */
	struct ftc_perf_stats elapsed;
	struct timespec t0;
	struct ftc_workload *w;		/* this run's command, NULL for none */
	bool exec_failed;		/* the command could not be run */
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int first_ok(const struct stat_state *s, const double *v, const bool *ok,
		    uint32_t type, uint64_t config, bool any_clock)
{
	for (int i = 0; i < ftc_perf_evlist_count(s->l); i++) {
		const struct ftc_perf_event *e = ftc_perf_evlist_event(s->l, i);

		if (!ok[i])
			continue;
		if (any_clock ? ftc_perf_event_is_clock(e) : ftc_perf_event_is(e, type, config))
			return v[i] > 0 ? i : -1;
	}
	return -1;
}

struct metric {
	double v;
	char unit[32];
	bool has;
};

static void rate_metric(struct metric *m, double per_sec)
{
	static const char *const pfx[] = { "", "K", "M", "G" };
	int k = 0;

	while (per_sec >= 1000 && k < 3) {
		per_sec /= 1000;
		k++;
	}
	m->v = per_sec;
	snprintf(m->unit, sizeof(m->unit), "%s/sec", pfx[k]);
	m->has = true;
}

/* perf's derived ratios, from the other events counted at the same place. */
static void metric_for(const struct stat_state *s, int i, const double *v, const bool *ok,
		       double wall_ns, struct metric *m)
{
	const struct ftc_perf_event *e = ftc_perf_evlist_event(s->l, i);
	int clk = first_ok(s, v, ok, 0, 0, true);
	int cyc = first_ok(s, v, ok, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false);
	int br = first_ok(s, v, ok, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, false);

	memset(m, 0, sizeof(*m));
	if (!ok[i] || ftc_perf_event_kind(e) == FTC_PERF_TRACEPOINT)
		return;
	if (ftc_perf_event_is_clock(e)) {
		if (wall_ns > 0) {
			m->v = v[i] / wall_ns;
			snprintf(m->unit, sizeof(m->unit), "CPUs utilized");
			m->has = true;
		}
	} else if (ftc_perf_event_is(e, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES) && clk >= 0) {
		m->v = v[i] / v[clk];
		snprintf(m->unit, sizeof(m->unit), "GHz");
		m->has = true;
	} else if (ftc_perf_event_is(e, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS) &&
		   cyc >= 0) {
		m->v = v[i] / v[cyc];
		snprintf(m->unit, sizeof(m->unit), "insn per cycle");
		m->has = true;
	} else if (ftc_perf_event_is(e, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES) &&
		   br >= 0) {
		m->v = 100.0 * v[i] / v[br];
		snprintf(m->unit, sizeof(m->unit), "%% of all branches");
		m->has = true;
	} else if (clk >= 0) {
		rate_metric(m, v[i] / (v[clk] / 1e9));
	}
}

static const char *state_text(enum ftc_perf_state st)
{
	return st == FTC_PERF_UNSUPPORTED ? "<not supported>" : "<not counted>";
}

struct line {
	const char *prefix;		/* interval time and/or CPU, may be "" */
	const struct ftc_perf_event *e;
	enum ftc_perf_state st;
	double value;
	double pct;			/* running percentage */
	uint64_t run;
	double rel_stddev;		/* < 0 when not repeated */
	struct metric m;
};

static void print_human(struct stat_state *s, const struct line *ln)
{
	bool clock = ftc_perf_event_is_clock(ln->e);
	char val[64];

	if (ln->st != FTC_PERF_OK)
		snprintf(val, sizeof(val), "%s", state_text(ln->st));
	else if (clock)
		snprintf(val, sizeof(val), "%.2f", ln->value / 1e6);
	else
		snprintf(val, sizeof(val), "%.0f", ln->value);
	fprintf(s->out, "%s%18s %-4s %-32s", ln->prefix, val, clock ? "msec" : "",
		ftc_perf_event_name(ln->e));
	if (ln->m.has)
		fprintf(s->out, " # %8.3f %-20s", ln->m.v, ln->m.unit);
	else if (ln->st == FTC_PERF_OK && (ln->rel_stddev > 0 || ln->pct < 100))
		fprintf(s->out, "   %8s %-20s", "", "");
	if (ln->st == FTC_PERF_OK && ln->rel_stddev > 0)
		fprintf(s->out, "  ( +- %5.2f%% )", ln->rel_stddev);
	if (ln->st == FTC_PERF_OK && ln->pct < 100)
		fprintf(s->out, "  (%.2f%%)", ln->pct);
	fputc('\n', s->out);
}

static void print_csv(struct stat_state *s, const struct line *ln)
{
	const char *x = s->o->sep;
	bool clock = ftc_perf_event_is_clock(ln->e);

	fprintf(s->out, "%s", ln->prefix);
	if (ln->st != FTC_PERF_OK)
		fprintf(s->out, "%s", state_text(ln->st));
	else if (clock)
		fprintf(s->out, "%.2f", ln->value / 1e6);
	else
		fprintf(s->out, "%.0f", ln->value);
	fprintf(s->out, "%s%s%s%s", x, clock ? "msec" : "", x, ftc_perf_event_name(ln->e));
	if (ln->rel_stddev >= 0)
		fprintf(s->out, "%s%.2f%%", x, ln->rel_stddev);
	fprintf(s->out, "%s%llu%s%.2f%s", x, (unsigned long long)ln->run, x, ln->pct, x);
	if (ln->m.has)
		fprintf(s->out, "%.3f%s%s", ln->m.v, x, ln->m.unit);
	else
		fprintf(s->out, "%s", x);
	fputc('\n', s->out);
}

static void print_line(struct stat_state *s, const struct line *ln)
{
	if (s->o->sep)
		print_csv(s, ln);
	else
		print_human(s, ln);
}

/* Prints event i at one slot, from the counts of every event there. */
static void print_event(struct stat_state *s, int i, int slot, const struct ftc_perf_count *c,
			const struct ftc_perf_stats *st, double wall_ns, const char *tprefix)
{
	int n = ftc_perf_evlist_count(s->l);
	double *v = calloc((size_t)n, sizeof(double));
	bool *ok = calloc((size_t)n, sizeof(bool));
	char prefix[64] = "";
	struct line ln = {
		.prefix = prefix,
		.e = ftc_perf_evlist_event(s->l, i),
		.st = ftc_perf_evlist_state(s->l, i, &c[i]),
		.pct = ftc_perf_count_running_pct(&c[i]),
		.run = c[i].run,
		.rel_stddev = st && s->o->repeat > 1 ? ftc_perf_stats_rel_stddev(&st[i]) : -1,
	};

	if (!v || !ok)
		goto out;
	for (int k = 0; k < n; k++) {
		ok[k] = ftc_perf_evlist_state(s->l, k, &c[k]) == FTC_PERF_OK;
		v[k] = st ? st[k].mean : ftc_perf_count_scaled(&c[k]);
	}
	if (s->nslots > 1)
		snprintf(prefix, sizeof(prefix), s->o->sep ? "%sCPU%d%s" : "%sCPU%-4d",
			 tprefix, ftc_perf_evlist_cpu(s->l, slot), s->o->sep ? s->o->sep : "");
	else
		snprintf(prefix, sizeof(prefix), "%s", tprefix);
	ln.value = v[i];
	metric_for(s, i, v, ok, wall_ns, &ln.m);
	print_line(s, &ln);
out:
	free(v);
	free(ok);
}

static int read_slot(struct stat_state *s, int slot, struct ftc_perf_count *c)
{
	for (int i = 0; i < ftc_perf_evlist_count(s->l); i++)
		if (ftc_perf_evlist_read(s->l, i, s->nslots > 1 ? slot : -1, &c[i]) < 0)
			return -1;
	return 0;
}

static int print_interval(struct stat_state *s, double *last_ns)
{
	int n = ftc_perf_evlist_count(s->l);
	struct ftc_perf_count *cur = calloc((size_t)n, sizeof(*cur));
	struct ftc_perf_count *d = calloc((size_t)(n * s->nslots), sizeof(*d));
	double t = now_ns();
	double t0 = (double)s->t0.tv_sec * 1e9 + (double)s->t0.tv_nsec;
	char tprefix[48];
	int ret = -1;

	if (!cur || !d)
		goto out;
	snprintf(tprefix, sizeof(tprefix), s->o->sep ? "%.9f%s" : "%16.9f ", (t - t0) / 1e9,
		 s->o->sep ? s->o->sep : "");
	for (int slot = 0; slot < s->nslots; slot++) {
		struct ftc_perf_count *prev = &s->prev[slot * n];

		if (read_slot(s, slot, cur) < 0)
			goto out;
		for (int i = 0; i < n; i++)
			ftc_perf_count_sub(&d[slot * n + i], &cur[i], &prev[i]);
		memcpy(prev, cur, (size_t)n * sizeof(*cur));
	}
	/* As perf -A: each event on every CPU, then the next event. */
	for (int i = 0; i < n; i++)
		for (int slot = 0; slot < s->nslots; slot++)
			print_event(s, i, slot, &d[slot * n], NULL, t - *last_ns, tprefix);
	fflush(s->out);
	*last_ns = t;
	ret = 0;
out:
	free(cur);
	free(d);
	return ret;
}

/* Waits for the command (or a signal), printing intervals on the way. */
static int wait_loop(struct stat_state *s)
{
	double last = (double)s->t0.tv_sec * 1e9 + (double)s->t0.tv_nsec;
	double next = last + (double)s->o->interval_ms * 1e6;
	bool forwarded = false;
	pid_t pid = ftc_workload_pid(s->w);
	int pidfd = ftc_workload_pidfd(s->w);

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = sig_pipe[0], .events = POLLIN },
			{ .fd = pidfd, .events = POLLIN },
		};
		int timeout = -1, r;

		if (s->o->interval_ms) {
			double left = (next - now_ns()) / 1e6;

			timeout = left > 0 ? (int)ceil(left) : 0;
		}
		/* Without a pidfd the command's end is polled for. */
		if (pid && pidfd < 0 && (timeout < 0 || timeout > 50))
			timeout = 50;
		r = poll(pfd, 2, timeout);
		if (r < 0 && errno != EINTR)
			return ftc_error(errno, "poll: %s", strerror(errno));
		if (s->o->interval_ms && now_ns() >= next) {
			if (print_interval(s, &last) < 0)
				return -1;
			next += (double)s->o->interval_ms * 1e6;
		}
		/* Pass a signal on once: the command decides how it ends. */
		if (stop_signal && pid && !forwarded) {
			kill(pid, stop_signal);
			forwarded = true;
		}
		if (pid && (pfd[1].revents & POLLIN || (pidfd < 0 && ftc_workload_exited(s->w))))
			break;
		if (!pid && stop_signal)
			break;
		if (pfd[0].revents & POLLIN) {
			char buf[16];

			while (read(sig_pipe[0], buf, sizeof(buf)) > 0)
				;
			stop_signal = stop_signal ? stop_signal : SIGINT;
			if (!pid)
				break;
		}
	}
	if (s->o->interval_ms && print_interval(s, &last) < 0)
		return -1;
	return 0;
}

static int open_target(struct stat_state *s)
{
	pid_t *pids = NULL;
	int *cpus = NULL, npids = 0, ncpus = 0, ret = -1;
	unsigned int flags = 0;

	if (s->o->all_cpus) {
		ncpus = ftc_perf_parse_cpus(s->o->cpu_list, &cpus);
		if (ncpus < 0)
			return -1;
	} else if (s->w) {
		pids = malloc(sizeof(*pids));
		if (!pids)
			return ftc_error(ENOMEM, "out of memory");
		pids[0] = ftc_workload_pid(s->w);
		npids = 1;
		flags = FTC_PERF_ENABLE_ON_EXEC | FTC_PERF_INHERIT;
	} else {
		npids = ftc_perf_pid_threads(s->o->pid, &pids);
		if (npids < 0)
			return -1;
		flags = FTC_PERF_INHERIT;
	}
	if (ftc_perf_evlist_target(s->l, pids, npids, cpus, ncpus) < 0)
		goto out;
	ret = ftc_perf_evlist_open(s->l, flags);
out:
	free(pids);
	free(cpus);
	return ret;
}

static int add_run(struct stat_state *s)
{
	int n = ftc_perf_evlist_count(s->l);
	struct ftc_perf_count *c = calloc((size_t)n, sizeof(*c));

	if (!c)
		return ftc_error(ENOMEM, "out of memory");
	for (int slot = 0; slot < s->nslots; slot++) {
		if (read_slot(s, slot, c) < 0) {
			free(c);
			return -1;
		}
		for (int i = 0; i < n; i++) {
			struct ftc_perf_count *sum = &s->res[slot].sum[i];

			sum->val += c[i].val;
			sum->ena += c[i].ena;
			sum->run += c[i].run;
			ftc_perf_stats_add(&s->res[slot].stats[i], ftc_perf_count_scaled(&c[i]));
		}
	}
	free(c);
	return 0;
}

static int one_run(struct stat_state *s)
{
	double t_start, t_end;
	int opened;

	if (s->argv[0]) {
		ftc_workload_free(s->w);	/* the run before's */
		s->w = ftc_workload_spawn(s->argv);
		if (!s->w)
			return -1;
	}
	opened = open_target(s);
	if (opened < 0)
		goto fail;
	/* Time starts as the counters do, so the first interval's ratios hold. */
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	t_start = now_ns();
	if (s->o->all_cpus || s->o->pid)
		ftc_perf_evlist_enable(s->l, true);
	if (s->w && ftc_workload_start(s->w) < 0) {
		s->exec_failed = true;
		goto fail;
	}
	if (wait_loop(s) < 0)
		goto fail;
	if (s->o->all_cpus || s->o->pid)
		ftc_perf_evlist_enable(s->l, false);
	t_end = now_ns();
	ftc_workload_reap(s->w);
	ftc_perf_stats_add(&s->elapsed, t_end - t_start);
	if (add_run(s) < 0)
		return -1;
	ftc_perf_evlist_close(s->l);
	return opened;
fail:
	ftc_workload_kill(s->w);
	ftc_perf_evlist_close(s->l);
	return -1;
}

static void print_header(struct stat_state *s)
{
	FILE *f = s->out;

	if (s->o->sep)
		return;
	if (s->o->interval_ms) {
		fprintf(f, "#%15s %s%18s %-4s %s\n", "time", s->nslots > 1 ? "CPU    " : "",
			"counts", "unit", "events");
		return;
	}
	fprintf(f, "\n Performance counter stats for ");
	if (s->o->cpu_list) {
		fprintf(f, "'CPU(s) %s'", s->o->cpu_list);
	} else if (s->o->all_cpus) {
		fprintf(f, "'system wide'");
	} else if (s->argv[0]) {
		fprintf(f, "'");
		for (char **a = s->argv; *a; a++)
			fprintf(f, "%s%s", a == s->argv ? "" : " ", *a);
		fprintf(f, "'");
	} else {
		fprintf(f, "process id '%d'", (int)s->o->pid);
	}
	if (s->o->repeat > 1)
		fprintf(f, " (%llu runs)", s->o->repeat);
	fprintf(f, ":\n\n");
}

static void print_footer(struct stat_state *s)
{
	FILE *f = s->out;

	if (s->o->sep)
		return;
	fputc('\n', f);
	if (s->o->repeat > 1)
		fprintf(f, "%18.9f +- %.9f seconds time elapsed  ( +- %5.2f%% )\n",
			s->elapsed.mean / 1e9, ftc_perf_stats_stddev_mean(&s->elapsed) / 1e9,
			ftc_perf_stats_rel_stddev(&s->elapsed));
	else
		fprintf(f, "%18.9f seconds time elapsed\n", s->elapsed.mean / 1e9);
	if (s->w && s->o->repeat <= 1) {
		const struct rusage *ru = ftc_workload_rusage(s->w);

		fprintf(f, "\n%18.9f seconds user\n%18.9f seconds sys\n",
			ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6,
			ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6);
	}
	fputc('\n', f);
}

static void print_totals(struct stat_state *s)
{
	if (s->o->interval_ms)
		return;
	print_header(s);
	for (int i = 0; i < ftc_perf_evlist_count(s->l); i++)
		for (int slot = 0; slot < s->nslots; slot++)
			print_event(s, i, slot, s->res[slot].sum, s->res[slot].stats,
				    s->elapsed.mean, "");
	print_footer(s);
}

static int alloc_results(struct stat_state *s)
{
	int n = ftc_perf_evlist_count(s->l);

	s->res = calloc((size_t)s->nslots, sizeof(*s->res));
	s->prev = calloc((size_t)s->nslots * (size_t)n, sizeof(*s->prev));
	if (!s->res || !s->prev)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < s->nslots; i++) {
		s->res[i].sum = calloc((size_t)n, sizeof(*s->res[i].sum));
		s->res[i].stats = calloc((size_t)n, sizeof(*s->res[i].stats));
		if (!s->res[i].sum || !s->res[i].stats)
			return ftc_error(ENOMEM, "out of memory");
	}
	return 0;
}

static void free_state(struct stat_state *s)
{
	for (int i = 0; s->res && i < s->nslots; i++) {
		free(s->res[i].sum);
		free(s->res[i].stats);
	}
	free(s->res);
	free(s->prev);
	ftc_perf_evlist_free(s->l);
	ftc_workload_free(s->w);
	if (s->out && s->out != stderr)
		fclose(s->out);
	free(s->o->events);
}

/* Many tracepoints times many CPUs need many descriptors. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int check_usage(struct stat_opts *o, char **argv)
{
	const char *why = NULL;

	if (!argv[0] && !o->all_cpus && !o->pid)
		why = "give a command after '--', or -a, -C or -p";
	else if (o->repeat > 1 && !argv[0])
		why = "-r repeats a command: give one after '--'";
	else if (o->repeat > 1 && o->interval_ms)
		why = "-r and -I do not mix: choose one";
	else if (o->pid && o->all_cpus)
		why = "-p and -a/-C do not mix: count a process or CPUs";
	else if (o->no_aggr && !o->all_cpus)
		why = "-A shows CPUs apart: use it with -a or -C";
	else if (o->pid && argv[0])
		why = "-p and a command do not mix";
	if (why)
		cmd_error(&cmd_stat, "%s (see 'ftc stat --help')", why);
	return why ? -1 : 0;
}

static int setup(struct stat_state *s)
{
	const char *spec = s->o->events;
	char *def = NULL;
	int ret;

	if (!spec) {
		if (asprintf(&def, "%s,%s", s->o->all_cpus ? "cpu-clock" : "task-clock",
			     DEFAULT_EVENTS) < 0)
			return ftc_error(ENOMEM, "out of memory");
		spec = def;
	}
	s->l = ftc_perf_evlist_new();
	ret = s->l ? ftc_perf_evlist_add(s->l, spec) : -1;
	free(def);
	return ret;
}

static int stat_run(int argc, char **argv)
{
	struct stat_opts o = { .repeat = 1 };
	struct stat_state s = { .o = &o, .out = stderr };
	int ret = cmd_options_parse(&cmd_stat, argc, argv, stat_opt, &o), code;
	int opened = 0;

	if (ret < 0) {
		free(o.events);
		return cmd_options_exit(ret);
	}
	if (o.list) {
		ftc_perf_list_symbolic(stdout);
		free(o.events);
		return FTC_EXIT_OK;
	}
	s.argv = argv + ret;
	if (check_usage(&o, s.argv) < 0) {
		code = FTC_EXIT_USAGE;
		goto out;
	}
	if (setup(&s) < 0) {
		cmd_error(&cmd_stat, "%s", ftc_strerror());
		code = FTC_EXIT_USAGE;
		goto out;
	}
	if (o.output && !(s.out = fopen(o.output, "w"))) {
		s.out = stderr;
		cmd_error(&cmd_stat, "cannot write '%s': %s", o.output, strerror(errno));
		code = FTC_EXIT_FAIL;
		goto out;
	}
	raise_fd_limit();
	if (signals_setup() < 0)
		goto fail;
	if (o.all_cpus && o.no_aggr) {
		int *cpus = NULL;

		s.nslots = ftc_perf_parse_cpus(o.cpu_list, &cpus);
		free(cpus);
		if (s.nslots < 0)
			goto fail;
	} else {
		s.nslots = 1;
	}
	if (alloc_results(&s) < 0)
		goto fail;
	if (o.interval_ms)
		print_header(&s);
	for (unsigned long long r = 0; r < o.repeat && !stop_signal; r++) {
		opened = one_run(&s);
		if (opened < 0)
			goto fail;
	}
	print_totals(&s);
	if (s.w)
		code = ftc_workload_exit_code(s.w);
	else
		code = FTC_EXIT_OK;
	if (!opened) {
		const struct ftc_perf_event *e = ftc_perf_evlist_event(s.l, 0);
		int err = ftc_perf_event_open_errno(e);

		cmd_error(&cmd_stat, "the kernel refused every event asked for "
			  "(first: '%s': %s)%s", ftc_perf_event_name(e), strerror(err),
			  err == EACCES || err == EPERM ? "; see /proc/sys/kernel/"
			  "perf_event_paranoid, or run as root" : "");
		code = FTC_EXIT_REFUSED;
	}
	goto out;
fail:
	cmd_error(&cmd_stat, "%s", ftc_strerror());
	code = s.exec_failed ? 127 : FTC_EXIT_FAIL;
out:
	free_state(&s);
	return code;
}
