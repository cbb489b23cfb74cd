// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "options.h"

/* The option being parsed, for cmd_bad_value(). */
static struct {
	const struct command *cmd;
	const struct cmd_option *opt;
	bool typed_long;
	const char *arg;
} cur;

static int option_count(const struct cmd_option *o)
{
	int n = 0;

	while (o && (o[n].short_name || o[n].long_name))
		n++;
	return n;
}

static int option_id(const struct cmd_option *o)
{
	return o->id ? o->id : o->short_name;
}

static void build_tables(const struct cmd_option *opts, int n, bool stop,
			 struct option *longs, char *shorts)
{
	int nl = 0, ns = 0;

	if (stop)
		shorts[ns++] = '+';	/* stop at the first non-option */
	shorts[ns++] = ':';	/* report a missing argument distinctly */
	for (int i = 0; i < n; i++) {
		const struct cmd_option *o = &opts[i];

		if (o->short_name) {
			shorts[ns++] = (char)o->short_name;
			if (o->arg)
				shorts[ns++] = ':';
		}
		if (o->long_name) {
			longs[nl].name = o->long_name;
			longs[nl].has_arg = o->arg ? required_argument : no_argument;
			longs[nl].flag = NULL;
			longs[nl].val = 0x10000 + i;
			nl++;
		}
	}
	shorts[ns] = '\0';
	memset(&longs[nl], 0, sizeof(longs[nl]));
}

static const struct cmd_option *find_short(const struct cmd_option *opts, int n, int c)
{
	for (int i = 0; i < n; i++)
		if (opts[i].short_name == c)
			return &opts[i];
	return NULL;
}

static void report_bad_option(const struct command *cmd, int c, char **argv)
{
	const char *word = argv[optind - 1];

	if (c == ':')
		cmd_error(cmd, "option '%s' needs an argument (see 'ftc %s --help')",
			  word, cmd->name);
	else if (optopt)
		cmd_error(cmd, "unknown option '-%c' (see 'ftc %s --help')",
			  optopt, cmd->name);
	else
		cmd_error(cmd, "unknown option '%s' (see 'ftc %s --help')",
			  word, cmd->name);
}

/* The command's own options followed by its shared ones, in one array. */
static struct cmd_option *merged_options(const struct command *cmd, int *count)
{
	int n1 = option_count(cmd->options), n2 = option_count(cmd->shared_options);
	struct cmd_option *all = calloc((size_t)(n1 + n2 + 1), sizeof(*all));

	if (!all)
		return NULL;
	if (n1)
		memcpy(all, cmd->options, n1 * sizeof(*all));
	if (n2)
		memcpy(all + n1, cmd->shared_options, n2 * sizeof(*all));
	*count = n1 + n2;
	return all;
}

/* The length of the valid UTF-8 sequence at p, 0 when it is not one. */
static int utf8_seq(const unsigned char *p)
{
	unsigned int c;
	int n;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2, c = *p & 0x1f;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3, c = *p & 0x0f;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4, c = *p & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff)))
		return 0;
	if (n == 4 && (c < 0x10000 || c > 0x10ffff))
		return 0;
	return n;
}

static bool valid_utf8(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; ) {
		int n = utf8_seq(p);

		if (!n)
			return false;
		p += n;
	}
	return true;
}

/*
 * Values are shown back to the user in messages: a 100 KB value would
 * bury the message and raw bytes could drive the terminal, so the quote
 * is cut short and anything but printable UTF-8 is shown as \xHH.
 */
void cmd_quote(char *buf, size_t size, const char *value)
{
	const unsigned char *p = (const unsigned char *)value;
	size_t n = 0;
	int shown = 0;

	while (*p && shown < 48 && n + 8 < size) {
		int len = utf8_seq(p);

		if (len == 1 && (*p < 0x20 || *p == 0x7f || *p == '\\'))
			len = 0;
		if (len) {
			memcpy(buf + n, p, len);
			n += len;
			p += len;
		} else {
			n += snprintf(buf + n, size - n, "\\x%02x", *p++);
		}
		shown++;
	}
	if (*p && n + 4 < size) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n < size ? n : size - 1] = '\0';
}

