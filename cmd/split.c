// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc split: a trace.dat cut into smaller ones, as trace-cmd split cuts
 * it: OUT.1 (with -r OUT.0001, OUT.0002, ...), by time, events or pages,
 * between START and END. Each part is a trace.dat of its own, with the
 * file's metadata and its pages copied, cut only at the part's ends.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "output.h"
#include "ftc.h"
#include "ftc-convert.h"
#include "ftc-reader.h"

enum {
	OPT_SECS = 's',
	OPT_MSECS = 'm',
	OPT_USECS = 'u',
	OPT_EVENTS = 'e',
	OPT_PAGES = 'p',
};

static const struct cmd_option split_options[] = {
	FTC_HELP_OPTION,
	{ 'i', "input", "FILE", "read FILE (default trace.dat)", 'i' },
	{ 'o', "output", "FILE", "write FILE.1, with -r FILE.0001, FILE.0002... (default: "
	  "input's)", 'o' },
	{ 's', "seconds", "SECS", "a part spans SECS seconds from its first event", OPT_SECS },
	{ 'm', "msecs", "MS", "a part spans MS milliseconds", OPT_MSECS },
	{ 'u', "usecs", "USECS", "a part spans USECS microseconds", OPT_USECS },
	{ 'e', "events", "N", "a part holds N events", OPT_EVENTS },
	{ 'p', "pages", "PAGES", "a part holds PAGES ring-buffer pages of each CPU", OPT_PAGES },
	{ 'r', "repeat", NULL, "go on with parts until END (or the end of the file)", 'r' },
	{ 'c', "per-cpu", NULL, "count each CPU on its own: -e 100 is 100 events of each CPU",
	  'c' },
	{ 0 }
};

struct split {
	const char *input, *output;
	struct ftc_split_opts o;
	int unit_opt;		/* the option that set the unit, 0: none */
	bool repeat;
};

/*
 * Decimal seconds to nanoseconds, exactly (trace-cmd goes through a double,
 * which can land a nanosecond short). Digits past the ninth decimal are
 * below a nanosecond and dropped. -1 when s is not such a number or the
 * time does not fit in 64 bits.
 */
