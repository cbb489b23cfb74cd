// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one parser of number lists ("3", "1,42", "0-1,3"): CPU lists of
 * tracefs, perf and the command line, and pid lists.
 */
#include <errno.h>
#include <stdlib.h>

#include "ftc.h"

/* A decimal number, no sign or blank (strtoul would take both), at most max. */
static const char *number(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return NULL;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || *v > max ? NULL : end;
}

int ftc_list_parse(const char *list, unsigned long max, unsigned int flags,
		   ftc_list_range_fn *range, void *ctx)
{
	const char *s = list;

	for (;;) {
		unsigned long a, b;

		s = number(s, max, &a);
		if (!s)
			break;
		b = a;
		if ((flags & FTC_LIST_RANGES) && *s == '-') {
			s = number(s + 1, max, &b);
			if (!s || b < a)
				break;
		}
		if (range && range(a, b, ctx) < 0)
			return -1;
		if (!*s)
			return 0;
		if (*s != ',' || !(flags & FTC_LIST_MANY))
			break;
		s++;
	}
	errno = EINVAL;
	return -1;
}
