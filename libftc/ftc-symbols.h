/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel and user symbols for addresses (libftc/symbols/).
 */
#ifndef FTC_SYMBOLS_H
#define FTC_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Symbolization (symbols.c). Kernel addresses from kallsyms; user ones by
 * file and file offset (ip - map start + map pgoff), through libdwfl with
 * the standard debug-file search (build-id, .gnu_debuglink, /usr/lib/debug).
 * A NULL name means unknown: show the dso and the offset instead.
 */
struct ftc_symbols;
FTC_API struct ftc_symbols *ftc_symbols_new(void);
FTC_API void ftc_symbols_free(struct ftc_symbols *s);
/* path NULL reads /proc/kallsyms. Returns the number of text symbols. */
FTC_API int ftc_symbols_load_kallsyms(struct ftc_symbols *s, const char *path);
FTC_API const char *ftc_symbols_kernel(struct ftc_symbols *s, uint64_t addr, uint64_t *off);
FTC_API const char *ftc_symbols_user(struct ftc_symbols *s, const char *path, uint64_t file_off,
				     uint64_t *sym_off);
/*
 * User binaries are read at DIR/PATH instead of PATH: the recording
 * machine's files copied here (perf's --symfs). NULL or "" unsets it.
 */
FTC_API int ftc_symbols_set_root(struct ftc_symbols *s, const char *dir);

/*
 * Kernel names from elsewhere than a kallsyms file (the copy stored in a
 * trace.dat): ftc_symbols_kernel asks fn when no kallsyms was loaded.
 */
typedef const char *(*ftc_symbols_kernel_fn)(void *ctx, uint64_t addr, uint64_t *off);
FTC_API void ftc_symbols_set_kernel_resolver(struct ftc_symbols *s, ftc_symbols_kernel_fn fn,
					     void *ctx);
/* The module that holds addr, as kallsyms tags it (NULL: the kernel image). */
typedef const char *(*ftc_symbols_module_fn)(void *ctx, uint64_t addr);
FTC_API void ftc_symbols_set_module_resolver(struct ftc_symbols *s, ftc_symbols_module_fn fn,
					     void *ctx);
/* A kernel address's DSO as perf names it: "[MODULE]" or "[kernel.kallsyms]". */
FTC_API const char *ftc_symbols_kernel_dso(struct ftc_symbols *s, uint64_t addr);

/* The name of syscall nr ("openat") on the machine libftc was built for;
 * NULL when nr or the machine is unknown to it. */
FTC_API const char *ftc_syscall_host_name(long nr);

#ifdef __cplusplus
}
#endif

#endif
