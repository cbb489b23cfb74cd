/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftc control: writing tracefs knobs with a journal that can undo them.
 *
 * Every write goes through the journal (struct ftc_state): the old value is
 * saved before the new one is written, and ftc_state_restore() writes the
 * old values back newest first, each with the inverse its kind of knob needs
 * (a trigger is removed with "!trigger", a list file is rewritten with
 * truncation, trace_clock gets the bracketed name back, an event filter
 * "none" becomes "0", an instance we created is removed).
 *
 * instance NULL or "" is the top-level buffer; file is relative to the
 * instance's directory ("trace_clock", "events/sched/sched_switch/filter").
 */
#ifndef FTC_CONTROL_H
#define FTC_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The state journal. */
struct ftc_state;
FTC_API struct ftc_state *ftc_state_new(void);
/* Saves the old value first, then writes (truncating). */
FTC_API int ftc_knob_write(struct ftc_state *st, const char *instance, const char *file,
			   const char *value);
/* Same, but appends (list files such as set_event, set_ftrace_filter). */
FTC_API int ftc_knob_append(struct ftc_state *st, const char *instance, const char *file,
			    const char *value);
/* Saves a knob that another write is about to change indirectly (a system
 * filter changes every event's filter), so that restore puts it back. */
FTC_API int ftc_knob_save(struct ftc_state *st, const char *instance, const char *file);
/* Creates the instance when it does not exist; journaled so that restore
 * removes it again. Returns 1 when created, 0 when it already existed. */
FTC_API int ftc_instance_create(struct ftc_state *st, const char *instance);
/* Removes an instance now, unjournaled (ftc reset): its buffer and settings
 * go with it. 0, or -1 with errno (ENOENT: there is none) and a message. */
FTC_API int ftc_instance_remove(const char *instance);
/* Undoes every write, newest first; keeps going past failures and returns
 * -1 with the first failure's message. The journal is empty afterwards. */
FTC_API int ftc_state_restore(struct ftc_state *st);
FTC_API void ftc_state_free(struct ftc_state *st);
FTC_API size_t ftc_state_count(const struct ftc_state *st);
/* One line per journaled write: "[instance] file: value". */
FTC_API void ftc_state_print(const struct ftc_state *st, FILE *f);

/*
 * The journal on disk and its guardian. ftc_state_guard writes the journal
 * to a file (journal.PID in the first usable directory of
 * ftc_journal_set_dirs) as it grows, and forks a small
 * process, "ftc-guardian", that restores tracefs from that file if this
 * process dies (SIGKILL, a crash) before ftc_state_restore or
 * ftc_state_keep. Call it before anything is written and before threads
 * start; command names the owner in the file ("record"). ftc_state_keep
 * is for changes meant to stay (ftc start): the file is removed and the
 * guardian leaves. ftc_state_free on a journal neither restored nor kept
 * lets the guardian restore it.
 */
FTC_API int ftc_state_guard(struct ftc_state *st, const char *command);
/*
 * What a guardian did when its owner died: one line of text without a
 * newline ("pid 123 (ftc record) died before restoring tracefs: 9 changes
 * restored from /run/ftc/journal.123", or why restoring failed), handed to
 * report in the guardian process, a fork of the program whose stdout and
 * stdin are /dev/null and whose stderr is the program's. libftc prints
 * nothing: without a report function (the default) the guardian restores
 * silently. Call it before ftc_state_guard; NULL turns it off.
 */
typedef void ftc_journal_report_fn(const char *text, void *arg);
FTC_API void ftc_journal_set_report(ftc_journal_report_fn *report, void *arg);
FTC_API int ftc_state_keep(struct ftc_state *st);
/* The guardian's pid (0: none), to keep it out of traces. */
FTC_API pid_t ftc_state_guardian(const struct ftc_state *st);

/*
 * Where journals are written and looked for, most preferred first: a new
 * journal goes to the first directory that is ours and private (made if
 * missing), ftc_journals_find looks in every one. The default is /run/ftc,
 * then /tmp/ftc-UID; n 0 puts it back. The names are copied. Call it before
 * anything else of the journal's and before threads start. libftc reads no
 * environment variable for it: ftc passes FTC_JOURNAL_DIR alone when set,
 * else /run/ftc, $XDG_RUNTIME_DIR/ftc and /tmp/ftc-UID.
 */
#define FTC_JOURNAL_DIRS_MAX	4
FTC_API int ftc_journal_set_dirs(const char *const *dirs, int n);

