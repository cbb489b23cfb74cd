// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The REGEX of ftc list -e and -f means what it means to trace-cmd list:
 * a POSIX basic regular expression, case-insensitive, found anywhere in
 * the name ("sched_s" matches sched_switch; "^vfs_read$" only vfs_read).
 * For events, a colon splits it into a system part and an event part,
 * each matched on its own: "sched:switch$" is sched's events that end in
 * switch; "irq:" is every event of the systems that match irq; without a
 * colon, an event is listed when its system matches (all of the system's
 * events) or its own name does. For functions it is matched against the
 * line of available_filter_functions, " [module]" included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list-re.h"

static int compile(regex_t *re, const char *text, char *why, size_t size)
{
	int err = regcomp(re, text, REG_ICASE | REG_NOSUB);

	if (!err)
		return 0;
	regerror(err, re, why, size);
	return -1;
}

int list_re_compile(struct list_re *r, const char *pattern, bool events,
		    char *why, size_t size)
{
	char *copy, *sys, *colon;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	if (events && pattern)
		pattern += strspn(pattern, ":");	/* ":sched" is "sched", as trace-cmd has it */
	if (!pattern || !*pattern) {
		r->all = true;
		return 0;
	}
	copy = strdup(pattern);
	if (!copy) {
		snprintf(why, size, "out of memory");
		return -1;
	}
	sys = copy;
	colon = events ? strchr(copy, ':') : NULL;
	if (colon) {
		*colon = '\0';
		r->just_systems = !colon[1];
		if (colon[1]) {
			if (compile(&r->ev, colon + 1, why, size) < 0)
				ret = -1;
			else
				r->have_ev = true;
		}
	}
	if (ret == 0 && compile(&r->sys, sys, why, size) < 0)
		ret = -1;
	else if (ret == 0)
		r->have_sys = true;
	free(copy);
	if (ret < 0)
		list_re_free(r);
	return ret;
}

static bool found(const regex_t *re, const char *s)
{
	return regexec(re, s, 0, NULL, 0) == 0;
}

bool list_re_event(const struct list_re *r, const char *system, const char *event)
{
	if (r->all)
		return true;
	if (found(&r->sys, system))
		return !r->have_ev || found(&r->ev, event);
	/* SYSTEM:EVENT and SYSTEM: name systems; a bare regex names either */
	return !r->have_ev && !r->just_systems && found(&r->sys, event);
}

bool list_re_line(const struct list_re *r, const char *line)
{
	return r->all || found(&r->sys, line);
}

void list_re_free(struct list_re *r)
{
	if (r->have_sys)
		regfree(&r->sys);
	if (r->have_ev)
		regfree(&r->ev);
	r->have_sys = r->have_ev = false;
}
