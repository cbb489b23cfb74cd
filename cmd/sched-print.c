// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc sched's views: one pass of the library's scheduling analysis over
 * the merged records, then a table (or JSON) per task, the timehist lines
 * as the pass closes each stretch on a CPU, or the off-CPU time by stack.
 * What the file lacks (wakeups, stacks) and what it lost is said, so that
 * an empty column is never taken for "nothing happened".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "output.h"
#include "pass.h"
#include "sched-print.h"
#include "ftc.h"
#include "ftc-heat.h"
#include "ftc-perf.h"
#include "ftc-sched.h"

static const char *const sort_keys[] = {
	[SCHED_SORT_RUN] = "run", [SCHED_SORT_SWITCHES] = "switches",
	[SCHED_SORT_DELAY] = "delay", [SCHED_SORT_MAX] = "max", [SCHED_SORT_SLEEP] = "sleep",
	[SCHED_SORT_BLOCK] = "block", [SCHED_SORT_PID] = "pid", [SCHED_SORT_COMM] = "comm",
};

int sched_print_sort_key(const char *key, int *sort)
{
	for (int i = SCHED_SORT_RUN; i <= SCHED_SORT_COMM; i++)
		if (!strcmp(key, sort_keys[i])) {
			*sort = i;
			return 0;
		}
	return -1;
}

bool sched_print_selected(const struct sched_print *p, int pid, const char *comm)
{
	return (!p->pid || pid == p->pid) && (!p->comm || !strcmp(comm, p->comm));
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

/* ---- timehist: a line per stretch on a CPU, as the pass closes it ---- */

/* s.us rounded in integers, as trace-cmd prints it (a double's %.6f is off at .5) */
void sched_print_ts(uint64_t ns)
{
	uint64_t us = ns / 1000 + (ns % 1000 >= 500);

	printf("%8llu.%06llu", (unsigned long long)(us / 1000000),
	       (unsigned long long)(us % 1000000));
}

static void timehist_head(void)
{
	printf("%15s %5s  %-28s %10s %10s %10s  %s\n", "time", "cpu", "task [pid]", "wait ms",
	       "delay ms", "run ms", "out");
}

static void timehist_line(const struct ftc_sched_run *run, void *ctx)
{
	const struct sched_print *p = ctx;
	char task[48];

	if (!sched_print_selected(p, run->pid, run->comm) || cmd_output_failed())
		return;
	snprintf(task, sizeof(task), "%s[%d]", run->comm, run->pid);
	sched_print_ts(run->ts);
	printf(" [%03d]  %-28s %10.3f %10.3f %10.3f  %c\n", run->cpu,
	       task, ms(run->wait_ns), ms(run->delay_ns), ms(run->run_ns), run->state);
}

/* Where a CPU lost events, in the stretches' order: those around it may be short. */
static void timehist_lost(int cpu, uint64_t ts, long long missed, void *ctx)
{
	char what[48] = "events (how many is unknown)";

	if (cmd_output_failed())
		return;
	if (missed > 0)
		snprintf(what, sizeof(what), "%lld events", missed);
	sched_print_ts(ts);
	printf(" [%03d]  *** lost %s: the stretches around here may be short\n", cpu, what);
}

/* ---- latency: a row per task ---- */

static int sort_key;

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;	/* the largest first */
}

static int by_key(const void *x, const void *y)
{
	const struct ftc_sched_task *a = *(const struct ftc_sched_task *const *)x;
	const struct ftc_sched_task *b = *(const struct ftc_sched_task *const *)y;
	int c = 0;

	switch (sort_key) {
	case SCHED_SORT_SWITCHES: c = cmp_u64(a->switches, b->switches); break;
	case SCHED_SORT_DELAY:
		c = cmp_u64(a->delays ? a->delay_ns / a->delays : 0,
			    b->delays ? b->delay_ns / b->delays : 0);
		break;
	case SCHED_SORT_MAX: c = cmp_u64(a->delay_max_ns, b->delay_max_ns); break;
	case SCHED_SORT_SLEEP: c = cmp_u64(a->sleep_ns, b->sleep_ns); break;
	case SCHED_SORT_BLOCK: c = cmp_u64(a->block_ns, b->block_ns); break;
	case SCHED_SORT_PID: c = (a->pid > b->pid) - (a->pid < b->pid); break;
	case SCHED_SORT_COMM: c = strcmp(a->comm, b->comm); break;
	default: c = cmp_u64(a->run_ns, b->run_ns); break;
	}
	return c ? c : (a->pid > b->pid) - (a->pid < b->pid);
}

