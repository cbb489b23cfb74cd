// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a capture enabled (FTC_OPT_FTC_ENABLED, written by the writer as
 * the capture began): "not recorded" told from "did not happen".
 */
#include <stdbool.h>
#include <string.h>

#include "ftc.h"
#include "reader.h"

/* The line from p to the end of its line equals want. */
static bool line_is(const char *p, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(p, want, n) && (p[n] == '\n' || p[n] == '\0');
}

/* In one option's text (the buffer's name first): 1, 0, or -1 for another buffer (NULL: any). */
static int in_option(const char *text, const char *instance, const char *system,
		     const char *event)
{
	size_t ls = strlen(system);

	if (instance && !line_is(text, instance))
		return -1;
	for (const char *l = strchr(text, '\n'); l && *++l; l = strchr(l, '\n'))
		if (!strncmp(l, system, ls) && l[ls] == ':' && line_is(l + ls + 1, event))
			return 1;
	return 0;
}

int ftc_reader_event_enabled(struct ftc_reader *r, const char *instance, const char *system,
			     const char *event)
{
	int best = -1;

	for (int i = 0; i < r->noptions && best < 1; i++) {
		int ret;

		if (r->options[i].id != FTC_OPT_FTC_ENABLED)
			continue;
		ret = in_option((const char *)r->options[i].data, instance, system, event);
		if (instance && ret >= 0)
			return ret;
		best = ret > best ? ret : best;
	}
	return best;
}
