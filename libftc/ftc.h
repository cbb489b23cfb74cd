/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftc: ftrace control through tracefs, per-CPU capture into trace.dat,
 * trace.dat reading, and the perf_event_open bridge.
 *
 * Conventions: functions return 0 (or a count) on success and -1 on
 * failure with errno set and a message for the user in ftc_strerror().
 */
#ifndef FTC_H
#define FTC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

FTC_API const char *ftc_version(void);

/* Errors: the last failure's message, per thread. */
FTC_API const char *ftc_strerror(void);
FTC_API int ftc_error(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
FTC_API int ftc_verror(int err, const char *fmt, va_list ap);

/* tracefs basics. instance NULL or "" is the top-level buffer. */
FTC_API const char *ftc_tracefs_dir(void);
FTC_API char *ftc_tracefs_path(const char *instance, const char *file);
FTC_API int ftc_tracefs_read(const char *instance, const char *file, char **buf, size_t *len);
/* The trace clock in use (the bracketed name in trace_clock); free() it. */
FTC_API char *ftc_tracefs_clock(const char *instance);
/* Is word one of the blank-separated words of a tracefs list, such as
 * available_tracers or trace_clock ("[local] global")? Never for "". */
FTC_API bool ftc_tracefs_word_in(const char *list, const char *word);
/* open(2) of an instance's file, close-on-exec: the fd, or -errno with no
 * message (ENODEV: tracefs is not mounted; ENOENT: no such instance or
 * file), for the caller to word. */
FTC_API int ftc_tracefs_open(const char *instance, const char *file, int flags);

/* The kernel's files beside tracefs. /proc/kallsyms whole, as
 * ftc_tracefs_read reads a file. /proc/sys/kernel/NAME ("ftrace_enabled"),
 * read (trailing newline removed; free() it) or written: 0 or -errno with
 * no message. */
FTC_API int ftc_kallsyms_read(char **buf, size_t *len);
FTC_API int ftc_sysctl_read(const char *name, char **value);
FTC_API int ftc_sysctl_write(const char *name, const char *value);
/* The name of task pid (a thread's too) as /proc/PID/comm holds it, without
 * its newline: 0, or -errno with comm "" (the task is gone, or no /proc). */
FTC_API int ftc_task_comm(pid_t pid, char *comm, size_t len);

/*
 * The one parser of number lists: "3", "1,42" (FTC_LIST_MANY), "0-1,3"
 * (FTC_LIST_RANGES too), every number decimal and at most max. Calls range
 * for each item in order (first == last for a single number; NULL only
 * checks). 0, or -1 with errno EINVAL and no message on a malformed list,
 * or range's -1 as it left it.
 */
#define FTC_LIST_MANY	1u
#define FTC_LIST_RANGES	2u
typedef int ftc_list_range_fn(unsigned long first, unsigned long last, void *ctx);
FTC_API int ftc_list_parse(const char *list, unsigned long max, unsigned int flags,
			   ftc_list_range_fn *range, void *ctx);

#ifdef __cplusplus
}
#endif

/* The modules' own headers: control, probe, tracefs info, capture, writer,
 * reader, perf, filters. */
#include "ftc-control.h"
#include "ftc-probe.h"
#include "ftc-tracefs-info.h"
#include "ftc-capture.h"
#include "ftc-writer.h"
#include "ftc-reader.h"
#include "ftc-merge.h"
#include "ftc-convert.h"
#include "ftc-format.h"
#include "ftc-perf.h"
#include "ftc-workload.h"
#include "ftc-symbols.h"
#include "ftc-capture-perf.h"
#include "ftc-live.h"
#include "ftc-filter.h"
#include "ftc-session.h"
#include "ftc-sched.h"
#include "ftc-syscalls.h"
#include "ftc-kwork.h"
#include "ftc-block.h"
#include "ftc-funclat.h"
#include "ftc-perfetto.h"
#include "ftc-chrome.h"
#include "ftc-timeline.h"

#endif
