// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over the probe SPEC parser (libftc/dynprobe/spec.c):
 * a spec comes from the command line, so any bytes. The first byte picks
 * whether a binary is given apart (-x). A parsed spec must give an event
 * name the kernel takes: [A-Za-z_][A-Za-z0-9_]*, at most 56 bytes; a
 * synthetic event, ftc's prefix and fields that nothing splits
 * (tests/fuzz/run --target probe).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ftc-dynprobe.h"

static void check_name(const char *name)
{
	size_t len = strlen(name);

	if (!len || len > 56 || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "0123456789_") != len || (name[0] >= '0' && name[0] <= '9'))
		abort();
}

static void check_spec(const struct ftc_probe_spec *ps)
{
	if (!ps->func && !ps->file)
		abort();
	if (ps->kind == FTC_PROBE_UPROBE && !ps->binary)
		abort();
	for (size_t i = 0; i < ps->nargs; i++)
		if (!ps->args[i].fetch || !*ps->args[i].fetch)
			abort();
	if (ps->kind != FTC_PROBE_SYNTH)
		return;
	/* ftc's synthetic events are known by the prefix alone */
	if (!ps->nargs || strncmp(ps->func, FTC_SYNTH_PREFIX, strlen(FTC_SYNTH_PREFIX)))
		abort();
	/* the definition joins them with "; ": nothing may split a field */
	for (size_t i = 0; i < ps->nargs; i++)
		if (!ps->args[i].type || !*ps->args[i].type || strpbrk(ps->args[i].type, ";\n\t") ||
		    strpbrk(ps->args[i].fetch, "; \n\t"))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftc_probe_spec *ps;
	char *text, *name;

	if (!size)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (ftc_probe_spec_parse(text, data[0] & 1 ? "/bin/true" : NULL, &ps) == 0) {
		check_spec(ps);
		name = ftc_probe_spec_event(ps);
		if (!name)
			abort();
		check_name(name);
		free(name);
		ftc_probe_spec_free(ps);
	}
	free(text);
	return 0;
}
