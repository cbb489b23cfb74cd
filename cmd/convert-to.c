// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc convert --to perfetto and --to chrome: the records of every buffer,
 * in timestamp order, through libftc's Perfetto or Chrome pass into OUT
 * ("-": standard output). A failure leaves no file; a damaged input leaves
 * what preceded the damage, with the reader's account of it, and exit 1,
 * as for trace.dat.
 */
#include <stdio.h>
#include <string.h>

#include "convert-to.h"
#include "output.h"
#include "ftc.h"
#include "ftc-chrome.h"
#include "ftc-merge.h"
#include "ftc-perfetto.h"
#include "ftc-reader.h"
#include "ftc-writer.h"

static const char *const names[] = {
	[CONVERT_TO_DAT] = "trace.dat",
	[CONVERT_TO_PERFETTO] = "perfetto",
	[CONVERT_TO_CHROME] = "chrome",
};

int convert_to_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -1;
}

const char *convert_to_name(int to)
{
	return names[to];
}

/* A pass over the records: libftc's Perfetto or Chrome writer. */
struct exporter {
	void *(*open)(struct ftc_reader *r, FILE *out, bool no_compact);
	int (*add)(void *x, const struct ftc_merge_record *mr);
	int (*finish)(void *x);
	void (*close)(void *x);
};

static void *perfetto_open(struct ftc_reader *r, FILE *out, bool no_compact)
{
	struct ftc_perfetto_opts o = FTC_OPTS_INIT(ftc_perfetto_opts,
		.no_compact_sched = no_compact);

	return ftc_perfetto_new(r, out, &o);
}

static void *chrome_open(struct ftc_reader *r, FILE *out, bool no_compact)
{
	return ftc_chrome_new(r, out, NULL);
}

static int perfetto_add(void *x, const struct ftc_merge_record *mr)
{
	return ftc_perfetto_add(x, mr);
}

static int perfetto_finish(void *x)
{
	return ftc_perfetto_finish(x);
}

static void perfetto_close(void *x)
{
	ftc_perfetto_free(x);
}

static int chrome_add(void *x, const struct ftc_merge_record *mr)
{
	return ftc_chrome_add(x, mr);
}

static int chrome_finish(void *x)
{
	return ftc_chrome_finish(x);
}

static void chrome_close(void *x)
{
	ftc_chrome_free(x);
}

static const struct exporter exporters[] = {
	[CONVERT_TO_PERFETTO] = { perfetto_open, perfetto_add, perfetto_finish, perfetto_close },
	[CONVERT_TO_CHROME] = { chrome_open, chrome_add, chrome_finish, chrome_close },
};

static int pass(const struct exporter *e, struct ftc_reader *r, FILE *out, bool no_compact)
{
	void *x = e->open(r, out, no_compact);
	struct ftc_merge *m = x ? ftc_merge_open(r, NULL) : NULL;
	struct ftc_merge_record mr;
	int ret = -1;

	if (!m)
		goto out;
	while ((ret = ftc_merge_next(m, &mr)) == 1)
		if (e->add(x, &mr) < 0) {
			ret = -1;
			break;
		}
	if (ret == 0)
		ret = e->finish(x);
out:
	ftc_merge_close(m);
	if (x)
		e->close(x);
	return ret;
}

int convert_to(const struct command *cmd, int to, const char *input, const char *output,
	       bool no_compact)
{
	struct ftc_reader *r = ftc_reader_open(input, 0);
	bool to_stdout = !strcmp(output, "-");
	const char *warn;
	FILE *out;
	int ret;

	if (!r) {
		cmd_error(cmd, "%s", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	if (!to_stdout && cmd_output_not_input(cmd, output, input) < 0) {
		ftc_reader_close(r);
		return FTC_EXIT_FAIL;
	}
	out = cmd_output_open(cmd, output);
	if (!out) {
		ftc_reader_close(r);
		return FTC_EXIT_FAIL;
	}
	ret = pass(&exporters[to], r, out, no_compact);
	if (ret < 0 && out != stdout && ferror(out)) {
		/* the pass said why (ENOSPC): one message, naming the file */
		cmd_error(cmd, "%s: %s", output, ftc_strerror());
		fclose(out);
	} else {
		if (ret < 0)
			cmd_error(cmd, "%s", ftc_strerror());
		if (cmd_output_close(cmd, out, output) < 0)
			ret = -1;
	}
	if (ret < 0 && !to_stdout)
		ftc_writer_unlink(output);	/* a regular file only: never /dev/null */
	warn = ftc_reader_warnings(r);
	if (warn && ret == 0)
		fprintf(stderr, "ftc %s: %s is damaged; %s holds what precedes the damage:\n%s",
			cmd->name, input, output, warn);
	ftc_reader_close(r);
	return ret < 0 || warn ? FTC_EXIT_FAIL : FTC_EXIT_OK;
}
