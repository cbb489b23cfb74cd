// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc top: a live table of what the kernel does, refreshed every --delay SECS.
 * It configures tracing as ftc start does (the same options), by default
 * in an instance of its own, reads the per-CPU buffers through the live
 * reader (ftc-live.h: merged by timestamp, lost events counted) and counts
 * every record per event, task, CPU, syscall and function (top-model.c).
 * The screen is ncurses (top-screen.c, keys in top-keys.c); --batch, or
 * an output that is not a terminal, prints the same table as text.
 * Every knob goes through the journal with a guardian: q, Ctrl-C, an
 * error or a SIGKILL (then the guardian, or ftc restore) restores tracefs.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "control-opts.h"
#include "journal.h"
#include "options.h"
#include "opt-values.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-control.h"
#include "ftc-live.h"
#include "ftc-merge.h"
#include "top.h"

enum {
	OPT_ITERATIONS = 0x100, OPT_BATCH, OPT_VIEW, OPT_SORT, OPT_COMM, OPT_NO_HIST,
	OPT_WIDTH, OPT_DELAY, OPT_ENTRIES,
};

static const struct cmd_option top_options[] = {
	/* perf top's -d and -E: long only, as the trace-cmd family's -d is
	 * reset's --delete (the letter rule, ftc(1)) */
	{ 'd', "delay", "SECS", "refresh every SECS seconds (default 2; perf top's -d)", OPT_DELAY },
	{ 'E', "entries", "N", "show at most N rows (perf top's -E)", OPT_ENTRIES },
	{ 0, "iterations", "N", "stop after N refreshes", OPT_ITERATIONS },
	{ 0, "batch", NULL, "print the table as text every refresh (also when not a terminal)",
	  OPT_BATCH },
	{ 0, "view", "VIEW", "start in VIEW: event, task, cpu, syscall, func, ipc", OPT_VIEW },
	{ 0, "sort", "COLUMN", "sort by COLUMN of the view (its title: COUNT, PID, ...)",
	  OPT_SORT },
	{ 0, "comm", "COMM", "count only the tasks named COMM", OPT_COMM },
	{ 0, "no-hist", NULL, "count syscalls from the ring buffer even where hist triggers "
	  "could", OPT_NO_HIST },
	{ 0, "width", "N", "--batch: lines of N columns (default: COLUMNS or 100)", OPT_WIDTH },
	CMD_OPT_RT_PRIORITY('r'),
	FTC_HELP_OPTION,
	{ 0 }
};

static int top_run(int argc, char **argv);

const struct command cmd_top = {
	.name = "top",
	.summary = "live table of events per event, task, CPU, syscall, function",
	.synopsis = "[options]",
	.options = top_options,
	.shared_options = control_options,
	.run = top_run,
};

/* The events when no -e is given (see ftc-top(1)). */
static const char *const default_events[] = {
	"sched:sched_switch", "sched:sched_process_fork", "sched:sched_process_exec",
	"raw_syscalls:sys_enter", "irq:irq_handler_entry",
};

struct saved_opt {
	int id;
	const char *arg;
};

struct top {
	struct ftc_session *spec;	/* validated as typed */
	struct saved_opt *saved;	/* the control options, to replay */
	size_t nsaved;
	bool has_instance, has_events, has_tracer, batch, no_hist;
	const char *sort, *tracer;
	unsigned long long iterations, width;
	char instance[64];
	const char *inst;	/* the instance in use */
	struct top_ui ui;
	struct top_model model;
	struct top_stats stats;
	struct ftc_state *st;
	struct ftc_live *live;
	struct top_hist *hist;
	struct top_perf *perf;
	bool func_on;		/* we set the function tracer for the func view */
	uint64_t lost_base;
	struct timespec t0, last;
	double cpu_last;
	int rt_priority;	/* ftc_live_opts' */
};

static int parse_secs(const char *arg, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (*end || !(v >= 0.01) || v > 86400)
		return cmd_bad_value("give seconds from 0.01 to 86400, e.g. 0.5");
	*out = v;
	return 0;
}

