// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc syscalls: the system calls of a trace.dat as strace and perf trace
 * show them, one line per call when it returns (its time, duration, task,
 * name, arguments decoded as the syscalls plugin does, and the return
 * value with its errno's name), or per task and call a summary (calls,
 * errors, total, min, avg, max, deviation: strace -c, perf trace -s).
 * One pass of the library's syscall analysis (libftc-syscalls(3)), on a
 * file, or live: -- COMMAND (its tasks and their children) or -a (every
 * task, or -p's process) recorded first (live-record.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/utsname.h>
#include <unistd.h>

#include <trace-seq.h>

#include "input.h"
#include "live-record.h"
#include "options.h"
#include "output.h"
#include "pass.h"
#include "sc-decode.h"
#include "ftc.h"
#include "ftc-syscalls.h"
#include "ftc-dynprobe.h"
#include "ftc-probe.h"
#include "ftc-tracefs-info.h"

enum { OPT_COMM = 0x100, OPT_INSTANCE, OPT_FAILURE, OPT_DURATION, OPT_JSON, OPT_LIMIT, OPT_FROM,
       OPT_TO };

static const struct cmd_option syscalls_options[] = {
	{ 'i', "input", "FILE", "the trace.dat to read (default trace.dat)", 0 },
	{ 0, "instance", "NAME", "read this buffer (default: the first with syscall events)",
	  OPT_INSTANCE },
	/* perf trace's letters and names (ftc(1), "for perf users") */
	{ 'e', "event", "NAMES", "only these calls: names or globs, comma-separated (open*,read)",
	  0 },
	{ 'p', "pid", "PID", "only this task", 0 },
	{ 0, "comm", "NAME", "only tasks of this name", OPT_COMM },
	{ 0, "failure", NULL, "only the calls that returned an error", OPT_FAILURE },
	{ 0, "duration", "MS", "only the calls that took at least MS milliseconds", OPT_DURATION },
	{ 's', "summary", NULL, "per task and call: calls, errors, times (strace -c)", 0 },
	{ 0, "limit", "N", "summary: at most N calls per task", OPT_LIMIT },
	{ 0, "json", NULL, "JSON: an object per call, or the summary as one object", OPT_JSON },
	{ 0, "from", "SECONDS", "only the calls that began at or after this timestamp", OPT_FROM },
	{ 0, "to", "SECONDS", "only the calls that ended at or before this timestamp", OPT_TO },
	{ 'a', "all-cpus", NULL, "live: record every task (or -p's process) until Ctrl-C", 0 },
	FTC_HELP_OPTION,
	{ 0 }
};

static int syscalls_run(int argc, char **argv);

const struct command cmd_syscalls = {
	.name = "syscalls",
	.summary = "system calls as strace shows them, or a summary per task (strace -c)",
	.synopsis = "[-i FILE | FILE | -a | -- COMMAND] [--instance NAME] [-e NAMES] [-p PID]\n"
		    "                   [--comm NAME] [--failure] [--duration MS] [-s [--limit N]]\n"
		    "                   [--from SECONDS] [--to SECONDS] [--json]",
	.options = syscalls_options,
	.run = syscalls_run,
};

struct sc_view {
	const char *input, *instance, *calls, *comm;
	int pid;
	bool failed, summary, json;
	uint64_t min_ns;
	unsigned long long limit;
	int arch;			/* sc_arch_of(), for the flags' values */
	struct trace_seq seq;
	uint64_t shown;
	uint64_t paths, paths_read;	/* string arguments shown, and of those with their text */
	struct cmd_window win;		/* --from, --to */
	struct ftc_reader *r;
	bool all;			/* -a */
	char **live_argv;		/* -- COMMAND */
	struct live_rec live;
};

static int syscalls_opt(int id, const char *arg, void *ctx)
{
	struct sc_view *v = ctx;
	unsigned long long n;
	char *end;
	double ms;

	switch (id) {
	case 'i': v->input = arg; break;
	case OPT_INSTANCE: v->instance = arg; break;
	case 'e': v->calls = arg; break;
	case 'p':
		if (cmd_parse_u64(arg, &n) < 0 || !n || n > 4194304)
			return cmd_bad_value("not a pid");
		v->pid = (int)n;
		break;
	case OPT_COMM: v->comm = arg; break;
	case OPT_FAILURE: v->failed = true; break;
	case OPT_DURATION:
		errno = 0;
		ms = strtod(arg, &end);
		if (errno || end == arg || *end || !(ms >= 0) || ms > 1e9)
			return cmd_bad_value("not a number of milliseconds");
		v->min_ns = (uint64_t)(ms * 1e6);
		break;
	case 's': v->summary = true; break;
	case OPT_LIMIT:
		if (cmd_parse_u64(arg, &n) < 0)
			return cmd_bad_value("not a number of rows");
		v->limit = n;
		break;
	case OPT_JSON: v->json = true; break;
	case OPT_FROM:
	case OPT_TO: return cmd_window_opt(&v->win, id == OPT_FROM, arg);
	case 'a': v->all = true; break;
	}
	return 0;
}

/* A name in -e's list, each a name or a glob. */
static bool call_selected(const char *list, const char *name)
{
	char one[64];

	if (!list)
		return true;
	if (!name)
		return false;
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");

		if (n && n < sizeof(one)) {
			memcpy(one, p, n);
			one[n] = '\0';
			if (!fnmatch(one, name, 0))
				return true;
		}
		p += n + (p[n] == ',');
	}
	return false;
}