/* The selected tasks, sorted; *n of them. */
static const struct ftc_sched_task **sorted_tasks(const struct sched_print *p,
						  const struct ftc_sched *s, size_t *n)
{
	size_t all = ftc_sched_ntasks(s), k = 0;
	const struct ftc_sched_task **v = calloc(all + 1, sizeof(*v));

	if (!v) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < all; i++) {
		const struct ftc_sched_task *t = ftc_sched_task_at(s, i);

		if (sched_print_selected(p, t->pid, t->comm))
			v[k++] = t;
	}
	sort_key = p->sort;
	qsort(v, k, sizeof(*v), by_key);
	*n = p->limit && p->limit < k ? (size_t)p->limit : k;
	return v;
}

static void latency_row(const struct ftc_sched_task *t)
{
	char at[32] = "-";

	if (t->delays)
		snprintf(at, sizeof(at), "%.6f", (double)t->delay_max_at / 1e9);
	printf("%8d %-16s %10.3f %8llu %8llu %9.1f %9.1f %15s %10.3f %10.3f %7llu %5llu",
	       t->pid, t->comm, ms(t->run_ns), (unsigned long long)t->switches,
	       (unsigned long long)t->delays, t->delays ? us(t->delay_ns / t->delays) : 0.0,
	       us(t->delay_max_ns), at, ms(t->sleep_ns), ms(t->block_ns),
	       (unsigned long long)t->preempted, (unsigned long long)t->migrations);
	if (t->lost_gaps)
		printf(" !");
	putchar('\n');
}

static void latency_table(const struct ftc_sched *s, const struct ftc_sched_task **v, size_t n)
{
	const struct ftc_sched_task *tot = ftc_sched_total(s);

	printf("%8s %-16s %10s %8s %8s %9s %9s %15s %10s %10s %7s %5s\n", "PID", "COMM", "RUN ms",
	       "SWITCHES", "DELAYS", "AVG us", "MAX us", "MAX AT", "SLEEP ms", "BLOCK ms",
	       "PREEMPT", "MIGR");
	for (size_t i = 0; i < n && !cmd_output_failed(); i++)
		latency_row(v[i]);
	printf("%8s %-16s %10.3f %8llu %8llu %9.1f %9.1f\n", "", "(all tasks)", ms(tot->run_ns),
	       (unsigned long long)tot->switches, (unsigned long long)tot->delays,
	       tot->delays ? us(tot->delay_ns / tot->delays) : 0.0, us(tot->delay_max_ns));
	if (tot->lost_gaps)
		printf("\n! events were lost while these tasks were followed (%llu gaps, %llu events "
		       "counted in all):\ntheir numbers may be short (a larger buffer: record -b)\n",
		       (unsigned long long)tot->lost_gaps, (unsigned long long)ftc_sched_lost(s));
	if (tot->inferred)
		printf("\n%llu switch-ins were not recorded (the kernel does not always record the "
		       "switch out of an idle CPU):\ntaken from each task's next record, they count, "
		       "without a delay\n", (unsigned long long)tot->inferred);
	if (tot->delays)
		printf("\ndelay percentiles (log2 buckets' tops): p50 %.1f us, p90 %.1f us, "
		       "p99 %.1f us, max %.1f us\n", us(ftc_sched_percentile(tot, 50)),
		       us(ftc_sched_percentile(tot, 90)), us(ftc_sched_percentile(tot, 99)),
		       us(tot->delay_max_ns));
}