int cmd_bad_value(const char *fmt, ...)
{
	const struct cmd_option *o = cur.opt;
	char q[256];
	va_list ap;

	if (!o) {	/* not from a handler: no option to name */
		fprintf(stderr, "ftc: ");
	} else {
		cmd_quote(q, sizeof(q), cur.arg ? cur.arg : "");
		fprintf(stderr, "ftc %s: ", cur.cmd->name);
		if ((cur.typed_long && o->long_name) || !o->short_name)
			fprintf(stderr, "--%s", o->long_name);
		else
			fprintf(stderr, "-%c", o->short_name);
		fprintf(stderr, " '%s'", q);
		if (cur.arg && strlen(cur.arg) > 48)
			fprintf(stderr, " (%zu bytes)", strlen(cur.arg));
		fprintf(stderr, ": ");
	}
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/*
 * What an option's value may be, by the argument's name in its table. The
 * checks are the ones that need no kernel: a name that is well formed but
 * that this kernel lacks is refused when it is looked up (exit 3).
 */
enum arg_kind {
	ARG_TEXT,	/* free text: a filter, a trigger, a separator */
	ARG_SIZE,	/* a number with an optional K/M/G suffix, at least 1 */
	ARG_UINT,	/* a number, 64 bits at most; its command checks its range */
	ARG_PID,
	ARG_PIDS,	/* 1,42 */
	ARG_CPUS,	/* 0-1,3 */
	ARG_SECS,	/* SECONDS[.FRACTION] */
	ARG_MASK,	/* a hex CPU mask */
	ARG_NAME,	/* a tracefs file name: instance, tracer, clock, option */
	ARG_GLOB,	/* a name with globs and SYSTEM:: an event, a function */
	ARG_EVENTS,	/* perf events: a comma-separated list, {a,b} groups */
	ARG_FILE,	/* a path: any bytes Linux takes */
};

static const struct {
	const char *name;
	enum arg_kind kind;
} arg_types[] = {
	{ "KB", ARG_SIZE },
	{ "N", ARG_UINT }, { "PERIOD", ARG_UINT }, { "HZ", ARG_UINT }, { "MS", ARG_UINT },
	{ "USECS", ARG_UINT }, { "PAGES", ARG_UINT }, { "CPU", ARG_UINT },
	{ "PID", ARG_PID }, { "PIDS", ARG_PIDS }, { "CPUS", ARG_CPUS },
	{ "SECS", ARG_SECS }, { "SECONDS", ARG_SECS }, { "MASK", ARG_MASK },
	{ "NAME", ARG_NAME }, { "TRACER", ARG_NAME }, { "CLOCK", ARG_NAME },
	{ "OPTION", ARG_NAME }, { "ALG", ARG_NAME }, { "LAYOUT", ARG_NAME }, { "MODE", ARG_NAME },
	{ "EVENT", ARG_GLOB }, { "FUNC", ARG_GLOB }, { "EVENTS", ARG_EVENTS },
	{ "FILE", ARG_FILE }, { "FILE.svg", ARG_FILE }, { "FILE.html", ARG_FILE },
};

/* Unknown argument names are free text: the loosest check but one. */
static enum arg_kind arg_kind(const char *arg)
{
	for (size_t i = 0; i < sizeof(arg_types) / sizeof(arg_types[0]); i++)
		if (!strcmp(arg_types[i].name, arg))
			return arg_types[i].kind;
	return ARG_TEXT;
}

#define PID_LIMIT 4194304	/* the kernel's PID_MAX_LIMIT */
#define CPU_LIMIT 8192		/* the largest NR_CPUS */
#define TEXT_MAX 4095		/* tracefs takes one page per write */
#define NAME_MAX_LEN 255	/* a tracefs file (instance, tracer, option) */
#define GLOB_MAX_LEN 511	/* a kernel symbol, SYSTEM:EVENT */

/* A number, or a list of numbers and ranges "a-b" joined by ','. */
static int check_list(const char *s, unsigned long max, bool ranges, bool list)
{
	return ftc_list_parse(s, max, (ranges ? FTC_LIST_RANGES : 0) | (list ? FTC_LIST_MANY : 0),
			      NULL, NULL);
}

static int check_secs(const char *s)
{
	char *end;
	unsigned long long v;

	if (*s == '.')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	/* nanoseconds must fit in 64 bits */
	if (errno || v > ULLONG_MAX / 1000000000ULL)
		return -1;
	if (*end == '.')
		end += strspn(end + 1, "0123456789") + 1;
	return *end ? -1 : 0;
}

/* The highest CPU a hex mask selects must exist on this machine. */
static int check_mask(const char *s)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	int digits = 0, top = 0;

	if (strspn(s, "0123456789abcdefABCDEF,") != strlen(s) || !strpbrk(s, "0123456789abcdefABCDEF"))
		return cmd_bad_value("not a CPU mask (hex, e.g. 3 for CPUs 0 and 1)");
	for (; *s; s++) {
		int d;

		if (*s == ',')
			continue;
		d = *s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10;
		if (!digits && !d)
			continue;
		if (!digits)
			top = d;
		digits++;
	}
	if (!digits)
		return 0;
	if (ncpus < 1)
		ncpus = 1;
	if ((digits - 1) * 4L + (top >= 8 ? 3 : top >= 4 ? 2 : top >= 2 ? 1 : 0) >= ncpus)
		return cmd_bad_value("selects CPUs beyond the last one (CPU %ld): give a hex mask "
				     "of CPUs 0 to %ld", ncpus - 1, ncpus - 1);
	return 0;
}