static bool task_selected(const struct sc_view *v, int tid, const char *comm)
{
	return (!v->pid || tid == v->pid) && (!v->comm || (comm && !strcmp(comm, v->comm)));
}

static bool is_error(long long ret)
{
	return ret < 0 && ret >= -4095;
}

static bool line_selected(const struct sc_view *v, const struct ftc_syscall *c)
{
	if (!task_selected(v, c->tid, c->comm) || !call_selected(v->calls, c->name))
		return false;
	if (v->failed && (!c->end || !is_error(c->ret)))
		return false;
	/* a window's ends cut calls in two: the halves began or ended outside it */
	if ((v->win.have_from && !c->ts) || (v->win.have_to && !c->end))
		return false;
	return !v->min_ns || (c->ts && c->end && c->end - c->ts >= v->min_ns);
}

/* ---- a line per call ---- */

/* A string as strace quotes it: printable ASCII, the rest escaped. */
static void put_string(struct trace_seq *seq, const char *s)
{
	trace_seq_putc(seq, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			trace_seq_printf(seq, "\\%c", *p);
		else if (*p == '\n')
			trace_seq_puts(seq, "\\n");
		else if (*p == '\t')
			trace_seq_puts(seq, "\\t");
		else if (*p < 0x20 || *p >= 0x7f)
			trace_seq_printf(seq, "\\x%02x", *p);
		else
			trace_seq_putc(seq, (char)*p);
	}
	trace_seq_putc(seq, '"');
}

static void put_args(struct sc_view *v, const struct ftc_syscall *c)
{
	const struct sc_sig *sig = c->name ? sc_sig_find(c->name) : NULL;
	int n = sig && sig->nargs <= c->nargs ? sig->nargs : c->nargs;

	if (!c->ts) {
		trace_seq_puts(&v->seq, "...");	/* entered before the trace */
		return;
	}
	for (int i = 0; i < n; i++) {
		enum sc_kind k = sig && sig->nargs <= c->nargs ? sig->kind[i] : K_HEX;

		if (k == K_OMODE && (i == 0 || !sc_oflags_take_mode(v->arch, c->args[i - 1])))
			break;
		if (i)
			trace_seq_puts(&v->seq, ", ");
		if (c->strings[i])
			put_string(&v->seq, c->strings[i]);
		else
			sc_put_arg(&v->seq, v->arch, k, c->args[i]);
	}
}

