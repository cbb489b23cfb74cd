// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the heat map (libftc/analysis/heat.c): values land in the
 * slice of their time and the log2 bucket of their size; past the last
 * slice the slices merge pairwise and nothing is lost; a bucket's label
 * keeps three digits in its unit; the SVG has a cell
 * per occupied (slice, bucket) whose counts add up to the values.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ftc-heat.h"

static uint64_t sum_column(const uint64_t *c)
{
	uint64_t n = 0;

	for (int b = 0; b < FTC_HEAT_BUCKETS; b++)
		n += c[b];
	return n;
}

static void test_buckets(void)
{
	CHECK("0 and 1 are bucket 0", ftc_heat_bucket(0) == 0 && ftc_heat_bucket(1) == 0);
	CHECK("1023 is bucket 9, 1024 bucket 10", ftc_heat_bucket(1023) == 9 &&
	      ftc_heat_bucket(1024) == 10);
	CHECK("the largest value is bucket 63", ftc_heat_bucket(UINT64_MAX) == 63);
}

static bool label_is(int b, const char *want)
{
	char buf[16];

	ftc_heat_bucket_label(b, buf, sizeof(buf));
	return !strcmp(buf, want);
}

static void test_labels(void)
{
	char buf[16];

	CHECK("ns below 1000, whole", label_is(0, "1ns") && label_is(9, "512ns"));
	CHECK("us, ms and s to three digits", label_is(10, "1.02us") && label_is(14, "16.4us") &&
	      label_is(21, "2.1ms") && label_is(30, "1.07s"));
	CHECK("past seconds: still s", label_is(40, "1100s"));
	ftc_heat_time_label(32e6, buf, sizeof(buf));
	CHECK("any time: 32000000 ns is 32ms (a millisecond bucket's edge)", !strcmp(buf, "32ms"));
	ftc_heat_time_label(1.5e9, buf, sizeof(buf));
	CHECK("... 1500000000 ns is 1.5s", !strcmp(buf, "1.5s"));
}

static void test_slices(void)
{
	struct ftc_heat *h = ftc_heat_new(4, 100);
	uint64_t total = 0;

	ftc_heat_add(h, 1000, 5);	/* the first value starts slice 0 */
	ftc_heat_add(h, 1099, 5);
	ftc_heat_add(h, 1100, 2048);
	ftc_heat_add(h, 1399, 1);
	CHECK("four slices of 100 ns from the first value", ftc_heat_columns(h) == 4 &&
	      ftc_heat_width(h) == 100 && ftc_heat_start(h) == 1000);
	CHECK("slice 0 holds two values of bucket 2", ftc_heat_column(h, 0)[2] == 2);
	CHECK("slice 1 holds 2048 in bucket 11", ftc_heat_column(h, 1)[11] == 1);
	ftc_heat_add(h, 1400, 7);	/* past the fourth slice: they merge */
	CHECK("one value past the end halves the resolution", ftc_heat_width(h) == 200 &&
	      ftc_heat_columns(h) == 3);
	CHECK("the merged slice 0 holds slices 0 and 1", ftc_heat_column(h, 0)[2] == 2 &&
	      ftc_heat_column(h, 0)[11] == 1 && ftc_heat_column(h, 1)[0] == 1 &&
	      ftc_heat_column(h, 2)[2] == 1);
	ftc_heat_add(h, 1000 + 1000000, 3);	/* far past: several halvings at once */
	CHECK("a far value merges as often as needed", ftc_heat_columns(h) <= 4 &&
	      ftc_heat_width(h) >= 1000000 / 4);
	for (size_t i = 0; i < ftc_heat_columns(h); i++)
		total += sum_column(ftc_heat_column(h, i));
	CHECK("no value is lost in the merges", total == 6 && ftc_heat_count(h) == 6);
	CHECK("an earlier value counts in slice 0", !ftc_heat_add(h, 10, 1) &&
	      ftc_heat_column(h, 0)[0] == 2);
	CHECK("past the last slice there is none", !ftc_heat_column(h, ftc_heat_columns(h)));
	ftc_heat_free(h);
	CHECK("one column is refused", !ftc_heat_new(1, 0));
}

static void test_svg(void)
{
	struct ftc_heat *h = ftc_heat_new(0, 0);
	char *text = NULL, *at;
	size_t len = 0, cells = 0;
	uint64_t counted = 0;
	FILE *f = open_memstream(&text, &len);

	for (uint64_t i = 0; i < 1000; i++)
		ftc_heat_add(h, i * 1000000, 1000 + i * 37);
	CHECK("a title with markup is written", !ftc_heat_svg(f, h, "a <b> & c"));
	fclose(f);
	for (at = text; (at = strstr(at, "<title>+")); at++) {
		const char *colon = strstr(at, ": ");

		cells++;
		counted += colon ? strtoull(colon + 2, NULL, 10) : 0;
	}
	CHECK("the cells' counts add up to the values", counted == 1000 && cells > 1);
	CHECK("the title is escaped", strstr(text, "a &lt;b&gt; &amp; c") != NULL);
	CHECK("the document is closed", len > 7 && !strcmp(text + len - 7, "</svg>\n"));
	free(text);
	ftc_heat_free(h);
}

int main(void)
{
	test_buckets();
	test_labels();
	test_slices();
	test_svg();
	return CHECK_DONE();
}
