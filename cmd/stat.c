// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc stat: count events with perf_event_open while a command runs, or
 * system wide, or on processes or threads, with perf stat's options and
 * layout (the table is stat-print.c's, the ratios stat-metrics.c's).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "output.h"
#include "ftc.h"
#include "signals.h"
#include "stat.h"

#define DEFAULT_EVENTS "context-switches,cpu-migrations,page-faults," \
	"cycles,instructions,branches,branch-misses"

/* perf's -d, -dd and -ddd: each adds these to what was asked for. */
static const char *const detailed_events[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,"
	"iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

#define PID_LIMIT 4194304	/* the kernel's PID_MAX_LIMIT */

enum { OPT_LIST = 0x100, OPT_NO_BIG_NUM };

static const struct cmd_option stat_options[] = {
	{ 'e', "event", "EVENTS", "events to count, comma-separated; {a,b} groups, sys:event globs", 0 },
	{ 'a', "all-cpus", NULL, "count on every CPU (system wide)", 0 },
	{ 'A', "no-aggr", NULL, "with -a or -C: show each CPU apart", 0 },
	{ 'C', "cpu", "CPUS", "count on these CPUs only, e.g. 0-1,3 (implies -a)", 0 },
	{ 'p', "pid", "PIDS", "count on existing processes (every thread), e.g. 42,57", 0 },
	{ 't', "tid", "TIDS", "count on existing threads, e.g. 4242,4243", 0 },
	{ 'd', "detailed", NULL, "add cache events to the default set (-dd, -ddd: more)", 0 },
	{ 'G', "cgroup", "CGROUPS", "with -a/-C: count the events before it in these cgroups", 0 },
	{ 'M', "metrics", "METRICS", "show these metrics or groups (see --list), e.g. insn_per_cycle",
	  0 },
	{ 'n', "null", NULL, "null run: count nothing, show the elapsed time only", 0 },
	{ 'B', "big-num", NULL, "group thousands in counts as the locale says (the default)", 0 },
	{ 0, "no-big-num", NULL, "print counts without thousands separators", OPT_NO_BIG_NUM },
	{ 'I', "interval-print", "MS", "print the counts of each MS milliseconds (0: at the end)", 0 },
	{ 'x', "field-separator", "SEP", "CSV output with this separator", 0 },
	{ 'r', "repeat", "N", "run the command N times; show means and their spread", 0 },
	{ 'o', "output", "FILE", "write the counts to FILE instead of stderr", 0 },
	{ 0, "list", NULL, "list the symbolic event names and the metrics, and exit", OPT_LIST },
	FTC_HELP_OPTION,
	{ 0 }
};

static int stat_run(int argc, char **argv);

const struct command cmd_stat = {
	.name = "stat",
	.summary = "count events (hardware, software, tracepoints) with perf_event_open",
	.synopsis = "[-e EVENTS [-G CGROUPS]] [-a] [-A] [-C CPUS] [-p PIDS | -t TIDS] [-d] [-M METRICS]"
		    "\n               [-n] [-B] [-I MS] [-x SEP] [-r N] [-o FILE] [-- COMMAND]",
	.options = stat_options,
	.run = stat_run,
	.stop_at_operand = true,
};

static int add_item(struct stat_opts *o, bool cgroup, const char *arg)
{
	struct stat_item *it = realloc(o->items, (size_t)(o->nitems + 1) * sizeof(*it));

	if (!it)
		return cmd_bad_value("out of memory");
	o->items = it;
	it[o->nitems++] = (struct stat_item){ .cgroup = cgroup, .arg = arg };
	return 0;
}

static int append_metrics(struct stat_opts *o, const char *arg)
{
	char *s;

	if (stat_metrics_check(arg) < 0)
		return -1;
	if (asprintf(&s, "%s%s%s", o->metrics ? o->metrics : "", o->metrics ? "," : "", arg) < 0)
		return cmd_bad_value("out of memory");
	free(o->metrics);
	o->metrics = s;
	return 0;
}

/* "42" or "42,57": process or thread ids, as perf's -p and -t take them. */
static int parse_ids(struct stat_opts *o, const char *arg, const char *what)
{
	int n = 1;

	for (const char *p = arg; *p; p++)
		n += *p == ',';
	free(o->ids);
	o->ids = calloc((size_t)n, sizeof(*o->ids));
	if (!o->ids)
		return cmd_bad_value("out of memory");
	o->nids = 0;
	for (const char *p = arg; ; ) {
		char *end;
		unsigned long v;

		errno = 0;
		v = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
		if (errno || !v || v > PID_LIMIT || (*end && *end != ','))
			return cmd_bad_value("not a %s id list (ids from 1 to %d, comma-separated, "
					     "e.g. 42,57)", what, PID_LIMIT);
		o->ids[o->nids++] = (pid_t)v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

static int stat_opt(int id, const char *arg, void *ctx)
{
	struct stat_opts *o = ctx;
	unsigned long long v;

	switch (id) {
	case 'e': o->has_events = true; return add_item(o, false, arg);
	case 'G':
		/* perf's rule: a cgroup belongs to an event named before it. */
		if (!o->has_events)
			return cmd_bad_value("no events before it: -G names a cgroup for each "
					     "-e event before it, in order (one cgroup: all of "
					     "them), e.g. -e task-clock -G NAME");
		return add_item(o, true, arg);
	case 'a': o->all_cpus = true; break;
	case 'A': o->no_aggr = true; break;
	case 'C': o->cpu_list = arg; o->all_cpus = true; break;
	case 'p': o->pid_arg = arg; return parse_ids(o, arg, "process");
	case 't': o->tid_arg = arg; return parse_ids(o, arg, "thread");
	case 'd': o->detailed++; break;
	case 'M': return append_metrics(o, arg);
	case 'n': o->null_run = true; break;
	case 'B': o->big_num = 1; break;
	case OPT_NO_BIG_NUM: o->big_num = 0; break;
	case 'I':
		/* perf takes an unsigned int; 0 prints the totals at the end. */
		if (cmd_parse_u64(arg, &o->interval_ms) < 0 || o->interval_ms > UINT_MAX)
			return cmd_bad_value("out of range: an interval is 0 to %u milliseconds "
					     "(0: no intervals, totals at the end)", UINT_MAX);
		break;
	case 'x':
		o->sep = arg;
		break;
	case 'r':
		if (cmd_parse_u64(arg, &v) < 0 || !v || v > 100000)
			return cmd_bad_value("not a repeat count (1 to 100000)");
		o->repeat = v;
		break;
	case 'o': o->output = arg; break;
	case OPT_LIST: o->list = true; break;
	}
	return 0;
}

/* ---- targets ---- */

/* -p and -t: the session watches them, and the count ends with the last (as perf). */
static int attach_targets(struct stat_state *s)
{
	for (int i = 0; i < s->o->nids; i++) {
		pid_t id = s->o->ids[i];

		if (ftc_session_attach(s->session, id) == 0)
			continue;
		if (errno != ESRCH)
			return -1;
		return ftc_error(ESRCH, "no %s %d (/proc/%d/stat); %s", s->o->tid_arg ?
				 "thread" : "process", (int)id, (int)id, s->o->tid_arg ?
				 "'ps -eLf' lists thread ids" : "check the pid with ps");
	}
	return 0;
}

/* Every thread of every process of -p. */
static int pid_threads(const struct stat_opts *o, pid_t **out)
{
	pid_t *all = NULL;
	int n = 0;

	for (int i = 0; i < o->nids; i++) {
		pid_t *t, *more;
		int k = ftc_perf_pid_threads(o->ids[i], &t);

		if (k < 0)
			goto fail;
		more = realloc(all, (size_t)(n + k + 1) * sizeof(*all));
		if (!more) {
			free(t);
			ftc_error(ENOMEM, "out of memory");
			goto fail;
		}
		all = more;
		memcpy(all + n, t, (size_t)k * sizeof(*t));
		n += k;
		free(t);
	}
	*out = all;
	return n;
fail:
	free(all);
	return -1;
}

static int open_target(struct stat_state *s)
{
	pid_t *pids = NULL;
	int *cpus = NULL, npids = 0, ncpus = 0, ret = -1;
	unsigned int flags = FTC_PERF_INHERIT;

	if (!ftc_perf_evlist_count(s->l))	/* -n: nothing to count */
		return 0;
	if (s->o->all_cpus) {
		ncpus = ftc_perf_parse_cpus(s->o->cpu_list, &cpus);
		if (ncpus < 0)
			return -1;
		flags = 0;
	} else if (s->o->tid_arg) {
		pids = malloc((size_t)s->o->nids * sizeof(*pids));
		if (!pids)
			return ftc_error(ENOMEM, "out of memory");
		memcpy(pids, s->o->ids, (size_t)s->o->nids * sizeof(*pids));
		npids = s->o->nids;
	} else if (s->o->pid_arg) {
		npids = pid_threads(s->o, &pids);
		if (npids < 0)
			return -1;
	} else {
		pids = malloc(sizeof(*pids));
		if (!pids)
			return ftc_error(ENOMEM, "out of memory");
		pids[0] = ftc_workload_pid(s->w);
		npids = 1;
		flags |= FTC_PERF_ENABLE_ON_EXEC;
	}
	if (ftc_perf_evlist_target(s->l, pids, npids, cpus, ncpus) < 0)
		goto out;
	ret = ftc_perf_evlist_open(s->l, flags);
out:
	free(pids);
	free(cpus);
	return ret;
}

/* ---- counting ---- */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int read_slot(struct stat_state *s, int slot, struct ftc_perf_count *c)
{
	for (int i = 0; i < ftc_perf_evlist_count(s->l); i++)
		if (ftc_perf_evlist_read(s->l, i, s->nslots > 1 ? slot : -1, &c[i]) < 0)
			return -1;
	return 0;
}

static int interval(struct stat_state *s, double *last_ns)
{
	int n = ftc_perf_evlist_count(s->l);
	struct ftc_perf_count *cur = calloc((size_t)n + 1, sizeof(*cur));
	struct ftc_perf_count *d = calloc((size_t)(n * s->nslots) + 1, sizeof(*d));
	double t = now_ns();
	double t0 = (double)s->t0.tv_sec * 1e9 + (double)s->t0.tv_nsec;
	int ret = -1;

	if (!cur || !d) {
		ftc_error(ENOMEM, "out of memory");
		goto out;
	}
	for (int slot = 0; slot < s->nslots; slot++) {
		struct ftc_perf_count *prev = &s->prev[slot * n];

		if (read_slot(s, slot, cur) < 0)
			goto out;
		for (int i = 0; i < n; i++)
			ftc_perf_count_sub(&d[slot * n + i], &cur[i], &prev[i]);
		memcpy(prev, cur, (size_t)n * sizeof(*cur));
	}
	stat_print_interval(s, d, t - t0, t - *last_ns);
	*last_ns = t;
	ret = 0;
out:
	free(cur);
	free(d);
	return ret;
}

/* Until the next interval, in ns (-1: until something happens). */
static long long wait_ns(const struct stat_state *s, double next)
{
	double t;

	if (!s->o->interval_ms)
		return -1;
	t = next - now_ns();
	return t > 0 ? (long long)t : 0;
}

/* Waits for the command, a signal or the targets' end, printing intervals on the way. */
static int wait_loop(struct stat_state *s)
{
	double last = (double)s->t0.tv_sec * 1e9 + (double)s->t0.tv_nsec;
	double next = last + (double)s->o->interval_ms * 1e6;

	for (;;) {
		int wake = ftc_session_wait(s->session, cmd_signal_fd(), wait_ns(s, next));

		if (wake < 0)
			return -1;
		if (s->o->interval_ms && now_ns() >= next) {
			if (interval(s, &last) < 0)
				return -1;
			next += (double)s->o->interval_ms * 1e6;
			/* Behind by a whole interval: no burst of empty ones to catch up. */
			if (next <= now_ns())
				next = now_ns() + (double)s->o->interval_ms * 1e6;
		}
		if (wake == FTC_SESSION_WAKE_ENDED)
			break;
		if (wake == FTC_SESSION_WAKE_STOP || wake == FTC_SESSION_WAKE_SIGNAL) {
			cmd_signal_drain();
			if (!s->w && cmd_signal_caught())
				break;
			/* Passed on once: the command decides how it ends. */
			if (cmd_signal_caught() && ftc_session_forward(s->session, cmd_signal_caught()) < 0)
				return -1;
		}
	}
	if (s->o->interval_ms && interval(s, &last) < 0)
		return -1;
	return 0;
}

static int add_run(struct stat_state *s)
{
	int n = ftc_perf_evlist_count(s->l);
	struct ftc_perf_count *c = calloc((size_t)n + 1, sizeof(*c));

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
	/* Counting something else than the command: enabled around it. */
	bool around = s->o->all_cpus || s->o->nids;
	double t_start, t_end;
	int opened;

	if (s->argv[0]) {
		struct ftc_workload *before = s->w;

		s->w = ftc_workload_spawn(s->argv);
		ftc_workload_free(before);
		if (!s->w || ftc_session_set_command(s->session, s->w) < 0)
			return -1;
	}
	opened = open_target(s);
	if (opened < 0)
		goto fail;
	/* Time starts as the counters do, so the first interval's ratios hold. */
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	t_start = now_ns();
	if (around)
		ftc_perf_evlist_enable(s->l, true);
	if (ftc_session_release(s->session) < 0) {
		s->exec_failed = true;
		goto fail;
	}
	if (wait_loop(s) < 0)
		goto fail;
	if (around)
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

/* ---- set-up ---- */

static int alloc_results(struct stat_state *s)
{
	size_t n = (size_t)ftc_perf_evlist_count(s->l) + 1;

	s->res = calloc((size_t)s->nslots, sizeof(*s->res));
	s->prev = calloc((size_t)s->nslots * n, sizeof(*s->prev));
	if (!s->res || !s->prev)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < s->nslots; i++) {
		s->res[i].sum = calloc(n, sizeof(*s->res[i].sum));
		s->res[i].stats = calloc(n, sizeof(*s->res[i].stats));
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
	stat_metrics_free(s->metrics);
	ftc_perf_evlist_free(s->l);
	ftc_session_free(s->session);
	ftc_workload_free(s->w);
	if (s->out && s->out != stderr)
		fclose(s->out);
	free(s->o->items);
	free(s->o->ids);
	free(s->o->metrics);
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
	bool cgroups = false;

	for (int i = 0; i < o->nitems; i++)
		cgroups |= o->items[i].cgroup;
	if (!argv[0] && !o->all_cpus && !o->nids)
		why = "give a command after '--', or -a, -C, -p or -t";
	else if (o->repeat > 1 && !argv[0])
		why = "-r repeats a command: give one after '--'";
	else if (o->repeat > 1 && o->interval_ms)
		why = "-r and -I do not mix: choose one";
	else if (o->pid_arg && o->tid_arg)
		why = "-p and -t do not mix: count processes or threads";
	else if (o->nids && o->all_cpus)
		why = o->tid_arg ? "-t and -a/-C do not mix: count threads or CPUs" :
			"-p and -a/-C do not mix: count processes or CPUs";
	else if (o->no_aggr && !o->all_cpus)
		why = "-A shows CPUs apart: use it with -a or -C";
	else if (cgroups && !o->all_cpus)
		why = "-G counts a cgroup's tasks on CPUs: use it with -a or -C (as perf)";
	else if (o->big_num == 1 && o->sep)
		why = "-B and -x do not mix: CSV numbers have no thousands separators (as perf)";
	if (why)
		cmd_error(&cmd_stat, "%s (see 'ftc stat --help')", why);
	return why ? -1 : 0;
}

/* Puts "-X 'VALUE': " before the library's message. */
static int prefix_error(const char *opt, const char *value)
{
	/* copied: ftc_error() writes the buffer ftc_strerror() returns */
	char why[1024];
	int err = errno;

	snprintf(why, sizeof(why), "%s", ftc_strerror());
	return ftc_error(err, "%s '%s': %s", opt, value, why);
}

/*
 * perf's rule for -G: the k-th cgroup named (over every -G so far, empty
 * names included) is the k-th event's; when only one was named, it is
 * every event's named before it.
 */
static int apply_cgroups(struct stat_state *s, const char *list, int *ncg)
{
	int n = ftc_perf_evlist_count(s->l);

	for (const char *p = list; ; ) {
		size_t len = strcspn(p, ",");
		char *name = strndup(p, len);
		int ret = 0;

		if (!name)
			return ftc_error(ENOMEM, "out of memory");
		if (len && *ncg >= n)
			ret = ftc_error(EINVAL, "-G '%s': cgroup '%s' is cgroup %d but only %d "
					"event%s come%s before it: each cgroup is one event's, in "
					"order (a lone one is every event's)", list, name,
					*ncg + 1, n, n == 1 ? "" : "s", n == 1 ? "s" : "");
		else if (len && ftc_perf_evlist_cgroup(s->l, *ncg, name) < 0)
			ret = prefix_error("-G", list);
		free(name);
		if (ret < 0)
			return -1;
		(*ncg)++;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (*ncg == 1) {
		const char *cg = ftc_perf_event_cgroup(ftc_perf_evlist_event(s->l, 0));

		for (int i = 1; cg && i < n; i++)
			if (ftc_perf_evlist_cgroup(s->l, i, cg) < 0)
				return -1;
	}
	return 0;
}

static int add_events(struct stat_state *s)
{
	struct stat_opts *o = s->o;
	int ncg = 0;

	for (int i = 0; i < o->nitems; i++) {
		if (o->items[i].cgroup ? apply_cgroups(s, o->items[i].arg, &ncg) < 0 :
		    ftc_perf_evlist_add(s->l, o->items[i].arg) < 0)
			return -1;
	}
	if (o->null_run)
		return 0;
	if (!o->has_events && !o->metrics) {
		if (ftc_perf_evlist_add(s->l, o->all_cpus ? "cpu-clock" : "task-clock") < 0 ||
		    ftc_perf_evlist_add(s->l, DEFAULT_EVENTS) < 0)
			return -1;
	}
	for (int d = 0; d < o->detailed && d < 3; d++)
		if (ftc_perf_evlist_add(s->l, detailed_events[d]) < 0)
			return -1;
	return 0;
}

static int setup(struct stat_state *s)
{
	s->l = ftc_perf_evlist_new();
	if (!s->l || add_events(s) < 0 || stat_metrics_setup(s) < 0)
		return -1;
	for (int i = 0; i < ftc_perf_evlist_count(s->l); i++)
		s->any_cgroup |= ftc_perf_event_cgroup(ftc_perf_evlist_event(s->l, i)) != NULL;
	return 0;
}

/* perf groups thousands unless told not to, or writing CSV. */
static void setup_locale(struct stat_state *s)
{
	if (s->o->sep)
		return;
	setlocale(LC_NUMERIC, "");
	s->big = s->o->big_num != 0;
}

static int count_slots(struct stat_state *s)
{
	int *cpus = NULL;

	if (!s->o->all_cpus || !s->o->no_aggr) {
		s->nslots = 1;
		return 0;
	}
	s->nslots = ftc_perf_parse_cpus(s->o->cpu_list, &cpus);
	free(cpus);
	return s->nslots < 0 ? -1 : 0;
}

static int refused_every_event(struct stat_state *s)
{
	const struct ftc_perf_event *e = ftc_perf_evlist_event(s->l, 0);
	int err = ftc_perf_event_open_errno(e);

	cmd_error(&cmd_stat, "the kernel refused every event asked for (first: '%s': %s)%s",
		  ftc_perf_event_name(e), strerror(err), err == EACCES || err == EPERM ?
		  "; see /proc/sys/kernel/perf_event_paranoid, or run as root" : "");
	return FTC_EXIT_REFUSED;
}

static int stat_count(struct stat_state *s)
{
	int opened = 0;

	if (s->o->output && !(s->out = cmd_output_open(&cmd_stat, s->o->output))) {
		s->out = stderr;
		return FTC_EXIT_FAIL;
	}
	raise_fd_limit();
	setup_locale(s);
	if (cmd_signals_catch() < 0 || count_slots(s) < 0 || alloc_results(s) < 0 ||
	    !(s->session = ftc_session_new()) || attach_targets(s) < 0)
		goto fail;
	if (s->o->interval_ms)
		stat_print_interval_header(s);
	for (unsigned long long r = 0; r < s->o->repeat && !cmd_signal_caught(); r++) {
		opened = one_run(s);
		if (opened < 0)
			goto fail;
	}
	stat_print_totals(s);
	if (!opened && ftc_perf_evlist_count(s->l))
		return refused_every_event(s);
	return s->w ? ftc_workload_exit_code(s->w) : FTC_EXIT_OK;
fail:
	cmd_error(&cmd_stat, "%s", ftc_strerror());
	return s->exec_failed ? 127 : FTC_EXIT_FAIL;
}

static int stat_run(int argc, char **argv)
{
	struct stat_opts o = { .repeat = 1, .big_num = -1 };
	struct stat_state s = { .o = &o, .out = stderr };
	int ret = cmd_options_parse(&cmd_stat, argc, argv, stat_opt, &o), code;

	if (ret < 0) {
		code = cmd_options_exit(ret);
		goto out;
	}
	if (o.list) {
		ftc_perf_list_symbolic(stdout);
		stat_metrics_list(stdout);
		code = FTC_EXIT_OK;
		goto out;
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
	code = stat_count(&s);
	if (s.out != stderr && cmd_output_close(&cmd_stat, s.out, o.output) < 0)
		code = FTC_EXIT_FAIL;
	s.out = stderr;
out:
	free_state(&s);
	return code;
}