static void text_line(struct sc_view *v, const struct ftc_syscall *c)
{
	const struct sc_sig *sig = c->name ? sc_sig_find(c->name) : NULL;
	uint64_t at = c->ts ? c->ts : c->end;

	trace_seq_reset(&v->seq);
	trace_seq_printf(&v->seq, "%6llu.%06llu ", (unsigned long long)(at / 1000000000),
			 (unsigned long long)(at % 1000000000 / 1000));
	if (c->ts && c->end)
		trace_seq_printf(&v->seq, "(%9.3f ms) ", (double)(c->end - c->ts) / 1e6);
	else
		trace_seq_printf(&v->seq, "(%9s ms) ", "?");
	trace_seq_printf(&v->seq, "%s/%d ", c->comm ? c->comm : "<...>", c->tid);
	if (c->name)
		trace_seq_puts(&v->seq, c->name);
	else
		trace_seq_printf(&v->seq, "NR%ld", c->nr);
	trace_seq_putc(&v->seq, '(');
	put_args(v, c);
	trace_seq_puts(&v->seq, ") = ");
	if (c->end)
		sc_put_ret(&v->seq, sig ? sig->ret : R_DEC, c->ret);
	else
		trace_seq_putc(&v->seq, '?');	/* it did not return in the trace */
	trace_seq_terminate(&v->seq);
	fputs(v->seq.buffer, stdout);
	putchar('\n');
}

static void json_line(const struct sc_view *v, const struct ftc_syscall *c)
{
	const char *err = c->end ? ftc_syscall_errno_name(c->ret) : NULL;

	printf("{\"ts\":%llu,\"end\":%llu,\"tid\":%d,\"comm\":", (unsigned long long)c->ts,
	       (unsigned long long)c->end, c->tid);
	cmd_json_string(stdout, c->comm ? c->comm : "");
	printf(",\"nr\":%ld,\"call\":", c->nr);
	if (c->name)
		cmd_json_string(stdout, c->name);
	else
		printf("null");
	printf(",\"args\":[");
	for (int i = 0; i < c->nargs; i++)
		printf("%s%llu", i ? "," : "", (unsigned long long)c->args[i]);
	printf("]");
	if (c->string_args) {
		printf(",\"strings\":[");
		for (int i = 0; i < c->nargs; i++) {
			printf(i ? "," : "");
			if (c->strings[i])
				cmd_json_string(stdout, c->strings[i]);
			else
				printf("null");
		}
		printf("]");
	}
	if (c->end)
		printf(",\"ret\":%lld", c->ret);
	if (err)
		printf(",\"errno\":\"%s\"", err);
	printf("}\n");
}

static void on_call(const struct ftc_syscall *c, void *ctx)
{
	struct sc_view *v = ctx;

	if (v->summary || cmd_output_failed() || !line_selected(v, c))
		return;
	v->shown++;
	for (int i = 0; i < c->nargs; i++)
		if (c->string_args & 1u << i && c->args[i]) {
			v->paths++;
			v->paths_read += c->strings[i] != NULL;
		}
	if (v->json)
		json_line(v, c);
	else
		text_line(v, c);
}

/* ---- the summary ---- */

static int by_total(const void *a, const void *b)
{
	const struct ftc_syscall_stats *x = *(const struct ftc_syscall_stats *const *)a;
	const struct ftc_syscall_stats *y = *(const struct ftc_syscall_stats *const *)b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : 0;
}

static bool stats_selected(const struct sc_view *v, const struct ftc_syscall_stats *st)
{
	if (!call_selected(v->calls, st->name))
		return false;
	return st->tid < 0 || task_selected(v, st->tid, st->comm);
}

