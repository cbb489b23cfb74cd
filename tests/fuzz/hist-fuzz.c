// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over ftc hist's reading of the kernel's hist file
 * (cmd/hist-parse.c) and its table (cmd/hist-table.c): the text a kernel
 * (or a file named by mistake) gives is outside input. Any crash, leak,
 * hang or sanitizer report fails (tests/fuzz/run --target hist).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct hist_section *secs = NULL;
	size_t n = 0;
	char *text = malloc(size + 1);
	unsigned long long sum;

	if (!text)
		return 0;
	if (!null)
		null = fopen("/dev/null", "w");
	memcpy(text, data, size);
	text[size] = '\0';
	if (hist_parse(text, &secs, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			hist_print_table(null, &secs[i], "# fuzz:event");
			hist_hitcount_sum(&secs[i], &sum);
		}
		hist_sections_free(secs, n);
	}
	free(text);
	return 0;
}
