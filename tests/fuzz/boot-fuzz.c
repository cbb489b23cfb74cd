// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over ftc boot-args' checks of outside input
 * (cmd/boot-names.c): the input's first line is an -e, -R, -p, -C or -O
 * value, the rest an --events-from file (any bytes). A parsed list holds
 * only "system:event" names, one ':' with both sides non-empty; an -e
 * value matches no more events than the list holds
 * (tests/fuzz/run --target boot).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot-names.h"

static void check_list(const struct boot_events *ev, size_t len)
{
	if (ev->n > len / 4 + 1)	/* "a:b\n" is the shortest line */
		abort();
	for (size_t i = 0; i < ev->n; i++) {
		const char *name = ev->names[i], *colon = strchr(name, ':');

		if (!colon || colon == name || !colon[1] || strchr(colon + 1, ':') ||
		    strpbrk(name, " \t\r\n/"))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nl = memchr(text, '\n', size);
	size_t vlen = nl ? (size_t)(nl - text) : size, bad;
	char *value = strndup(text, vlen);
	struct boot_events ev;
	bool is_system;

	if (!value)
		return 0;
	boot_trigger_known(value);
	boot_name_mainline(BOOT_TRACER, value);
	boot_name_mainline(BOOT_CLOCK, value);
	boot_name_mainline(BOOT_OPTION, value);
	if (boot_events_parse(&ev, nl ? nl + 1 : text + size, nl ? size - vlen - 1 : 0, &bad) == 0) {
		check_list(&ev, nl ? size - vlen - 1 : 0);
		if (boot_events_match(&ev, value, &is_system) > ev.n)
			abort();
		boot_events_free(&ev);
	} else if (!bad) {
		abort();	/* out of memory on a fuzz input: not expected */
	}
	free(value);
	return 0;
}
