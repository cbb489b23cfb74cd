// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A log line without what the logging added in front of the kernel's
 * message: a syslog level "<4>" (dmesg -r, pstore, /dev/kmsg copies),
 * journalctl's "Nov 24 06:15:01 host kernel: " (or an ISO date), the
 * printk time "[   12.345678]" (or dmesg -T's "[Tue Nov 24 ...]", or
 * dmesg -d's "[<    0.000003>]"), the caller id "[  T123]" / "[ C1]" of
 * CONFIG_PRINTK_CALLER, and the one space printk puts after them. What
 * follows keeps its leading blanks: the dump's columns start there.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "import.h"

static const char *const months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

/* "<N>": the level is N's low three bits (syslog adds the facility above). */
static size_t syslog_level(const char *s, size_t len, int *level)
{
	size_t i = 1;
	int v = 0;

	if (len < 3 || s[0] != '<')
		return 0;
	while (i < len && i < 5 && isdigit((unsigned char)s[i]))
		v = v * 10 + (s[i++] - '0');
	if (i == 1 || i >= len || s[i] != '>')
		return 0;
	*level = v & 7;
	return i + 1;
}

static bool journal_date(const char *s, size_t len)
{
	if (len > 10 && isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[3]) &&
	    s[4] == '-' && s[7] == '-')
		return true;
	for (size_t m = 0; m < sizeof(months) / sizeof(months[0]); m++)
		if (len > 4 && !memcmp(s, months[m], 3) && s[3] == ' ')
			return true;
	return false;
}

/* journalctl (short or short-iso): "DATE TIME HOST kernel: ". */
static size_t journal_prefix(const char *s, size_t len)
{
	static const char tag[] = " kernel: ";
	size_t lim = len < 120 ? len : 120;

	if (!journal_date(s, len))
		return 0;
	for (size_t i = 0; i + sizeof(tag) - 1 <= lim; i++)
		if (!memcmp(s + i, tag, sizeof(tag) - 1))
			return i + sizeof(tag) - 1;
	return 0;
}

/* "[...]" holding a time: digits, blanks, '.', ':', '+', '<', '>', letters of a date. */
static size_t time_prefix(const char *s, size_t len)
{
	bool digit = false;
	size_t i = 1;

	if (len < 3 || s[0] != '[')
		return 0;
	for (; i < len && i < 48 && s[i] != ']'; i++) {
		unsigned char c = (unsigned char)s[i];

		if (isdigit(c))
			digit = true;
		else if ((!c || !strchr(" .:+-<>,", c)) && !isalpha(c))
			return 0;
	}
	if (i >= len || s[i] != ']' || !digit)
		return 0;
	return i + 1;
}

/* "[  T123]" or "[ C1]". */
static size_t caller_prefix(const char *s, size_t len, char *caller)
{
	size_t i = 1, start;

	if (len < 4 || s[0] != '[')
		return 0;
	while (i < len && s[i] == ' ')
		i++;
	if (i >= len || (s[i] != 'T' && s[i] != 'C'))
		return 0;
	start = i++;
	while (i < len && isdigit((unsigned char)s[i]))
		i++;
	if (i >= len || s[i] != ']' || i == start + 1 || i - start >= 15)
		return 0;
	memcpy(caller, s + start, i - start);
	caller[i - start] = '\0';
	return i + 1;
}

void ftc_imp_strip(const char *line, size_t len, struct imp_line *out)
{
	const char *s = line;
	char tmp[16];
	size_t n;
	bool prefixed;

	while (len && (s[len - 1] == '\r' || s[len - 1] == '\n'))
		len--;
	out->level = -1;
	out->caller[0] = '\0';
	n = syslog_level(s, len, &out->level);
	s += n, len -= n;
	n = journal_prefix(s, len);
	s += n, len -= n;
	/* "[  T123]" alone is a caller id, not a time. */
	n = caller_prefix(s, len, tmp) ? 0 : time_prefix(s, len);
	prefixed = n > 0;
	s += n, len -= n;
	n = caller_prefix(s, len, out->caller);
	prefixed |= n > 0;
	s += n, len -= n;
	if (prefixed && len && s[0] == ' ')
		s++, len--;
	out->s = s;
	out->len = len;
}
