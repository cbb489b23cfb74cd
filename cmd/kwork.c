// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc kwork: the kernel's own work in a trace.dat, as perf kwork shows it:
 * per hard interrupt handler, softirq vector and work function, how often
 * it ran and for how long (report), or how long it waited to run after
 * its raise or queueing (latency). One pass of the library's kernel-work
 * analysis (libftc-kwork(3)), over a file or live: every CPU recorded
 * while -- COMMAND runs, or with -a until Ctrl-C (live-record.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "live-record.h"
#include "options.h"
#include "output.h"
#include "pass.h"
#include "ftc.h"
#include "ftc-kwork.h"

enum { OPT_INSTANCE = 0x100, OPT_JSON, OPT_PER_CPU, OPT_DURATION, OPT_FROM, OPT_TO };

/* perf kwork's letters and names (ftc(1), "for perf users") */
static const struct cmd_option kwork_options[] = {
	{ 'i', "input", "FILE", "the trace.dat to read (default trace.dat)", 0 },
	{ 0, "instance", "NAME", "read this buffer (default: the first with irq or workqueue events)",
	  OPT_INSTANCE },
	{ 'k', "kwork", "CLASSES", "only these: irq, softirq, workqueue (comma-separated)", 0 },
	{ 'C', "cpu", "CPU", "only this CPU (a row per handler on it)", 0 },
	{ 'n', "name", "NAME", "only the handlers of this name", 0 },
	{ 's', "sort", "KEY", "order: runtime (report), max, count, delay (latency)", 0 },
	{ 0, "per-cpu", NULL, "a row per handler and CPU", OPT_PER_CPU },
	{ 0, "from", "SECONDS", "only what ran at or after this timestamp", OPT_FROM },
	{ 0, "to", "SECONDS", "only what ran at or before this timestamp", OPT_TO },
	{ 'a', "all-cpus", NULL, "live: record every CPU until Ctrl-C (or --duration)", 0 },
	{ 0, "duration", "SECS", "live: stop recording after SECS seconds", OPT_DURATION },
	{ 0, "json", NULL, "JSON instead of a table", OPT_JSON },
	FTC_HELP_OPTION,
	{ 0 }
};

static int kwork_run(int argc, char **argv);

const struct command cmd_kwork = {
	.name = "kwork",
	.summary = "interrupts, softirqs and work items: run time and delays (perf kwork)",
	.synopsis = "[report|latency] [-i FILE | FILE | -a | -- COMMAND] [--instance NAME]\n"
		    "                   [-k CLASSES] [-C CPU] [-n NAME] [-s KEY] [--per-cpu]\n"
		    "                   [--from SECONDS] [--to SECONDS] [--duration SECS] [--json]",
	.options = kwork_options,
	.run = kwork_run,
};

enum kw_sort { SORT_DEFAULT, SORT_RUNTIME, SORT_MAX, SORT_COUNT, SORT_DELAY };

struct kw_view {
	const char *input, *instance, *name;
	bool latency, json, per_cpu;
	unsigned int classes;		/* bit per enum ftc_kwork_class; 0: all */
	int cpu;			/* -1: all */
	int sort;
	struct cmd_window win;
	struct live_target live;
	struct live_rec rec;
	struct ftc_reader *r;
};

static int parse_classes(const char *arg, unsigned int *out)
{
	static const char *const names[] = { "irq", "softirq", "workqueue" };
	char one[16];

	*out = 0;
	for (const char *p = arg; *p;) {
		size_t n = strcspn(p, ",");
		int c = -1;

		if (n < sizeof(one)) {
			memcpy(one, p, n);
			one[n] = '\0';
			for (int i = 0; i < FTC_KWORK_NCLASS; i++)
				if (!strcmp(one, names[i]))
					c = i;
		}
		if (c < 0)
			return cmd_bad_value("say irq, softirq or workqueue, comma-separated");
		*out |= 1U << c;
		p += n + (p[n] == ',');
	}
	return 0;
}

static int kwork_opt(int id, const char *arg, void *ctx)
{
	static const char *const sorts[] = { "", "runtime", "max", "count", "delay" };
	struct kw_view *v = ctx;
	unsigned long long n;

	switch (id) {
	case 'i': v->input = arg; break;
	case OPT_INSTANCE: v->instance = arg; break;
	case 'k': return parse_classes(arg, &v->classes);
	case 'C':
		if (cmd_parse_u64(arg, &n) < 0 || n > 65535)
			return cmd_bad_value("not a CPU number");
		v->cpu = (int)n;
		break;
	case 'n': v->name = arg; break;
	case 's':
		for (int i = SORT_RUNTIME; i <= SORT_DELAY; i++)
			if (!strcmp(arg, sorts[i]))
				v->sort = i;
		if (!v->sort)
			return cmd_bad_value("sort by runtime, max, count or delay");
		break;
	case OPT_PER_CPU: v->per_cpu = true; break;
	case OPT_JSON: v->json = true; break;
	case OPT_FROM:
	case OPT_TO: return cmd_window_opt(&v->win, id == OPT_FROM, arg);
	case 'a': v->live.all = true; break;
	case OPT_DURATION: return live_duration_opt(&v->live.duration, arg);
	}
	return 0;
}

/* ---- the table ---- */

static int sort_key;

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int by_key(const void *x, const void *y)
{
	const struct ftc_kwork_item *a = *(const struct ftc_kwork_item *const *)x;
	const struct ftc_kwork_item *b = *(const struct ftc_kwork_item *const *)y;
	int c;

	switch (sort_key) {
	case SORT_MAX: c = cmp_u64(a->run_max_ns, b->run_max_ns); break;
	case SORT_COUNT: c = cmp_u64(a->count, b->count); break;
	case SORT_DELAY: c = cmp_u64(a->delay_max_ns, b->delay_max_ns); break;
	default: c = cmp_u64(a->run_ns, b->run_ns); break;
	}
	if (c)
		return c;
	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id ? 1 : (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

static const char *item_name(const struct ftc_kwork_item *it, char *buf, size_t size)
{
	if (it->name)
		return it->name;
	snprintf(buf, size, it->cls == FTC_KWORK_WORK ? "0x%llx" : "%llu",
		 (unsigned long long)it->id);
	return buf;
}

static bool selected(const struct kw_view *v, const struct ftc_kwork_item *it)
{
	char buf[32];

	if (v->classes && !(v->classes & (1U << it->cls)))
		return false;
	if (v->cpu >= 0 && it->cpu != v->cpu)
		return false;
	if (v->latency && it->cls == FTC_KWORK_IRQ)
		return false;	/* an interrupt's raise is not traced */
	return !v->name || !strcmp(item_name(it, buf, sizeof(buf)), v->name);
}

static void row(const struct kw_view *v, const struct ftc_kwork_item *it)
{
	char buf[32], cpu[16] = "all";
	const char *name = item_name(it, buf, sizeof(buf));

	if (it->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "%d", it->cpu);
	if (v->json) {
		printf("{\"class\":\"%s\",\"name\":", ftc_kwork_class_name(it->cls));
		cmd_json_string(stdout, name);
		printf(",\"id\":%llu,\"cpu\":%d,\"count\":%llu,\"run_ns\":%llu,\"run_max_ns\":%llu,"
		       "\"run_max_at_ns\":%llu,\"delays\":%llu,\"delay_ns\":%llu,"
		       "\"delay_max_ns\":%llu,\"delay_max_at_ns\":%llu}",
		       (unsigned long long)it->id, it->cpu, (unsigned long long)it->count,
		       (unsigned long long)it->run_ns, (unsigned long long)it->run_max_ns,
		       (unsigned long long)it->run_max_at, (unsigned long long)it->delays,
		       (unsigned long long)it->delay_ns, (unsigned long long)it->delay_max_ns,
		       (unsigned long long)it->delay_max_at);
		return;
	}
	if (v->latency)
		printf("  %-8s %-28s %4s %9llu %10.3f %10.3f %16.6f\n",
		       ftc_kwork_class_name(it->cls), name, cpu, (unsigned long long)it->delays,
		       it->delays ? (double)it->delay_ns / (double)it->delays / 1e3 : 0.0,
		       (double)it->delay_max_ns / 1e3, (double)it->delay_max_at / 1e9);
	else
		printf("  %-8s %-28s %4s %9llu %11.3f %10.3f %10.3f %16.6f\n",
		       ftc_kwork_class_name(it->cls), name, cpu, (unsigned long long)it->count,
		       (double)it->run_ns / 1e6,
		       it->count ? (double)it->run_ns / (double)it->count / 1e3 : 0.0,
		       (double)it->run_max_ns / 1e3, (double)it->run_max_at / 1e9);
}

static int print_items(const struct kw_view *v, const struct ftc_kwork *k)
{
	size_t n = 0, all = ftc_kwork_nitems(k);
	const struct ftc_kwork_item **rows = calloc(all + 1, sizeof(*rows));

	if (!rows)
		return ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < all; i++)
		if (selected(v, ftc_kwork_item_at(k, i)))
			rows[n++] = ftc_kwork_item_at(k, i);
	sort_key = v->sort ? v->sort : v->latency ? SORT_DELAY : SORT_RUNTIME;
	qsort(rows, n, sizeof(*rows), by_key);
	if (v->json)
		printf("{\"file\":");
	if (v->json) {
		cmd_json_string(stdout, v->input);
		printf(",\"lost_events\":%llu,\"items\":[", (unsigned long long)ftc_kwork_lost(k));
	} else if (v->latency)
		printf("  %-8s %-28s %4s %9s %10s %10s %16s\n", "CLASS", "NAME", "CPU", "DELAYS",
		       "AVG us", "MAX us", "MAX AT");
	else
		printf("  %-8s %-28s %4s %9s %11s %10s %10s %16s\n", "CLASS", "NAME", "CPU", "COUNT",
		       "TOTAL ms", "AVG us", "MAX us", "MAX AT");
	for (size_t i = 0; i < n && !cmd_output_failed(); i++) {
		if (v->json && i)
			putchar(',');
		row(v, rows[i]);
	}
	if (v->json)
		printf("]}\n");
	free(rows);
	return 0;
}

/* ---- the pass ---- */

static int kwork_add(void *k, const struct ftc_merge_record *mr)
{
	return ftc_kwork_add(k, mr);
}

static int notes(const struct kw_view *v, const struct ftc_kwork *k)
{
	uint64_t any = 0;

	for (int c = 0; c < FTC_KWORK_NCLASS; c++)
		any += ftc_kwork_records(k, c);
	if (!any && cmd_window_empty(&cmd_kwork, &v->win, v->input, "irq or workqueue"))
		return FTC_EXIT_REFUSED;
	if (!any) {
		cmd_error(&cmd_kwork, "%s has no irq or workqueue record%s%s: record -e irq -e "
			  "workqueue (ftc kwork --help)", v->input, v->instance ? " in instance " : "",
			  v->instance ? v->instance : "");
		return FTC_EXIT_REFUSED;
	}
	for (int c = 0; c < FTC_KWORK_NCLASS; c++)
		if (!ftc_kwork_records(k, c) && (!v->classes || v->classes & (1U << c)))
			fprintf(stderr, "ftc kwork: %s has no %s events (record -e %s)\n", v->input,
				ftc_kwork_class_name(c), c == FTC_KWORK_WORK ? "workqueue" : "irq");
	if (ftc_kwork_lost(k))
		fprintf(stderr, "ftc kwork: %llu events were lost: the counts are short\n",
			(unsigned long long)ftc_kwork_lost(k));
	return FTC_EXIT_OK;
}

static int view_run(void *view, struct ftc_reader *r, const char *input)
{
	struct kw_view *v = view;
	struct ftc_kwork_opts o = FTC_OPTS_INIT(ftc_kwork_opts, .instance = v->instance,
						.per_cpu = v->per_cpu || v->cpu >= 0);
	struct ftc_kwork *k;
	int status;

	v->r = r;
	v->input = input;
	k = ftc_kwork_new(r, &o);
	if (!k) {
		cmd_error(&cmd_kwork, "%s: %s", v->input, ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	if (cmd_pass(r, kwork_add, k, &v->win) < 0) {
		cmd_error(&cmd_kwork, "%s", ftc_strerror());
		ftc_kwork_free(k);
		return FTC_EXIT_FAIL;
	}
	ftc_kwork_finish(k);
	status = notes(v, k);
	if (!status && print_items(v, k) < 0) {
		cmd_error(&cmd_kwork, "%s", ftc_strerror());
		status = FTC_EXIT_FAIL;
	}
	ftc_kwork_free(k);
	return status;
}

/* [report|latency] [FILE] */
static const char *parse_words(struct kw_view *v, int argc, char **argv, int first)
{
	static const char *const views[] = { "report", "latency" };
	int view = 0;
	const char *why = cmd_view_words(argc, argv, first, views, 2, &view, &v->input);

	if (why)
		return why;
	v->latency = view == 1;
	if (!v->latency && v->sort == SORT_DELAY)
		return "-s delay goes with latency";
	if (v->latency && v->sort == SORT_RUNTIME)
		return "-s runtime goes with report";
	return live_target_check(&v->live, v->input, v->instance);
}

/* Live: the kernel's work on every CPU, whoever it was done for. */
static const char *const live_args[] = { "-e", "irq", "-e", "workqueue" };

static int kwork_run(int argc, char **argv)
{
	struct kw_view v = { .cpu = -1 };
	const char *why;
	int ret;

	argc = live_split(argc, argv, &v.live.argv);
	ret = cmd_options_parse(&cmd_kwork, argc, argv, kwork_opt, &v);
	if (ret < 0)
		return cmd_options_exit(ret);
	why = parse_words(&v, argc, argv, ret);
	if (why) {
		cmd_error(&cmd_kwork, "%s (see 'ftc kwork --help')", why);
		return FTC_EXIT_USAGE;
	}
	if (cmd_window_check(&cmd_kwork, &v.win) < 0)
		return FTC_EXIT_USAGE;
	return live_view(&cmd_kwork, &v.live, live_args, 4, &v.rec, &v.input, view_run, &v);
}
