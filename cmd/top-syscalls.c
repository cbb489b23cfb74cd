// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The x86_64 syscall names for ftc top's syscall view. The table is
 * generated at build time from the installed kernel headers
 * (scripts/syscall-names.awk on asm/unistd_64.h); a build without them
 * gets an empty table and the view shows "sys_NR".
 */
#include "top.h"

static const char *const names[] = {
#include "syscall-names.h"
};

size_t top_syscall_count(void)
{
	return sizeof(names) / sizeof(names[0]);
}

/* NULL when the headers did not name nr. */
const char *top_syscall_name(uint64_t nr)
{
	return nr < top_syscall_count() ? names[nr] : NULL;
}
