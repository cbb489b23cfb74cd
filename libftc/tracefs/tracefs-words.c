// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Words of tracefs lists: available_tracers ("function nop"), trace_clock
 * and the lockdown file, which bracket the selected one ("[local] global").
 */
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "tracefs-layer.h"

#define BLANKS " \t\n"

bool ftc_tracefs_word_in(const char *list, const char *word)
{
	size_t len = strlen(word);

	/* strstr finds "" everywhere without moving on: it would never end */
	if (!list || !len)
		return false;
	for (const char *s = list; (s = strstr(s, word)); s++) {
		bool start = s == list || strchr(BLANKS "[", s[-1]);
		bool end = !s[len] || strchr(BLANKS "]", s[len]);

		if (start && end)
			return true;
	}
	return false;
}

char *ftc_tracefs_selected(const char *list)
{
	const char *open = list ? strchr(list, '[') : NULL;
	size_t n = open ? strcspn(open + 1, "]" BLANKS) : 0;

	if (!open || !n || open[1 + n] != ']')
		return NULL;
	return strndup(open + 1, n);
}
