// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The filter checks (libftc/base/filter-expr.c, filter-kernel.c) without a
 * file: the text handed to libtraceevent (SYSTEM:EVENT as SYSTEM/EVENT,
 * negated groups by De Morgan), and the status and caret column of what
 * they refuse. tests/host/report-filter.sh runs them through ftc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ftc-filter.h"

/* sched_switch's fields, and a pointer. */
static enum ftc_filter_type field(void *ctx, const char *name)
{
	if (!strcmp(name, "prev_comm") || !strcmp(name, "next_comm") || !strcmp(name, "COMM"))
		return FTC_FILTER_STR;
	if (!strcmp(name, "prev_pid") || !strcmp(name, "next_pid") || !strcmp(name, "prev_prio") ||
	    !strcmp(name, "CPU"))
		return FTC_FILTER_NUM;
	if (!strcmp(name, "prev_state") || !strcmp(name, "call_site"))
		return FTC_FILTER_SYM;
	return FTC_FILTER_UNKNOWN;
}

/* The libtraceevent text of a good filter, or "!S@C" for status S, column C. */
static char *result(const char *text)
{
	struct ftc_filter_head h;
	struct ftc_filter_error err = { 0 };
	char *out;

	if (ftc_filter_split(text, &h, &err) < 0 || ftc_filter_check(text, &h, field, NULL, &err) < 0) {
		ftc_filter_head_free(&h);
		if (asprintf(&out, "!%d@%zu", err.status, err.pos) < 0)
			return NULL;
		return out;
	}
	out = ftc_filter_tep_text(text, &h);
	ftc_filter_head_free(&h);
	return out;
}

static void expect(const char *name, const char *text, const char *want)
{
	char *got = result(text);

	CHECK_STR(name, got, want);
	free(got);
}

static void expect_kernel(const char *name, const char *text, int want_pos)
{
	struct ftc_filter_error err = { 0 };
	int ret = ftc_filter_check_kernel(text, &err);

	CHECK(name, want_pos < 0 ? ret == 0 : ret < 0 && err.pos == (size_t)want_pos && err.status == 2);
}

int main(void)
{
	expect("a comparison is passed on as typed", "sched_switch: prev_pid==0",
	       "sched_switch:prev_pid==0");
	expect("SYSTEM:EVENT becomes SYSTEM/EVENT", "sched:sched_switch: prev_pid != 0",
	       "sched/sched_switch:prev_pid != 0");
	expect("a list of names", " sched:sched_switch , sched_wakeup : prev_pid > 1",
	       "sched/sched_switch,sched_wakeup:prev_pid > 1");
	expect("an event list alone", "sched_switch", "sched_switch");
	expect("'!' before a comparison stays", "sched_switch: !prev_pid == 0",
	       "sched_switch:!prev_pid == 0");
	expect("a negated group: De Morgan", "sched_switch: !(prev_pid == 0 && next_pid == 1 || prev_state & 2)",
	       "sched_switch:(!prev_pid == 0 || !next_pid == 1 && !prev_state & 2)");
	expect("two negations cancel", "sched_switch: !!(prev_pid == 0)", "sched_switch:(prev_pid == 0)");
	expect("a ':' in a string", "sched_switch: prev_comm == \"a:b\"",
	       "sched_switch:prev_comm == \"a:b\"");
	expect("a pointer compares with a symbol", "kmalloc: call_site == \"kfree\"",
	       "kmalloc:call_site == \"kfree\"");
	expect("a comparison without its value", "sched_switch: prev_pid ==", "!2@25");
	expect("&& without its right side", "sched_switch: prev_pid == 0 &&", "!2@30");
	expect("a misspelt field is 3, after the syntax", "sched_switch: nosuch == 1", "!3@14");
	expect("a half-typed filter is 2 before a misspelt field", "sched_switch: nosuch ==", "!2@23");
	expect("a string for a number", "sched_switch: prev_pid == \"1\"", "!2@26");
	expect("a number for a string", "sched_switch: prev_comm == 1", "!2@27");
	expect("a division by a field", "sched_switch: prev_pid / next_pid", "!2@25");
	expect("a quote after a backslash", "sched_switch: prev_comm == \"a\\\"\"", "!2@29");
	expect("a ',' in a string", "sched_switch: prev_comm == \"a,b\"", "!2@29");
	expect("two separators", "a/b:c: x == 1", "!2@3");
	expect("an empty name in the list", "sched_switch,: x == 1", "!2@13");
	expect("a control byte", "sched_switch: prev_pid == 1\x01", "!2@27");

	expect_kernel("kernel: a glob and a negated group", "!(prev_comm ~ \"ba*\") && prev_pid == -1", -1);
	expect_kernel("kernel: 0 clears a filter", " 0 ", -1);
	expect_kernel("kernel: CPUS{} and .function", "cpumask & CPUS{0-3} || call_site.function == kfree", -1);
	expect_kernel("kernel: && without its right side", "prev_pid == 0 &&", 16);
	expect_kernel("kernel: a field alone", "prev_pid", 8);
	expect_kernel("kernel: an unclosed string", "prev_comm == \"ab", 13);
	expect_kernel("kernel: empty", "  ", 2);
	return check_failures ? 1 : 0;
}
