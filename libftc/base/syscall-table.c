// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lookups over the generated syscall tables (syscall-names.c, made by
 * scripts/gen-syscalls in the build folder).
 */
#include <string.h>

#include "ftc-syscalls.h"

#include "syscall-table.h"

int ftc_syscall_arch(const char *machine)
{
	if (!machine)
		return -1;
	if (!strcmp(machine, "x86_64") || !strcmp(machine, "amd64"))
		return FTC_SC_X86_64;
	if (!strcmp(machine, "aarch64") || !strcmp(machine, "arm64") ||
	    !strcmp(machine, "aarch64_be"))
		return FTC_SC_ARM64;
	return -1;
}

int ftc_syscall_host_arch(void)
{
#if defined(__x86_64__)
	return FTC_SC_X86_64;
#elif defined(__aarch64__)
	return FTC_SC_ARM64;
#else
	return -1;
#endif
}

const char *ftc_syscall_name(int arch, long nr)
{
	const struct ftc_syscall_table *t;

	if (arch < 0 || arch >= FTC_SC_NARCH || nr < 0)
		return NULL;
	t = &ftc_syscall_tables[arch];
	return (unsigned long)nr < t->count ? t->names[nr] : NULL;
}

long ftc_syscall_nr(int arch, const char *name)
{
	const struct ftc_syscall_table *t;

	if (arch < 0 || arch >= FTC_SC_NARCH || !name)
		return -1;
	t = &ftc_syscall_tables[arch];
	for (unsigned int i = 0; i < t->count; i++)
		if (t->names[i] && !strcmp(t->names[i], name))
			return (long)i;
	return -1;
}

/* Kernel-internal errnos (include/linux/errno.h) a syscall exit can show. */
static const char *const restart_names[] = {
	"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD",
	"ERESTART_RESTARTBLOCK", "EPROBE_DEFER", "EOPENSTALE", "ENOPARAM",
};
#define RESTART_FIRST 512
#define MAX_ERRNO 4095

const char *ftc_syscall_errno_name(long long ret)
{
	const char *name;
	long long e = -ret;

	if (ret >= 0 || e > MAX_ERRNO)
		return NULL;
	name = strerrorname_np((int)e);
	if (!name && e >= RESTART_FIRST &&
	    e < RESTART_FIRST + (long long)(sizeof(restart_names) / sizeof(*restart_names)))
		name = restart_names[e - RESTART_FIRST];
	return name;
}
