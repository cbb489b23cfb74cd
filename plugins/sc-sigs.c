// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The arguments ftc decodes, for the syscalls a kernel developer reads
 * most in a trace: file I/O and descriptors, opening and stat-ing paths,
 * memory mappings, signals, process creation and exit, and the calls that
 * take no argument (so that getpid() prints as getpid()). A syscall not
 * listed here prints its six raw arguments in hex. Kinds as in the
 * syscall's man page; the order is that of the kernel's SYSCALL_DEFINE.
 */
#include <stddef.h>
#include <string.h>

#include "sc-decode.h"

#define S(n, r, ...) { n, sizeof((unsigned char[]){ __VA_ARGS__ }), r, { __VA_ARGS__ } }
#define S0(n) { n, 0, R_DEC, { 0 } }

static const struct sc_sig sigs[] = {
	/* I/O */
	S("read", R_DEC, K_FD, K_PTR, K_UDEC),
	S("write", R_DEC, K_FD, K_PTR, K_UDEC),
	S("pread64", R_DEC, K_FD, K_PTR, K_UDEC, K_DEC),
	S("pwrite64", R_DEC, K_FD, K_PTR, K_UDEC, K_DEC),
	S("readv", R_DEC, K_FD, K_PTR, K_UDEC),
	S("writev", R_DEC, K_FD, K_PTR, K_UDEC),
	S("lseek", R_DEC, K_FD, K_DEC, K_WHENCE),
	S("sendfile", R_DEC, K_FD, K_FD, K_PTR, K_UDEC),
	S("fsync", R_DEC, K_FD),
	S("fdatasync", R_DEC, K_FD),
	S("ftruncate", R_DEC, K_FD, K_DEC),
	S("getdents64", R_DEC, K_FD, K_PTR, K_UDEC),
	S("ioctl", R_DEC, K_FD, K_HEX, K_HEX),
	S("fcntl", R_DEC, K_FD, K_DEC, K_HEX),
	/* descriptors */
	S("open", R_DEC, K_PTR, K_OFLAGS, K_OMODE),
	S("openat", R_DEC, K_FD, K_PTR, K_OFLAGS, K_OMODE),
	S("openat2", R_DEC, K_FD, K_PTR, K_PTR, K_UDEC),
	S("creat", R_DEC, K_PTR, K_MODE),
	S("close", R_DEC, K_FD),
	S("dup", R_DEC, K_FD),
	S("dup2", R_DEC, K_FD, K_FD),
	S("dup3", R_DEC, K_FD, K_FD, K_OFLAGS),
	S("pipe", R_DEC, K_PTR),
	S("pipe2", R_DEC, K_PTR, K_OFLAGS),
	S("epoll_wait", R_DEC, K_FD, K_PTR, K_DEC, K_DEC),
	S("epoll_pwait", R_DEC, K_FD, K_PTR, K_DEC, K_DEC, K_PTR, K_UDEC),
	S("poll", R_DEC, K_PTR, K_UDEC, K_DEC),
	S("ppoll", R_DEC, K_PTR, K_UDEC, K_PTR, K_PTR, K_UDEC),
	/* paths */
	S("stat", R_DEC, K_PTR, K_PTR),
	S("lstat", R_DEC, K_PTR, K_PTR),
	S("fstat", R_DEC, K_FD, K_PTR),
	S("newfstatat", R_DEC, K_FD, K_PTR, K_PTR, K_AT),
	S("statx", R_DEC, K_FD, K_PTR, K_AT, K_HEX, K_PTR),
	S("access", R_DEC, K_PTR, K_DEC),
	S("faccessat", R_DEC, K_FD, K_PTR, K_DEC),
	S("faccessat2", R_DEC, K_FD, K_PTR, K_DEC, K_AT),
	S("readlink", R_DEC, K_PTR, K_PTR, K_UDEC),
	S("readlinkat", R_DEC, K_FD, K_PTR, K_PTR, K_UDEC),
	S("unlink", R_DEC, K_PTR),
	S("unlinkat", R_DEC, K_FD, K_PTR, K_AT),
	S("mkdir", R_DEC, K_PTR, K_MODE),
	S("mkdirat", R_DEC, K_FD, K_PTR, K_MODE),
	S("rename", R_DEC, K_PTR, K_PTR),
	S("renameat", R_DEC, K_FD, K_PTR, K_FD, K_PTR),
	S("renameat2", R_DEC, K_FD, K_PTR, K_FD, K_PTR, K_HEX),
	S("chdir", R_DEC, K_PTR),
	S("fchdir", R_DEC, K_FD),
	S("truncate", R_DEC, K_PTR, K_DEC),
	/* memory */
	S("mmap", R_ADDR, K_PTR, K_HEX, K_PROT, K_MMAP, K_FD, K_HEX),
	S("munmap", R_DEC, K_PTR, K_HEX),
	S("mprotect", R_DEC, K_PTR, K_HEX, K_PROT),
	S("pkey_mprotect", R_DEC, K_PTR, K_HEX, K_PROT, K_DEC),
	S("mremap", R_ADDR, K_PTR, K_HEX, K_HEX, K_HEX, K_PTR),
	S("madvise", R_DEC, K_PTR, K_HEX, K_DEC),
	S("brk", R_ADDR, K_PTR),
	/* signals */
	S("kill", R_DEC, K_PID, K_SIG),
	S("tkill", R_DEC, K_PID, K_SIG),
	S("tgkill", R_DEC, K_PID, K_PID, K_SIG),
	S("rt_sigqueueinfo", R_DEC, K_PID, K_SIG, K_PTR),
	S("rt_tgsigqueueinfo", R_DEC, K_PID, K_PID, K_SIG, K_PTR),
	S("pidfd_send_signal", R_DEC, K_FD, K_SIG, K_PTR, K_HEX),
	S("rt_sigaction", R_DEC, K_SIG, K_PTR, K_PTR, K_UDEC),
	S("rt_sigprocmask", R_DEC, K_SIGHOW, K_PTR, K_PTR, K_UDEC),
	/* processes */
	S("clone", R_DEC, K_CLONE, K_PTR, K_PTR, K_PTR, K_HEX),
	S("clone3", R_DEC, K_PTR, K_UDEC),
	S("execve", R_DEC, K_PTR, K_PTR, K_PTR),
	S("execveat", R_DEC, K_FD, K_PTR, K_PTR, K_PTR, K_AT),
	S("exit", R_DEC, K_DEC),
	S("exit_group", R_DEC, K_DEC),
	S("wait4", R_DEC, K_PID, K_PTR, K_HEX, K_PTR),
	S("set_tid_address", R_DEC, K_PTR),
	S("prlimit64", R_DEC, K_PID, K_DEC, K_PTR, K_PTR),
	S("sched_setaffinity", R_DEC, K_PID, K_UDEC, K_PTR),
	S("sched_getaffinity", R_DEC, K_PID, K_UDEC, K_PTR),
	S("futex", R_DEC, K_PTR, K_DEC, K_DEC, K_PTR, K_PTR, K_DEC),
	S("nanosleep", R_DEC, K_PTR, K_PTR),
	S("clock_nanosleep", R_DEC, K_DEC, K_HEX, K_PTR, K_PTR),
	S("getrandom", R_DEC, K_PTR, K_UDEC, K_HEX),
	S("perf_event_open", R_DEC, K_PTR, K_PID, K_DEC, K_FD, K_HEX),
	S("bpf", R_DEC, K_DEC, K_PTR, K_UDEC),
	S0("getpid"), S0("getppid"), S0("gettid"), S0("getuid"), S0("geteuid"),
	S0("getgid"), S0("getegid"), S0("getpgrp"), S0("setsid"), S0("sched_yield"),
	S0("fork"), S0("vfork"), S0("pause"), S0("sync"), S0("rt_sigreturn"),
	S0("munlockall"), S0("inotify_init"),
};

#define NSIGS (sizeof(sigs) / sizeof(sigs[0]))

const struct sc_sig *sc_sig_find(const char *name)
{
	for (size_t i = 0; i < NSIGS; i++)
		if (!strcmp(sigs[i].name, name))
			return &sigs[i];
	return NULL;
}

const struct sc_sig *sc_sig_at(unsigned int i)
{
	return i < NSIGS ? &sigs[i] : NULL;
}