static int save_control(struct top *t, int id, const char *arg)
{
	struct saved_opt *s = realloc(t->saved, (t->nsaved + 1) * sizeof(*s));

	if (!s)
		return cmd_bad_value("out of memory");
	t->saved = s;
	s[t->nsaved++] = (struct saved_opt){ id, arg };
	if (id == 'B')
		t->has_instance = true;
	if (id == 'e')
		t->has_events = true;
	if (id == 'p') {
		t->has_tracer = true;
		t->tracer = arg;
	}
	return 0;
}

static struct ftc_live *open_live(struct top *t)
{
	struct ftc_live_opts o = FTC_OPTS_INIT(ftc_live_opts, .rt_priority = t->rt_priority);

	return ftc_live_open(t->inst, &o);
}

static int top_opt(int id, const char *arg, void *ctx)
{
	struct top *t = ctx;
	unsigned long long n;
	int ret = control_session_opt(t->spec, id, arg);

	if (ret)
		return ret < 0 ? -1 : save_control(t, id, arg);
	switch (id) {
	case OPT_DELAY:
		return parse_secs(arg, &t->ui.delay);
	case OPT_ENTRIES:
		if (cmd_parse_u64(arg, &n) < 0 || n > 100000)
			return cmd_bad_value("give a number of rows up to 100000");
		t->ui.entries = (int)n;
		return 0;
	case OPT_ITERATIONS:
		if (cmd_parse_u64(arg, &t->iterations) < 0 || !t->iterations)
			return cmd_bad_value("give a number of refreshes, 1 or more");
		return 0;
	case OPT_WIDTH:
		if (cmd_parse_u64(arg, &t->width) < 0 || t->width < 20 || t->width > 1000)
			return cmd_bad_value("give a width from 20 to 1000 columns");
		return 0;
	case OPT_BATCH:
		t->batch = true;
		return 0;
	case 'r':
		return cmd_opt_live_rt_priority(arg, &t->rt_priority);
	case OPT_NO_HIST:
		t->no_hist = true;
		return 0;
	case OPT_VIEW:
		ret = top_view_parse(arg);
		if (ret < 0)
			return cmd_bad_value("give a view: event, task, cpu, syscall, func or ipc");
		t->ui.view = (enum top_view)ret;
		return 0;
	case OPT_SORT:
		t->sort = arg;
		return 0;
	case OPT_COMM:
		if (strlen(arg) > 15)
			return cmd_bad_value("a task's comm has at most 15 characters");
		top_filter_set(&t->model.filter, "");
		snprintf(t->model.filter.comm, sizeof(t->model.filter.comm), "%s", arg);
		return 0;
	}
	return 0;
}

/*
 * The spec as it will be applied: our own instance first when no -B was
 * given (the options typed before any -B then belong to it), and the
 * default events when no -e was given.
 */
static struct ftc_session *final_spec(struct top *t)
{
	struct ftc_session *s;
	size_t i;

	if (t->has_instance && t->has_events)
		return t->spec;
	s = control_session_new();
	if (!s)
		return NULL;
	if (!t->has_instance) {
		snprintf(t->instance, sizeof(t->instance), "ftc-top-%d", (int)getpid());
		control_session_opt(s, 'B', t->instance);
	}
	for (i = 0; i < t->nsaved; i++)
		if (control_session_opt(s, t->saved[i].id, t->saved[i].arg) < 0)
			goto fail;
	for (i = 0; !t->has_events && i < sizeof(default_events) / sizeof(*default_events); i++)
		if (control_session_opt(s, 'e', default_events[i]) < 0)
			goto fail;
	ftc_session_free(t->spec);
	return t->spec = s;
fail:
	ftc_session_free(s);
	return NULL;
}

static double now_secs(const struct timespec *since)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - since->tv_sec) + (double)(t.tv_nsec - since->tv_nsec) / 1e9;
}

