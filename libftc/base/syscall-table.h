/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscall names by number for the architectures whose traces ftc reads.
 * The tables are generated at build time from the kernel's uapi headers
 * by scripts/gen-syscalls; a trace says its architecture in its uname
 * (the machine field), which ftc_syscall_arch() maps to a table.
 */
#ifndef FTC_SYSCALL_TABLE_H
#define FTC_SYSCALL_TABLE_H

enum ftc_sc_arch {
	FTC_SC_X86_64,
	FTC_SC_ARM64,
	FTC_SC_NARCH
};

struct ftc_syscall_table {
	const char *arch;
	const char *const *names;	/* by number; NULL where there is none */
	unsigned int count;
};

extern const struct ftc_syscall_table ftc_syscall_tables[FTC_SC_NARCH];

/* A uname machine ("x86_64", "aarch64", "arm64") or table name; -1: none. */
int ftc_syscall_arch(const char *machine);
/* The table of the machine ftc was built for; -1: none. */
int ftc_syscall_host_arch(void);
/* The name of syscall nr on arch; NULL if arch or nr is unknown. */
const char *ftc_syscall_name(int arch, long nr);
/* The number of the syscall called name on arch; -1 if there is none. */
long ftc_syscall_nr(int arch, const char *name);

#endif
