// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtraceevent 1.7 reads "sizeof(int)" in a print format after freeing the
 * token it compares (a use after free that only a sanitizer sees), and
 * fails on the kernel's own type names: "__print_array(..., sizeof(u64))"
 * (6.18's dma events, a module's TRACE_EVENT) leaves the whole event
 * unparsed. The sizes of such types are known: they are put in as numbers
 * before libtraceevent sees the format. Other sizeof()s are left alone.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

static const struct {
	const char *name;
	int size;	/* 0: the file's long size */
} types[] = {
	{ "u8", 1 }, { "s8", 1 }, { "__u8", 1 }, { "__s8", 1 }, { "char", 1 },
	{ "unsigned char", 1 }, { "signed char", 1 }, { "bool", 1 },
	{ "u16", 2 }, { "s16", 2 }, { "__u16", 2 }, { "__s16", 2 }, { "short", 2 },
	{ "unsigned short", 2 },
	{ "u32", 4 }, { "s32", 4 }, { "__u32", 4 }, { "__s32", 4 }, { "int", 4 },
	{ "unsigned int", 4 }, { "unsigned", 4 },
	{ "u64", 8 }, { "s64", 8 }, { "__u64", 8 }, { "__s64", 8 }, { "long long", 8 },
	{ "unsigned long long", 8 },
	{ "long", 0 }, { "unsigned long", 0 }, { "size_t", 0 }, { "ssize_t", 0 },
};

/* The size of the type named by s[0..n) (spaces squeezed), or -1. */
static int type_size(const char *s, size_t n, int long_size)
{
	char name[40];
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (isspace((unsigned char)s[i])) {
			if (k && name[k - 1] != ' ' && k < sizeof(name) - 1)
				name[k++] = ' ';
			continue;
		}
		if (k >= sizeof(name) - 1)
			return -1;
		name[k++] = s[i];
	}
	while (k && name[k - 1] == ' ')
		k--;
	name[k] = '\0';
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(name, types[i].name))
			return types[i].size ? types[i].size : long_size;
	return -1;
}

char *ftc_fmt_fold_sizeof(const char *text, size_t len, int long_size, size_t *out_len)
{
	static const char kw[] = "sizeof(";
	const char *p = text, *end = text + len, *hit;
	char *out = NULL, *o = NULL;

	while ((hit = memmem(p, (size_t)(end - p), kw, sizeof(kw) - 1))) {
		const char *arg = hit + sizeof(kw) - 1;
		const char *close = memchr(arg, ')', (size_t)(end - arg));
		int size = close ? type_size(arg, (size_t)(close - arg), long_size) : -1;

		/* "xsizeof(" is some other name */
		if (size < 0 || (hit > text && (isalnum((unsigned char)hit[-1]) || hit[-1] == '_'))) {
			p = arg;
			continue;
		}
		if (!out) {
			out = malloc(len + 1);
			if (!out)
				return NULL;
			memcpy(out, text, (size_t)(hit - text));
			o = out + (hit - text);
		} else {
			memcpy(o, p, (size_t)(hit - p));
			o += hit - p;
		}
		*o++ = (char)('0' + size);
		p = close + 1;
	}
	if (!out)
		return NULL;
	memcpy(o, p, (size_t)(end - p));
	o += end - p;
	*o = '\0';
	*out_len = (size_t)(o - out);
	return out;
}
