/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The command a session traces or counts, forked and held before its exec
 * (libftc/control/workload.c).
 */
#ifndef FTC_WORKLOAD_H
#define FTC_WORKLOAD_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A command forked and held before exec, so counters open on its pid first
 * (workload.c). spawn forks and returns it; start releases it to exec
 * (fails with the exec's errno); reap waits and keeps its status and
 * rusage; free lets go of it without waiting. A NULL workload stands for
 * no command: reap, kill and free do nothing, exited is true, its pid is 0,
 * its pidfd -1 (start, exit_code and rusage need a real one).
 */
struct ftc_workload;
FTC_API struct ftc_workload *ftc_workload_spawn(char **argv);
FTC_API int ftc_workload_start(struct ftc_workload *w);
FTC_API void ftc_workload_reap(struct ftc_workload *w);
/* Whether it has exited (without reaping it): for kernels without pidfd. */
FTC_API bool ftc_workload_exited(const struct ftc_workload *w);
FTC_API void ftc_workload_kill(struct ftc_workload *w);
/* Frees it; a command not reaped yet runs on (and is not waited for). */
FTC_API void ftc_workload_free(struct ftc_workload *w);
/* Exit status, or 128 + signal, as a shell reports it. */
FTC_API int ftc_workload_exit_code(const struct ftc_workload *w);
/* Its pid, 0 once reaped. */
FTC_API pid_t ftc_workload_pid(const struct ftc_workload *w);
/* A descriptor readable when it exits: -1 on kernels without pidfd, or once reaped. */
FTC_API int ftc_workload_pidfd(const struct ftc_workload *w);
/* Its resource usage, once reaped (zero before). */
FTC_API const struct rusage *ftc_workload_rusage(const struct ftc_workload *w);

#ifdef __cplusplus
}
#endif

#endif