static int parse_secs(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 100000000;
	const char *p = s;

	if (!*p || (*p == '.' && !p[1]))
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > (UINT64_MAX - 9) / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			frac += (uint64_t)(*p - '0') * scale;
	if (*p || sec > (UINT64_MAX - frac) / 1000000000ULL)
		return -1;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

static int set_unit(struct split *x, int id, const char *arg)
{
	uint64_t per = id == OPT_MSECS ? 1000000 : id == OPT_USECS ? 1000 : 1;
	unsigned long long v = 0;
	uint64_t ns;

	if (x->unit_opt && x->unit_opt != id)
		return cmd_bad_value("-%c is given already: give one of -s, -m, -u, -e and -p",
				     x->unit_opt);
	if (id == OPT_SECS) {
		if (parse_secs(arg, &ns) < 0 || !ns)
			return cmd_bad_value("not a number of seconds above 0 (e.g. 2 or 0.5)");
		x->o.count = ns;
	} else {
		if (cmd_parse_u64(arg, &v) < 0 || !v)
			return cmd_bad_value("not a number above 0");
		if (v > UINT64_MAX / per)
			return cmd_bad_value("too long a time (beyond 2^64 nanoseconds)");
		x->o.count = v * per;
	}
	x->o.unit = id == OPT_EVENTS ? FTC_SPLIT_EVENTS : id == OPT_PAGES ? FTC_SPLIT_PAGES :
		    FTC_SPLIT_NSECS;
	x->unit_opt = id;
	return 0;
}

static int split_opt(int id, const char *arg, void *ctx)
{
	struct split *x = ctx;

	switch (id) {
	case 'i': x->input = arg; break;
	case 'o': x->output = arg; return cmd_output_no_stdout(arg);
	case 'r': x->repeat = true; break;
	case 'c': x->o.per_cpu = true; break;
	default: return set_unit(x, id, arg);
	}
	return 0;
}

static int split_run(int argc, char **argv);

const struct command cmd_split = {
	.name = "split",
	.summary = "cut a trace.dat into smaller ones by time, events or pages",
	.synopsis = "[-i FILE] [-o OUT] [-s SECS|-m MS|-u USECS|-e N|-p PAGES] [-r] [-c] "
		    "[START [END]]",
	.options = split_options,
	.run = split_run,
};

/* START and END: decimal seconds, as trace-cmd report prints them. */
static int positional(struct split *x, int first, int argc, char **argv)
{
	const char *what[] = { "START", "END" };
	uint64_t *dst[] = { &x->o.start, &x->o.end };

	if (argc - first > 2) {
		cmd_error(&cmd_split, "unexpected argument '%s' (give at most START and END)",
			  argv[first + 2]);
		return -1;
	}
	for (int i = 0; first + i < argc; i++)
		if (parse_secs(argv[first + i], dst[i]) < 0) {
			char q[256];

			cmd_quote(q, sizeof(q), argv[first + i]);
			cmd_error(&cmd_split, "%s '%s' is not a time in seconds (e.g. 75678.923853, "
				  "as ftc report prints it)", what[i], q);
			return -1;
		}
	if (x->o.end && x->o.end < x->o.start) {
		cmd_error(&cmd_split, "END %s is before START %s", argv[first + 1], argv[first]);
		return -1;
	}
	return 0;
}

/*
 * The next part into path. A previous file there is kept as .old only when
 * a part replaces it: it waits under another name until split knows, so
 * that an older .old is not lost for a part that never comes.
 */
static int next_part(struct split *x, struct ftc_split *s, const char *path)
{
	char wait[PATH_MAX], old[PATH_MAX];
	int aside, ret, err;

	if (cmd_output_not_input(&cmd_split, path, x->input) < 0)
		return -2;	/* said why */
	aside = cmd_output_set_aside(&cmd_split, path, ".split-old", wait, sizeof(wait));
	if (aside < 0)
		return -2;
	ret = ftc_split_next(s, path);
	err = errno;
	if (aside && ret == 0 && rename(wait, path) == 0)
		aside = 0;
	if (aside) {
		snprintf(old, sizeof(old), "%s.old", path);
		if (rename(wait, old) == 0)
			cmd_output_kept_note(&cmd_split, path, old);
		else
			cmd_output_kept_note(&cmd_split, path, wait);
	}
	errno = err;
	return ret;
}

static int write_parts(struct split *x, struct ftc_split *s)
{
	size_t len = strlen(x->output) + 24;
	char *path = malloc(len), *first = malloc(len), *last = malloc(len);
	int n = 0, ret;

	if (!path || !first || !last) {
		free(path);
		free(first);
		free(last);
		cmd_error(&cmd_split, "out of memory");
		return -1;
	}
	do {
		if (x->repeat)
			snprintf(path, len, "%s.%04d", x->output, n + 1);
		else
			snprintf(path, len, "%s.1", x->output);
		ret = next_part(x, s, path);
		if (ret == 1) {
			if (!n++)
				snprintf(first, len, "%s", path);
			snprintf(last, len, "%s", path);
		}
	} while (ret == 1 && x->repeat);
	if (ret == -1)
		cmd_error(&cmd_split, "%s", ftc_strerror());
	else if (ret < -1)
		;	/* next_part said why */
	else if (!n)
		cmd_error(&cmd_split, "%s: no event%s%s: nothing to write", x->input,
			  x->o.start ? " at or after START" : "", x->o.end ? " up to END" : "");
	else if (n == 1)
		fprintf(stderr, "ftc split: %s: %" PRIu64 " events\n", last,
			ftc_split_part_records(s));
	else
		fprintf(stderr, "ftc split: %d files, %s to %s\n", n, first, last);
	free(first);
	free(last);
	free(path);
	return ret < 0 || !n ? -1 : 0;
}

static int split_run(int argc, char **argv)
{
	struct split x = { .o = FTC_OPTS_INIT(ftc_split_opts) };
	struct ftc_reader *r = NULL;
	struct ftc_split *s = NULL;
	int status = FTC_EXIT_FAIL;
	int ret = cmd_options_parse(&cmd_split, argc, argv, split_opt, &x);
	const char *warn;

	if (ret < 0)
		return cmd_options_exit(ret);
	if (positional(&x, ret, argc, argv) < 0)
		return FTC_EXIT_USAGE;
	if (!x.input)
		x.input = "trace.dat";
	if (!x.output)
		x.output = x.input;
	r = ftc_reader_open(x.input, FTC_READER_NO_PLUGINS);
	if (r)
		s = ftc_split_open(r, &x.o);
	if (!s) {
		cmd_error(&cmd_split, "%s", ftc_strerror());
		goto out;
	}
	if (write_parts(&x, s) == 0)
		status = FTC_EXIT_OK;
	warn = ftc_reader_warnings(r);
	if (warn) {
		fprintf(stderr, "ftc split: %s is damaged; %s\n%s", x.input, status ?
			"what ftc read of it:" : "the parts hold what precedes the damage:", warn);
		status = FTC_EXIT_FAIL;
	}
out:
	ftc_split_close(s);
	ftc_reader_close(r);
	return status;
}
