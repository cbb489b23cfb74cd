/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc list's REGEX, as trace-cmd list takes it (list-re.c): POSIX basic,
 * case-insensitive, unanchored.
 */
#ifndef FTC_CMD_LIST_RE_H
#define FTC_CMD_LIST_RE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

struct list_re {
	regex_t sys, ev;
	bool all;		/* no REGEX, or an empty one */
	bool have_sys, have_ev;
	bool just_systems;	/* "SYSTEM:": the systems' events, no event name */
};

/*
 * Compiles pattern (NULL: everything) for events (SYSTEM[:EVENT]) or for
 * lines (functions). Returns 0, or -1 with the regcomp message in why.
 */
int list_re_compile(struct list_re *r, const char *pattern, bool events,
		    char *why, size_t size);
bool list_re_event(const struct list_re *r, const char *system, const char *event);
bool list_re_line(const struct list_re *r, const char *line);
void list_re_free(struct list_re *r);

#endif