static void stats_row(const struct sc_view *v, const struct ftc_syscall_stats *st)
{
	char name[32];
	double avg = st->timed ? (double)st->total_ns / (double)st->timed : 0;

	if (st->name)
		snprintf(name, sizeof(name), "%s", st->name);
	else
		snprintf(name, sizeof(name), "NR%ld", st->nr);
	if (v->json) {
		printf("{\"call\":");
		cmd_json_string(stdout, name);
		printf(",\"nr\":%ld,\"calls\":%llu,\"errors\":%llu,\"timed\":%llu,\"total_ns\":%llu,"
		       "\"min_ns\":%llu,\"avg_ns\":%.0f,\"max_ns\":%llu,\"stddev_ns\":%.0f,"
		       "\"unfinished\":%llu}", st->nr, (unsigned long long)st->calls,
		       (unsigned long long)st->errors, (unsigned long long)st->timed,
		       (unsigned long long)st->total_ns, (unsigned long long)st->min_ns, avg,
		       (unsigned long long)st->max_ns, ftc_syscall_stddev_ns(st),
		       (unsigned long long)st->unfinished);
		return;
	}
	printf("   %-22s %8llu %7llu %11.3f %10.3f %10.3f %10.3f %7.1f%%", name,
	       (unsigned long long)st->calls, (unsigned long long)st->errors,
	       (double)st->total_ns / 1e6, (double)st->min_ns / 1e3, avg / 1e3,
	       (double)st->max_ns / 1e3, avg > 0 ? 100 * ftc_syscall_stddev_ns(st) / avg : 0.0);
	if (st->unfinished)
		printf("  (+%llu not returned)", (unsigned long long)st->unfinished);
	putchar('\n');
}

/* The rows of one task (tid; -1: the sums), most time first, at most --limit. */
static void stats_group(const struct sc_view *v, const struct ftc_syscall_stats **rows, size_t n)
{
	size_t shown = 0;

	qsort(rows, n, sizeof(*rows), by_total);
	if (!v->json)
		printf("   %-22s %8s %7s %11s %10s %10s %10s %8s\n", "syscall", "calls", "errors",
		       "total ms", "min us", "avg us", "max us", "stddev");
	for (size_t i = 0; i < n && (!v->limit || shown < v->limit) && !cmd_output_failed(); i++) {
		if (v->json && shown)
			putchar(',');
		stats_row(v, rows[i]);
		shown++;
	}
}

static int by_task(const void *a, const void *b)
{
	const struct ftc_syscall_stats *x = *(const struct ftc_syscall_stats *const *)a;
	const struct ftc_syscall_stats *y = *(const struct ftc_syscall_stats *const *)b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

static void task_head(const struct sc_view *v, const struct ftc_syscall_stats *st, bool first)
{
	if (!v->json) {
		printf("%s%s (%d)\n", first ? "" : "\n", st->comm ? st->comm : "<...>", st->tid);
		return;
	}
	printf("%s{\"tid\":%d,\"comm\":", first ? "" : ",", st->tid);
	cmd_json_string(stdout, st->comm ? st->comm : "");
	printf(",\"calls\":[");
}

/* Per task, its calls; then every task's, summed by the library. */
static int summary_print(struct sc_view *v, const struct ftc_syscalls *s)
{
	size_t n = 0, all = ftc_syscalls_nstats(s), ncalls = ftc_syscalls_ncalls(s);
	const struct ftc_syscall_stats **rows = calloc(all + ncalls + 1, sizeof(*rows));

	if (!rows)
		return ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < all; i++)
		if (stats_selected(v, ftc_syscalls_stats_at(s, i)))
			rows[n++] = ftc_syscalls_stats_at(s, i);
	qsort(rows, n, sizeof(*rows), by_task);
	if (v->json)
		printf(",\"tasks\":[");
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && rows[j]->tid == rows[i]->tid; j++)
			;
		task_head(v, rows[i], i == 0);
		stats_group(v, rows + i, j - i);
		if (v->json)
			printf("]}");
	}
	n = 0;
	for (size_t i = 0; i < ncalls && !v->pid && !v->comm; i++)
		if (stats_selected(v, ftc_syscalls_call_at(s, i)))
			rows[n++] = ftc_syscalls_call_at(s, i);
	if (v->json)
		printf("],\"all\":[");
	else if (n)
		printf("\nall tasks\n");
	stats_group(v, rows, n);
	if (v->json)
		printf("]");
	free(rows);
	return 0;
}

/* ---- the pass ---- */

static int syscalls_add(void *s, const struct ftc_merge_record *mr)
{
	return ftc_syscalls_add(s, mr);
}

