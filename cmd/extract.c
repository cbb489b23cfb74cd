// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc extract: the flight-recorder path. After `ftc start` (and perhaps
 * a trigger that stopped tracing), write what the ring buffers hold now
 * into a trace.dat. Reads each CPU's raw pipe without blocking until it
 * is empty; changes no knob.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "output.h"
#include "opt-values.h"
#include "ftc.h"
#include "ftc-capture.h"
#include "ftc-writer.h"

enum {
	OPT_COMPRESSION = 2000,
	OPT_FILE_VERSION,
};

static const struct cmd_option extract_options[] = {
	FTC_HELP_OPTION,
	{ 'o', "output", "FILE", "write to FILE (default trace.dat)", 'o' },
	{ 'B', "instance", "NAME", "this instance's buffer instead of the top level (repeatable)",
	  'B' },
	{ 'a', "all", NULL, "every instance's buffer (the top level too with -t)", 'a' },
	{ 't', "top", NULL, "the top level's buffer too, with -B or -a", 't' },
	{ 'p', "tracer", "TRACER", "trace-cmd's latency-tracer text extract: refused, see ftc-extract(1)",
	  'p' },
	{ 's', "snapshot", NULL, "extract the snapshot buffer instead of the live one", 's' },
	{ 'q', "quiet", NULL, "no summary", 'q' },
	{ 0, "compression", "ALG", "zstd (default), zlib or none", OPT_COMPRESSION },
	{ 0, "file-version", "N", "trace.dat version 7 (default) or 6", OPT_FILE_VERSION },
	{ 0 }
};

/* -B NAMEs point into argv; a fixed array of them is plenty. */
#define EXTRACT_MAX_BUFS 64

struct extract {
	const char *output;
	const char *instances[EXTRACT_MAX_BUFS + 1];	/* and the top level (NULL) */
	int n;
	bool snapshot, quiet, all, top;
	char **all_names;	/* -a: ftc_info_instances(), freed at the end */
	int compression, version;
};

static int add_instance(struct extract *x, const char *name)
{
	for (int i = 0; i < x->n; i++)
		if (!strcmp(x->instances[i], name)) {
			fprintf(stderr, "ftc extract: -B '%s' is given twice: give each instance once\n",
				name);
			return -1;
		}
	if (x->n == EXTRACT_MAX_BUFS) {
		fprintf(stderr, "ftc extract: -B '%s': at most %d instances per file\n", name,
			EXTRACT_MAX_BUFS);
		return -1;
	}
	x->instances[x->n++] = name;
	return 0;
}

static int extract_opt(int id, const char *arg, void *ctx)
{
	struct extract *x = ctx;

	switch (id) {
	case 'o': x->output = arg; return cmd_output_no_stdout(arg);
	case 'B': return add_instance(x, arg);
	case 'a': x->all = true; break;
	case 't': x->top = true; break;
	case 'p':
		return cmd_bad_value("ftc stores the ring buffers' binary pages, not a latency "
				     "tracer's text: read that with `ftc show`, or `ftc extract -s` "
				     "for the max-latency (snapshot) buffer");
	case 's': x->snapshot = true; break;
	case 'q': x->quiet = true; break;
	case OPT_COMPRESSION:
		return cmd_opt_compression(arg, &x->compression);
	case OPT_FILE_VERSION:
		return cmd_opt_file_version(arg, &x->version);
	}
	return 0;
}

static int extract_run(int argc, char **argv);

const struct command cmd_extract = {
	.name = "extract",
	.summary = "write what the ring buffers hold now into a trace.dat file",
	.synopsis = "[-s] [-B NAME]... [-a] [-t] [-o FILE]",
	.options = extract_options,
	.run = extract_run,
};

/* Pages of the slots of one instance ("" the top level), or of all (NULL). */
static uint64_t count_pages(struct ftc_capture *cap, const char *inst, uint64_t *lost)
{
	uint64_t pages = 0;

	for (int i = 0; i < ftc_capture_nslots(cap); i++) {
		struct ftc_capture_cpu_stats s = FTC_OPTS_INIT(ftc_capture_cpu_stats);

		if (ftc_capture_cpu_stats(cap, i, &s) < 0 || (inst && strcmp(inst, s.instance)))
			continue;
		pages += s.pages;
		if (lost)
			*lost += s.lost_pages;
	}
	return pages;
}

static void summary(struct extract *x, struct ftc_capture *cap, struct ftc_writer *w)
{
	uint64_t pages, lost = 0;

	for (int i = 0; x->n > 1 && i < x->n; i++)
		fprintf(stderr, "ftc extract: instance %s: %llu pages\n", x->instances[i],
			(unsigned long long)count_pages(cap, x->instances[i], NULL));
	pages = count_pages(cap, NULL, &lost);
	fprintf(stderr, "ftc extract: %llu pages (%.1f KB in the file) into %s%s\n",
		(unsigned long long)pages, (double)ftc_writer_data_bytes(w) / 1024, x->output,
		lost ? "; some pages say events were lost before them" : "");
}

/*
 * A persistent instance tracing in this boot puts this boot's records after
 * the previous boot's, whose clock it starts over: say so, once.
 */
