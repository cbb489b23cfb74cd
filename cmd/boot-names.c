// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Event lists for ftc boot-args' checks (boot-names.h). The tracers,
 * clocks, options and triggers mainline kernels register are libftc's
 * (ftc_info_mainline()); boot-args adds this machine's to them.
 */
#include <stdlib.h>
#include <string.h>

#include "boot-names.h"
#include "ftc.h"

void boot_events_free(struct boot_events *ev)
{
	for (size_t i = 0; i < ev->n; i++)
		free(ev->names[i]);
	free(ev->names);
	ev->names = NULL;
	ev->n = 0;
}

/* "system:event": one ':', both sides non-empty, nothing blank or unprintable. */
static bool event_line_ok(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);

	if (!colon || colon == s || colon == s + len - 1 || memchr(colon + 1, ':', s + len - colon - 1))
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f || s[i] == '/')
			return false;
	return len < 512;
}

static int push(struct boot_events *ev, size_t *cap, const char *s, size_t len)
{
	if (ev->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		char **n = realloc(ev->names, ncap * sizeof(*n));

		if (!n)
			return -1;
		ev->names = n;
		*cap = ncap;
	}
	ev->names[ev->n] = strndup(s, len);
	if (!ev->names[ev->n])
		return -1;
	ev->n++;
	return 0;
}

int boot_events_parse(struct boot_events *ev, const char *text, size_t len, size_t *bad_line)
{
	size_t cap = 0, line = 0;
	const char *p = text, *end = text + len;

	ev->names = NULL;
	ev->n = 0;
	*bad_line = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (nl ? nl : end) - p;

		line++;
		while (l && (p[l - 1] == '\r' || p[l - 1] == ' ' || p[l - 1] == '\t'))
			l--;
		if (l && !event_line_ok(p, l)) {
			*bad_line = line;
			goto fail;
		}
		if (l && push(ev, &cap, p, l) < 0)
			goto fail;
		p = nl ? nl + 1 : end;
	}
	return 0;
fail:
	boot_events_free(ev);
	return -1;
}

/* Does one "system:event" of the list match, as __ftrace_set_clr_event's rules? */
static bool name_matches(const char *full, const char *sub, size_t sublen, const char *event,
			 const char *match, bool *system_hit)
{
	const char *colon = strchr(full, ':');
	size_t syslen = (size_t)(colon - full);
	const char *name = colon + 1;

	if (match) {
		bool sys = strlen(match) == syslen && !strncmp(full, match, syslen);

		*system_hit |= sys;
		return sys || !strcmp(name, match) || !strcmp(match, "*");
	}
	if (sub && (sublen != syslen || strncmp(full, sub, syslen)))
		return false;
	return !event || !strcmp(name, event);
}

size_t boot_events_match(const struct boot_events *ev, const char *value, bool *is_system)
{
	const char *colon = strchr(value, ':');
	const char *sub = NULL, *event = NULL, *match = NULL;
	size_t sublen = 0, n = 0;

	*is_system = false;
	if (colon) {
		sub = value;
		sublen = (size_t)(colon - value);
		event = colon + 1;
		if (!sublen || (sublen == 1 && *sub == '*'))
			sub = NULL;
		if (!*event || !strcmp(event, "*"))
			event = NULL;
	} else {
		match = value;
	}
	for (size_t i = 0; i < ev->n; i++)
		n += name_matches(ev->names[i], sub, sublen, event, match, is_system);
	return n;
}