static double cpu_secs(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
	       (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static int on_record(const struct ftc_merge_record *mr, void *arg)
{
	top_model_record(arg, mr->rec);
	return 0;
}

/* The kernel's lost count per CPU, from the live reader's statistics. */
static void read_lost(struct top *t)
{
	int i, n = ftc_live_ncpus(t->live);
	uint64_t sum = 0;

	for (i = 0; i < n; i++) {
		struct ftc_live_cpu_stats cs = FTC_OPTS_INIT(ftc_live_cpu_stats);
		struct top_entry *e;

		if (ftc_live_cpu_stats(t->live, i, &cs) < 0)
			continue;
		sum += cs.lost;
		e = top_map_find(&t->model.map[TOP_VIEW_CPU], (uint64_t)cs.cpu);
		if (e)
			e->v[3] = cs.lost;
	}
	t->model.lost = sum >= t->lost_base ? sum - t->lost_base : 0;
}

/* The busiest tasks get perf counters, for the IPC view. */
static void follow_perf(struct top *t)
{
	struct top_ui ui = t->ui;
	struct top_table tab;
	uint64_t pids[32];
	size_t n = 0;

	if (!top_perf_supported(t->perf) || t->ui.view != TOP_VIEW_PERF)
		return;
	ui.view = TOP_VIEW_TASK;
	ui.sort_col[TOP_VIEW_TASK] = 2;	/* EVENTS */
	ui.sort_asc[TOP_VIEW_TASK] = false;
	if (top_table_build(&tab, &t->model, &ui, NULL) < 0)
		return;
	for (; n < tab.nrows && n < 32; n++)
		pids[n] = tab.rows[n].num[0];
	top_table_free(&tab);
	top_perf_follow(t->perf, pids, n);
	top_perf_read(t->perf);
}

static void tick(struct top *t, double secs)
{
	double cpu = cpu_secs();

	if (t->hist)
		top_hist_read(t->hist, &t->model);
	read_lost(t);
	top_model_tick(&t->model, secs);
	follow_perf(t);
	t->stats.cpu_pct = secs > 0 ? (cpu - t->cpu_last) * 100 / secs : 0;
	t->stats.elapsed = now_secs(&t->t0);
	t->cpu_last = cpu;
}

static void exclude_self(struct top *t);

/*
 * The function view needs the function tracer: set when the view is shown
 * (and not before, for its cost), through the journal. The kernel refuses
 * to change the tracer while the buffer is read, so the live reader is
 * closed around the change and opened again.
 */
static void func_tracer(struct top *t, bool want)
{
	char *why = t->ui.why[TOP_VIEW_FUNC];
	int ret;

	if (t->has_tracer && !strcmp(t->tracer, "function"))
		return;
	if (want == t->func_on || (want && why[0]))
		return;
	if (t->has_tracer) {
		snprintf(why, 256, "the func view needs the function tracer; -p %s is set",
			 t->tracer);
		return;
	}
	ftc_live_close(t->live);
	ret = ftc_set_tracer(t->st, t->inst, want ? "function" : "nop");
	if (ret < 0)
		snprintf(why, 256, "no function tracer: %s", ftc_strerror());
	else
		t->func_on = want;
	t->live = open_live(t);
	if (t->live) {
		top_model_set_reader(&t->model, ftc_live_reader(t->live));
		exclude_self(t);
	}
}

static void reset(struct top *t)
{
	top_model_reset(&t->model);
	if (t->hist)
		top_hist_clear(t->hist);
	t->lost_base = 0;
	read_lost(t);
	t->lost_base = t->model.lost;
	t->model.lost = 0;
}

static int width(struct top *t)
{
	const char *cols = getenv("COLUMNS");

	if (t->width)
		return (int)t->width;
	return cols && atoi(cols) >= 20 ? atoi(cols) : 100;
}

static void show(struct top *t)
{
	if (t->batch)
		top_print_batch(stdout, &t->model, &t->ui, &t->stats, t->perf, width(t));
	else
		top_screen_draw(&t->model, &t->ui, &t->stats, t->perf);
}

static void handle_key(struct top *t, int key, bool *quit)
{
	char buf[64];

	switch (top_key(key, &t->ui)) {
	case TOP_KEY_QUIT:
		*quit = true;
		return;
	case TOP_KEY_RESET:
		reset(t);
		break;
	case TOP_KEY_FILTER:
		if (top_screen_prompt("filter (comm or pid, empty: none): ", buf, sizeof(buf))) {
			top_filter_set(&t->model.filter, buf);
			reset(t);
		}
		break;
	case TOP_KEY_VIEW:
		func_tracer(t, t->ui.view == TOP_VIEW_FUNC);
		follow_perf(t);
		break;
	case TOP_KEY_NONE:
		return;
	default:
		break;
	}
	show(t);
}

/* Waits for pages, a key or the next refresh, whichever comes first. */
static int wait_input(struct top *t, int ms)
{
	struct pollfd p[2] = {
		{ .fd = ftc_live_fd(t->live), .events = POLLIN },
		{ .fd = 0, .events = POLLIN },
	};
	unsigned int window = ftc_live_window_ms(t->live);

	if ((unsigned int)ms > window)
		ms = (int)window;
	return poll(p, t->batch ? 1 : 2, ms);
}

static int loop(struct top *t)
{
	double next = t->ui.delay;
	unsigned long long done = 0;
	bool quit = false;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t->t0);
	t->cpu_last = cpu_secs();
	if (!t->batch)
		show(t);
	while (!quit && !cmd_signal_caught()) {
		double now = now_secs(&t->t0);
		int key;

		if (!t->live) {
			if (!t->batch)
				top_screen_close();
			cmd_error(&cmd_top, "reading the trace again: %s", ftc_strerror());
			return FTC_EXIT_FAIL;
		}
		if (now >= next) {
			tick(t, now - (next - t->ui.delay));
			next += t->ui.delay;
			if (next < now)
				next = now + t->ui.delay;
			if (!t->ui.paused || t->batch)
				show(t);
			if (t->iterations && ++done >= t->iterations)
				break;
			continue;
		}
		wait_input(t, (int)((next - now) * 1000) + 1);
		ret = ftc_live_poll(t->live, 0, on_record, &t->model);
		if (ret < 0) {
			if (!t->batch)
				top_screen_close();
			cmd_error(&cmd_top, "reading the trace: %s", ftc_strerror());
			return FTC_EXIT_FAIL;
		}
		while (!t->batch && (key = top_screen_key(0)) != -1 && !quit)
			handle_key(t, key, &quit);
	}
	return FTC_EXIT_OK;
}

/* ftc top's own threads would count themselves: keep them out. */
static void exclude_self(struct top *t)
{
	pid_t tids[256];
	int n = ftc_live_tids(t->live, tids, 256);

	if (ftc_exclude_self(t->st, t->inst, tids, (size_t)n) < 0)
		cmd_error(&cmd_top, "warning: ftc's own threads will be counted: %s",
			  ftc_strerror());
}

/* Where the kernel has hist triggers, it counts the syscalls itself, and
 * raw_syscalls:sys_enter no longer goes through the ring buffer. */
static void start_hist(struct top *t)
{
	char why[256] = "";

	/* kernels without CONFIG_HIST_TRIGGERS have no hist file */
	if (t->no_hist || t->has_events ||
	    !ftc_knob_exists(t->inst, "events/raw_syscalls/sys_enter/hist"))
		return;
	/* off first: with a trigger attached, enable reads "1*", which the
	 * journal could not write back; the trigger still fires on a
	 * disabled event (soft disabled) */
	if (ftc_knob_write(t->st, t->inst, "events/raw_syscalls/sys_enter/enable", "0") < 0) {
		cmd_error(&cmd_top, "warning: %s", ftc_strerror());
		return;
	}
	t->hist = top_hist_start(t->st, t->inst, why, sizeof(why));
	if (!t->hist) {
		/* the ring buffer counts them after all */
		if (ftc_knob_write(t->st, t->inst, "events/raw_syscalls/sys_enter/enable", "1") < 0)
			cmd_error(&cmd_top, "warning: %s", ftc_strerror());
		return;
	}
	t->model.hist_syscalls = true;
	t->ui.source[TOP_VIEW_SYSCALL] = "hist trigger";
}

static int configure(struct top *t)
{
	if (ftc_session_configure(t->spec, t->st) < 0) {
		int err = cmd_signal_caught() ? EINTR : errno;

		cmd_error(&cmd_top, "%s", ftc_strerror());
		return control_exit_status(err);
	}
	t->inst = ftc_session_instance_at(t->spec, 0);
	start_hist(t);
	if (t->ui.view == TOP_VIEW_FUNC)
		func_tracer(t, true);
	else
		t->live = open_live(t);
	if (!t->live) {
		cmd_error(&cmd_top, "%s", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	top_model_set_reader(&t->model, ftc_live_reader(t->live));
	exclude_self(t);
	if (ftc_session_tracing_on(t->spec, t->st) < 0) {
		cmd_error(&cmd_top, "%s", ftc_strerror());
		return control_exit_status(errno);
	}
	return FTC_EXIT_OK;
}

static int check_sort(struct top *t)
{
	int c;

	if (!t->sort)
		return 0;
	c = top_view_col(t->ui.view, t->sort);
	if (c < 0) {
		cmd_error(&cmd_top, "--sort '%s': the %s view has no such column; its columns are "
			  "shown by ftc top --batch --iterations 1 --view %s", t->sort,
			  top_view_names[t->ui.view], top_view_names[t->ui.view]);
		return -1;
	}
	t->ui.sort_col[t->ui.view] = c;
	return 0;
}

/* Counts first: the numbers sort descending, names ascending. */
static void ui_init(struct top_ui *ui)
{
	static const int count_col[TOP_NVIEWS] = { 1, 2, 0, 2, 1, 2 };
	int v;

	ui->delay = 2;
	for (v = 0; v < TOP_NVIEWS; v++)
		ui->sort_col[v] = count_col[v];
	ui->sort_asc[TOP_VIEW_CPU] = true;
}

static int run(struct top *t)
{
	int ret;

	t->st = cmd_journal_open(&cmd_top);
	if (!t->st)
		return FTC_EXIT_FAIL;
	t->perf = top_perf_new(t->ui.why[TOP_VIEW_PERF], sizeof(t->ui.why[0]));
	ret = configure(t);
	t->stats.instance = t->inst;
	/* after the signal handlers: curses leaves those already set alone */
	if (ret == FTC_EXIT_OK && !t->batch && top_screen_open() < 0) {
		cmd_error(&cmd_top, "cannot open the terminal (TERM=%s): try --batch",
			  getenv("TERM") ? getenv("TERM") : "");
		ret = FTC_EXIT_FAIL;
	}
	if (ret == FTC_EXIT_OK)
		ret = loop(t);
	if (!t->batch)
		top_screen_close();
	ftc_live_close(t->live);
	top_hist_free(t->hist);
	top_perf_free(t->perf);
	return cmd_journal_close(&cmd_top, t->st, ret);
}

static int top_run(int argc, char **argv)
{
	struct top t;
	int ret;

	memset(&t, 0, sizeof(t));
	ui_init(&t.ui);
	if (top_model_init(&t.model, (int)sysconf(_SC_NPROCESSORS_CONF)) < 0 ||
	    !(t.spec = control_session_new())) {
		cmd_error(&cmd_top, "out of memory");
		return FTC_EXIT_FAIL;
	}
	ret = cmd_options_parse(&cmd_top, argc, argv, top_opt, &t);
	if (ret >= 0 && ret < argc) {
		cmd_error(&cmd_top, "unexpected argument '%s': ftc top runs no command", argv[ret]);
		ret = -1;
		goto out;
	}
	if (ret < 0 || check_sort(&t) < 0) {
		ret = ret == -2 ? cmd_options_exit(ret) : FTC_EXIT_USAGE;
		goto out;
	}
	if (!isatty(1))
		t.batch = true;
	if (!final_spec(&t)) {
		cmd_error(&cmd_top, "out of memory");
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	ret = run(&t);
out:
	if (ret == -1)
		ret = FTC_EXIT_USAGE;
	ftc_session_free(t.spec);
	top_model_free(&t.model);
	free(t.saved);
	return ret;
}