static int check_name(const char *s, enum arg_kind kind)
{
	size_t max = kind == ARG_NAME ? NAME_MAX_LEN : kind == ARG_GLOB ? GLOB_MAX_LEN : TEXT_MAX;
	const char *bad;

	if (!valid_utf8(s))
		return cmd_bad_value("not UTF-8 text");
	if (strlen(s) > max)
		return cmd_bad_value("longer than %zu bytes, %s", max, kind == ARG_NAME ?
				     "the most a tracefs name takes" : kind == ARG_GLOB ?
				     "the most a kernel symbol or event name takes" :
				     "the most a tracefs file takes in one write");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			if (kind != ARG_TEXT || *p != '\t')
				return cmd_bad_value("holds a control character (\\x%02x)", *p);
	bad = kind == ARG_NAME ? " \t/*?[]" : kind == ARG_GLOB ? " \t/" : kind == ARG_EVENTS ? " \t" : "";
	if (*bad && strpbrk(s, bad))
		return cmd_bad_value("cannot hold '%c'%s", *strpbrk(s, bad),
				     kind == ARG_NAME ? " (no '/', blank or glob character)" :
				     kind == ARG_GLOB ? " (no '/' or blank)" : " (no blank)");
	if (kind == ARG_NAME && (!strcmp(s, ".") || !strcmp(s, "..")))
		return cmd_bad_value("not a name");
	return 0;
}

/*
 * Every value is checked by its type before the command sees it, so that
 * every option refuses a value that cannot be right (empty, too long, not
 * UTF-8, not a number, out of 64 bits) with exit 2 and one kind of message.
 * No option takes an empty value: an empty tracer, clock, file or number
 * is always a slip (an unset shell variable), and tracefs lists would
 * match "" anywhere.
 */
static int check_value(const struct cmd_option *o, const char *arg)
{
	enum arg_kind kind;
	unsigned long long v;

	if (!o->arg)
		return 0;
	if (!arg || !*arg)
		return cmd_bad_value("the %s cannot be empty (give one, or leave the option out)",
				     o->arg);
	kind = arg_kind(o->arg);
	switch (kind) {
	case ARG_SIZE:
		if (cmd_parse_u64(arg, &v) < 0 || !v)
			return cmd_bad_value("not a size (use a number of %s from 1, e.g. 4096; "
					     "K, M and G multiply it)", o->arg);
		return 0;
	case ARG_UINT:
		if (cmd_parse_u64(arg, &v) < 0)
			return cmd_bad_value("not a number (use a whole number from 0 to 2^64-1, "
					     "e.g. 10)");
		return 0;
	case ARG_PID:
	case ARG_PIDS:
		if (check_list(arg, PID_LIMIT, false, kind == ARG_PIDS) < 0)
			return cmd_bad_value("not a %s (0 to %d%s)", kind == ARG_PID ? "pid" :
					     "pid list", PID_LIMIT, kind == ARG_PID ? "" :
					     ", comma-separated, e.g. 1,42");
		return 0;
	case ARG_CPUS:
		if (check_list(arg, CPU_LIMIT - 1, true, true) < 0)
			return cmd_bad_value("not a CPU list (e.g. 0-1,3)");
		return 0;
	case ARG_SECS:
		if (check_secs(arg) < 0)
			return cmd_bad_value("not a number of seconds (e.g. 2 or 0.5)");
		return 0;
	case ARG_MASK:
		return check_mask(arg);
	case ARG_FILE:
		if (strlen(arg) >= PATH_MAX)
			return cmd_bad_value("longer than a path can be (%d bytes)", PATH_MAX - 1);
		return 0;
	default:
		return check_name(arg, kind);
	}
}

