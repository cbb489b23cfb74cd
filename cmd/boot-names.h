/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The events ftc boot-args checks its values against, without the target
 * kernel: a list as available_events writes it ("system:event" a line),
 * read from --events-from FILE or from this machine's tracefs. The
 * mainline names are libftc's (ftc_info_mainline()).
 */
#ifndef FTC_CMD_BOOT_NAMES_H
#define FTC_CMD_BOOT_NAMES_H

#include <stdbool.h>
#include <stddef.h>

struct boot_events {
	char **names;		/* "system:event", as listed */
	size_t n;
};

/*
 * Parses text (len bytes, available_events' format: "system:event" a line,
 * blank lines and a missing last newline allowed) into ev. 0, or -1 with
 * the 1-based number of the first bad line in *bad_line (0: out of memory).
 */
int boot_events_parse(struct boot_events *ev, const char *text, size_t len, size_t *bad_line);
void boot_events_free(struct boot_events *ev);

/*
 * How many events an -e value selects as the kernel's trace_event= reads it
 * (set_event's syntax: "system:event", "system:" or "system:*" for a whole
 * system, ":event" or "*:event" for an event of any system, "name" for a
 * system or an event of that name; no other globs), and whether name alone
 * names a system (*is_system).
 */
size_t boot_events_match(const struct boot_events *ev, const char *value, bool *is_system);

#endif
