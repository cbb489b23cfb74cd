// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flag, signal and errno names for syscall arguments. The values come
 * from the kernel's uapi headers where x86_64 and arm64 agree (they share
 * asm-generic's numbering of signals, errnos, mmap and clone flags); the
 * four open flags arm64 numbers differently are in oflags_arm64[].
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/sched.h>

#include "ftc-syscalls.h"
#include "sc-decode.h"
#include "syscall-table.h"

struct flag {
	unsigned long long bits;
	const char *name;
};

#define F(x) { x, #x }

/* Octal, as asm-generic/fcntl.h has them; x86_64 uses these. */
static const struct flag oflags[] = {
	{ 020000000 | 0200000, "O_TMPFILE" },	/* __O_TMPFILE | O_DIRECTORY */
	{ 04000000 | 010000, "O_SYNC" },	/* __O_SYNC | O_DSYNC */
	{ 0100, "O_CREAT" }, { 0200, "O_EXCL" }, { 0400, "O_NOCTTY" },
	{ 01000, "O_TRUNC" }, { 02000, "O_APPEND" }, { 04000, "O_NONBLOCK" },
	{ 010000, "O_DSYNC" }, { 020000, "FASYNC" }, { 040000, "O_DIRECT" },
	{ 0100000, "O_LARGEFILE" }, { 0200000, "O_DIRECTORY" }, { 0400000, "O_NOFOLLOW" },
	{ 01000000, "O_NOATIME" }, { 02000000, "O_CLOEXEC" }, { 010000000, "O_PATH" },
};

/* arch/arm64/include/uapi/asm/fcntl.h moves four of them. */
static const struct flag oflags_arm64[] = {
	{ 020000000 | 040000, "O_TMPFILE" },
	{ 04000000 | 010000, "O_SYNC" },
	{ 0100, "O_CREAT" }, { 0200, "O_EXCL" }, { 0400, "O_NOCTTY" },
	{ 01000, "O_TRUNC" }, { 02000, "O_APPEND" }, { 04000, "O_NONBLOCK" },
	{ 010000, "O_DSYNC" }, { 020000, "FASYNC" }, { 040000, "O_DIRECTORY" },
	{ 0100000, "O_NOFOLLOW" }, { 0200000, "O_DIRECT" }, { 0400000, "O_LARGEFILE" },
	{ 01000000, "O_NOATIME" }, { 02000000, "O_CLOEXEC" }, { 010000000, "O_PATH" },
};

static const struct flag prot[] = {
	F(PROT_READ), F(PROT_WRITE), F(PROT_EXEC), F(PROT_SEM),
	F(PROT_GROWSDOWN), F(PROT_GROWSUP),
};

static const struct flag mmap_flags[] = {
	F(MAP_FIXED), F(MAP_ANONYMOUS), F(MAP_GROWSDOWN), F(MAP_DENYWRITE),
	F(MAP_EXECUTABLE), F(MAP_LOCKED), F(MAP_NORESERVE), F(MAP_POPULATE),
	F(MAP_NONBLOCK), F(MAP_STACK), F(MAP_HUGETLB), F(MAP_SYNC),
	F(MAP_FIXED_NOREPLACE), F(MAP_UNINITIALIZED),
};

static const struct flag clone_flags[] = {
	F(CLONE_VM), F(CLONE_FS), F(CLONE_FILES), F(CLONE_SIGHAND), F(CLONE_PIDFD),
	F(CLONE_PTRACE), F(CLONE_VFORK), F(CLONE_PARENT), F(CLONE_THREAD),
	F(CLONE_NEWNS), F(CLONE_SYSVSEM), F(CLONE_SETTLS), F(CLONE_PARENT_SETTID),
	F(CLONE_CHILD_CLEARTID), F(CLONE_DETACHED), F(CLONE_UNTRACED),
	F(CLONE_CHILD_SETTID), F(CLONE_NEWCGROUP), F(CLONE_NEWUTS), F(CLONE_NEWIPC),
	F(CLONE_NEWUSER), F(CLONE_NEWPID), F(CLONE_NEWNET), F(CLONE_IO),
};

