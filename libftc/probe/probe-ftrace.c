// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Probes of the function tracers and their filter files. Switching a tracer
 * is only tried in the private instance, narrowed to one function first so
 * that the kernel patches one call site, not all of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "probe.h"

static bool tracer_listed(const char *instance, const char *tracer, int *err)
{
	char *list = NULL;
	bool ret;

	*err = -ftc_probe_file_read(instance, "available_tracers", 4096, &list);
	ret = !*err && ftc_probe_word_in(list, tracer);
	free(list);
	return ret;
}

static int tracer_try(struct ftc_probe *p, const char *s, const char *tracer)
{
	const char *f = ftc_probe_func(p);
	bool narrowed = f && ftc_probe_file_write(s, "set_ftrace_filter", f, false) == 0;
	int ret = ftc_probe_file_write(s, "current_tracer", tracer, false);

	ftc_probe_file_write(s, "current_tracer", "nop", false);
	if (narrowed)
		ftc_probe_file_write(s, "set_ftrace_filter", "", false);
	return ret;
}

/* A tracer only the top level has (function_graph before 6.x instances). */
static int tracer_top_only(struct ftc_probe *p, struct ftc_cap *cap, const char *tracer)
{
	const struct ftc_cap *fn;
	char *cur = NULL;

	if (ftc_probe_file_read(p->instance, "current_tracer", 256, &cur) == 0 &&
	    ftc_probe_word_in(cur, tracer)) {
		free(cur);
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "current_tracer is %s", tracer);
	}
	free(cur);
	if (!strcmp(tracer, "function"))
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "listed in available_tracers (not "
				   "write-tested: no private instance that has it)");
	/* The graph tracer rides on the function tracer's call sites and rights. */
	fn = ftc_probe_dep(p, FTC_CAP_TRACER_FUNCTION);
	if (fn->state != FTC_CAP_OK)
		return ftc_cap_set(cap, FTC_CAP_REFUSED, fn->err ? fn->err : EPERM,
				   "listed in available_tracers, but function is not usable: %s",
				   fn->why);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "listed in available_tracers; top level only, "
			   "so not switched; function: %s", fn->why);
}

int ftc_probe_tracer(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *tracer = ftc_cap_name(cap->id), *s;
	char w[300];
	int err, ret;

	if (!tracer_listed(p->instance, tracer, &err)) {
		if (err)
			return ftc_cap_from_errno(cap, err, "%savailable_tracers",
						  ftc_probe_where(p, w, sizeof(w)));
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "%savailable_tracers: no '%s' "
				   "(not built into this kernel)", ftc_probe_where(p, w, sizeof(w)),
				   tracer);
	}
	s = ftc_probe_scratch(p);
	if (s && p->unexpanded && tracer_listed(s, tracer, &err))
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "listed in available_tracers (not switched: "
				   "that would expand the kernel's trace buffers, not "
				   "expanded yet)");
	if (!s || !tracer_listed(s, tracer, &err))
		return tracer_top_only(p, cap, tracer);
	ret = tracer_try(p, s, tracer);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "current_tracer: writing '%s' in a private "
					  "instance", tracer);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "current_tracer: '%s' set and reset in a private "
			   "instance", tracer);
}

/* What a write test writes into each filter file. */
static const char *test_value(struct ftc_probe *p, const char *file, char *buf, size_t size)
{
	if (!strcmp(file, "set_ftrace_pid")) {
		snprintf(buf, size, "%d", (int)getpid());
		return buf;
	}
	return ftc_probe_func(p);
}

int ftc_probe_ftrace_file(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *file = ftc_cap_name(cap->id), *s, *val;
	char w[300], num[32], *buf = NULL;
	int ret;

	if (!ftc_probe_file_exists(p->instance, file))
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "%s%s: no such file%s",
				   ftc_probe_where(p, w, sizeof(w)), file,
				   cap->id == FTC_CAP_GRAPH_FUNCTION ? " (no function_graph tracer)"
								 : " (no dynamic ftrace)");
	ret = ftc_probe_file_read(p->instance, file, 4096, &buf);
	free(buf);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%s%s: reading",
					  ftc_probe_where(p, w, sizeof(w)), file);
	s = ftc_probe_scratch(p);
	val = test_value(p, file, num, sizeof(num));
	if (!s || !ftc_probe_file_exists(s, file) || !val) {
		/* Opening without O_TRUNC and writing nothing keeps the filter. */
		ret = ftc_probe_file_open_write(p->instance, file);
		if (ret < 0)
			return ftc_cap_from_errno(cap, -ret, "%s%s: opening for writing",
						  ftc_probe_where(p, w, sizeof(w)), file);
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "%s%s: readable and opens for writing",
				   ftc_probe_where(p, w, sizeof(w)), file);
	}
	ret = ftc_probe_file_write(s, file, val, false);
	ftc_probe_file_write(s, file, "", false);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%s: writing '%s' in a private instance",
					  file, val);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "%s: '%s' set and cleared in a private instance",
			   file, val);
}

int ftc_probe_filter_functions(struct ftc_probe *p, struct ftc_cap *cap)
{
	char *buf = NULL;
	int ret;

	if (!ftc_probe_file_exists(NULL, "available_filter_functions"))
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT,
				   "available_filter_functions: no such file (no dynamic ftrace)");
	ret = ftc_probe_file_read(NULL, "available_filter_functions", 4096, &buf);
	free(buf);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "available_filter_functions: reading");
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "available_filter_functions readable");
}

int ftc_probe_function_triggers(struct ftc_probe *p, struct ftc_cap *cap)
{
	const struct ftc_cap *ff = ftc_probe_dep(p, FTC_CAP_FTRACE_FILTER);
	const char *s, *f;
	char on[300], off[310];
	int ret;

	if (ff->state != FTC_CAP_OK)
		return ftc_cap_set(cap, ff->state, ff->err, "they are written to %s", ff->why);
	s = ftc_probe_scratch(p);
	f = ftc_probe_func(p);
	if (!s || !f || !ftc_probe_file_exists(s, "set_ftrace_filter"))
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "set_ftrace_filter is writable (not "
				   "write-tested: no private instance or no function)");
	snprintf(on, sizeof(on), "%s:traceoff", f);
	snprintf(off, sizeof(off), "!%s:traceoff", f);
	ret = ftc_probe_file_write(s, "set_ftrace_filter", on, true);
	if (ret == 0)
		ret = ftc_probe_file_write(s, "set_ftrace_filter", off, true);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "set_ftrace_filter: writing '%s' in a private "
					  "instance", on);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "set_ftrace_filter: '%s' set and removed in a "
			   "private instance", on);
}
