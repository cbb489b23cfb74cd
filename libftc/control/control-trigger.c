// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event and function triggers as the kernel reads them back, turned into
 * the lines that add them again or remove them. The kernel shows a count as
 * "count=N" (or "unlimited") but only accepts ":N" on input, and it removes
 * a trigger by its command alone ("!traceoff"), except enable_event and
 * disable_event, which are told apart by their target event, and hist,
 * which must be named in full, its filter included.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-control.h"
#include "control.h"

bool ftc_is_func_trigger(const char *line)
{
	const char *colon;

	if (*line == '!')
		line++;
	colon = strchr(line, ':');
	if (!colon || colon == line || *line == '#')
		return false;
	/* "func:mod:module" is a filter on a module's functions */
	return strncmp(colon + 1, "mod:", 4) != 0 && strcmp(colon + 1, "mod") != 0;
}

/* "[active]", "[paused]": a hist trigger's state as the kernel shows it. */
static bool is_state(const char *s)
{
	size_t n = strspn(s + 1, "abcdefghijklmnopqrstuvwxyz");

	return n && s[n + 1] == ']' && !s[n + 2];
}

struct trigger_parts {
	char *copy;
	const char *prefix;	/* "func:" for function triggers, else "" */
	char *head;		/* "cmd[:args][:count]" */
	const char *filter;	/* after " if ", or NULL */
};

/*
 * Splits "[func:]cmd[:args][:count][ if filter][ [state]]". The copy has one
 * spare byte so that "func:" can be cut off as its own string.
 */
static int trigger_split(const char *line, bool func, struct trigger_parts *p)
{
	const char *src = *line == '!' ? line + 1 : line;
	size_t n = strlen(src);
	char *s, *cut;

	memset(p, 0, sizeof(*p));
	p->copy = malloc(n + 2);
	if (!p->copy)
		return ftc_error(ENOMEM, "out of memory");
	memcpy(p->copy, src, n + 1);
	s = p->copy;
	p->prefix = "";
	if (func && (cut = strchr(s, ':'))) {
		char *tag = strstr(s, " [");

		/* A module's function reads back as "func [module]:cmd"; the
		 * kernel takes the name alone. */
		if (tag && tag < cut && cut[-1] == ']') {
			memmove(tag, cut, strlen(cut) + 1);
			cut = tag;
		}
		p->prefix = s;
		memmove(cut + 2, cut + 1, strlen(cut + 1) + 1);
		cut[1] = '\0';
		s = cut + 2;
	}
	p->head = s;
	/* hist triggers read back with their state last, after any filter:
	 * "hist:keys=pid:... if pid > 1 [active]" */
	cut = strrchr(s, '[');
	if (cut && cut > s && cut[-1] == ' ' && is_state(cut))
		cut[-1] = '\0';
	cut = strstr(s, " if ");
	if (cut) {
		*cut = '\0';
		p->filter = cut + 4;
	}
	return 0;
}

static bool is_count(const char *f)
{
	if (!strcmp(f, "unlimited") || !strncmp(f, "count=", 6))
		return true;
	if (!*f)
		return false;
	for (; *f; f++)
		if (*f < '0' || *f > '9')
			return false;
	return true;
}

/* The fields of head that name the trigger, without its count. */
static size_t name_fields(const char *head)
{
	if (!strncmp(head, "enable_event:", 13) || !strncmp(head, "disable_event:", 14))
		return 3;
	if (!strncmp(head, "hist", 4))
		return (size_t)-1;	/* all of it */
	return 1;
}

static char *build(const char *prefix, const char *a, const char *b, const char *filter)
{
	char *out = NULL;

	if (asprintf(&out, "%s%s%s%s%s", prefix, a, b, filter ? " if " : "",
		     filter ? filter : "") < 0) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	return out;
}

char *ftc_trigger_readd(const char *line, bool func)
{
	struct trigger_parts p;
	char *last, *out;
	char count[32] = "";

	if (trigger_split(line, func, &p) < 0)
		return NULL;
	last = strrchr(p.head, ':');
	if (last && name_fields(p.head) != (size_t)-1 && is_count(last + 1)) {
		if (!strncmp(last + 1, "count=", 6))
			snprintf(count, sizeof(count), ":%s", last + 7);
		else if (strcmp(last + 1, "unlimited"))
			snprintf(count, sizeof(count), ":%s", last + 1);
		*last = '\0';
	}
	out = build("", p.prefix, "", NULL);
	if (out) {
		char *full = build(out, p.head, count, p.filter);

		free(out);
		out = full;
	}
	free(p.copy);
	return out;
}

char *ftc_trigger_removal(const char *line, bool func)
{
	struct trigger_parts p;
	size_t keep, n = 0;
	char *out, *c, *last;
	bool counted;

	if (trigger_split(line, func, &p) < 0)
		return NULL;
	keep = name_fields(p.head);
	last = strrchr(p.head, ':');
	/* A counted function trigger is removed with a count (any), an
	 * uncounted one without: the kernel picks the probe type by it. */
	counted = func && last && keep != (size_t)-1 && is_count(last + 1) &&
		  strcmp(last + 1, "unlimited");
	for (c = p.head; *c; c++) {
		if (*c == ':' && ++n == keep) {
			*c = '\0';
			break;
		}
	}
	/* The kernel removes a hist trigger only when the filter matches too. */
	out = build("!", p.prefix, p.head, keep == (size_t)-1 ? p.filter : NULL);
	if (out && counted) {
		char *with = build(out, ":0", "", NULL);

		free(out);
		out = with;
	}
	free(p.copy);
	return out;
}
