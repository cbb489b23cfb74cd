// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public face of the syscall tables (base/syscall-table.c): those stay
 * internal because the plugins link them too, and a plugin exports only
 * its loader.
 */
#include "ftc-symbols.h"
#include "syscall-table.h"

const char *ftc_syscall_host_name(long nr)
{
	return ftc_syscall_name(ftc_syscall_host_arch(), nr);
}