static void json_span(const char *name, const struct ftc_sched_span *sp)
{
	printf(",\"%s\":{\"count\":%llu,\"total_ns\":%llu,\"max_ns\":%llu,\"max_at_ns\":%llu,"
	       "\"min_ns\":%llu,\"min_at_ns\":%llu}", name, (unsigned long long)sp->count,
	       (unsigned long long)sp->total_ns, (unsigned long long)sp->max_ns,
	       (unsigned long long)sp->max_at, (unsigned long long)sp->min_ns,
	       (unsigned long long)sp->min_at);
}

static void json_task(const struct ftc_sched_task *t)
{
	printf("{\"pid\":%d,\"comm\":", t->pid);
	cmd_json_string(stdout, t->comm);
	printf(",\"run_ns\":%llu,\"switches\":%llu,\"inferred_switches\":%llu,\"wakeups\":%llu,"
	       "\"preempted\":%llu,"
	       "\"migrations\":%llu,\"delays\":%llu,\"delay_ns\":%llu,\"delay_max_ns\":%llu,"
	       "\"delay_max_at_ns\":%llu,\"delay_p50_ns\":%llu,\"delay_p90_ns\":%llu,"
	       "\"delay_p99_ns\":%llu,\"sleeps\":%llu,\"sleep_ns\":%llu,\"blocks\":%llu,"
	       "\"block_ns\":%llu",
	       (unsigned long long)t->run_ns, (unsigned long long)t->switches,
	       (unsigned long long)t->inferred, (unsigned long long)t->wakeups,
	       (unsigned long long)t->preempted,
	       (unsigned long long)t->migrations, (unsigned long long)t->delays,
	       (unsigned long long)t->delay_ns, (unsigned long long)t->delay_max_ns,
	       (unsigned long long)t->delay_max_at,
	       (unsigned long long)ftc_sched_percentile(t, 50),
	       (unsigned long long)ftc_sched_percentile(t, 90),
	       (unsigned long long)ftc_sched_percentile(t, 99), (unsigned long long)t->sleeps,
	       (unsigned long long)t->sleep_ns, (unsigned long long)t->blocks,
	       (unsigned long long)t->block_ns);
	printf(",\"lost_gaps\":%llu", (unsigned long long)t->lost_gaps);
	/* trace-cmd's profile's spans: woken is the wakeup latency alone */
	json_span("woken", &t->woken);
	json_span("preempted_wait", &t->off_r);
	json_span("off_cpu_s", &t->off_s);
	json_span("off_cpu_d", &t->off_d);
	printf("}");
}

/*
 * Whether the capture enabled sched:EVENT in the buffer read (none read:
 * in any buffer): 1, 0, -1 (the file does not say).
 */
static int enabled(const struct sched_print *p, const struct ftc_sched *s, const char *event)
{
	const char *inst = ftc_sched_instance(s);

	return ftc_reader_event_enabled(p->r, inst ? inst : p->instance, "sched", event);
}

/* Two answers of "was it enabled" as JSON: true if either was, null if neither says. */
static const char *tri(int a, int b)
{
	return a == 1 || b == 1 ? "true" : a < 0 && b < 0 ? "null" : "false";
}

static void latency_json(const struct sched_print *p, const struct ftc_sched *s,
			 const struct ftc_sched_task **v, size_t n)
{
	const char *inst = ftc_sched_instance(s);

	printf("{\"file\":");
	cmd_json_string(stdout, p->input);
	printf(",\"instance\":");
	cmd_json_string(stdout, inst ? inst : "");
	printf(",\"wakeups_recorded\":%s,\"wakeups_enabled\":%s,\"stacks_recorded\":%s,"
	       "\"lost_events\":%llu,\"tasks\":[",
	       ftc_sched_seen(s, "sched_wakeup") || ftc_sched_seen(s, "sched_waking") ?
	       "true" : "false", tri(enabled(p, s, "sched_wakeup"), enabled(p, s, "sched_waking")),
	       ftc_sched_seen(s, "kernel_stack") ? "true" : "false",
	       (unsigned long long)ftc_sched_lost(s));
	for (size_t i = 0; i < n; i++) {
		printf(i ? "," : "");
		json_task(v[i]);
	}
	printf("],\"total\":");
	json_task(ftc_sched_total(s));
	printf("}\n");
}

