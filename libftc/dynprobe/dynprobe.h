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

int ubin_open(struct ubin *b, const char *path);
void ubin_close(struct ubin *b);
/* A function symbol's address (ELF vaddr); unknown: the nearest names. */
int ubin_func_addr(struct ubin *b, const char *func, GElf_Addr *addr);
/* vaddr to the file offset uprobes want, through the PT_LOAD headers. */
int ubin_file_offset(struct ubin *b, GElf_Addr addr, GElf_Addr *off);

/* DWARF (dwarf.c). fetchargs for ps's variables at addr, appended to def. */
struct uprobe_point {
	GElf_Addr addr;		/* ELF vaddr */
	bool entry;		/* at a function's entry (a return probe's place) */
};
int udw_func_point(struct ubin *b, const char *func, GElf_Addr sym, bool skip_prologue,
		   GElf_Addr *addr);
int udw_line_addr(struct ubin *b, const char *file, unsigned long line, GElf_Addr *addr);
int udw_args(struct ubin *b, const struct ftc_probe_spec *ps, GElf_Addr addr, char **def);
int udw_list_lines(struct ubin *b, const char *func, FILE *out);
int udw_list_vars(struct ubin *b, const char *func, FILE *out);

/* Appends printf-formatted text to *s; -1 on ENOMEM. */
int str_addf(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Edit distance, for "did you mean" (near.c). */
size_t edit_distance(const char *a, const char *b);

/* The NEAR_MAX names nearest to one that was not found, nearest first. */
#define NEAR_MAX 3
struct near_names {
	char name[NEAR_MAX][256];
	size_t dist[NEAR_MAX];
	int count;
};
void near_consider(struct near_names *n, const char *want, const char *name);
/* "a, b, c"; empty when none was considered. */
void near_format(const struct near_names *n, char *out, size_t size);

#endif
