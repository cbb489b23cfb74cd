// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of --call-graph dwarf's unwinding, without the kernel: this
 * program (built -O2, so without frame pointers) takes its own registers
 * and a copy of its stack deep in a chain outer -> middle -> leaf -> grab,
 * makes the PERF_RECORD_SAMPLE the kernel would make of them (with
 * PERF_SAMPLE_REGS_USER and _STACK_USER) and the MMAP records of its
 * code, and checks that a profile fed with them names the whole chain.
 * Also: a stack that was not copied leaves the sampled pc alone, a kernel
 * thread's sample keeps the kernel's chain, short records are refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"
#include "unwind.h"

#define TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
	      PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | \
	      PERF_SAMPLE_STACK_USER)
#define NREGS 17	/* x86_64: AX..IP (perf 0-8) and R8..R15 (16-23) */

static uint64_t regs[NREGS];
static unsigned char stack_copy[8192];
static uint64_t stack_size;
static volatile unsigned long sink;

/* Where the stack mapping ends: the copy must not read past it. */
static uint64_t stack_end(uint64_t sp)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long a, b;
	char line[512];
	uint64_t end = sp;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &a, &b) == 2 && sp >= a && sp < b)
			end = b;
	if (f)
		fclose(f);
	return end;
}

/* Raw bytes of other frames, as the kernel copies them: ASan's redzones too. */
__attribute__((no_sanitize_address)) static void copy_stack(uint64_t sp, uint64_t size)
{
	const volatile uint64_t *from = (const volatile uint64_t *)(uintptr_t)sp;

	for (uint64_t i = 0; i < size / 8; i++) {
		uint64_t v = from[i];

		memcpy(stack_copy + i * 8, &v, 8);
	}
}

#if defined(__x86_64__)
/* What the kernel copies at a sample: the registers, then the stack from sp up. */
__attribute__((noinline, noclone)) static void unit_grab(void)
{
	uint64_t sp;

	__asm__ volatile(
		"movq %%rax, 0(%0)\n\t"
		"movq %%rbx, 8(%0)\n\t"
		"movq %%rcx, 16(%0)\n\t"
		"movq %%rdx, 24(%0)\n\t"
		"movq %%rsi, 32(%0)\n\t"
		"movq %%rdi, 40(%0)\n\t"
		"movq %%rbp, 48(%0)\n\t"
		"movq %%rsp, 56(%0)\n\t"
		"movq %%r8, 72(%0)\n\t"
		"movq %%r9, 80(%0)\n\t"
		"movq %%r10, 88(%0)\n\t"
		"movq %%r11, 96(%0)\n\t"
		"movq %%r12, 104(%0)\n\t"
		"movq %%r13, 112(%0)\n\t"
		"movq %%r14, 120(%0)\n\t"
		"movq %%r15, 128(%0)\n\t"
		"leaq 0(%%rip), %%rax\n\t"
		"movq %%rax, 64(%0)\n\t"
		: : "r"(regs) : "rax", "memory");
	sp = regs[7];
	stack_size = stack_end(sp) - sp;
	if (stack_size > sizeof(stack_copy))
		stack_size = sizeof(stack_copy);
	stack_size &= ~7ULL;
	copy_stack(sp, stack_size);
}
#define HAVE_GRAB 1
#endif

#ifdef HAVE_GRAB
/* Work after each call keeps it a call: no tail call drops a frame. */
__attribute__((noinline, noclone)) static void unit_leaf(void)
{
	unit_grab();
	sink++;
}

__attribute__((noinline, noclone)) static void unit_middle(void)
{
	unit_leaf();
	sink += 2;
}

__attribute__((noinline, noclone)) static void unit_outer(void)
{
	unit_middle();
	sink += 3;
}
#endif

static void put_header(uint64_t *w, uint32_t type, uint16_t misc, size_t words)
{
	struct perf_event_header h = { type, misc, (uint16_t)(words * 8) };

	memcpy(w, &h, sizeof(h));
}

static void feed_maps(struct ftc_perf_profile *p, uint32_t pid)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	unsigned char buf[8192];
	struct perf_event_header *h = (void *)buf;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		char perms[8];
		int at = 0;
		uint64_t *q;
		size_t len;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &a, &b, perms, &off, &at) < 4 ||
		    perms[2] != 'x' || !at || line[at] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		len = strlen(line + at) + 1;
		memset(buf, 0, sizeof(buf));
		*h = (struct perf_event_header){ PERF_RECORD_MMAP, 0,
						 (uint16_t)(8 + 8 + 24 + ((len + 7) & ~7UL)) };
		((uint32_t *)(h + 1))[0] = pid;
		((uint32_t *)(h + 1))[1] = pid;
		q = (uint64_t *)(h + 1) + 1;
		q[0] = a;
		q[1] = b - a;
		q[2] = off;
		memcpy(q + 3, line + at, len);
		ftc_perf_profile_add(h, p);
	}
	if (f)
		fclose(f);
}