/* ---- offcpu: the time off the CPU by kernel stack ---- */

static const char *ksym(struct tep_handle *tep, uint64_t ip, char *buf, size_t size)
{
	const char *f = tep_find_function(tep, ip);

	if (f)
		return f;
	snprintf(buf, size, "0x%llx", (unsigned long long)ip);
	return buf;
}

/* What names the user frames: the samples' maps, the binaries, the kallsyms kept. */
struct user_names {
	struct ftc_perf_profile *prof;
	struct ftc_symbols *syms;
};

static bool no_sample(const struct ftc_merge_record *mr, void *ctx)
{
	return false;
}

static int user_names_open(const struct sched_print *p, struct user_names *un)
{
	bool chain = false;

	un->prof = ftc_perf_profile_new(0);
	un->syms = ftc_symbols_new();
	if (!un->prof || !un->syms ||
	    ftc_reader_profile_select(p->r, un->prof, &chain, no_sample, NULL) < 0)
		return -1;
	ftc_reader_profile_symbols(p->r, un->syms);
	return 0;
}

static void user_names_close(struct user_names *un)
{
	ftc_perf_profile_free(un->prof);
	ftc_symbols_free(un->syms);
}

static void user_frames(FILE *f, struct user_names *un, const struct ftc_sched_offcpu *o)
{
	struct ftc_perf_frame fr[64];
	int n;

	if (!un->prof)
		return;
	n = ftc_perf_profile_resolve(un->prof, un->syms, (uint32_t)o->tgid, false, o->user_ips,
				     o->nuser_ips, fr, 64);
	while (n-- > 0)
		fprintf(f, ";%s", fr[n].sym);
}

/*
 * "comm;user outer;...;kernel inner_[k];[S]": the folded key, kernel
 * frames marked as flame graphs do.
 */
static char *folded_key(struct tep_handle *tep, struct user_names *un,
			const struct ftc_sched_offcpu *o)
{
	char *key = NULL, buf[32];
	size_t len = 0;
	FILE *f = open_memstream(&key, &len);

	if (!f)
		return NULL;
	fputs(o->comm, f);
	if (o->nuser_ips)
		user_frames(f, un, o);
	for (size_t i = o->nips; i-- > 0;)
		fprintf(f, ";%s_[k]", ksym(tep, o->ips[i], buf, sizeof(buf)));
	if (!o->nips && !o->nuser_ips)
		fputs(";[no stack recorded]", f);
	fprintf(f, ";[%c]", o->state);
	if (fclose(f)) {
		free(key);
		return NULL;
	}
	return key;
}

static int offcpu_tally(const struct sched_print *p, const struct ftc_sched *s,
			struct ftc_perf_tally *t, uint64_t *total)
{
	struct tep_handle *tep = ftc_reader_tep(p->r);
	struct user_names un = { 0 };
	int ret = 0;

	if (ftc_sched_seen(s, "sample") && user_names_open(p, &un) < 0)
		ret = -1;
	for (size_t i = 0; i < ftc_sched_noffcpu(s) && !ret; i++) {
		const struct ftc_sched_offcpu *o = ftc_sched_offcpu_at(s, i);
		char *key;

		if (!sched_print_selected(p, o->pid, o->comm))
			continue;
		key = folded_key(tep, &un, o);
		if (!key || ftc_perf_tally_add(t, key, o->ns / 1000, 0) < 0)
			ret = ftc_error(ENOMEM, "out of memory");
		free(key);
		*total += o->ns;
	}
	user_names_close(&un);
	return ret;
}