static const struct flag at_flags[] = {
	F(AT_SYMLINK_NOFOLLOW), F(AT_REMOVEDIR), F(AT_SYMLINK_FOLLOW),
	F(AT_NO_AUTOMOUNT), F(AT_EMPTY_PATH), F(AT_STATX_FORCE_SYNC),
	F(AT_STATX_DONT_SYNC), F(AT_RECURSIVE),
};

/* The kernel's numbers (asm-generic/signal.h), the same on both. */
static const struct flag signals[] = {
	F(SIGHUP), F(SIGINT), F(SIGQUIT), F(SIGILL), F(SIGTRAP), F(SIGABRT),
	F(SIGBUS), F(SIGFPE), F(SIGKILL), F(SIGUSR1), F(SIGSEGV), F(SIGUSR2),
	F(SIGPIPE), F(SIGALRM), F(SIGTERM), F(SIGSTKFLT), F(SIGCHLD), F(SIGCONT),
	F(SIGSTOP), F(SIGTSTP), F(SIGTTIN), F(SIGTTOU), F(SIGURG), F(SIGXCPU),
	F(SIGXFSZ), F(SIGVTALRM), F(SIGPROF), F(SIGWINCH), F(SIGIO), F(SIGPWR),
	F(SIGSYS),
};

#define KERNEL_SIGRTMIN	32	/* glibc's SIGRTMIN is 34: it keeps two */
#define KERNEL_SIGRTMAX	64
#define MAX_ERRNO	4095

static const char *const whence[] = { "SEEK_SET", "SEEK_CUR", "SEEK_END", "SEEK_DATA",
				      "SEEK_HOLE" };
static const char *const sighow[] = { "SIG_BLOCK", "SIG_UNBLOCK", "SIG_SETMASK" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A syscall-heavy trace prints millions of numbers: no vsnprintf for them. */
void sc_put_unsigned(struct trace_seq *s, const char *prefix, unsigned long long v,
		     unsigned int base)
{
	char b[48], *p = b + sizeof(b);
	size_t n = strlen(prefix);

	*--p = '\0';
	do {
		*--p = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (n > 16)
		n = 16;
	p -= n;
	memcpy(p, prefix, n);
	trace_seq_puts(s, p);
}

void sc_put_signed(struct trace_seq *s, long long v)
{
	if (v < 0)
		sc_put_unsigned(s, "-", 0ULL - (unsigned long long)v, 10);
	else
		sc_put_unsigned(s, "", (unsigned long long)v, 10);
}

/* Names of the bits set, '|'-separated, what no name covers in hex. */
static void put_flags(struct trace_seq *s, unsigned long long v, const struct flag *t, size_t n,
		      bool sep)
{
	for (size_t i = 0; i < n; i++) {
		if (!t[i].bits || (v & t[i].bits) != t[i].bits)
			continue;
		if (sep)
			trace_seq_putc(s, '|');
		trace_seq_puts(s, t[i].name);
		v &= ~t[i].bits;
		sep = true;
	}
	if (v)
		sc_put_unsigned(s, sep ? "|0x" : "0x", v, 16);
	else if (!sep)
		trace_seq_putc(s, '0');
}

static void put_sig(struct trace_seq *s, long long v)
{
	for (size_t i = 0; i < N(signals); i++)
		if (signals[i].bits == (unsigned long long)v) {
			trace_seq_puts(s, signals[i].name);
			return;
		}
	if (v >= KERNEL_SIGRTMIN && v <= KERNEL_SIGRTMAX)
		trace_seq_printf(s, "SIGRTMIN+%lld", v - KERNEL_SIGRTMIN);
	else
		trace_seq_printf(s, "%lld", v);
}

static void put_oflags(struct trace_seq *s, int arch, unsigned long long v)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };

	v &= 0xffffffffULL;
	trace_seq_puts(s, acc[v & 3]);
	if (arch == FTC_SC_ARM64)
		put_flags(s, v & ~3ULL, oflags_arm64, N(oflags_arm64), true);
	else
		put_flags(s, v & ~3ULL, oflags, N(oflags), true);
}