/* Journals found on disk, for ftc status and ftc reset --journal. */
struct ftc_journal_info {
	char *path;
	char *command;			/* the ftc command that wrote it ("record") */
	char *error;			/* why it could not be read; NULL when it could */
	pid_t pid;			/* its owner */
	unsigned long long start;	/* the owner's start time, /proc/PID/stat field 22 */
	size_t changes;			/* knobs it would put back */
	bool owner_alive;		/* someone still answers for it */
	bool torn;			/* the last entry was cut short by a kill (ignored) */
};
FTC_API int ftc_journals_find(struct ftc_journal_info **list, size_t *count);
FTC_API void ftc_journals_free(struct ftc_journal_info *list, size_t count);
FTC_API void ftc_journal_info_free(struct ftc_journal_info *info);
FTC_API int ftc_journal_describe(const char *path, struct ftc_journal_info *info);
/* Restores tracefs from a journal whose owner is gone, then removes it.
 * wait: wait for the owner to let go of it (the guardian does); owner, when
 * not 0, is the pid the journal must belong to. Fails (EBUSY) while its
 * owner lives. */
FTC_API int ftc_journal_restore(const char *path, bool wait, pid_t owner,
				struct ftc_journal_info *info);

/*
 * Stopping on a signal. libftc installs no signal handler: the program's
 * own handler sets a flag and the program restores (ftc_state_restore) on
 * its way out. Given that flag, the operations that write many knobs in
 * one call (ftc_event_setup over a glob) stop between two of them once it
 * is not 0. NULL: never stop. The flag must outlive the journal.
 */
FTC_API void ftc_state_set_stop(struct ftc_state *st, const volatile sig_atomic_t *stop);

/* Events. spec: "sys", "sys:event", "event", "all", with globs in either
 * part ("sched:*", "*:sched_switch", "sched:sched_w*"). ftc_events_resolve
 * lists the matching "sys:event" names (free with ftc_list_free) and
 * returns their count; a spec that matches nothing is an error (ENOENT).
 * The others return -1 with the kernel's reason (and error_log entry). */
FTC_API int ftc_events_resolve(const char *spec, char ***matches);
FTC_API int ftc_event_enable(struct ftc_state *st, const char *instance, const char *spec);
/* Filter and triggers first, then enabling. A spec that names one event
 * fails with the kernel's error; a glob or system enables those of its
 * events that took the filter and every trigger (the ones that have the
 * fields), and fails only when none did. Returns the count enabled. */
FTC_API int ftc_event_setup(struct ftc_state *st, const char *instance, const char *spec,
			    const char *filter, char *const *triggers, size_t ntrig);

/* Tracer and function filters. ftc_set_tracer checks available_tracers
 * first (absent: ENOENT). ftc_set_functions writes patterns into file
 * (set_ftrace_filter, set_ftrace_notrace, set_graph_function,
 * set_graph_notrace): the first replaces the list, the others add to it;
 * globs and "func:mod:module" go to the kernel, regexes are expanded.
 * ftc_func_trigger adds "func:cmd[:N]" (or removes "!func:cmd"). */
FTC_API int ftc_set_tracer(struct ftc_state *st, const char *instance, const char *tracer);
FTC_API int ftc_set_functions(struct ftc_state *st, const char *instance, const char *file,
			      char *const *patterns, size_t n);
FTC_API int ftc_func_trigger(struct ftc_state *st, const char *instance, const char *spec);
FTC_API int ftc_set_max_graph_depth(struct ftc_state *st, const char *instance,
				    unsigned long long depth);

/* Buffers, clock, CPU mask, options ("OPT" or "noOPT"), PID files
 * (set_event_pid, set_ftrace_pid: the first PID replaces the list). */
FTC_API int ftc_set_clock(struct ftc_state *st, const char *instance, const char *clock);
FTC_API int ftc_set_buffer_kb(struct ftc_state *st, const char *instance, unsigned long long kb);
FTC_API int ftc_set_subbuf_kb(struct ftc_state *st, const char *instance, unsigned long long kb);
/* saved_cmdlines_size exists only at the top level: it is global. */
FTC_API int ftc_set_cmdlines_size(struct ftc_state *st, unsigned long long n);
FTC_API int ftc_set_cpumask(struct ftc_state *st, const char *instance, const char *mask);
FTC_API int ftc_set_option(struct ftc_state *st, const char *instance, const char *option);
FTC_API int ftc_set_pids(struct ftc_state *st, const char *instance, const char *file,
			 char *const *pids, size_t n);
