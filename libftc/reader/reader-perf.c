// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The reader's side of printing ftc_perf samples with symbols (the text is
 * made in symbols/perf-print.c): kallsyms loaded from the file on first use,
 * the handlers set once the ftc_perf formats are parsed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <linux/perf_event.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "perf-print.h"
#include "reader.h"

struct ftc_reader_perf {
	struct ftc_perf_print print;
};

static void need_kallsyms(void *arg)
{
	struct ftc_reader *r = arg;

	if (r->kallsyms_state == 0)
		ftc_load_kallsyms(r);
}

int ftc_reader_perf_init(struct ftc_reader *r)
{
	struct ftc_reader_perf *p = calloc(1, sizeof(*p));

	if (!p)
		return ftc_error(ENOMEM, "out of memory");
	p->print.tep = r->tep;
	p->print.need_kallsyms = need_kallsyms;
	p->print.arg = r;
	r->perf = p;
	return 0;
}

/*
 * Called once an event of system ftc_perf is parsed: a handler set on a
 * parsed event takes effect at once (pending ones, registered by name
 * before parsing, are not matched reliably by libtraceevent 1.7).
 */
void ftc_reader_perf_parsed(struct ftc_reader *r, const char *system)
{
	if (!r->perf || !r->tep || strcmp(system, FTC_PERF_FTRACE_SYSTEM))
		return;
	if (tep_find_event_by_name(r->tep, FTC_PERF_FTRACE_SYSTEM, "sample"))
		tep_register_event_handler(r->tep, -1, FTC_PERF_FTRACE_SYSTEM, "sample",
					   ftc_perf_print_sample, &r->perf->print);
	if (tep_find_event_by_name(r->tep, FTC_PERF_FTRACE_SYSTEM, "mmap"))
		tep_register_event_handler(r->tep, -1, FTC_PERF_FTRACE_SYSTEM, "mmap",
					   ftc_perf_print_mmap, &r->perf->print);
}

int ftc_reader_set_symfs(struct ftc_reader *r, const char *dir)
{
	if (!r->perf)
		return ftc_error(EINVAL, "this reader prints no perf samples");
	r->perf->print.symfs = dir && *dir ? dir : NULL;
	return 0;
}

void ftc_reader_perf_free(struct ftc_reader *r)
{
	struct ftc_reader_perf *p = r->perf;

	if (!p)
		return;
	ftc_perf_print_release(&p->print);
	free(p);
	r->perf = NULL;
}
