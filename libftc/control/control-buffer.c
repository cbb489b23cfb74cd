// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ring buffer's knobs: clock, sizes, CPU mask, trace options, PID
 * filters, and emptying it. Values are checked against what this kernel
 * offers first, so a typo is named as such rather than as a bare EINVAL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-control.h"
#include "control.h"

int ftc_set_clock(struct ftc_state *st, const char *instance, const char *clock)
{
	char *clocks;
	int ret;

	if (ftc_knob_read(instance, "trace_clock", &clocks) < 0)
		return -1;
	if (!ftc_tracefs_word_in(clocks, clock)) {
		ret = ftc_error(EINVAL, "trace_clock: cannot write '%s': not a clock of this kernel (it offers: %s)",
				clock, clocks);
		free(clocks);
		return ret;
	}
	free(clocks);
	return ftc_knob_write(st, instance, "trace_clock", clock);
}

static int write_number(struct ftc_state *st, const char *instance, const char *file,
			unsigned long long n)
{
	char value[32];

	if (!ftc_knob_exists(instance, file))
		return ftc_knob_fail(instance, file, "", ENOENT, NULL, false);
	snprintf(value, sizeof(value), "%llu", n);
	return ftc_knob_write(st, instance, file, value);
}

int ftc_set_buffer_kb(struct ftc_state *st, const char *instance, unsigned long long kb)
{
	if (!kb)
		return ftc_error(EINVAL, "buffer_size_kb: cannot write '0': give a size in KB per CPU");
	return write_number(st, instance, "buffer_size_kb", kb);
}

int ftc_set_subbuf_kb(struct ftc_state *st, const char *instance, unsigned long long kb)
{
	/* the kernel takes powers of two from the page size up */
	if (!kb || (kb & (kb - 1)))
		return ftc_error(EINVAL, "buffer_subbuf_size_kb: cannot write '%llu': use a power of two (4, 8, 16, ...)",
				 kb);
	return write_number(st, instance, "buffer_subbuf_size_kb", kb);
}

int ftc_set_cmdlines_size(struct ftc_state *st, unsigned long long n)
{
	if (!n)
		return ftc_error(EINVAL, "saved_cmdlines_size: cannot write '0': give the number of task names to keep");
	return write_number(st, NULL, "saved_cmdlines_size", n);
}

int ftc_set_max_graph_depth(struct ftc_state *st, const char *instance, unsigned long long depth)
{
	return write_number(st, instance, "max_graph_depth", depth);
}

int ftc_set_cpumask(struct ftc_state *st, const char *instance, const char *mask)
{
	if (!*mask || strspn(mask, "0123456789abcdefABCDEF,") != strlen(mask))
		return ftc_error(EINVAL, "tracing_cpumask: cannot write '%s': give a hex CPU mask such as 3 (CPUs 0 and 1)",
				 mask);
	return ftc_knob_write(st, instance, "tracing_cpumask", mask);
}

int ftc_set_option(struct ftc_state *st, const char *instance, const char *option)
{
	bool off = !strncmp(option, "no", 2);
	char file[256];

	/* "noOPT" clears OPT, unless an option is really called "no..." */
	snprintf(file, sizeof(file), "options/%s", option);
	if (off && ftc_knob_exists(instance, file))
		off = false;
	snprintf(file, sizeof(file), "options/%s", off ? option + 2 : option);
	if (!ftc_knob_exists(instance, file))
		return ftc_error(ENOENT, "%s: absent: this kernel (or this instance) has no trace option '%s' (see `ftc list`)",
				 file, off ? option + 2 : option);
	return ftc_knob_write(st, instance, file, off ? "0" : "1");
}

int ftc_set_pids(struct ftc_state *st, const char *instance, const char *file,
		 char *const *pids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = pids[i];
		int ret;

		if (!*p || strspn(p, "0123456789") != strlen(p))
			return ftc_error(EINVAL, "%s: cannot write '%s': not a PID", file, p);
		if (!ftc_knob_exists(instance, file))
			return ftc_knob_fail(instance, file, p, ENOENT, NULL, false);
		ret = i ? ftc_knob_append(st, instance, file, p)
			: ftc_knob_write(st, instance, file, p);
		if (ret < 0)
			return -1;
	}
	return 0;
}

static int notrace_pids(struct ftc_state *st, const char *instance, const char *file,
			const pid_t *tids, size_t n)
{
	char **v = calloc(n, sizeof(*v));
	int ret = 0;

	if (!v)
		ret = ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; !ret && i < n; i++)
		if (asprintf(&v[i], "%d", (int)tids[i]) < 0) {
			v[i] = NULL;
			ret = ftc_error(ENOMEM, "out of memory");
		}
	if (!ret)
		ret = ftc_set_pids(st, instance, file, v, n);
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
	return ret;
}

int ftc_exclude_self(struct ftc_state *st, const char *instance, const pid_t *threads,
		     size_t n)
{
	pid_t *tids = calloc(n + 2, sizeof(*tids));
	size_t k = 0;
	int ret = 0;

	if (!tids)
		return ftc_error(ENOMEM, "out of memory");
	tids[k++] = getpid();
	/* the guardian wakes only to restore, after the capture */
	if (ftc_state_guardian(st))
		tids[k++] = ftc_state_guardian(st);
	for (size_t i = 0; i < n; i++)
		if (threads[i] > 0)
			tids[k++] = threads[i];
	if (ftc_knob_exists(instance, "set_event_notrace_pid"))
		ret = notrace_pids(st, instance, "set_event_notrace_pid", tids, k);
	/*
	 * The function tracers' filter is another file: with -g do_sys_openat2,
	 * ftc's own reads of /proc/PID/comm came out as graphs. A kernel that
	 * refuses function tracing may refuse it too, and then nothing is lost.
	 */
	if (!ret && ftc_knob_exists(instance, "set_ftrace_notrace_pid"))
		notrace_pids(st, instance, "set_ftrace_notrace_pid", tids, k);
	free(tids);
	return ret;
}

int ftc_buffer_clear(const char *instance)
{
	/* opening trace with O_TRUNC empties every CPU's buffer */
	return ftc_knob_set(instance, "trace", "", false);
}
