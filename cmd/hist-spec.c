// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc hist's trigger text: the command line's lists handed to libftc
 * (ftc_hist_compose), which checks them against the event's format and
 * composes the text; a mistake in one of them is named by its option.
 */
#include <stdio.h>
#include <string.h>

#include "hist.h"
#include "options.h"
#include "ftc.h"
#include "ftc-control.h"

int hist_spec_add(const char **list, int *n, char *value)
{
	for (char *p = value, *comma; ; p = comma + 1) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p)
			return cmd_bad_value("an empty item: give NAME[,NAME...]");
		if (*n >= HIST_MAX_ITEMS)
			return cmd_bad_value("more than %d items in all", HIST_MAX_ITEMS);
		list[(*n)++] = p;
		if (!comma)
			return 0;
	}
}

/* "ftc hist: --key 'VALUE': why", as an option handler's mistakes read. */
static void print_mistake(const struct hist_spec *s, const struct ftc_hist_fault *f)
{
	const char *opt = "--sort";
	const char *const *list = s->sort;
	char q[256];

	if (f->list == FTC_HIST_KEYS) {
		opt = "--key";
		list = s->keys;
	} else if (f->list == FTC_HIST_VALUES) {
		opt = "--value";
		list = s->vals;
	}
	cmd_quote(q, sizeof(q), list[f->index]);
	fprintf(stderr, "ftc hist: %s '%s': %s\n", opt, q, ftc_strerror());
}

int hist_spec_build(const struct hist_spec *s, char **start, char **pause, int *status)
{
	struct ftc_hist_opts o = FTC_OPTS_INIT(ftc_hist_opts,
		.keys = s->keys, .nkeys = (size_t)s->nkeys,
		.values = s->vals, .nvalues = (size_t)s->nvals,
		.sort = s->sort, .nsort = (size_t)s->nsort,
		.entries = s->size, .filter = s->filter);
	struct ftc_hist_fault fault;

	*status = FTC_EXIT_FAIL;
	if (ftc_hist_compose(s->system, s->event, &o, start, pause, &fault) == 0)
		return 0;
	if (fault.list == FTC_HIST_NONE) {
		fprintf(stderr, "ftc hist: %s\n", ftc_strerror());
		return -1;
	}
	print_mistake(s, &fault);
	*status = FTC_EXIT_USAGE;
	return -1;
}
