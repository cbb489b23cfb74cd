/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libftc/dynprobe: the user binary as ELF and DWARF. Not installed. */
#ifndef FTC_DYNPROBE_INTERNAL_H
#define FTC_DYNPROBE_INTERNAL_H

#include <stdio.h>
#include <elfutils/libdwfl.h>

#include "ftc-dynprobe.h"

struct ubin {
	char *path;		/* absolute, as uprobe_events wants it */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;		/* the binary itself: program headers, CFI */
	GElf_Addr elf_bias;
	Dwarf *dw;		/* its DWARF, here or in a debug file; NULL: none */
	Dwarf_Addr dw_bias;
};

int ftc_ubin_open(struct ubin *b, const char *path);
void ftc_ubin_close(struct ubin *b);
/* A function symbol's address (ELF vaddr); unknown: the nearest names. */
int ftc_ubin_func_addr(struct ubin *b, const char *func, GElf_Addr *addr);
/* vaddr to the file offset uprobes want, through the PT_LOAD headers. */
int ftc_ubin_file_offset(struct ubin *b, GElf_Addr addr, GElf_Addr *off);

/* DWARF (dwarf.c). fetchargs for ps's variables at addr, appended to def. */
struct uprobe_point {
	GElf_Addr addr;		/* ELF vaddr */
	bool entry;		/* at a function's entry (a return probe's place) */
};
int ftc_udw_func_point(struct ubin *b, const char *func, GElf_Addr sym, bool skip_prologue,
		       GElf_Addr *addr);
int ftc_udw_line_addr(struct ubin *b, const char *file, unsigned long line, GElf_Addr *addr);
int ftc_udw_args(struct ubin *b, const struct ftc_probe_spec *ps, GElf_Addr addr, char **def);
int ftc_udw_list_lines(struct ubin *b, const char *func, FILE *out);
int ftc_udw_list_vars(struct ubin *b, const char *func, FILE *out);

/* Appends printf-formatted text to *s; -1 on ENOMEM. */
int ftc_str_addf(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Edit distance, for "did you mean" (near.c). */
size_t ftc_edit_distance(const char *a, const char *b);

/* The NEAR_MAX names nearest to one that was not found, nearest first. */
#define NEAR_MAX 3
struct near_names {
	char name[NEAR_MAX][256];
	size_t dist[NEAR_MAX];
	int count;
};
void ftc_near_consider(struct near_names *n, const char *want, const char *name);
/* "a, b, c"; empty when none was considered. */
void ftc_near_format(const struct near_names *n, char *out, size_t size);

#endif