/* An option as messages name it: --long, else -x. */
static const char *option_name(const struct cmd_option *o, char *buf, size_t size)
{
	if (o->long_name)
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
	return buf;
}

/* The row of cmd's mode_rules for o; an all-zero one (every output) if none. */
static const struct cmd_mode_rule *rule(const struct command *cmd, const struct cmd_option *o)
{
	static const struct cmd_mode_rule none;

	for (const struct cmd_mode_rule *r = cmd->mode_rules; r && r->id; r++)
		if (r->id == option_id(o))
			return r;
	return &none;
}

/* The mode option of cmd that chooses output bit, NULL for the default. */
static const struct cmd_option *mode_option(const struct command *cmd, unsigned int bit)
{
	const struct cmd_option *tables[] = { cmd->options, cmd->shared_options };

	for (int t = 0; t < 2; t++)
		for (const struct cmd_option *o = tables[t]; o && (o->short_name || o->long_name); o++)
			if (rule(cmd, o)->mode == bit)
				return o;
	return NULL;
}

/* The names of the outputs in set, joined by sep, into buf. */
static const char *mode_names(const struct command *cmd, unsigned int set, const char *sep,
			      char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int b = 0; b < 32 && len < size; b++) {
		const struct cmd_option *o;
		char one[64];

		if (!(set & CMD_MODE(b)))
			continue;
		o = b ? mode_option(cmd, CMD_MODE(b)) : NULL;
		if (b && !o)
			continue;
		len += snprintf(buf + len, size - len, "%s%s", len ? sep : "",
				o ? option_name(o, one, sizeof(one)) :
				cmd->default_mode ? cmd->default_mode : "the default output");
	}
	return buf;
}

/*
 * seen[i]: 0 when opts[i] was not given, else its place on the command line
 * (from 1) times 2, plus 1 when it was typed by its long name.
 */
static const char *typed_name(const struct cmd_option *o, int seen, char *buf, size_t size)
{
	if ((seen & 1) || !o->short_name)
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
	return buf;
}

/* The outputs the mode options among seen[] choose, else the default one. */
static unsigned int chosen_modes(const struct command *cmd, const struct cmd_option *opts,
				 int n, const int *seen)
{
	unsigned int chosen = 0;

	for (int i = 0; i < n; i++)
		if (seen[i])
			chosen |= rule(cmd, &opts[i])->mode;
	return chosen ? chosen : CMD_MODE_DEFAULT;
}

/* The mode options given, as typed and joined by " and ", or the default's name. */
static const char *chosen_names(const struct command *cmd, const struct cmd_option *opts,
				int n, const int *seen, char *buf, size_t size)
{
	size_t len = 0;
	char one[64];

	buf[0] = '\0';
	for (int i = 0; i < n && len < size; i++)
		if (seen[i] && rule(cmd, &opts[i])->mode)
			len += snprintf(buf + len, size - len, "%s%s", len ? " and " : "",
					typed_name(&opts[i], seen[i], one, sizeof(one)));
	if (!len)
		snprintf(buf, size, "%s", cmd->default_mode ? cmd->default_mode : "the default output");
	return buf;
}

static bool modes_combine(const struct cmd_mode_rule *x, const struct cmd_mode_rule *y)
{
	return x->mode == y->mode || ((x->modes & y->mode) && (y->modes & x->mode));
}

/*
 * An option that applies to none of the chosen outputs would be ignored,
 * and two outputs that do not combine would leave one unprinted: either
 * way the user would read a report that is not the one asked for.
 */
static int check_modes(const struct command *cmd, const struct cmd_option *opts, int n,
		       const int *seen)
{
	unsigned int chosen = chosen_modes(cmd, opts, n, seen);
	char a[64], b[256], names[256];

	for (int i = 0; i < n; i++) {
		if (!seen[i] || !rule(cmd, &opts[i])->mode)
			continue;
		for (int j = 0; j < n; j++) {
			if (!seen[j] || seen[j] <= seen[i] || !rule(cmd, &opts[j])->mode ||
			    modes_combine(rule(cmd, &opts[i]), rule(cmd, &opts[j])))
				continue;
			cmd_error(cmd, "%s and %s ask for different outputs: give one",
				  typed_name(&opts[i], seen[i], a, sizeof(a)),
				  typed_name(&opts[j], seen[j], b, sizeof(b)));
			return -1;
		}
	}
	for (int i = 0; i < n; i++) {
		const struct cmd_mode_rule *r = rule(cmd, &opts[i]);

		if (!seen[i] || r->mode || !r->modes || (r->modes & chosen))
			continue;
		cmd_error(cmd, "%s does not apply to %s: it applies to %s only (leave it out, "
			  "or choose that output)", typed_name(&opts[i], seen[i], a, sizeof(a)),
			  chosen_names(cmd, opts, n, seen, b, sizeof(b)),
			  mode_names(cmd, r->modes, ", ", names, sizeof(names)));
		return -1;
	}
	return 0;
}