/* The sample record of the grabbed state; stack bytes copied: size. */
static size_t make_sample(uint64_t *w, uint32_t pid, uint32_t tid, uint64_t abi, uint64_t size)
{
	size_t n = 1;

	w[n++] = regs[8];			/* ip */
	w[n++] = pid | (uint64_t)tid << 32;
	w[n++] = 1000;				/* time */
	w[n++] = 0;				/* cpu */
	w[n++] = 1;				/* period */
	w[n++] = 0;				/* callchain: none from the kernel (user mode) */
	w[n++] = abi;
	if (abi) {
		memcpy(&w[n], regs, sizeof(regs));
		n += NREGS;
	}
	w[n++] = size;
	if (size) {
		memcpy(&w[n], stack_copy, size);
		n += size / 8;
		w[n++] = size;			/* dyn_size */
	}
	put_header(w, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, n);
	return n;
}

static int frames(struct ftc_perf_profile *p, struct ftc_symbols *syms, size_t i,
		  char *names, size_t size)
{
	struct ftc_perf_frame fr[32];
	int n = ftc_perf_profile_frames(p, syms, i, fr, 32);
	size_t len = 0;

	names[0] = '\0';
	for (int k = 0; k < n && len + 1 < size; k++)
		len += (size_t)snprintf(names + len, size - len, "%s%s", k ? ";" : "", fr[k].sym);
	return n;
}

__attribute__((noinline)) static void test_unwind(void)
{
	static uint64_t w[(8 + NREGS + 8192 / 8 + 16)];
	struct ftc_perf_profile *p = ftc_perf_profile_new(TYPE);
	struct ftc_symbols *syms = ftc_symbols_new();
	uint32_t pid = (uint32_t)getpid(), tid = (uint32_t)syscall(SYS_gettid);
	static char names[4096];
	int n;

#ifdef HAVE_GRAB
	unit_outer();
#endif
	CHECK("the sampled registers: perf's 17 on x86_64",
	      __builtin_popcountll(ftc_unwind_regs_mask()) == NREGS &&
	      ftc_unwind_regs_mask() == 0xff01ffULL);
	CHECK("a stack was copied", stack_size >= 512);
	p->regs_user = ftc_unwind_regs_mask();
	feed_maps(p, pid);

	make_sample(w, pid, tid, PERF_SAMPLE_REGS_ABI_64, stack_size);
	CHECK("the sample is taken", ftc_perf_profile_add((void *)w, p) == 0 &&
	      ftc_perf_profile_nsamples(p) == 1);
	n = frames(p, syms, 0, names, sizeof(names));
	printf("# unwound: %s\n", names);
	CHECK("unwound without frame pointers: grab;leaf;middle;outer;test_unwind;main",
	      n >= 6 && strstr(names, "unit_grab;unit_leaf;unit_middle;unit_outer;test_unwind;"
			       "main") == names);
	CHECK("... and counted as unwound", p->unwound == 1);

	/* No stack copied (a thread whose stack could not be read): the pc alone. */
	make_sample(w, pid, tid, PERF_SAMPLE_REGS_ABI_64, 0);
	ftc_perf_profile_add((void *)w, p);
	n = frames(p, syms, 1, names, sizeof(names));
	CHECK("without its stack, only the sampled function", n >= 1 &&
	      !strncmp(names, "unit_grab", 9) && p->unwound == 1);

	/* A kernel thread: no user registers; the kernel's chain stands. */
	{
		uint64_t k[16] = { 0 };
		size_t m = 1;

		k[m++] = 0xffffffff81000010ULL;
		k[m++] = 0;			/* pid 0 */
		k[m++] = 2000;
		k[m++] = 0;
		k[m++] = 1;
		k[m++] = 2;			/* two callchain words */
		k[m++] = (uint64_t)PERF_CONTEXT_KERNEL;
		k[m++] = 0xffffffff81000010ULL;
		k[m++] = PERF_SAMPLE_REGS_ABI_NONE;
		k[m++] = 0;			/* no stack */
		put_header(k, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, m);
		CHECK("a kernel thread's sample is taken", ftc_perf_profile_add((void *)k, p) == 0);
		CHECK("... with its kernel chain alone",
		      p->samples[2].nr == 2 && p->ips[p->samples[2].at + 1] == 0xffffffff81000010ULL);
		/* Cut inside the registers: refused. */
		make_sample(w, pid, tid, PERF_SAMPLE_REGS_ABI_64, 0);
		put_header(w, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 12);
		CHECK("a record cut inside its registers is refused",
		      ftc_perf_profile_add((void *)w, p) < 0 && errno == EPROTO);
	}
	ftc_perf_profile_free(p);
	ftc_symbols_free(syms);
}

int main(void)
{
	if (!ftc_unwind_regs_mask()) {
		SKIP("dwarf unwinding", "no unwinder for this architecture");
		return CHECK_DONE();
	}
#ifndef HAVE_GRAB
	SKIP("dwarf unwinding", "this test grabs its registers on x86_64 only");
	return CHECK_DONE();
#else
	test_unwind();
	return CHECK_DONE();
#endif
}
