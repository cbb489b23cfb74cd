/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading tracefs state without changing it: tracers, events and their
 * fields, options, clocks, instances, filterable functions, and the
 * settings of one instance. Lists are NULL-terminated arrays of strings,
 * freed with ftc_list_free(). instance NULL or "" is the top level.
 */
#ifndef FTC_TRACEFS_INFO_H
#define FTC_TRACEFS_INFO_H

#include <stdbool.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

FTC_API void ftc_list_free(char **list);
FTC_API int ftc_list_count(char *const *list);

/*
 * A file's content, trailing newline removed. NULL on failure with errno
 * set (EPERM: the kernel refuses it; ENOENT: this kernel lacks it) and a
 * message naming the file in ftc_strerror().
 */
FTC_API char *ftc_info_value(const char *instance, const char *file);

/* The words of a space-separated file (available_tracers, trace_clock...). */
FTC_API char **ftc_info_words(const char *instance, const char *file);

FTC_API char **ftc_info_tracers(const char *instance);
/* The clocks; *current (if not NULL) gets the one in brackets, malloc'ed. */
FTC_API char **ftc_info_clocks(const char *instance, char **current);
/* The names of the instances, sorted. */
FTC_API char **ftc_info_instances(void);
/* Does instances/name exist? False for NULL or "" (the top level is no instance). */
FTC_API bool ftc_info_instance_exists(const char *name);
/*
 * A persistent (boot-mapped, 6.12+) instance that holds a previous boot's
 * records: 1, with its last_boot_info text in *info if not NULL (free()
 * it); 0 for any other instance or kernel.
 */
FTC_API int ftc_info_last_boot(const char *instance, char **info);
/* The CPUs with a per_cpu directory in the instance, sorted, into *cpus
 * (free() it): their count, or -1 with errno and a message. */
FTC_API int ftc_info_percpu_cpus(const char *instance, int **cpus);

/*
 * "system:event" names, sorted, that match glob: "sched", "sched:*",
 * "*switch*", "sched:sched_switch". NULL or "" matches all. The glob is
 * tried on "system:event", on the system and on the event name.
 */
FTC_API char **ftc_info_events(const char *glob);

struct ftc_event_field {
	const char *name;
	const char *type;	/* as the format file says: "char", "pid_t"... */
	int offset;
	int size;
	unsigned int arraylen;	/* 0 if not an array */
	bool is_signed;
	bool is_common;		/* common_pid and friends */
};

/*
 * Calls fn for each field of events/<system>/<event>/format, parsed by
 * libtraceevent. Returns 0, or -1 when the format cannot be read or parsed.
 */
FTC_API int ftc_info_event_fields(const char *system, const char *event,
				  int (*fn)(const struct ftc_event_field *f, void *ctx), void *ctx);

/* The trace options of an instance, "name" and value 0/1, sorted by name. */
struct ftc_trace_option {
	char *name;
	int value;
};
FTC_API int ftc_info_options(const char *instance, struct ftc_trace_option **opts, int *count);
FTC_API void ftc_info_options_free(struct ftc_trace_option *opts, int count);
/* The kernel's default for an option, 0 or 1; -1 when ftc does not know it. */
FTC_API int ftc_info_option_default(const char *name, bool top_level);

/* What a mainline kernel (up to 6.18) registers, for checks made without the target. */
enum ftc_info_name {
	FTC_INFO_TRACER,	/* register_tracer() in kernel/trace/ */
	FTC_INFO_CLOCK,		/* trace_clocks[] and the architectures' */
	FTC_INFO_OPTION,	/* a trace option, also as "noNAME" */
	FTC_INFO_TRIGGER,	/* an event trigger's command, before its ':' or ' ' */
};
/* Whether a mainline kernel knows name as that kind of name. */
FTC_API bool ftc_info_mainline(enum ftc_info_name kind, const char *name);

/*
 * Functions of available_filter_functions that match glob (NULL: all),
 * " [module]" kept. NULL with errno and a message when the kernel refuses.
 */
FTC_API char **ftc_info_filter_functions(const char *glob);

#ifdef __cplusplus
}
#endif

#endif