int cmd_options_parse(const struct command *cmd, int argc, char **argv,
		      cmd_option_fn fn, void *ctx)
{
	int n = 0;
	struct cmd_option *opts = merged_options(cmd, &n);
	struct option *longs = calloc((size_t)n + 1, sizeof(*longs));
	char *shorts = calloc((size_t)n * 2 + 3, 1);
	int *seen = calloc((size_t)n + 1, sizeof(*seen));
	int place = 0;
	int ret = -1;

	if (!opts || !longs || !shorts || !seen)
		goto out;
	build_tables(opts, n, cmd->stop_at_operand, longs, shorts);
	optind = 0;	/* glibc: a full restart, also of the permutation state */
	opterr = 0;
	for (;;) {
		int li = -1;
		int c = getopt_long(argc, argv, shorts, longs, &li);
		const struct cmd_option *o;

		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			report_bad_option(cmd, c, argv);
			goto out;
		}
		o = c >= 0x10000 ? &opts[c - 0x10000] : find_short(opts, n, c);
		if (option_id(o) == 'h') {
			cmd_usage(cmd, false);
			ret = -2;
			goto out;
		}
		cur.cmd = cmd;
		cur.opt = o;
		cur.typed_long = c >= 0x10000;
		cur.arg = optarg;
		if (check_value(o, optarg) < 0 || fn(option_id(o), optarg, ctx) < 0)
			goto out;
		if (!seen[o - opts])
			seen[o - opts] = ++place * 2 + (c >= 0x10000);
	}
	memset(&cur, 0, sizeof(cur));
	if (check_modes(cmd, opts, n, seen) < 0)
		goto out;
	ret = optind;
out:
	memset(&cur, 0, sizeof(cur));
	free(seen);
	free(opts);
	free(longs);
	free(shorts);
	return ret;
}

int cmd_options_exit(int ret)
{
	if (ret == -2)
		return FTC_EXIT_OK;
	if (ret == -1)
		return FTC_EXIT_USAGE;
	return -1;
}

static void mark_outputs(FILE *f, const struct command *cmd, const struct cmd_option *o,
			 int col);

static void usage_table(FILE *f, const struct command *cmd, const struct cmd_option *o)
{
	for (; o && (o->short_name || o->long_name); o++) {
		char left[64];
		int len = 0;

		if (o->short_name)
			len += snprintf(left + len, sizeof(left) - len, "-%c%s",
					o->short_name, o->long_name ? ", " : "");
		else
			len += snprintf(left + len, sizeof(left) - len, "    ");
		if (o->long_name)
			len += snprintf(left + len, sizeof(left) - len, "--%s", o->long_name);
		if (o->arg)
			snprintf(left + len, sizeof(left) - len, " %s", o->arg);
		fprintf(f, "  %-28s %s", left, o->help);
		mark_outputs(f, cmd, o, 31 + (int)strlen(o->help));
		fputc('\n', f);
	}
}

static int popcount(unsigned int x)
{
	return __builtin_popcount(x);
}

/*
 * After an option's help, the outputs it goes with, as the table of modes
 * says: "[text, --json]", or "[not with -e, --initcalls]" when that is
 * shorter; on a line of its own when the help's would pass 100 columns.
 */
static void mark_outputs(FILE *f, const struct command *cmd, const struct cmd_option *o,
			 int col)
{
	const struct cmd_mode_rule *r = rule(cmd, o);
	unsigned int all = CMD_MODE_DEFAULT, set;
	char names[256], mark[300];

	if (!r->modes)
		return;
	for (const struct cmd_mode_rule *x = cmd->mode_rules; x && x->id; x++)
		all |= x->mode;
	set = r->modes & ~r->mode;
	if (r->mode)
		snprintf(mark, sizeof(mark), " [also with %s]", mode_names(cmd, set, ", ", names,
									   sizeof(names)));
	else if (popcount(set) * 2 > popcount(all))
		snprintf(mark, sizeof(mark), " [not with %s]", mode_names(cmd, all & ~set, ", ",
									  names, sizeof(names)));
	else
		snprintf(mark, sizeof(mark), " [%s]", mode_names(cmd, set, ", ", names,
								sizeof(names)));
	if (col + (int)strlen(mark) > 100)
		fprintf(f, "\n%31s", "");
	fputs(mark, f);
}