static void warn_two_boots(const char *inst)
{
	char *on;

	if (!ftc_info_last_boot(inst, NULL))
		return;
	on = ftc_info_value(inst, "tracing_on");
	if (on && *on == '1')
		fprintf(stderr, "ftc extract: warning: instance %s holds the previous boot's "
			"records and traces this boot too: the file has both, each boot's clock "
			"from its own start (boot with ftc boot-args --no-tracing-on, or stop it "
			"first: ftc stop -B %s)\n", inst, inst);
	free(on);
}

/* Declares buffer i (instance i) in the writer and the capture. */
static int add_buffer(struct extract *x, int i, struct ftc_capture *cap, struct ftc_writer *w)
{
	const char *inst = x->instances[i];
	int *cpus = NULL, n, ret = -1;

	warn_two_boots(inst);
	n = ftc_capture_cpus(inst, &cpus);
	if (n == 0)
		ftc_error(EINVAL, "tracing_cpumask%s%s selects no CPU: nothing to extract",
			  inst ? " of instance " : "", inst ? inst : "");
	if (n > 0 && ftc_capture_add(cap, i, inst, n, cpus) == 0 &&
	    ftc_writer_add_buffer(w, inst, n, cpus) == i && ftc_writer_add_enabled(w, inst) == 0 &&
	    ftc_writer_add_last_boot(w, inst) >= 0)
		ret = 0;
	free(cpus);
	return ret;
}

static int extract(struct extract *x)
{
	struct ftc_capture *cap = NULL;
	struct ftc_writer *w = NULL;
	int ret = FTC_EXIT_FAIL, aside = 0;
	bool started = false;
	char old[PATH_MAX];

	/* Before the file is created: a missing instance leaves nothing behind. */
	for (int i = 0; i < x->n; i++)
		if (x->instances[i] && !ftc_info_instance_exists(x->instances[i])) {
			ftc_error(ENOENT, "instance '%s' does not exist (see `ftc list`)",
				  x->instances[i]);
			ret = FTC_EXIT_REFUSED;	/* as stop, show and snapshot */
			goto out;
		}
	aside = cmd_output_set_aside(&cmd_extract, x->output, ".old", old, sizeof(old));
	if (aside < 0)
		goto out_quiet;
	w = ftc_writer_create(x->output, x->version, (enum ftc_compression)x->compression);
	if (!w)
		goto out;
	cap = ftc_capture_new(w, 0);
	if (!cap)
		goto out;
	if (x->snapshot)
		ftc_capture_use_snapshot(cap);
	for (int i = 0; i < x->n; i++)
		if (add_buffer(x, i, cap, w) < 0)
			goto out;
	if (ftc_writer_start(w) < 0)
		goto out;
	started = true;
	if (ftc_capture_drain(cap) < 0) {
		cmd_error(&cmd_extract, "%s", ftc_strerror());
		ftc_writer_finish(w);	/* keep what was taken */
		goto out_quiet;
	}
	if (ftc_writer_finish(w) < 0)
		goto out;
	if (!x->quiet)
		summary(x, cap, w);
	ret = FTC_EXIT_OK;
	goto out_quiet;
out:
	cmd_error(&cmd_extract, "%s", ftc_strerror());
	if (errno == ENOENT && x->snapshot)
		ret = FTC_EXIT_REFUSED;
	if (w && !started)
		unlink(x->output);	/* no half-made file for a refused request */
	if (!started && aside > 0 && rename(old, x->output) == 0)
		aside = 0;	/* nor a previous file moved away for nothing */
out_quiet:
	if (aside > 0)
		cmd_output_kept_note(&cmd_extract, x->output, old);
	ftc_capture_free(cap);
	ftc_writer_free(w);
	return ret;
}

/* Buffer 0 is the top level (instances[0] NULL) when it is taken: nothing
 * named, or -t; then the -B instances in order, or with -a every one. */
static int choose_buffers(struct extract *x)
{
	int named = x->n;

	if (x->all) {
		x->all_names = ftc_info_instances();
		for (int i = 0; x->all_names && x->all_names[i]; i++)
			if (add_instance(x, x->all_names[i]) < 0)
				return -1;
		if (!x->n && !x->top) {
			cmd_error(&cmd_extract, "-a: there is no instance (see `ftc list -B`); "
				  "add -t for the top level");
			return -1;
		}
	}
	if (x->top || (!named && !x->all)) {
		memmove(x->instances + 1, x->instances, (size_t)x->n * sizeof(x->instances[0]));
		x->instances[0] = NULL;
		x->n++;
	}
	return 0;
}

static int extract_run(int argc, char **argv)
{
	struct extract x = { .output = "trace.dat", .version = 7,
			     .compression = FTC_COMPRESS_ZSTD };
	int ret = cmd_options_parse(&cmd_extract, argc, argv, extract_opt, &x);

	if (ret < 0)
		return cmd_options_exit(ret);
	if (ret < argc) {
		cmd_error(&cmd_extract, "unexpected argument '%s'", argv[ret]);
		return FTC_EXIT_USAGE;
	}
	if (x.version == 6)
		x.compression = FTC_COMPRESS_NONE;
	if (x.all && x.n) {
		cmd_error(&cmd_extract, "-a and -B exclude each other");
		return FTC_EXIT_USAGE;
	}
	if (choose_buffers(&x) < 0)
		ret = FTC_EXIT_REFUSED;	/* no instance to take: as a missing one */
	else
		ret = extract(&x);
	ftc_list_free(x.all_names);
	return ret;
}
