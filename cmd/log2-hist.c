// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A log2 histogram as rows of stars (log2-hist.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ftc-heat.h"
#include "log2-hist.h"
#include "output.h"

#define BAR 40

/* Bytes as bitesize names its buckets: 512, 4K, 1M. */
static void size_label(unsigned long long v, char *buf, size_t size)
{
	if (v < 1024)
		snprintf(buf, size, "%llu", v);
	else if (v < 1048576)
		snprintf(buf, size, "%lluK", v >> 10);
	else
		snprintf(buf, size, "%lluM", v >> 20);
}

static void edges(int b, uint64_t unit_ns, char *from, char *to, size_t size)
{
	if (unit_ns == LOG2_BYTES) {
		size_label(b ? 1ULL << b : 0, from, size);
		size_label(2ULL << b, to, size);
		return;
	}
	ftc_heat_time_label(ldexp((double)unit_ns, b), from, size);
	ftc_heat_time_label(ldexp((double)unit_ns, b + 1), to, size);
	if (!b)
		snprintf(from, size, "0");
}

void cmd_log2_hist(const uint64_t *h, int n, uint64_t unit_ns)
{
	uint64_t most = 0;
	int lo = n, hi = -1;

	for (int b = 0; b < n; b++)
		if (h[b]) {
			lo = b < lo ? b : lo;
			hi = b;
			most = h[b] > most ? h[b] : most;
		}
	if (hi < 0)
		return;
	printf("%10s -> %-10s %10s  distribution\n", "from", "below", "count");
	for (int b = lo; b <= hi && !cmd_output_failed(); b++) {
		char from[24], to[24], bar[BAR + 1];
		int len = (int)((h[b] * BAR + most - 1) / most);

		edges(b, unit_ns, from, to, sizeof(from));
		memset(bar, '*', (size_t)len);
		bar[len] = '\0';
		printf("%10s -> %-10s %10llu  |%-*s|\n", from, to, (unsigned long long)h[b], BAR, bar);
	}
}
