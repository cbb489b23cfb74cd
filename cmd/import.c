// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc import: the trace buffers an oops (ftrace_dump_on_oops) or sysrq-z
 * printed on the console, read back from a serial log, dmesg, journalctl
 * -k or pstore file into a trace.dat that ftc report and trace-cmd read.
 * The parsing and writing are libftc's (ftc-import.h); this file reads
 * the files and tells the user what was found and what was not parsed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "output.h"
#include "ftc.h"
#include "ftc-import.h"
#include "ftc-writer.h"

enum {
	OPT_KALLSYMS = 2000,
	OPT_DUMP,
	OPT_FILE_VERSION,
	OPT_COMPRESSION,
};

static const struct cmd_option import_options[] = {
	FTC_HELP_OPTION,
	{ 'o', "output", "FILE", "write FILE (default trace.dat)", 'o' },
	{ 0, "kallsyms", "FILE", "the traced kernel's /proc/kallsyms or System.map (function records)",
	  OPT_KALLSYMS },
	{ 0, "dump", "N", "import the log's Nth dump (1 = the first; default the last)", OPT_DUMP },
	{ 0, "file-version", "N", "trace.dat version 7 (default) or 6", OPT_FILE_VERSION },
	{ 0, "compression", "ALG", "zstd, zlib or none (version 7; default zstd)",
	  OPT_COMPRESSION },
	{ 'q', "quiet", NULL, "print only problems, not the summary", 'q' },
	{ 0 }
};

static int import_run(int argc, char **argv);

const struct command cmd_import = {
	.name = "import",
	.summary = "turn an ftrace_dump in a console log (oops, sysrq-z) into a trace.dat",
	.synopsis = "[-o FILE] [--kallsyms FILE] [--dump N] [--file-version N] LOG",
	.options = import_options,
	.run = import_run,
};

struct import {
	const char *log, *output, *kallsyms;
	unsigned long dump;	/* 0: the last */
	int version, compression;
	bool quiet;
};

static int import_opt(int id, const char *arg, void *ctx)
{
	struct import *im = ctx;
	char *end;

	switch (id) {
	case 'o': im->output = arg; return cmd_output_no_stdout(arg);
	case 'q': im->quiet = true; break;
	case OPT_KALLSYMS: im->kallsyms = arg; break;
	case OPT_DUMP:
		errno = 0;
		im->dump = strtoul(arg, &end, 10);
		if (errno || *end || im->dump == 0 || im->dump > 1000000)
			return cmd_bad_value("is not a dump number (1 is the log's first dump)");
		break;
	case OPT_FILE_VERSION:
		if (strcmp(arg, "6") && strcmp(arg, "7"))
			return cmd_bad_value("not a trace.dat version (6 or 7)");
		im->version = atoi(arg);
		break;
	case OPT_COMPRESSION:
		im->compression = ftc_compression_parse(arg);
		if (im->compression < 0)
			return cmd_bad_value("not a compression (zstd, zlib or none)");
		break;
	}
	return 0;
}

/* The whole file, or standard input for "-"; NULL with a message. */
static char *slurp(const char *path, size_t *len, const char *what)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, n = 0;
	char *buf = NULL;

	if (!f) {
		cmd_error(&cmd_import, "%s %s: %s", what, path, strerror(errno));
		return NULL;
	}
	if (f == stdin && isatty(0)) {
		cmd_error(&cmd_import, "'-' reads the log from standard input, which is a terminal: "
			  "pipe the log in, or name its file");
		return NULL;
	}
	for (;;) {
		char *nb;
		size_t got;

		if (n == cap || !buf) {
			cap = buf ? cap * 2 : cap;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				cmd_error(&cmd_import, "%s %s: out of memory", what, path);
				goto fail;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		cmd_error(&cmd_import, "%s %s: %s", what, path, strerror(errno ? errno : EIO));
		goto fail;
	}
	if (f != stdin)
		fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	if (f != stdin)
		fclose(f);
	free(buf);
	return NULL;
}

static int load_kallsyms(struct ftc_import *imp, const char *path)
{
	size_t len;
	char *text = slurp(path, &len, "--kallsyms");
	int ret;

	if (!text)
		return -1;
	ret = ftc_import_set_kallsyms(imp, text, len);
	free(text);
	if (ret < 0)
		cmd_error(&cmd_import, "--kallsyms %s: %s (copy the traced machine's "
			  "/proc/kallsyms, as root, before the crash)", path, ftc_strerror());
	return ret;
}

