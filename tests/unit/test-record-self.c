// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the list of ftc record's own threads: it holds every
 * reader, however many CPUs there are (a fixed 257 once dropped the rest,
 * which then stayed in the trace).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
/* cmd/ is not a library: the one file under test is built in. */
#include "record-self.c"

static int many(void *ctx, pid_t *tids, int max)
{
	int n = *(int *)ctx;

	for (int i = 0; i < n && i < max; i++)
		tids[i] = 1000 + i;
	return n < max ? n : max;
}

static int one(void *ctx, pid_t *tids, int max)
{
	tids[0] = 42;
	return 1;
}

int main(void)
{
	int readers = 300, none = 0;
	struct tid_source src[] = {
		{ one, NULL, 1 }, { many, &readers, 300 }, { many, &none, 0 }, { one, NULL, 1 },
	};
	size_t n = 0;
	char **v = self_tids(src, 4, &n);

	CHECK("every reader of 300 CPUs is listed", v && n == 302);
	CHECK_STR("ftc itself first", v ? v[0] : NULL, "42");
	CHECK_STR("the last reader", v && n > 300 ? v[300] : NULL, "1299");
	CHECK_STR("the sampler after the readers", v && n > 301 ? v[301] : NULL, "42");
	self_tids_free(v, n);
	return CHECK_DONE();
}