static int offcpu_print(const struct command *cmd, const struct sched_print *p,
			const struct ftc_sched *s)
{
	struct ftc_perf_tally *t = ftc_perf_tally_new();
	struct ftc_perf_tally_entry **v = NULL;
	uint64_t total = 0;
	size_t n = 0;
	int ret = -1;

	if (!t || offcpu_tally(p, s, t, &total) < 0 ||
	    !(v = ftc_perf_tally_sorted(t, FTC_PERF_BY_SELF, &n)))
		goto out;
	if (p->flame) {
		char title[128];
		FILE *f = cmd_output_open(cmd, p->flame);

		snprintf(title, sizeof(title), "Off-CPU time: %.3f ms (widths in microseconds)",
			 ms(total));
		if (!f || ftc_perf_flame_svg(f, t, title) < 0 ||
		    cmd_output_close(cmd, f, p->flame) < 0)
			goto out;
	}
	if (p->flame && !p->folded)
		printf("ftc sched: %.3f ms off the CPU drawn into %s\n", ms(total), p->flame);
	else if (p->folded)
		for (size_t i = 0; i < n && !cmd_output_failed(); i++)
			printf("%s %llu\n", v[i]->key, (unsigned long long)v[i]->self);
	else {
		printf("# off-CPU time: %.3f ms; stacks outermost first, the state at the "
		       "switch-out last\n", ms(total));
		for (size_t i = 0; i < n && (!p->limit || i < p->limit) && !cmd_output_failed(); i++)
			printf("%12.3f ms  %s\n", (double)v[i]->self / 1e3, v[i]->key);
	}
	ret = 0;
out:
	if (ret < 0)
		cmd_error(cmd, "%s", ftc_strerror());
	free(v);
	ftc_perf_tally_free(t);
	return ret;
}

/* ---- the pass ---- */

/* Neither kind of wakeup recorded: not enabled, or enabled and nothing woke. */
static void no_wakeups(const struct sched_print *p, const struct ftc_sched *s)
{
	if (enabled(p, s, "sched_wakeup") == 1 || enabled(p, s, "sched_waking") == 1)
		fprintf(stderr, "ftc sched: %s: sched_wakeup was enabled but recorded nothing: no "
			"task was woken in the capture\n", p->input);
	else
		fprintf(stderr, "ftc sched: %s has no sched_wakeup: delays after a sleep are not "
			"measured (record -e sched:sched_wakeup too)\n", p->input);
}

static int notes(const struct command *cmd, const struct sched_print *p,
		 const struct ftc_sched *s)
{
	const char *inst = ftc_sched_instance(s);

	if (!ftc_sched_seen(s, "sched_switch")) {
		if (cmd_window_empty(cmd, &p->win, p->input, "sched_switch"))
			return FTC_EXIT_REFUSED;
		if (enabled(p, s, "sched_switch") == 1)
			cmd_error(cmd, "%s: sched_switch was enabled%s%s but recorded nothing (was "
				  "tracing on?)", p->input, p->instance ? " in instance " : "",
				  p->instance ? p->instance : "");
		else
			cmd_error(cmd, "%s has no sched_switch record%s%s: record -e "
				  "sched:sched_switch -e sched:sched_wakeup (ftc sched --help)",
				  p->input, p->instance ? " in instance " : "",
				  p->instance ? p->instance : "");
		return FTC_EXIT_REFUSED;
	}
	if (!ftc_sched_seen(s, "sched_wakeup") && !ftc_sched_seen(s, "sched_waking"))
		no_wakeups(p, s);
	if (p->view == SCHED_OFFCPU && !ftc_sched_seen(s, "kernel_stack") &&
	    !ftc_sched_seen(s, "sample"))
		fprintf(stderr, "ftc sched: %s has no stacks: record with 'ftc sched record' (-R "
			"stacktrace on sched_switch; --call-graph fp for user stacks too)\n",
			p->input);
	if (ftc_sched_total(s)->lost_gaps)
		fprintf(stderr, "ftc sched: %llu events were lost%s%s (%llu gaps): the numbers "
			"that depend on them are short\n", (unsigned long long)ftc_sched_lost(s),
			inst ? " in instance " : "", inst ? inst : "",
			(unsigned long long)ftc_sched_total(s)->lost_gaps);
	return 0;
}

