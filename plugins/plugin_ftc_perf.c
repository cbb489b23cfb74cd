// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc's own perf records (system ftc_perf, written by ftc record --sample)
 * with symbols, for trace-cmd report and other libtraceevent readers:
 *   sample: ip=0xffffffff813a2313 finish_task_switch.isra.0+0x93 [k] tid=10469 period=250000
 * The text is libftc's (symbols/perf-print.c), the one ftc report prints with
 * its own handler, which it sets after the plugins load. Counter readings
 * need no plugin: their format prints the counter's name.
 */
#include <stdlib.h>

#include "ftc-plugin.h"
#include "perf-print.h"

struct ctx {
	struct ftc_perf_print print;
	int refs;
	struct ctx *next;
};

static struct ctx *ctxs;

static struct ctx **find_ctx(struct tep_handle *tep)
{
	struct ctx **p = &ctxs;

	while (*p && (*p)->print.tep != tep)
		p = &(*p)->next;
	return p;
}

FTC_PLUGIN_EXPORT int FTC_PLUGIN_LOAD(perf)(struct tep_handle *tep)
{
	struct ctx *c = *find_ctx(tep);

	if (c) {
		c->refs++;
		return 0;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -1;
	c->print.tep = tep;
	c->refs = 1;
	c->next = ctxs;
	ctxs = c;
	tep_register_event_handler(tep, -1, "ftc_perf", "sample", ftc_perf_print_sample,
				   &c->print);
	tep_register_event_handler(tep, -1, "ftc_perf", "mmap", ftc_perf_print_mmap, &c->print);
	return 0;
}

FTC_PLUGIN_EXPORT int FTC_PLUGIN_UNLOAD(perf)(struct tep_handle *tep)
{
	struct ctx **p = find_ctx(tep), *c = *p;

	if (!c || --c->refs > 0)
		return 0;
	*p = c->next;
	tep_unregister_event_handler(tep, -1, "ftc_perf", "sample", ftc_perf_print_sample,
				     &c->print);
	tep_unregister_event_handler(tep, -1, "ftc_perf", "mmap", ftc_perf_print_mmap,
				     &c->print);
	ftc_perf_print_release(&c->print);
	free(c);
	return 0;
}
