/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Syscall arguments and return values as a kernel developer reads them:
 * AT_FDCWD, open/mmap/clone flags, signal and errno names. The kinds of
 * each argument of the common syscalls are in sc-sigs.c.
 */
#ifndef FTC_SC_DECODE_H
#define FTC_SC_DECODE_H

#include <stdbool.h>
#include <trace-seq.h>

enum sc_kind {
	K_HEX,		/* 0x1f */
	K_PTR,		/* 0x7f.., NULL */
	K_DEC,		/* signed long */
	K_UDEC,		/* a size or a count */
	K_FD,		/* int; AT_FDCWD */
	K_PID,		/* int */
	K_OFLAGS,	/* O_RDONLY|O_CLOEXEC */
	K_MODE,		/* 0644 */
	K_OMODE,	/* a mode printed only with O_CREAT or O_TMPFILE */
	K_PROT,		/* PROT_READ|PROT_WRITE */
	K_MMAP,		/* MAP_PRIVATE|MAP_ANONYMOUS */
	K_SIG,		/* SIGUSR1 */
	K_CLONE,	/* CLONE_VM|...|SIGCHLD */
	K_AT,		/* AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH */
	K_WHENCE,	/* SEEK_SET */
	K_SIGHOW,	/* SIG_BLOCK */
};

enum sc_ret {
	R_DEC,		/* 3, -2 ENOENT */
	R_ADDR,		/* 0x7f.., -12 ENOMEM */
};

#define SC_MAXARGS 6

struct sc_sig {
	const char *name;
	unsigned char nargs;
	unsigned char ret;
	unsigned char kind[SC_MAXARGS];
};

/* The signature of syscall name; NULL if its arguments are not decoded. */
const struct sc_sig *sc_sig_find(const char *name);
/* Every signature, for the handlers of the syscalls:sys_enter_* events. */
const struct sc_sig *sc_sig_at(unsigned int i);

/* The FTC_SC_* of a table's name ("x86_64", "arm64"); x86_64 for another. */
int sc_arch_of(const char *name);
/* Prints one argument of kind k; arch is an FTC_SC_* (flag values differ). */
void sc_put_arg(struct trace_seq *s, int arch, enum sc_kind k, unsigned long long v);
/* Prints a return value: "3", "-2 ENOENT", "0x7f..". */
void sc_put_ret(struct trace_seq *s, enum sc_ret r, long long v);
/* Numbers as "%s%llx"/"%s%llu" (base 16, 10 or 8) and "%lld" print them, without vsnprintf. */
void sc_put_unsigned(struct trace_seq *s, const char *prefix, unsigned long long v,
		     unsigned int base);
void sc_put_signed(struct trace_seq *s, long long v);
/* Whether a mode argument is worth printing after these open flags. */
bool sc_oflags_take_mode(int arch, unsigned long long flags);

#endif