static int sched_add(void *s, const struct ftc_merge_record *mr)
{
	return ftc_sched_add(s, mr);
}

int sched_print_pass(struct ftc_reader *r, struct ftc_sched *s, struct cmd_window *w)
{
	int ret = cmd_pass(r, sched_add, s, w);

	ftc_sched_finish(s);
	return ret;
}

static bool has_instance(const struct sched_print *p)
{
	for (int i = 0; i < ftc_reader_nbuffers(p->r); i++)
		if (!strcmp(ftc_reader_buffer(p->r, i)->name, p->instance))
			return true;
	return false;
}

static int print_view(const struct command *cmd, const struct sched_print *p,
		      const struct ftc_sched *s)
{
	const struct ftc_sched_task **v;
	size_t n = 0;

	if (p->view == SCHED_OFFCPU)
		return offcpu_print(cmd, p, s) < 0 ? FTC_EXIT_FAIL : FTC_EXIT_OK;
	if (p->view == SCHED_HIST) {
		if (p->heatmap && sched_hist_heat_write(cmd, p) < 0)
			return FTC_EXIT_FAIL;
		sched_hist_print(p, s);
		return FTC_EXIT_OK;
	}
	if (p->view != SCHED_LATENCY)
		return FTC_EXIT_OK;
	v = sorted_tasks(p, s, &n);
	if (!v) {
		cmd_error(cmd, "%s", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	if (p->json)
		latency_json(p, s, v, n);
	else
		latency_table(s, v, n);
	free(v);
	return FTC_EXIT_OK;
}

/* The views that print as the pass goes: their heads, and the map's state. */
static int lines_head(struct sched_print *p)
{
	if (p->view == SCHED_TIMEHIST)
		timehist_head();
	if (p->view != SCHED_MAP)
		return 0;
	p->map = sched_map_new(p, ftc_reader_ncpus(p->r));
	if (!p->map)
		return ftc_error(ENOMEM, "out of memory");
	sched_map_head(p->map);
	return 0;
}

int sched_print_run(const struct command *cmd, struct sched_print *p)
{
	bool lines = p->view == SCHED_TIMEHIST || p->view == SCHED_MAP;
	struct ftc_sched_opts o = FTC_OPTS_INIT(ftc_sched_opts, .instance = p->instance,
		.on_run = p->view == SCHED_TIMEHIST ? timehist_line : NULL, .ctx = p,
		.on_lost = lines ? timehist_lost : NULL,
		.on_switch = p->view == SCHED_MAP ? sched_map_switch : NULL);
	struct ftc_sched *s;
	int status;

	if (p->heatmap) {
		p->heat = ftc_heat_new(0, 0);
		if (!p->heat) {
			cmd_error(cmd, "%s", ftc_strerror());
			return FTC_EXIT_FAIL;
		}
		o.on_delay = sched_hist_heat_delay;
	}

	if (p->instance && !has_instance(p)) {
		cmd_error(cmd, "%s has no instance '%s' ('ftc dump --buffers %s' lists them)",
			  p->input, p->instance, p->input);
		return FTC_EXIT_REFUSED;
	}
	s = ftc_sched_new(p->r, &o);
	if (!s) {
		cmd_error(cmd, "%s: %s", p->input, ftc_strerror());
		return errno == ENOENT ? FTC_EXIT_REFUSED : FTC_EXIT_FAIL;
	}
	if (lines_head(p) < 0 || sched_print_pass(p->r, s, &p->win) < 0 ||
	    (p->map && sched_map_failed(p->map) && ftc_error(ENOMEM, "out of memory"))) {
		cmd_error(cmd, "%s", ftc_strerror());
		ftc_sched_free(s);
		return FTC_EXIT_FAIL;
	}
	status = notes(cmd, p, s);
	if (!status)
		status = print_view(cmd, p, s);
	if (ftc_reader_warnings(p->r))
		fprintf(stderr, "ftc sched: %s is damaged, the numbers are partial:\n%s", p->input,
			ftc_reader_warnings(p->r));
	ftc_sched_free(s);
	return status;
}
