/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The metadata a capture stores besides its pages, as plain data: what the
 * tracefs layer reads from the kernel (ftc_meta_collect, tracefs-meta.c)
 * and the trace.dat writer writes (ftc_writer_set_meta). The writer only
 * copies it, so it may as well be made by hand (tests) or come from another
 * machine. Internal (not installed): its layout may change.
 */
#ifndef FTC_META_H
#define FTC_META_H

#include <stddef.h>

struct ftc_writer;

/* A file's bytes; text need not be NUL-terminated. */
struct ftc_blob {
	char *data;
	size_t len;
};

/* An event system and the "format" files of its events. */
struct ftc_meta_system {
	char *name;
	struct ftc_blob *formats;
	int nformats;
};

struct ftc_meta {
	struct ftc_blob header_page;	/* events/header_page */
	struct ftc_blob header_event;	/* events/header_event */
	struct ftc_meta_system ftrace;	/* "ftrace": trace.dat keeps it apart */
	struct ftc_meta_system *systems;	/* every other system */
	int nsystems;
	struct ftc_blob kallsyms;	/* /proc/kallsyms */
	struct ftc_blob printk;		/* printk_formats */
	struct ftc_blob cmdlines;	/* saved_cmdlines */
	char *uname;			/* "sysname nodename release version machine" */
	char *trace_clock;		/* the first buffer's trace_clock file */
};

/*
 * Reads it all from tracefs, /proc/kallsyms and uname(2); the clock from
 * first_instance (NULL: the top level). 0, or -1 with ftc_error().
 */
int ftc_meta_collect(struct ftc_meta *m, const char *first_instance);
void ftc_meta_free(struct ftc_meta *m);

/* What the end of a capture adds: saved_cmdlines, "CPU: N\n" + per_cpu/cpuN/stats. */
int ftc_meta_cmdlines(struct ftc_blob *out);
char *ftc_meta_cpustat(const char *instance, int cpu);

/*
 * The writer's side, before ftc_writer_start(); nothing is read from the
 * kernel. set_meta copies m. add_buffer_clock is ftc_writer_add_buffer()
 * with the buffer's clock given. With a meta set, ftc_writer_start() and
 * ftc_writer_finish() read nothing either: the final saved_cmdlines (v7)
 * and each CPU's stats are what set_cmdlines and set_cpustat gave, if
 * anything (cpu_idx as in add_buffer's cpus array).
 */
int ftc_writer_set_meta(struct ftc_writer *w, const struct ftc_meta *m);
int ftc_writer_add_buffer_clock(struct ftc_writer *w, const char *instance, const char *clock,
				int ncpus, const int *cpus);
int ftc_writer_set_cmdlines(struct ftc_writer *w, const char *text, size_t len);
int ftc_writer_set_cpustat(struct ftc_writer *w, int buf, int cpu_idx, const char *text);

#endif
