// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the one number-list parser (ftc_list_parse, libftc/base/
 * list.c), which CPU lists of tracefs, perf and the command line and pid
 * lists all go through, and of ftc_task_comm, the one reader of
 * /proc/PID/comm.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"

static char seen[256];

static int note(unsigned long first, unsigned long last, void *ctx)
{
	size_t len = strlen(seen);

	snprintf(seen + len, sizeof(seen) - len, "[%lu-%lu]", first, last);
	return ctx && first == 7 ? -1 : 0;
}

static bool parses(const char *list, unsigned long max, unsigned int flags, const char *want)
{
	seen[0] = '\0';
	if (ftc_list_parse(list, max, flags, note, NULL) < 0)
		return want == NULL && errno == EINVAL;
	return want && !strcmp(seen, want);
}

int main(void)
{
	const unsigned int all = FTC_LIST_MANY | FTC_LIST_RANGES;
	char comm[64];

	CHECK("one number", parses("3", 10, 0, "[3-3]"));
	CHECK("a list, in order", parses("1,42,7", 100, FTC_LIST_MANY, "[1-1][42-42][7-7]"));
	CHECK("a list where one is wanted", parses("1,2", 100, 0, NULL));
	CHECK("ranges", parses("0-1,3", 10, all, "[0-1][3-3]"));
	CHECK("a range where none is allowed", parses("0-1", 10, FTC_LIST_MANY, NULL));
	CHECK("a reversed range", parses("3-1", 10, all, NULL));
	CHECK("above the most", parses("11", 10, all, NULL) && parses("0-11", 10, all, NULL));
	CHECK("the most itself", parses("10", 10, all, "[10-10]"));
	CHECK("a sign", parses("-1", 10, all, NULL) && parses("+1", 10, all, NULL));
	CHECK("a blank", parses(" 1", 10, all, NULL) && parses("1 ", 10, all, NULL));
	CHECK("an empty item", parses("1,", 10, all, NULL) && parses(",1", 10, all, NULL) &&
	      parses("1,,2", 10, all, NULL));
	CHECK("nothing", parses("", 10, all, NULL));
	CHECK("hex is not decimal", parses("0x3", 10, all, NULL));
	CHECK("a number past unsigned long", parses("99999999999999999999999", ~0UL, all, NULL));
	CHECK("only checked", ftc_list_parse("0-3", 3, all, NULL, NULL) == 0);
	seen[0] = '\0';
	errno = 0;
	CHECK("the callback's failure stops the walk",
	      ftc_list_parse("1,7,9", 10, all, note, seen) < 0 && !strcmp(seen, "[1-1][7-7]"));

	CHECK("this task's name", ftc_task_comm(getpid(), comm, sizeof(comm)) == 0 &&
	      !strcmp(comm, "test-list"));
	CHECK("cut to the buffer", ftc_task_comm(getpid(), comm, 5) == 0 && !strcmp(comm, "test"));
	CHECK("a task that is gone", ftc_task_comm(999999999, comm, sizeof(comm)) == -ENOENT &&
	      comm[0] == '\0');
	return CHECK_DONE();
}