/*
 * Keeps a recorder out of what it records: the calling process, st's
 * guardian and the n threads given (its readers) go into the instance's
 * set_event_notrace_pid and, best effort, set_ftrace_notrace_pid. 0 when
 * the kernel has neither file (an old kernel records them).
 */
FTC_API int ftc_exclude_self(struct ftc_state *st, const char *instance, const pid_t *threads,
			     size_t n);

/* Plain knob access, not journaled. ftc_knob_read trims the trailing
 * newline. ftc_knob_set writes (append or truncate); on failure the message
 * names the file, the value and the kernel's reason, with the instance's
 * error_log entry when the kernel left one. */
FTC_API int ftc_knob_read(const char *instance, const char *file, char **value);
FTC_API int ftc_knob_set(const char *instance, const char *file, const char *value, bool append);
FTC_API bool ftc_knob_exists(const char *instance, const char *file);
/* True for errors that mean "the kernel refuses or lacks this" (exit 3). */
FTC_API bool ftc_errno_refused(int err);

/* The kernel's last error_log entry of the instance (with its caret line),
 * or NULL when there is none. Free it. */
FTC_API char *ftc_error_log_last(const char *instance);

/* True when a set_ftrace_filter line is a function trigger, not a filter. */
FTC_API bool ftc_is_func_trigger(const char *line);

/*
 * Hist triggers. ftc_hist_compose checks a histogram's keys, values and
 * sort keys against the event's format (top-level tracefs) and composes
 * the trigger's text with libtracefs: *start adds it to the event's
 * trigger file (ftc_event_setup, ftc_knob_append), *pause adds it paused;
 * free both. It writes nothing. A mistake in what the options ask for (a
 * field the event lacks, an unknown key type, a sort key that is neither
 * a key nor a value, a third sort key) sets fault (may be NULL) to the
 * list and index of the item; any other failure leaves fault->list
 * FTC_HIST_NONE. Both return -1 with the message.
 */
struct ftc_hist_opts {
	size_t size;			/* sizeof(struct ftc_hist_opts) (FTC_OPTS_INIT) */
	const char *const *keys;	/* FIELD[.TYPE]: one at least */
	size_t nkeys;
	const char *const *values;	/* FIELD[.TYPE], or an expression the kernel takes */
	size_t nvalues;
	const char *const *sort;	/* NAME[.descending|.ascending]: two at most */
	size_t nsort;
	unsigned long long entries;	/* the table's size=; 0: the kernel's default */
	const char *filter;		/* the trigger's "if"; NULL: none */
};
enum ftc_hist_list {
	FTC_HIST_NONE,
	FTC_HIST_KEYS,
	FTC_HIST_VALUES,
	FTC_HIST_SORT,
};
struct ftc_hist_fault {
	int list;			/* enum ftc_hist_list: the list the mistake is in */
	size_t index;			/* the item's index in it */
};
FTC_API int ftc_hist_compose(const char *system, const char *event,
			     const struct ftc_hist_opts *opts, char **start, char **pause,
			     struct ftc_hist_fault *fault);

/* Returns tracefs (or one instance) to the kernel's defaults. Knobs the
 * kernel refuses are reported through report() and skipped; a knob it does
 * not let anyone read (unread true) no one can have changed, and is neither
 * reset nor counted. Returns the number of knobs that could not be reset,
 * or -1 when nothing could be done. */
typedef void (*ftc_reset_report_fn)(const char *file, const char *why, bool unread, void *ctx);
FTC_API int ftc_reset(const char *instance, ftc_reset_report_fn report, void *ctx);

/* Snapshot buffer: take (allocate if needed, then swap), allocate (an
 * empty one), clear, free. cpu < 0 is every CPU. */
enum ftc_snapshot_op {
	FTC_SNAPSHOT_FREE,
	FTC_SNAPSHOT_TAKE,
	FTC_SNAPSHOT_CLEAR,
	FTC_SNAPSHOT_ALLOC,
};
FTC_API int ftc_snapshot(const char *instance, int cpu, enum ftc_snapshot_op op);

/* Empties the ring buffer of the instance (writes nothing else). */
FTC_API int ftc_buffer_clear(const char *instance);

#ifdef __cplusplus
}
#endif

#endif
