// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

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

static void build_tables(const struct cmd_option *opts, int n,
			 struct option *longs, char *shorts)
{
	int nl = 0, ns = 0;

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

/*
 * No option takes an empty value: an empty tracer, clock, file or number
 * is always a slip (an unset shell variable), and tracefs lists would
 * match "" anywhere. Refusing it here covers every command at once.
 */
static int check_value(const struct command *cmd, const struct cmd_option *o,
		       const char *arg)
{
	char name[64];

	if (!o->arg || (arg && *arg))
		return 0;
	if (o->short_name && o->long_name)
		snprintf(name, sizeof(name), "-%c/--%s", o->short_name, o->long_name);
	else if (o->long_name)
		snprintf(name, sizeof(name), "--%s", o->long_name);
	else
		snprintf(name, sizeof(name), "-%c", o->short_name);
	cmd_error(cmd, "option %s: the %s cannot be empty (give one, or leave the option out)",
		  name, o->arg);
	return -1;
}

int cmd_options_parse(const struct command *cmd, int argc, char **argv,
		      cmd_option_fn fn, void *ctx)
{
	int n = 0;
	struct cmd_option *opts = merged_options(cmd, &n);
	struct option *longs = calloc((size_t)n + 1, sizeof(*longs));
	char *shorts = calloc((size_t)n * 2 + 3, 1);
	int ret = -1;

	if (!opts || !longs || !shorts)
		goto out;
	build_tables(opts, n, longs, shorts);
	optind = 1;
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
		if (check_value(cmd, o, optarg) < 0 || fn(option_id(o), optarg, ctx) < 0)
			goto out;
	}
	ret = optind;
out:
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

static void usage_table(FILE *f, const struct cmd_option *o)
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
		fprintf(f, "  %-28s %s\n", left, o->help);
	}
}

void cmd_usage(const struct command *cmd, bool to_stderr)
{
	FILE *f = to_stderr ? stderr : stdout;

	fprintf(f, "usage: ftc %s %s\n\n%s\n\noptions:\n", cmd->name,
		cmd->synopsis ? cmd->synopsis : "[options]", cmd->summary);
	usage_table(f, cmd->options);
	if (cmd->shared_options) {
		fprintf(f, "\ntracing control options (as for ftc start):\n");
		usage_table(f, cmd->shared_options);
	}
	fprintf(f, "\nSee ftc-%s(1) for details and exit codes.\n", cmd->name);
}

static void list_table(const struct cmd_option *o)
{
	for (; o && (o->short_name || o->long_name); o++) {
		if (o->long_name)
			printf("--%s\n", o->long_name);
		if (o->short_name)
			printf("-%c\n", o->short_name);
	}
}

void cmd_options_list(const struct command *cmd)
{
	list_table(cmd->options);
	list_table(cmd->shared_options);
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

int cmd_parse_u64(const char *s, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}