/* Every unparsable line on stderr, by number: nothing is dropped unsaid. */
static void report_problems(const struct import *o, const struct ftc_import *imp, int d)
{
	size_t nbad = ftc_import_nbad(imp, d), foreign = ftc_import_foreign(imp, d);
	const char *name = strcmp(o->log, "-") ? o->log : "standard input";

	for (size_t i = 0; i < nbad; i++) {
		const char *text;
		unsigned long line = ftc_import_bad_line(imp, d, i, &text);

		fprintf(stderr, "ftc import: %s:%lu: not a dump line, kept out: %s\n", name,
			line, text);
	}
	if (nbad)
		fprintf(stderr, "ftc import: %s: %zu line%s of the dump could not be parsed (listed "
			"above)\n", name, nbad, nbad == 1 ? "" : "s");
	if (foreign)
		fprintf(stderr, "ftc import: %s: %zu line%s of other kernel messages interleaved "
			"the dump and %s skipped\n", name, foreign, foreign == 1 ? "" : "s",
			foreign == 1 ? "was" : "were");
	if (!ftc_import_end_line(imp, d))
		fprintf(stderr, "ftc import: %s: the dump at line %lu has no closing line: the "
			"log ends first (cut short?); imported what it holds\n", name,
			ftc_import_first_line(imp, d));
}

static void summary(const struct import *o, const struct ftc_import *imp, int d)
{
	int n = ftc_import_ndumps(imp);
	size_t un = ftc_import_unresolved(imp);

	printf("%s: dump %d of %d (log lines %lu-%lu): %zu records written to %s\n",
	       strcmp(o->log, "-") ? o->log : "standard input", d + 1, n,
	       ftc_import_first_line(imp, d), ftc_import_end_line(imp, d),
	       ftc_import_records(imp, d), o->output);
	if (n > 1 && !o->dump)
		printf("the log holds %d dumps: this is the last; --dump N imports another\n", n);
	if (un)
		printf("%zu function line%s kept as text: %s\n", un, un == 1 ? "" : "s",
		       o->kallsyms ? "names not in --kallsyms" :
		       "give --kallsyms FILE for function records");
}

static int import_log(struct import *o)
{
	struct ftc_import *imp;
	size_t len;
	char *log = slurp(o->log, &len, "log");
	int d, status = FTC_EXIT_FAIL;

	if (!log)
		return FTC_EXIT_FAIL;
	imp = ftc_import_parse(log, len);
	free(log);
	if (!imp) {
		cmd_error(&cmd_import, "%s: %s", o->log, ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	if (!ftc_import_ndumps(imp)) {
		cmd_error(&cmd_import, "%s: no ftrace dump found (no 'Dumping ftrace buffer:' line): "
			  "was ftrace_dump_on_oops set ('ftc oops-dump on') when the kernel "
			  "oopsed?", o->log);
		goto out;
	}
	if (o->dump > (unsigned long)ftc_import_ndumps(imp)) {
		cmd_error(&cmd_import, "--dump %lu: %s holds %d dump%s", o->dump, o->log,
			  ftc_import_ndumps(imp), ftc_import_ndumps(imp) == 1 ? "" : "s");
		status = FTC_EXIT_USAGE;
		goto out;
	}
	d = o->dump ? (int)o->dump - 1 : ftc_import_ndumps(imp) - 1;
	if (o->kallsyms && load_kallsyms(imp, o->kallsyms) < 0)
		goto out;
	report_problems(o, imp, d);
	if (cmd_output_keep_old(&cmd_import, o->output) < 0)
		goto out;
	if (ftc_import_write(imp, d, o->output, o->version,
			     o->compression >= 0 ? o->compression :
			     o->version == 6 ? FTC_COMPRESS_NONE : FTC_COMPRESS_ZSTD) < 0) {
		cmd_error(&cmd_import, "%s", ftc_strerror());
		goto out;
	}
	if (!o->quiet)
		summary(o, imp, d);
	status = FTC_EXIT_OK;
out:
	ftc_import_free(imp);
	return status;
}

static int import_run(int argc, char **argv)
{
	struct import o = { .output = "trace.dat", .version = 7, .compression = -1 };
	int ret = cmd_options_parse(&cmd_import, argc, argv, import_opt, &o);

	if (ret < 0)
		return cmd_options_exit(ret);
	if (ret == argc) {
		cmd_error(&cmd_import, "name the log to read ('-' for standard input; see "
			  "'ftc import --help')");
		return FTC_EXIT_USAGE;
	}
	if (ret != argc - 1) {
		cmd_error(&cmd_import, "one log at a time: '%s' is one too many", argv[ret + 1]);
		return FTC_EXIT_USAGE;
	}
	if (o.version == 6 && o.compression > FTC_COMPRESS_NONE) {
		cmd_error(&cmd_import, "--file-version 6 has no compression: leave --compression "
			  "out, or write version 7");
		return FTC_EXIT_USAGE;
	}
	o.log = argv[ret];
	return import_log(&o);
}
