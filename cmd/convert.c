// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc convert: a trace.dat (ftc's or trace-cmd's, v6 or v7, compressed or
 * not) written again as v6 or v7 with the compression asked for, with
 * every buffer or the instances named. The pages are copied, not decoded.
 * --to perfetto and --to chrome write Perfetto's protobuf trace or Chrome's
 * JSON instead (convert-to.c).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert-to.h"
#include "options.h"
#include "output.h"
#include "opt-values.h"
#include "ftc.h"
#include "ftc-convert.h"
#include "ftc-reader.h"
#include "ftc-writer.h"

enum {
	OPT_COMPRESSION = 2000,
	OPT_FILE_VERSION,
	OPT_TO,
	OPT_NO_COMPACT,
};

static const struct cmd_option convert_options[] = {
	FTC_HELP_OPTION,
	{ 'i', "input", "FILE", "read FILE (default trace.dat)", 'i' },
	{ 'o', "output", "FILE", "write FILE (or give it after the input)", 'o' },
	{ 0, "file-version", "N", "trace.dat version 7 (default) or 6", OPT_FILE_VERSION },
	{ 0, "compression", "ALG", "zstd, zlib, none, or any (zstd; the default for version 7)",
	  OPT_COMPRESSION },
	{ 'B', "instance", "NAME", "keep only instance NAME ('top': the top buffer); repeatable",
	  'B' },
	{ 0, "to", "FORMAT", "trace.dat (default), perfetto or chrome (Trace Event JSON)",
	  OPT_TO },
	{ 0, "no-compact-sched", NULL, "perfetto: sched_switch, sched_waking typed, not compact",
	  OPT_NO_COMPACT },
	{ 0 }
};

/* -B NAMEs point into argv; a file with more buffers is rare. */
#define CONVERT_MAX_BUFS 64

struct convert {
	const char *input, *output;
	const char *instances[CONVERT_MAX_BUFS];
	int n;
	int version;		/* 0: not given */
	int compression;	/* -1: not given */
	int to;			/* enum convert_to */
	bool no_compact;
};

static int add_instance(struct convert *c, const char *name)
{
	const char *want = strcmp(name, "top") ? name : "";

	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->instances[i], want))
			return cmd_bad_value("is given twice: give each instance once");
	if (c->n == CONVERT_MAX_BUFS)
		return cmd_bad_value("one instance too many (at most %d)", CONVERT_MAX_BUFS);
	c->instances[c->n++] = want;
	return 0;
}

static int convert_opt(int id, const char *arg, void *ctx)
{
	struct convert *c = ctx;

	switch (id) {
	case 'i': c->input = arg; break;
	case 'o': c->output = arg; break;
	case 'B': return add_instance(c, arg);
	case OPT_COMPRESSION:
		/* trace-cmd's "any" is the best one it has: zstd here. */
		c->compression = strcmp(arg, "any") ? ftc_compression_parse(arg) : FTC_COMPRESS_ZSTD;
		if (c->compression < 0)
			return cmd_bad_value("not a compression (zstd, zlib, none or any)");
		break;
	case OPT_FILE_VERSION:
		return cmd_opt_file_version(arg, &c->version);
	case OPT_TO:
		c->to = convert_to_parse(arg);
		if (c->to < 0)
			return cmd_bad_value("not an output format (trace.dat, perfetto or chrome)");
		break;
	case OPT_NO_COMPACT:
		c->no_compact = true;
		break;
	}
	return 0;
}

static int convert_run(int argc, char **argv);

const struct command cmd_convert = {
	.name = "convert",
	.summary = "rewrite a trace.dat (version, compression, instances) or for Perfetto "
		   "or Chrome",
	.synopsis = "[options] [--to FORMAT] [-i FILE] [-o OUT] [IN [OUT]]",
	.options = convert_options,
	.run = convert_run,
};

