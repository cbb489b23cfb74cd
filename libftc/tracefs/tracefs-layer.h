/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracefs layer, internal part (not installed): every read and write of
 * tracefs, /proc/sys/kernel and /proc/kallsyms in libftc and cmd/ goes
 * through these and the public ftc_tracefs_*() of ftc.h. Files, one job each:
 *   tracefs.c        paths, whole-file reads, listings, existence, clocks
 *   tracefs-io.c     bounded reads, writes, opens, instance directories,
 *                    procfs files
 *   tracefs-words.c  words of tracefs lists ("[local] global", tracers)
 *   tracefs-cpus.c   CPU masks and CPU lists
 *   tracefs-meta.c   the metadata a capture stores (struct ftc_meta, meta.h)
 *
 * Two conventions, said at each declaration. Reads of whole files, lists
 * and CPU sets set ftc_error() naming the file and return -1. The "raw"
 * calls (exists, open, read_max, put, mkdir, and the public
 * ftc_tracefs_open and ftc_sysctl_*) return 0 (or an fd) or a
 * negative errno and set no message: the probes and the knob writer word
 * the failure themselves (a refusal is an answer to a probe).
 */
#ifndef FTC_TRACEFS_INTERNAL_H
#define FTC_TRACEFS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

struct tracefs_instance;
struct ftc_subbuf_layout;

/*
 * libtracefs's handle of an instance in *ti, NULL for the top level
 * (instance NULL or ""). -errno when the instance does not exist.
 */
int ftc_tracefs_instance(const char *instance, struct tracefs_instance **ti);

/*
 * The names in a directory of an instance ("options", "per_cpu"), sorted,
 * without the dot files: their count (*names NULL for none; free with
 * tracefs_list_free()), or -1 with ftc_error().
 */
int ftc_tracefs_list(const char *instance, const char *dir, char ***names);

/* Does the file (or directory) exist in the instance? */
bool ftc_tracefs_exists(const char *instance, const char *file);

/* Is it a directory (an event system: "events/sched")? */
bool ftc_tracefs_is_dir(const char *instance, const char *file);

/* Makes (never adopts: -EEXIST) or removes an instance directory. 0 or -errno. */
int ftc_tracefs_mkdir(const char *name);
int ftc_tracefs_rmdir(const char *name);

/*
 * At most max bytes, NUL-terminated, into a malloc'ed *out; non-blocking,
 * so that an empty pipe reads as "". 0 or -errno.
 */
int ftc_tracefs_read_max(const char *instance, const char *file, size_t max, char **out);
int ftc_path_read_max(const char *path, size_t max, char **out);
/* /proc/kallsyms, its first max bytes (a check of its addresses). */
int ftc_kallsyms_read_max(size_t max, char **out);
/*
 * Whether task id (a thread's too) still runs, from /proc/ID/stat: a zombie
 * has ended. *start (may be NULL) gets its start time in ticks after boot.
 */
bool ftc_task_running(pid_t id, unsigned long long *start);

/*
 * Writes len bytes in full, then closes; truncating unless append. A list
 * file (set_ftrace_filter, dynamic_events) reports some errors only at
 * close, so close's error counts. 0 or -errno.
 */
int ftc_tracefs_put(const char *instance, const char *file, const char *buf, size_t len,
		    bool append);
int ftc_path_put(const char *path, const char *val);

/* A whole file outside tracefs (/proc/kallsyms): ftc_error() naming it. */
int ftc_path_read(const char *path, char **buf, size_t *len);

/*
 * The running kernel's sub-buffer layout, from events/header_page
 * (tracefs-meta.c); where that cannot be read, the layout of a kernel
 * whose long is ours. Sets no error.
 */
void ftc_tracefs_subbuf_layout(struct ftc_subbuf_layout *l);

/* The bracketed word of a list ("local" of "[local] global"), or NULL. */
char *ftc_tracefs_selected(const char *list);

/*
 * CPUs: tracing_cpumask of an instance as a sorted list of CPU numbers
 * (those the kernel knows; the CPUs with a per_cpu directory are
 * ftc_info_percpu_cpus() of ftc-tracefs-info.h), a list of
 * CPU numbers as a mask in the kernel's format ("3", "1,00000000"), and a
 * CPU list ("0-3,6") parsed (NULL: the online CPUs). Counts, or -1 with
 * ftc_error().
 */
int ftc_tracefs_cpumask_cpus(const char *instance, int **cpus);
char *ftc_cpumask_format(const int *cpus, int n);
int ftc_cpulist_parse(const char *list, int **cpus);

#endif
