// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the generated syscall tables (scripts/gen-syscalls): the
 * numbers the kernel's uapi headers give on each architecture, the
 * machines a uname names, and numbers past the end.
 */
#include <stdio.h>

#include "check.h"
#include "syscall-table.h"

int main(void)
{
	int x86 = ftc_syscall_arch("x86_64"), arm = ftc_syscall_arch("aarch64");

	CHECK("syscall-table: x86_64 machine", x86 == FTC_SC_X86_64);
	CHECK("syscall-table: aarch64 machine", arm == FTC_SC_ARM64);
	CHECK("syscall-table: arm64 machine", ftc_syscall_arch("arm64") == FTC_SC_ARM64);
	CHECK("syscall-table: unknown machine", ftc_syscall_arch("riscv64") < 0);
	CHECK_STR("syscall-table: x86_64 0", ftc_syscall_name(x86, 0), "read");
	CHECK_STR("syscall-table: x86_64 257", ftc_syscall_name(x86, 257), "openat");
	CHECK_STR("syscall-table: x86_64 62", ftc_syscall_name(x86, 62), "kill");
	CHECK_STR("syscall-table: x86_64 435", ftc_syscall_name(x86, 435), "clone3");
	CHECK_STR("syscall-table: arm64 56", ftc_syscall_name(arm, 56), "openat");
	CHECK_STR("syscall-table: arm64 129", ftc_syscall_name(arm, 129), "kill");
	CHECK_STR("syscall-table: arm64 222", ftc_syscall_name(arm, 222), "mmap");
	CHECK_STR("syscall-table: arm64 80", ftc_syscall_name(arm, 80), "fstat");
	CHECK_STR("syscall-table: arm64 38", ftc_syscall_name(arm, 38), "renameat");
	CHECK("syscall-table: arm64 has no open", ftc_syscall_nr(arm, "open") < 0);
	CHECK("syscall-table: x86_64 openat nr", ftc_syscall_nr(x86, "openat") == 257);
	CHECK("syscall-table: past the end", !ftc_syscall_name(x86, 100000));
	CHECK("syscall-table: negative", !ftc_syscall_name(x86, -1));
	CHECK("syscall-table: no arch", !ftc_syscall_name(-1, 0));
	return CHECK_DONE();
}