void cmd_usage(const struct command *cmd, bool to_stderr)
{
	FILE *f = to_stderr ? stderr : stdout;

	fprintf(f, "usage: ftc %s %s\n\n%s\n\noptions:\n", cmd->name,
		cmd->synopsis ? cmd->synopsis : "[options]", cmd->summary);
	usage_table(f, cmd, cmd->options);
	if (cmd->shared_options) {
		fprintf(f, "\ntracing control options (as for ftc start):\n");
		usage_table(f, cmd, cmd->shared_options);
	}
	if (cmd->mode_rules)
		fprintf(f, "\n[...]: the outputs an option applies to (%s: none of the output options "
			"given).\nThe output options exclude each other, but for those marked "
			"'also with'.\n", cmd->default_mode ? cmd->default_mode : "the default");
	fprintf(f, "\nSee ftc-%s(1) for details and exit codes.\n", cmd->name);
}

/* Whether o goes with the outputs chosen (0: none chosen, all go). */
static bool goes_with(const struct command *cmd, const struct cmd_option *o,
		      unsigned int chosen)
{
	const struct cmd_mode_rule *r = rule(cmd, o);

	if (!chosen)
		return true;
	if (r->mode)	/* its modes: the outputs it combines with */
		return !(chosen & ~(r->modes | r->mode));
	return !r->modes || (r->modes & chosen);
}

/* The outputs that the mode options among words choose; 0 for none. */
static unsigned int words_modes(const struct command *cmd, const struct cmd_option *o,
				int nwords, char **words)
{
	unsigned int chosen = 0;

	for (; o && (o->short_name || o->long_name); o++) {
		char name[64];

		if (!rule(cmd, o)->mode)
			continue;
		for (int i = 0; i < nwords; i++) {
			size_t len = strlen(option_name(o, name, sizeof(name)));

			if ((!strncmp(words[i], name, len) &&
			     (!words[i][len] || (words[i][len] == '=' && o->long_name))) ||
			    (o->short_name && words[i][0] == '-' && words[i][1] == o->short_name &&
			     !words[i][2]))
				chosen |= rule(cmd, o)->mode;
		}
	}
	return chosen;
}

static void list_table(const struct command *cmd, const struct cmd_option *o,
		       unsigned int chosen)
{
	for (; o && (o->short_name || o->long_name); o++) {
		if (!goes_with(cmd, o, chosen))
			continue;
		if (o->long_name)
			printf("--%s\n", o->long_name);
		if (o->short_name)
			printf("-%c\n", o->short_name);
	}
}

/* SHORT<TAB>LONG<TAB>ARG, "-" for what an option lacks: the letter-rule
 * test and context-aware completion read it. */
static void list_rows(const struct cmd_option *o)
{
	for (; o && (o->short_name || o->long_name); o++) {
		if (o->short_name)
			printf("-%c\t", o->short_name);
		else
			printf("-\t");
		printf("%s%s\t%s\n", o->long_name ? "--" : "-",
		       o->long_name ? o->long_name : "", o->arg ? o->arg : "-");
	}
}

void cmd_options_list(const struct command *cmd, bool table, int nwords, char **words)
{
	unsigned int chosen = words_modes(cmd, cmd->options, nwords, words) |
			      words_modes(cmd, cmd->shared_options, nwords, words);

	if (table) {
		list_rows(cmd->options);
		list_rows(cmd->shared_options);
		return;
	}
	list_table(cmd, cmd->options, chosen);
	list_table(cmd, cmd->shared_options, chosen);
}

void cmd_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ftc %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cmd_parse_time(const char *s, unsigned long long *ns)
{
	unsigned long long sec = 0, frac = 0, scale = 100000000ULL;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > ULLONG_MAX / 10000000000ULL)	/* its ns would not fit */
			return -1;
		sec = sec * 10 + (unsigned long long)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			frac += (unsigned long long)(*p - '0') * scale;
	if (*p || p == s || !strcmp(s, "."))
		return -1;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

int cmd_parse_u64(const char *s, unsigned long long *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	/* strtoull would skip blanks and take a sign: "-1" is 2^64-1 to it */
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (*end || v > ULLONG_MAX >> shift)
		return -1;
	*out = v << shift;
	return 0;
}