static int run_pass(struct ftc_syscalls *s, struct ftc_reader *r, struct cmd_window *w)
{
	int ret = cmd_pass(r, syscalls_add, s, w);

	ftc_syscalls_finish(s);
	return ret;
}

static void summary_json_head(const struct sc_view *v, const struct ftc_syscalls *s)
{
	printf("{\"file\":");
	cmd_json_string(stdout, v->input);
	printf(",\"arch\":");
	cmd_json_string(stdout, ftc_syscalls_arch(s) ? ftc_syscalls_arch(s) : "");
	printf(",\"records\":%llu,\"lost_events\":%llu", (unsigned long long)ftc_syscalls_records(s),
	       (unsigned long long)ftc_syscalls_lost(s));
}

/* What the file lacks, or lost, said on standard error: an empty view is never "no calls". */
static int notes(const struct sc_view *v, const struct ftc_syscalls *s)
{
	if (!ftc_syscalls_records(s) && cmd_window_empty(&cmd_syscalls, &v->win, v->input, "syscall"))
		return FTC_EXIT_REFUSED;
	if (!ftc_syscalls_records(s)) {
		cmd_error(&cmd_syscalls, "%s has no syscall record%s%s: record -e syscalls (or -e "
			  "raw_syscalls) (ftc syscalls --help)", v->input,
			  v->instance ? " in instance " : "", v->instance ? v->instance : "");
		return FTC_EXIT_REFUSED;
	}
	if (ftc_syscalls_lost(s))
		fprintf(stderr, "ftc syscalls: %llu events were lost: some calls lack their entry "
			"or their return\n", (unsigned long long)ftc_syscalls_lost(s));
	if (!v->summary && !v->shown)
		fprintf(stderr, "ftc syscalls: %s: no call matched the selection\n", v->input);
	if (v->paths > v->paths_read)
		fprintf(stderr, "ftc syscalls: %llu of %llu string arguments (paths) were not read: "
			"shown as addresses (the kernel's syscall events do not copy user memory; "
			"live, ftc reads them by probes where it can: ftc-syscalls(1))\n",
			(unsigned long long)(v->paths - v->paths_read),
			(unsigned long long)v->paths);
	return FTC_EXIT_OK;
}

