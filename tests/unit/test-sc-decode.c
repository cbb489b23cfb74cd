// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the syscall argument decoding of plugin_ftc_syscalls
 * (plugins/sc-decode.c, sc-sigs.c): flags of both architectures (arm64
 * numbers four open flags differently), clone flags with the exit signal,
 * signals past the named ones, errno names (the kernel's own ERESTARTSYS
 * too), addresses that are not errors, and the signatures' shapes.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "syscall-table.h"
/* plugins/ is not a library: the files under test are built in. */
#include "../../plugins/sc-decode.c"
#include "../../plugins/sc-sigs.c"

static char out[256];

static const char *arg(int arch, enum sc_kind k, unsigned long long v)
{
	struct trace_seq s;

	trace_seq_init(&s);
	sc_put_arg(&s, arch, k, v);
	trace_seq_terminate(&s);
	snprintf(out, sizeof(out), "%s", s.buffer);
	trace_seq_destroy(&s);
	return out;
}

static const char *ret(enum sc_ret r, long long v)
{
	struct trace_seq s;

	trace_seq_init(&s);
	sc_put_ret(&s, r, v);
	trace_seq_terminate(&s);
	snprintf(out, sizeof(out), "%s", s.buffer);
	trace_seq_destroy(&s);
	return out;
}

int main(void)
{
	const int x86 = FTC_SC_X86_64, arm = FTC_SC_ARM64;
	const struct sc_sig *sig;

	CHECK_STR("sc-decode: AT_FDCWD", arg(x86, K_FD, 0xffffff9cULL), "AT_FDCWD");
	CHECK_STR("sc-decode: fd -1", arg(x86, K_FD, 0xffffffffULL), "-1");
	CHECK_STR("sc-decode: O_RDONLY|O_CLOEXEC", arg(x86, K_OFLAGS, 02000000), "O_RDONLY|O_CLOEXEC");
	CHECK_STR("sc-decode: x86_64 O_DIRECTORY", arg(x86, K_OFLAGS, 0200000), "O_RDONLY|O_DIRECTORY");
	CHECK_STR("sc-decode: arm64 O_DIRECTORY", arg(arm, K_OFLAGS, 040000), "O_RDONLY|O_DIRECTORY");
	CHECK_STR("sc-decode: x86_64 040000 is O_DIRECT", arg(x86, K_OFLAGS, 040000), "O_RDONLY|O_DIRECT");
	CHECK_STR("sc-decode: O_WRONLY|O_CREAT|O_TRUNC", arg(x86, K_OFLAGS, 01101),
		  "O_WRONLY|O_CREAT|O_TRUNC");
	CHECK_STR("sc-decode: O_SYNC is both bits", arg(x86, K_OFLAGS, 04010002), "O_RDWR|O_SYNC");
	CHECK_STR("sc-decode: O_TMPFILE", arg(x86, K_OFLAGS, 020200002), "O_RDWR|O_TMPFILE");
	CHECK_STR("sc-decode: unknown open bit in hex", arg(x86, K_OFLAGS, 0x80000000ULL),
		  "O_RDONLY|0x80000000");
	CHECK("sc-decode: O_CREAT takes a mode", sc_oflags_take_mode(x86, 0100));
	CHECK("sc-decode: O_RDONLY takes none", !sc_oflags_take_mode(x86, 02000000));
	CHECK_STR("sc-decode: mode", arg(x86, K_MODE, 0644), "0644");
	CHECK_STR("sc-decode: mode 0", arg(x86, K_MODE, 0), "0");
	CHECK_STR("sc-decode: PROT_NONE", arg(x86, K_PROT, 0), "PROT_NONE");
	CHECK_STR("sc-decode: PROT_READ|PROT_EXEC", arg(x86, K_PROT, 5), "PROT_READ|PROT_EXEC");
	CHECK_STR("sc-decode: MAP_PRIVATE|MAP_ANONYMOUS", arg(x86, K_MMAP, 0x22),
		  "MAP_PRIVATE|MAP_ANONYMOUS");
	CHECK_STR("sc-decode: x86_64 MAP_32BIT", arg(x86, K_MMAP, 0x42), "MAP_PRIVATE|MAP_32BIT");
	CHECK_STR("sc-decode: arm64 has no MAP_32BIT", arg(arm, K_MMAP, 0x42), "MAP_PRIVATE|0x40");
	CHECK_STR("sc-decode: clone of a thread", arg(x86, K_CLONE, 0x3d0f00),
		  "CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|"
		  "CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID");
	CHECK_STR("sc-decode: fork's clone", arg(x86, K_CLONE, 0x1200011),
		  "CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD");
	CHECK_STR("sc-decode: SIGUSR1", arg(x86, K_SIG, 10), "SIGUSR1");
	CHECK_STR("sc-decode: SIGKILL", arg(x86, K_SIG, 9), "SIGKILL");
	CHECK_STR("sc-decode: a real-time signal", arg(x86, K_SIG, 34), "SIGRTMIN+2");
	CHECK_STR("sc-decode: signal 0", arg(x86, K_SIG, 0), "0");
	CHECK_STR("sc-decode: AT_EMPTY_PATH", arg(x86, K_AT, 0x1000), "AT_EMPTY_PATH");
	CHECK_STR("sc-decode: no AT_ flag", arg(x86, K_AT, 0), "0");
	CHECK_STR("sc-decode: SEEK_END", arg(x86, K_WHENCE, 2), "SEEK_END");
	CHECK_STR("sc-decode: NULL", arg(x86, K_PTR, 0), "NULL");
	CHECK_STR("sc-decode: -2 ENOENT", ret(R_DEC, -2), "-2 ENOENT");
	CHECK_STR("sc-decode: -9 EBADF", ret(R_DEC, -9), "-9 EBADF");
	CHECK_STR("sc-decode: ERESTARTSYS", ret(R_DEC, -512), "-512 ERESTARTSYS");
	CHECK_STR("sc-decode: a count", ret(R_DEC, 4096), "4096");
	CHECK_STR("sc-decode: mmap's address", ret(R_ADDR, 0x7f3fdd05a000LL), "0x7f3fdd05a000");
	CHECK_STR("sc-decode: mmap's ENOMEM", ret(R_ADDR, -12), "-12 ENOMEM");
	CHECK_STR("sc-decode: past MAX_ERRNO is no error", ret(R_DEC, -4096), "-4096");
	sig = sc_sig_find("openat");
	CHECK("sc-decode: openat has 4 arguments", sig && sig->nargs == 4 && sig->kind[0] == K_FD &&
	      sig->kind[2] == K_OFLAGS && sig->kind[3] == K_OMODE);
	sig = sc_sig_find("getpid");
	CHECK("sc-decode: getpid has none", sig && sig->nargs == 0);
	CHECK("sc-decode: mmap returns an address", sc_sig_find("mmap")->ret == R_ADDR);
	CHECK("sc-decode: no signature for an unlisted syscall", !sc_sig_find("io_setup"));
	for (unsigned int i = 0; sc_sig_at(i); i++)
		if (ftc_syscall_nr(x86, sc_sig_at(i)->name) < 0 &&
		    ftc_syscall_nr(arm, sc_sig_at(i)->name) < 0)
			CHECK(sc_sig_at(i)->name, !"a signature names a syscall of no table");
	return CHECK_DONE();
}
