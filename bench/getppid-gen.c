// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The benchmarks' load (bench/lib.sh build_rate_gen): NTHREADS threads, the
 * i-th pinned to CPU i, each calling getppid RATE times a second (0: flat
 * out) for SECS seconds. Prints the calls made; with a fourth argument
 * "cpu", also its own CPU seconds (for a tool that runs it as its child,
 * whose CPU time then includes the load's).
 *   getppid-gen RATE SECS NTHREADS [cpu]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long rate, done[256];
static double secs;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Sleeps off what the thread is ahead of its rate. */
static void pace(long n, double t0)
{
	long ahead = n - (long)((now() - t0) * rate);

	if (ahead > 0 && ahead < rate) {
		struct timespec s = { 0, ahead * 1000000000L / rate };

		nanosleep(&s, NULL);
	}
}

static void *run(void *arg)
{
	long id = (long)arg, n = 0;
	double t0 = now(), t;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(id, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while ((t = now()) - t0 < secs) {
		long want = rate ? (long)((t - t0) * rate) + 1000 : n + 1000;

		while (n < want) {
			syscall(SYS_getppid);
			n++;
		}
		if (rate)
			pace(n, t0);
	}
	done[id] = n;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[256];
	long total = 0;
	struct rusage ru;
	int nt;

	if (argc < 4)
		return 2;
	rate = atol(argv[1]);
	secs = atof(argv[2]);
	nt = atoi(argv[3]);
	if (nt < 1 || nt > 256)
		return 2;
	for (long i = 0; i < nt; i++)
		pthread_create(&th[i], NULL, run, (void *)i);
	for (int i = 0; i < nt; i++) {
		pthread_join(th[i], NULL);
		total += done[i];
	}
	if (argc < 5 || strcmp(argv[4], "cpu")) {
		printf("%ld\n", total);
		return 0;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("%ld %.6f\n", total, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}
