/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One line of /proc/kallsyms or of a System.map:
 * "ffffffff81000000 T _stext", modules' lines ending in "\t[MODULE]".
 * Internal to libftc: the readers of the file, of captures, of imported
 * dumps and the kprobe checker all parse it here.
 */
#ifndef FTC_KSYM_LINE_H
#define FTC_KSYM_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ftc_ksym_line {
	uint64_t addr;
	char type;		/* nm's letter: t/T text, w/W weak, d/D data... */
	const char *name;	/* not NUL-terminated: name_len bytes */
	size_t name_len;
	const char *mod;	/* NULL for the kernel's own symbols */
	size_t mod_len;
};

/* Parses the line [s, e); false for anything not of that form. */
bool ftc_ksym_line_parse(const char *s, const char *e, struct ftc_ksym_line *out);

/* Code symbols: what functions, samples and probes resolve to. */
static inline bool ftc_ksym_is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

#endif
