// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracer and its function filters. Globs and ":mod:" go to the kernel
 * as they are (it matches them itself); regular expressions are expanded
 * by libtracefs against available_filter_functions, since the kernel has
 * no regex matching.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "ftc.h"
#include "ftc-control.h"
#include "control.h"

int ftc_set_tracer(struct ftc_state *st, const char *instance, const char *tracer)
{
	char *avail;
	int ret;

	if (ftc_knob_read(instance, "available_tracers", &avail) < 0)
		return -1;
	if (!ftc_tracefs_word_in(avail, tracer)) {
		ret = ftc_error(ENOENT, "current_tracer: cannot write '%s': absent: this kernel's tracers are '%s'; run `ftc check`",
				tracer, avail);
		free(avail);
		return ret;
	}
	free(avail);
	return ftc_knob_write(st, instance, "current_tracer", tracer);
}

bool ftc_is_regex(const char *pattern)
{
	return strpbrk(pattern, "^$+()|\\{}") || strstr(pattern, ".*") ||
	       strstr(pattern, ".+");
}

struct regex_ctx {
	regex_t re;
	char *out;
	int err;
};

/* available_filter_functions lines are "name" or "name [module]". */
static int regex_line(const char *line, void *arg)
{
	struct regex_ctx *c = arg;
	char name[512];

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(line, " \t"), line);
	if (regexec(&c->re, name, 0, NULL, 0))
		return 0;
	return ftc_str_addline(&c->out, name);
}

/*
 * The functions a POSIX extended regex matches, one per line. (libtracefs
 * matches with basic regexes, where "(a|b)" is literal, so it is not used.)
 */
static int expand_regex(const char *instance, const char *file, const char *pattern,
			char **value)
{
	struct regex_ctx c = { .out = NULL };
	char *funcs, msg[128];
	int ret;

	ret = regcomp(&c.re, pattern, REG_EXTENDED | REG_NOSUB);
	if (ret) {
		regerror(ret, &c.re, msg, sizeof(msg));
		return ftc_error(EINVAL, "%s: cannot write regex '%s': %s", file, pattern, msg);
	}
	if (ftc_knob_read(NULL, "available_filter_functions", &funcs) < 0) {
		regfree(&c.re);
		return ftc_knob_fail(instance, "available_filter_functions", NULL, errno, NULL, true);
	}
	ret = ftc_lines_each(funcs, regex_line, &c);
	free(funcs);
	regfree(&c.re);
	if (ret < 0) {
		free(c.out);
		return -1;
	}
	if (!c.out)
		return ftc_error(ENOENT, "%s: regex '%s' matches no traceable function (see available_filter_functions)",
				 file, pattern);
	*value = c.out;
	return 0;
}

int ftc_set_functions(struct ftc_state *st, const char *instance, const char *file,
		      char *const *patterns, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *expanded = NULL;
		const char *value = patterns[i];
		int ret;

		if (!ftc_knob_exists(instance, file))
			return ftc_knob_fail(instance, file, value, ENOENT, NULL, false);
		if (ftc_is_regex(value) && !strstr(value, ":mod:")) {
			if (expand_regex(instance, file, value, &expanded) < 0)
				return -1;
			value = expanded;
		}
		/* the first pattern replaces what was there; the rest add to it */
		ret = i ? ftc_knob_append(st, instance, file, value)
			: ftc_knob_write(st, instance, file, value);
		free(expanded);
		if (ret < 0)
			return -1;
	}
	return 0;
}

static const char func_commands[] =
	"commands: traceon, traceoff, snapshot, stacktrace, enable_event:SYS:EVENT, "
	"disable_event:SYS:EVENT, dump, cpudump";

int ftc_func_trigger(struct ftc_state *st, const char *instance, const char *spec)
{
	const char *colon = strchr(spec, ':');
	const char *fn = *spec == '!' ? spec + 1 : spec;

	if (!colon || colon == fn || !colon[1] || !ftc_is_func_trigger(spec))
		return ftc_error(EINVAL, "function trigger '%s': use FUNC:COMMAND[:COUNT] or !FUNC:COMMAND; %s",
				 spec, func_commands);
	if (!ftc_knob_exists(instance, "set_ftrace_filter"))
		return ftc_knob_fail(instance, "set_ftrace_filter", spec, ENOENT, NULL, false);
	return ftc_knob_append(st, instance, "set_ftrace_filter", spec);
}
