// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The user binary of a uprobe: its function symbols (from its own symbol
 * tables or its debug file, found by build-id, .gnu_debuglink or under
 * /usr/lib/debug), and the file offsets the kernel wants, computed from
 * the program headers so that PIE, shared and prelinked files all work.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <gelf.h>

#include "ftc.h"
#include "dynprobe.h"

static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

int ftc_str_addf(char **s, const char *fmt, ...)
{
	char *add, *more;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&add, fmt, ap);
	va_end(ap);
	if (n < 0)
		return ftc_error(ENOMEM, "out of memory");
	more = realloc(*s, (*s ? strlen(*s) : 0) + n + 1);
	if (!more) {
		free(add);
		return ftc_error(ENOMEM, "out of memory");
	}
	if (!*s)
		*more = '\0';
	strcat(more, add);
	free(add);
	*s = more;
	return 0;
}

int ftc_ubin_open(struct ubin *b, const char *path)
{
	char real[PATH_MAX];

	memset(b, 0, sizeof(*b));
	if (!realpath(path, real))
		return ftc_error(errno, "%s: %s (give the binary's path, e.g. ./prog or "
				 "/lib/x86_64-linux-gnu/libc.so.6)", path, strerror(errno));
	b->path = strdup(real);
	b->dwfl = dwfl_begin(&offline_callbacks);
	if (!b->path || !b->dwfl) {
		ftc_ubin_close(b);
		return ftc_error(ENOMEM, "out of memory");
	}
	b->mod = dwfl_report_offline(b->dwfl, "", real, -1);
	dwfl_report_end(b->dwfl, NULL, NULL);
	if (!b->mod) {
		ftc_error(EINVAL, "%s: not an ELF file libdwfl can read: %s", real,
			  dwfl_errmsg(-1));
		ftc_ubin_close(b);
		return -1;
	}
	b->elf = dwfl_module_getelf(b->mod, &b->elf_bias);
	b->dw = dwfl_module_getdwarf(b->mod, &b->dw_bias);
	if (!b->elf) {
		ftc_error(EINVAL, "%s: cannot read its ELF: %s", real, dwfl_errmsg(-1));
		ftc_ubin_close(b);
		return -1;
	}
	return 0;
}

void ftc_ubin_close(struct ubin *b)
{
	if (b->dwfl)
		dwfl_end(b->dwfl);
	free(b->path);
	memset(b, 0, sizeof(*b));
}

int ftc_ubin_func_addr(struct ubin *b, const char *func, GElf_Addr *addr)
{
	int n = dwfl_module_getsymtab(b->mod);
	struct near_names near = { 0 };
	char names[800];

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr a;
		const char *name = dwfl_module_getsym_info(b->mod, i, &sym, &a, NULL, NULL, NULL);

		if (!name || GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF)
			continue;
		if (!strcmp(name, func)) {
			*addr = a - b->elf_bias;
			return 0;
		}
		ftc_near_consider(&near, func, name);
	}
	ftc_near_format(&near, names, sizeof(names));
	return ftc_error(ENOENT, "%s: no function '%s'%s%s%s", b->path, func,
			 *names ? " (nearest: " : "", names, *names ? ")" : "");
}

int ftc_ubin_file_offset(struct ubin *b, GElf_Addr addr, GElf_Addr *off)
{
	size_t n;

	if (elf_getphdrnum(b->elf, &n) < 0)
		return ftc_error(EINVAL, "%s: no program headers", b->path);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(b->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return ftc_error(EINVAL, "%s: address 0x%llx is in no loaded segment", b->path,
			 (unsigned long long)addr);
}