/* The arguments are decoded here, not by the plugins (cmd_input_view opens without them). */
static int view_run(void *view, struct ftc_reader *r, const char *input)
{
	struct sc_view *v = view;
	struct ftc_syscalls_opts o = FTC_OPTS_INIT(ftc_syscalls_opts, .instance = v->instance,
						    .on_call = on_call, .ctx = v);
	struct ftc_syscalls *s;
	int status;

	v->r = r;
	v->input = input;
	s = ftc_syscalls_new(r, &o);
	if (!s) {
		cmd_error(&cmd_syscalls, "%s: %s", v->input, ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	v->arch = sc_arch_of(ftc_syscalls_arch(s));
	trace_seq_init(&v->seq);
	if (run_pass(s, v->r, &v->win) < 0) {
		cmd_error(&cmd_syscalls, "%s", ftc_strerror());
		status = FTC_EXIT_FAIL;
		goto out;
	}
	status = notes(v, s);
	if (status || !v->summary)
		goto out;
	if (v->json)
		summary_json_head(v, s);
	if (summary_print(v, s) < 0) {
		cmd_error(&cmd_syscalls, "%s", ftc_strerror());
		status = FTC_EXIT_FAIL;
	}
	if (v->json)
		printf("}\n");
out:
	trace_seq_destroy(&v->seq);
	ftc_syscalls_free(s);
	return status;
}

extern const struct command cmd_record;

/* ---- live: the paths, read by probes ---- */

/*
 * The kernel's syscall events carry a path's address, not its text. An
 * event probe on the entry reads it there (ustring); where the kernel
 * refuses event probes, a uprobe on the C library's wrapper reads it just
 * before the call (string), for the programs that call through it. Each
 * probe has fields ptr and str: the pass gives a call the text read at
 * the address it got, on its thread (libftc-syscalls(3)).
 */
struct sc_path_arg {
	const char *call;	/* the syscall, and the C library's function */
	const char *field;	/* the entry's field */
	int arg;		/* the wrapper's argument (0: the first) */
};

static const struct sc_path_arg path_args[] = {
	{ "open", "filename", 0 }, { "openat", "filename", 1 }, { "creat", "pathname", 0 },
	{ "execve", "filename", 0 }, { "access", "filename", 0 }, { "faccessat", "filename", 1 },
	{ "newstat", "filename", 0 }, { "newlstat", "filename", 0 },
	{ "newfstatat", "filename", 1 }, { "statx", "filename", 1 },
	{ "readlink", "path", 0 }, { "readlinkat", "pathname", 1 },
	{ "unlink", "pathname", 0 }, { "unlinkat", "pathname", 1 }, { "mkdir", "pathname", 0 },
	{ "mkdirat", "pathname", 1 }, { "rmdir", "pathname", 0 }, { "chdir", "filename", 0 },
	{ "chmod", "filename", 0 }, { "truncate", "path", 0 }, { "rename", "oldname", 0 },
	{ "rename", "newname", 1 },
};

/* The C library's names where they differ from the syscall's. */
static const char *libc_name(const char *call)
{
	if (!strcmp(call, "newstat"))
		return "stat";
	if (!strcmp(call, "newlstat"))
		return "lstat";
	if (!strcmp(call, "newfstatat"))
		return "fstatat";
	return call;
}

struct sc_specs {
	char *spec[2 * sizeof(path_args) / sizeof(path_args[0])];
	int n;
};

static const char *find_libc(void)
{
	static const char *const paths[] = {
		"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/lib/aarch64-linux-gnu/libc.so.6", "/usr/lib/aarch64-linux-gnu/libc.so.6",
		"/lib/arm-linux-gnueabihf/libc.so.6", "/usr/lib/arm-linux-gnueabihf/libc.so.6",
		"/lib64/libc.so.6", "/lib/libc.so.6",
	};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (access(paths[i], R_OK) == 0)
			return paths[i];
	return NULL;
}

/* The register of a function's argument on this machine; NULL: not known. */
static const char *arg_reg(int arg)
{
	static const char *const x86_64[] = { "%di", "%si" }, *const arm64[] = { "%x0", "%x1" },
		*const arm[] = { "%r0", "%r1" };
	struct utsname u;

	if (uname(&u) < 0 || arg > 1)
		return NULL;
	if (!strcmp(u.machine, "x86_64"))
		return x86_64[arg];
	if (!strcmp(u.machine, "aarch64"))
		return arm64[arg];
	if (!strncmp(u.machine, "armv7", 5) || !strncmp(u.machine, "armv8l", 6))
		return arm[arg];
	return NULL;
}

/* A probe spec the resolver takes (the function is in the library), once per address. */
static bool spec_usable(struct sc_specs *sp, const char *spec, char **defs)
{
	struct ftc_probe_spec *ps = NULL;
	char *def = NULL, *at;
	const char *file;
	bool ok = false;

	if (ftc_probe_spec_parse(spec, NULL, &ps) == 0 &&
	    ftc_probe_definition(ps, "x", &def, &file) == 0) {
		at = strchr(def, ' ');	/* "p:ftc/x BINARY:0xOFF ptr=..." */
		ok = true;
		for (int i = 0; at && i < sp->n; i++)
			if (defs[i] && !strcmp(defs[i], at))
				ok = false;
		if (ok)
			defs[sp->n] = strdup(at);
	}
	free(def);
	ftc_probe_spec_free(ps);
	return ok;
}

static void add_spec(struct sc_specs *sp, char *spec)
{
	if (spec)
		sp->spec[sp->n++] = spec;
}

static void uprobe_specs(struct sc_specs *sp)
{
	const char *libc = find_libc();
	char *defs[sizeof(sp->spec) / sizeof(sp->spec[0])] = { 0 };
	char *spec;

	for (size_t i = 0; libc && i < sizeof(path_args) / sizeof(path_args[0]); i++) {
		const char *reg = arg_reg(path_args[i].arg);

		if (!reg || asprintf(&spec, "%s:%s ptr=%s str=+0(%s):string", libc,
				     libc_name(path_args[i].call), reg, reg) < 0)
			continue;
		if (spec_usable(sp, spec, defs))
			add_spec(sp, spec);
		else
			free(spec);
	}
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		free(defs[i]);
}

static bool listed(char **list, const char *name)
{
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static void eprobe_specs(struct sc_specs *sp)
{
	char **events = ftc_info_events("syscalls:sys_enter_*");
	char *spec, ev[80];

	for (size_t i = 0; i < sizeof(path_args) / sizeof(path_args[0]); i++) {
		snprintf(ev, sizeof(ev), "syscalls:sys_enter_%s", path_args[i].call);
		if (!listed(events, ev))
			continue;
		if (asprintf(&spec, "e:%s ptr=$%s str=+0($%s):ustring", ev, path_args[i].field,
			     path_args[i].field) >= 0)
			add_spec(sp, spec);
	}
	ftc_list_free(events);
}

/* What reads the paths here: event probes, else uprobes, else nothing (said at the end). */
static void path_specs(struct sc_specs *sp)
{
	struct ftc_cap cap;

	if (live_cap_ok(FTC_CAP_EPROBES, &cap))
		eprobe_specs(sp);
	else if (live_cap_ok(FTC_CAP_UPROBES, &cap))
		uprobe_specs(sp);
}

/*
 * Live: the syscall events recorded while the command runs (its tasks and
 * their children, as strace -f), or with -a every task's, or -p's process
 * and its children, until Ctrl-C; with the probes that read the paths.
 */
static int live(struct sc_view *v)
{
	struct live_target t = { .argv = v->live_argv, .pid = v->pid, .all = v->all };
	char pid[16];
	struct sc_specs sp = { .n = 0 };
	const char **args = NULL;
	int n = 0, ret;

	path_specs(&sp);
	args = calloc((size_t)(6 + 2 * sp.n), sizeof(*args));
	if (!args) {
		cmd_error(&cmd_syscalls, "out of memory");
		ret = FTC_EXIT_FAIL;
		goto out;
	}
	args[n++] = "-e";
	args[n++] = "syscalls";
	n += live_follow_args(&t, args + n, pid, sizeof(pid));
	v->pid = 0;	/* its threads and children are what was recorded */
	for (int i = 0; i < sp.n; i++) {
		args[n++] = "--probe";
		args[n++] = sp.spec[i];
	}
	ret = live_view(&cmd_syscalls, &t, args, n, &v->live, &v->input, view_run, v);
out:
	free(args);
	for (int i = 0; i < sp.n; i++)
		free(sp.spec[i]);
	return ret;
}

static const char *check_words(struct sc_view *v, int argc, char **argv, int first)
{
	if (argc - first > 1 || (first < argc && v->input))
		return "one file only";
	if (first < argc)
		v->input = argv[first];
	if (v->limit && !v->summary)
		return "--limit goes with --summary";
	if ((v->all || v->live_argv) && (v->input || v->instance))
		return "a file is read, or -a and -- COMMAND record one: not both";
	if (v->all && v->live_argv)
		return "-a or -- COMMAND: not both";
	return NULL;
}

static int syscalls_run(int argc, char **argv)
{
	struct sc_view v = { 0 };
	const char *why;
	int ret;

	argc = live_split(argc, argv, &v.live_argv);
	ret = cmd_options_parse(&cmd_syscalls, argc, argv, syscalls_opt, &v);
	if (ret < 0)
		return cmd_options_exit(ret);
	why = check_words(&v, argc, argv, ret);
	if (why) {
		cmd_error(&cmd_syscalls, "%s (see 'ftc syscalls --help')", why);
		return FTC_EXIT_USAGE;
	}
	if (cmd_window_check(&cmd_syscalls, &v.win) < 0)
		return FTC_EXIT_USAGE;
	if (!v.all && !v.live_argv)
		return cmd_input_view(&cmd_syscalls, &v.input, view_run, &v);
	return live(&v);
}
