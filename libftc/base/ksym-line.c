// SPDX-License-Identifier: LGPL-2.1-or-later
#include "ksym-line.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Hand-rolled, not sscanf: a kallsyms has some 200,000 lines. */
bool ftc_ksym_line_parse(const char *s, const char *e, struct ftc_ksym_line *out)
{
	const char *p = s, *m;
	uint64_t addr = 0;
	int d;

	while (p < e && p - s <= 16 && (d = hex_digit(*p)) >= 0) {
		addr = addr << 4 | (uint64_t)d;
		p++;
	}
	if (p == s || p - s > 16 || e - p < 4 || p[0] != ' ' || p[2] != ' ' || is_blank(p[1]))
		return false;
	out->addr = addr;
	out->type = p[1];
	out->name = p += 3;
	while (p < e && !is_blank(*p))
		p++;
	out->name_len = (size_t)(p - out->name);
	if (!out->name_len)
		return false;
	out->mod = NULL;
	out->mod_len = 0;
	while (p < e && is_blank(*p))
		p++;
	if (p < e && *p == '[') {
		for (m = ++p; m < e && *m != ']'; m++)
			;
		if (m < e) {
			out->mod = p;
			out->mod_len = (size_t)(m - p);
		}
	}
	return true;
}
