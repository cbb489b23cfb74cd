// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The print-format compiler's switches: see format-env.h. The figures are
 * the reader's (its formats pass the compiler on), so the last format
 * freed prints them all, as "ftc format: ..." lines that
 * tests/interop/report-compiled.sh and bench/report.sh read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format-env.h"
#include "ftc-format.h"

static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

unsigned int format_env_flags(void)
{
	return env_on("FTC_FORMAT_TEP") ? FTC_FMT_NO_COMPILE : 0;
}

bool format_env_stats(void)
{
	return env_on("FTC_FORMAT_STATS");
}

static void print_left(const char *event, unsigned long long records, const char *why,
		       void *arg)
{
	(void)arg;
	fprintf(stderr, "ftc format: %s: %llu records by libtraceevent: %s\n", event, records,
		why);
}

void format_env_free(struct ftc_format *f)
{
	struct ftc_format_stats st = FTC_OPTS_INIT(ftc_format_stats);

	if (f && format_env_stats() && ftc_format_stats(f, &st, print_left, NULL) == 1)
		fprintf(stderr, "ftc format: %u events compiled, %u left to libtraceevent; "
			"%llu records compiled, %llu by libtraceevent\n", st.events_compiled,
			st.events_left, st.records_compiled, st.records_left);
	ftc_format_free(f);
}