bool sc_oflags_take_mode(int arch, unsigned long long flags)
{
	unsigned long long tmpfile = arch == FTC_SC_ARM64 ? oflags_arm64[0].bits : oflags[0].bits;

	return (flags & 0100) || (flags & tmpfile) == tmpfile;
}

static void put_mmap(struct trace_seq *s, int arch, unsigned long long v)
{
	static const char *const type[] = { "0", "MAP_SHARED", "MAP_PRIVATE",
					     "MAP_SHARED_VALIDATE" };
	unsigned int t = v & 0xf;

	if (t < N(type))
		trace_seq_puts(s, type[t]);
	else
		trace_seq_printf(s, "0x%x", t);
	v &= ~0xfULL;
	/* MAP_32BIT: x86 only (arch/x86/include/uapi/asm/mman.h) */
	if (arch == FTC_SC_X86_64 && (v & 0x40)) {
		trace_seq_puts(s, "|MAP_32BIT");
		v &= ~0x40ULL;
	}
	if (v)
		put_flags(s, v, mmap_flags, N(mmap_flags), true);
}

static void put_clone(struct trace_seq *s, unsigned long long v)
{
	unsigned long long sig = v & CSIGNAL;

	v &= ~(unsigned long long)CSIGNAL;
	if (v)
		put_flags(s, v, clone_flags, N(clone_flags), false);
	if (sig) {
		if (v)
			trace_seq_putc(s, '|');
		put_sig(s, (long long)sig);
	} else if (!v) {
		trace_seq_putc(s, '0');
	}
}

static void put_index(struct trace_seq *s, unsigned long long v, const char *const *t, size_t n)
{
	if (v < n)
		trace_seq_puts(s, t[v]);
	else
		trace_seq_printf(s, "%lld", (long long)v);
}

void sc_put_arg(struct trace_seq *s, int arch, enum sc_kind k, unsigned long long v)
{
	switch (k) {
	case K_PTR:
		if (!v) {
			trace_seq_puts(s, "NULL");
			break;
		}
		/* fall through */
	case K_HEX:
		sc_put_unsigned(s, "0x", v, 16);
		break;
	case K_DEC:
		sc_put_signed(s, (long long)v);
		break;
	case K_UDEC:
		sc_put_unsigned(s, "", v, 10);
		break;
	case K_FD:
		if ((int)v == AT_FDCWD)
			trace_seq_puts(s, "AT_FDCWD");
		else
			sc_put_signed(s, (int)v);
		break;
	case K_PID:
		sc_put_signed(s, (int)v);
		break;
	case K_OFLAGS:
		put_oflags(s, arch, v);
		break;
	case K_MODE:
	case K_OMODE:
		sc_put_unsigned(s, v ? "0" : "", v, 8);
		break;
	case K_PROT:
		if (v)
			put_flags(s, v, prot, N(prot), false);
		else
			trace_seq_puts(s, "PROT_NONE");
		break;
	case K_MMAP:
		put_mmap(s, arch, v);
		break;
	case K_SIG:
		put_sig(s, (int)v);
		break;
	case K_CLONE:
		put_clone(s, v);
		break;
	case K_AT:
		put_flags(s, v, at_flags, N(at_flags), false);
		break;
	case K_WHENCE:
		put_index(s, v, whence, N(whence));
		break;
	case K_SIGHOW:
		put_index(s, v, sighow, N(sighow));
		break;
	}
}

int sc_arch_of(const char *name)
{
	return name && !strcmp(name, "arm64") ? FTC_SC_ARM64 : FTC_SC_X86_64;
}

void sc_put_ret(struct trace_seq *s, enum sc_ret r, long long v)
{
	const char *name;

	if (v < 0 && v >= -MAX_ERRNO) {
		name = ftc_syscall_errno_name(v);
		sc_put_signed(s, v);
		if (name) {
			trace_seq_putc(s, ' ');
			trace_seq_puts(s, name);
		}
		return;
	}
	if (r == R_ADDR)
		sc_put_unsigned(s, "0x", (unsigned long long)v, 16);
	else
		sc_put_signed(s, v);
}
