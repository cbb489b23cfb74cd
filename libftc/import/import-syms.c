// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Names to addresses for the function lines of a dump: /proc/kallsyms or
 * System.map text ("ffffffff81000000 T _stext", kallsyms adding
 * "\t[module]"). Only text symbols (t, T, w, W) are kept; a name defined
 * twice (two static functions) resolves to the first, as the kernel's
 * own lookup by name does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "import.h"
#include "ksym-line.h"

static int by_name(const void *a, const void *b)
{
	const struct imp_sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x > y) - (x < y);
}

/* A text symbol's line: 1 with the symbol, 0 for another line. */
static int parse_sym(const char *s, const char *e, struct imp_sym *sym)
{
	struct ftc_ksym_line l;

	if (!ftc_ksym_line_parse(s, e, &l) || !ftc_ksym_is_text(l.type))
		return 0;
	sym->addr = l.addr;
	sym->name = strndup(l.name, l.name_len);
	return sym->name ? 1 : -1;
}

static int add_syms(struct ftc_import *im, const char *text, size_t len)
{
	const char *p = text, *e = text + len;
	size_t cap = 0;

	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p)), *end = nl ? nl : e;
		struct imp_sym sym;
		int ret = parse_sym(p, end, &sym);

		p = nl ? nl + 1 : e;
		if (ret < 0)
			return ftc_error(ENOMEM, "out of memory");
		if (!ret)
			continue;
		if (im->nsyms == cap) {
			struct imp_sym *n;

			cap = cap ? cap * 2 : 1024;
			n = realloc(im->syms, cap * sizeof(*n));
			if (!n) {
				free(sym.name);
				return ftc_error(ENOMEM, "out of memory");
			}
			im->syms = n;
		}
		im->syms[im->nsyms++] = sym;
	}
	return 0;
}

int ftc_import_set_kallsyms(struct ftc_import *im, const char *text, size_t len)
{
	for (size_t i = 0; i < im->nsyms; i++)
		free(im->syms[i].name);
	free(im->syms);
	free(im->ksyms_text);
	im->syms = NULL;
	im->nsyms = 0;
	im->ksyms_text = NULL;
	im->ksyms_len = 0;
	if (add_syms(im, text, len) < 0)
		return -1;
	if (!im->nsyms)
		return ftc_error(EINVAL, "no line of the form 'ADDRESS TYPE NAME' with a text "
				 "symbol (t, T, w, W): not /proc/kallsyms or a System.map");
	qsort(im->syms, im->nsyms, sizeof(*im->syms), by_name);
	im->ksyms_text = malloc(len + 1);
	if (!im->ksyms_text)
		return ftc_error(ENOMEM, "out of memory");
	memcpy(im->ksyms_text, text, len);
	im->ksyms_text[len] = '\0';
	im->ksyms_len = len;
	return (int)(im->nsyms > 0x7fffffff ? 0x7fffffff : im->nsyms);
}

/* The first symbol called name. */
const struct imp_sym *ftc_imp_sym(const struct ftc_import *im, const char *name)
{
	size_t lo = 0, hi = im->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(im->syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < im->nsyms && !strcmp(im->syms[lo].name, name) ? &im->syms[lo] : NULL;
}
