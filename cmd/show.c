// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc show: what the kernel has, as it says it: the trace buffer, the
 * snapshot, the live trace_pipe, or any one setting file. Reads only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control-opts.h"
#include "options.h"
#include "output.h"
#include "signals.h"
#include "ftc.h"
#include "ftc-control.h"

static const struct cmd_option show_options[] = {
	FTC_HELP_OPTION,
	{ 'B', "instance", "NAME", "the instance NAME instead of the top-level buffer", 'B' },
	{ 's', "snapshot", NULL, "show the snapshot buffer instead of trace", 's' },
	{ 'p', "pipe", NULL, "stream trace_pipe (consuming) until Ctrl-C", 'p' },
	{ 'c', "cpu", "CPU", "only this CPU's file (per_cpu/cpuN/trace, with -s or -p theirs)", 'c' },
	{ 'f', "file", NULL, "print the path of the file shown first", 'f' },
	{ 0 }
};

struct show_ctx {
	const char *instance;
	bool snapshot, pipe, print_path;
	long cpu;
};

static int show_opt(int id, const char *arg, void *arg_ctx)
{
	struct show_ctx *c = arg_ctx;
	char *end;

	switch (id) {
	case 'B': c->instance = arg; break;
	case 's': c->snapshot = true; break;
	case 'p': c->pipe = true; break;
	case 'f': c->print_path = true; break;
	case 'c':
		c->cpu = strtol(arg, &end, 10);
		if (*end || c->cpu < 0 || c->cpu >= 8192)
			return cmd_bad_value("not a CPU number");
		break;
	}
	return 0;
}

static int show_run(int argc, char **argv);

const struct command cmd_show = {
	.name = "show",
	.summary = "print the trace buffer, the snapshot, trace_pipe or one tracefs setting",
	.synopsis = "[-B NAME] [-f] [-s | -p] [-c CPU] | [-B NAME] [-f] FILE",
	.options = show_options,
	.run = show_run,
};

static int copy_out(int fd)
{
	char buf[65536];

	for (;;) {
		ssize_t n;

		/* a signal that arrives between reads interrupts nothing */
		if (cmd_signal_caught()) {
			errno = EINTR;
			return -1;
		}
		n = read(fd, buf, sizeof(buf));

		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR && !cmd_signal_caught())
				continue;
			return -1;
		}
		/* -2: standard output failed, which cmd_output_finish reports */
		if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n && cmd_output_failed())
			return -2;
		if (cmd_output_flush() < 0)
			return -2;
	}
}

static int show_file(const struct show_ctx *c, const char *file)
{
	const char *instance = c->instance;
	bool snapshot = c->snapshot;
	char *path = ftc_tracefs_path(instance, file);
	int fd, ret, err;

	if (!path)
		return FTC_EXIT_FAIL;
	fd = ftc_tracefs_open(instance, file, O_RDONLY);
	if (fd < 0) {
		err = -fd;
		if (snapshot && err == ENOENT)
			cmd_error(&cmd_show, "%s: absent: this kernel has no snapshot buffer (CONFIG_TRACER_SNAPSHOT is off); run `ftc check`",
				  file);
		else
			cmd_error(&cmd_show, "%s: %s%s", path, strerror(err),
				  err == ENOENT ? " (name a file of the instance, e.g. trace_clock)" : "");
		free(path);
		return control_exit_status(err);
	}
	if (c->print_path)
		printf("%s\n", path);
	ret = copy_out(fd);
	err = errno;
	close(fd);
	if (ret < 0 && cmd_signal_caught()) {
		free(path);
		/* Ctrl-C is how a pipe is meant to end (ftc(1), EXIT STATUS) */
		return c->pipe ? FTC_EXIT_OK : FTC_EXIT_INTERRUPTED;
	}
	if (ret < 0) {
		if (ret == -1)
			cmd_error(&cmd_show, "%s: %s", path, strerror(err));
		free(path);
		return FTC_EXIT_FAIL;
	}
	free(path);
	return FTC_EXIT_OK;
}

static int check_args(struct show_ctx *c, int argc, char **argv, int first)
{
	if (c->snapshot && c->pipe) {
		cmd_error(&cmd_show, "-s and -p exclude each other (as in trace-cmd show): give one");
		return -1;
	}
	if (first < argc && (c->snapshot || c->pipe || c->cpu >= 0)) {
		cmd_error(&cmd_show, "FILE '%s' excludes -s, -p and -c: give one", argv[first]);
		return -1;
	}
	if (argc - first > 1) {
		cmd_error(&cmd_show, "one FILE at a time ('%s' is extra)", argv[first + 1]);
		return -1;
	}
	if (first < argc && (argv[first][0] == '/' || strstr(argv[first], ".."))) {
		cmd_error(&cmd_show, "FILE '%s': give a path inside the instance, such as trace_clock or events/sched/sched_switch/filter",
			  argv[first]);
		return -1;
	}
	return 0;
}

static int show_run(int argc, char **argv)
{
	struct show_ctx c = { .cpu = -1 };
	int first = cmd_options_parse(&cmd_show, argc, argv, show_opt, &c);
	char file[64];
	const char *name;

	if (first < 0)
		return cmd_options_exit(first);
	if (check_args(&c, argc, argv, first) < 0)
		return FTC_EXIT_USAGE;
	if (c.instance && !ftc_knob_exists(c.instance, "trace")) {
		cmd_error(&cmd_show, "instance '%s' does not exist (see `ftc list`)",
			  c.instance);
		return FTC_EXIT_REFUSED;
	}
	cmd_signals_catch();
	if (first < argc)
		return show_file(&c, argv[first]);
	name = c.snapshot ? "snapshot" : c.pipe ? "trace_pipe" : "trace";
	if (c.cpu >= 0) {
		snprintf(file, sizeof(file), "per_cpu/cpu%ld/%s", c.cpu, name);
		name = file;
	}
	return show_file(&c, name);
}