/* Positional words fill what -i and -o left open, in that order. */
static int positional(struct convert *c, int first, int argc, char **argv)
{
	for (int i = first; i < argc; i++) {
		if (!c->input)
			c->input = argv[i];
		else if (!c->output)
			c->output = argv[i];
		else {
			cmd_error(&cmd_convert, "unexpected argument '%s' (input and output are "
				  "given already)", argv[i]);
			return -1;
		}
	}
	if (!c->input)
		c->input = "trace.dat";
	if (!c->output) {
		cmd_error(&cmd_convert, "name the file to write with -o FILE (see 'ftc convert "
			  "--help')");
		return -1;
	}
	if (c->to != CONVERT_TO_DAT && (c->version || c->compression >= 0 || c->n)) {
		cmd_error(&cmd_convert, "--to %s takes every buffer and has no file version or "
			  "compression: leave --file-version, --compression and -B out",
			  convert_to_name(c->to));
		return -1;
	}
	if (c->no_compact && c->to != CONVERT_TO_PERFETTO) {
		cmd_error(&cmd_convert, "--no-compact-sched is for --to perfetto: add it, or leave "
			  "the option out");
		return -1;
	}
	if (!strcmp(c->output, "-") && c->to == CONVERT_TO_DAT) {
		cmd_error(&cmd_convert, "OUT '-': a trace.dat cannot be written to standard output "
			  "(the writer goes back to fill in sizes and its index): name a file");
		return -1;
	}
	if (c->version == 6 && c->compression > FTC_COMPRESS_NONE) {
		cmd_error(&cmd_convert, "--file-version 6 has no compression: leave --compression "
			  "out, or write version 7");
		return -1;
	}
	return 0;
}

/* An instance the file does not hold is a usage error, as for ftc report. */
static bool missing_instance(struct convert *c, struct ftc_reader *r)
{
	for (int i = 0; i < c->n; i++) {
		int b = 0;

		while (b < ftc_reader_nbuffers(r) && strcmp(ftc_reader_buffer(r, b)->name,
							    c->instances[i]))
			b++;
		if (b == ftc_reader_nbuffers(r)) {
			cmd_error(&cmd_convert, "%s has no %s%s%s ('ftc dump' lists them)", c->input,
				  *c->instances[i] ? "instance '" : "top-level buffer",
				  c->instances[i], *c->instances[i] ? "'" : "");
			return true;
		}
	}
	return false;
}

static int convert(struct convert *c)
{
	struct ftc_convert_opts o = FTC_OPTS_INIT(ftc_convert_opts,
		.version = c->version ? c->version : 7,
		.instances = c->n ? c->instances : NULL,
		.ninstances = c->n);
	struct ftc_reader *r;
	const char *warn;
	int status = FTC_EXIT_FAIL;

	o.compression = c->compression >= 0 ? c->compression :
			o.version == 6 ? FTC_COMPRESS_NONE : FTC_COMPRESS_ZSTD;
	r = ftc_reader_open(c->input, FTC_READER_NO_PLUGINS);
	if (!r) {
		cmd_error(&cmd_convert, "%s", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	if (missing_instance(c, r)) {
		status = FTC_EXIT_REFUSED;	/* a name the file lacks, as in ftc report */
		goto out;
	}
	if (cmd_output_not_input(&cmd_convert, c->output, c->input) < 0 ||
	    cmd_output_keep_old(&cmd_convert, c->output) < 0)
		goto out;
	if (ftc_convert(r, c->output, &o) < 0)
		cmd_error(&cmd_convert, "%s", ftc_strerror());
	else
		status = FTC_EXIT_OK;
	warn = ftc_reader_warnings(r);
	if (warn) {
		fprintf(stderr, "ftc convert: %s is damaged; %s\n%s", c->input, status ?
			"what ftc read of it:" : "the new file holds what precedes the damage:", warn);
		status = FTC_EXIT_FAIL;
	}
out:
	ftc_reader_close(r);
	return status;
}

static int convert_run(int argc, char **argv)
{
	struct convert c = { .compression = -1 };
	int ret = cmd_options_parse(&cmd_convert, argc, argv, convert_opt, &c);

	if (ret < 0)
		return cmd_options_exit(ret);
	if (positional(&c, ret, argc, argv) < 0)
		return FTC_EXIT_USAGE;
	if (c.to != CONVERT_TO_DAT)
		return convert_to(&cmd_convert, c.to, c.input, c.output, c.no_compact);
	return convert(&c);
}
