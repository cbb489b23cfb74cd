// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The board tests' workload (tests/lab/arm64.sh), built static for the
 * guest's architecture:
 *   workload loop N	runs an inline-asm loop of exactly 2 instructions per
 *			turn, N turns: an instruction count of known size
 *   workload hot N	spends N turns in hot_spin(), a function of its own,
 *			for ftc profile to find
 *   workload mixed N	hot N with a short sleep every N/20 turns, so that
 *			the scheduler and the timer interrupt have work
 *   workload sys N	N getppid system calls (bench/board.sh's load)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static void asm_loop(unsigned long n)
{
#if defined(__aarch64__)
	__asm__ volatile("1:	subs %0, %0, #1\n"
			 "	b.ne 1b\n" : "+r"(n) : : "cc");
#elif defined(__arm__)
	__asm__ volatile("1:	subs %0, %0, #1\n"
			 "	bne 1b\n" : "+r"(n) : : "cc");
#elif defined(__x86_64__)
	__asm__ volatile("1:	dec %0\n"
			 "	jnz 1b\n" : "+r"(n) : : "cc");
#else
#error "no asm loop for this architecture"
#endif
}

/* noinline: the profile must see this function, not main. */
static __attribute__((noinline)) unsigned long hot_spin(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i ^ (acc >> 3);
	return acc;
}

static void nap(void)
{
	struct timespec ts = { 0, 2000000 };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	unsigned long n, step;

	if (argc != 3 || !(n = strtoul(argv[2], NULL, 0))) {
		fprintf(stderr, "usage: workload loop|hot|mixed|sys TURNS\n");
		return 2;
	}
	if (!strcmp(argv[1], "loop")) {
		asm_loop(n);
	} else if (!strcmp(argv[1], "hot")) {
		printf("%lu\n", hot_spin(n) & 1);
	} else if (!strcmp(argv[1], "sys")) {
		/* syscall(): glibc might answer getppid() without entering */
		for (unsigned long i = 0; i < n; i++)
			syscall(SYS_getppid);
	} else if (!strcmp(argv[1], "mixed")) {
		step = n / 20 ? n / 20 : 1;
		for (unsigned long done = 0; done < n; done += step) {
			hot_spin(step);
			nap();
		}
	} else {
		fprintf(stderr, "workload: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	return 0;
}
