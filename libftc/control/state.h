/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The state journal's insides, shared by the journal (state.c), its file
 * (state-file.c) and the guardian (state-guard.c). Not installed.
 */
#ifndef FTC_STATE_INTERNAL_H
#define FTC_STATE_INTERNAL_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "ftc-control.h"

enum knob_kind {
	KNOB_PLAIN,		/* write the old text back */
	KNOB_LIST,		/* rewrite the saved lines with truncation */
	KNOB_CLOCK,		/* the bracketed name */
	KNOB_FILTER,		/* "none" is cleared with "0" */
	KNOB_BUFSIZE,		/* the expanded size */
	KNOB_TRIGGER,		/* event trigger: remove or re-add lines */
	KNOB_FUNC_TRIGGER,	/* function trigger in set_ftrace_filter */
	KNOB_INSTANCE,		/* created by us: removed */
	KNOB_PROBE,		/* a dynamic event we defined: "-:GROUP/EVENT" */
};

struct journal_entry {
	char *instance;
	char *file;		/* what was written */
	char *value;
	char *undo_file;	/* what restore writes (set_event for enable trees) */
	char *undo;		/* the saved value or lines; NULL: nothing to write */
	enum knob_kind kind;
	bool append;
	bool dup;		/* an older entry restores this knob */
	bool saved_only;	/* saved before an indirect change, not written */
	bool failed;		/* the write failed (kept: it may have half-applied) */
	off_t off;		/* where its line starts in the journal file */
};

/* The file that mirrors the journal, so that a process that outlives us
 * (the guardian, `ftc reset --journal`) can restore it. */
struct journal_file {
	char *path;
	int fd;			/* -1: the journal lives in memory only */
	pid_t guardian;		/* 0: none */
	int guard_fd;		/* our end of the guardian's socket */
};

struct ftc_state {
	struct journal_entry *e;
	size_t n, cap;
	struct journal_file jf;
	const volatile sig_atomic_t *stop;	/* the caller's: see ftc_state_set_stop */
};

void ftc_journal_entry_free(struct journal_entry *e);
/* Appends a loaded entry (its strings are taken over). */
int ftc_journal_push(struct ftc_state *st, struct journal_entry *e);

/* The journal file's first words, and the version of its format. */
#define JOURNAL_MAGIC "ftc-journal 1"

/* Where journals live, most preferred first; ftc_journal_dirs_free frees them. */
int ftc_journal_dirs(char *dirs[FTC_JOURNAL_DIRS_MAX]);
void ftc_journal_dirs_free(char *dirs[FTC_JOURNAL_DIRS_MAX], int n);
/* A kind's name in the file back to the kind; -1: none. */
int ftc_journal_kind_parse(const char *s);

/* The journal file (state-file.c). Appending writes one line per entry with
 * one write(); cut drops an entry (and any after it) from the file, for a
 * write that was given up or an entry that was restored. Done removes the
 * file: nothing is left to restore. */
int ftc_journal_file_append(struct ftc_state *st, struct journal_entry *e);
void ftc_journal_file_cut(struct ftc_state *st, const struct journal_entry *e);
void ftc_journal_file_done(struct ftc_state *st);
/* The guardian's restore when its owner (pid, start time) died: its
 * journal wherever it was made; *path: which, to free (state-load.c). */
int ftc_journal_restore_owner(pid_t owner, unsigned long long start, char **path,
			      struct ftc_journal_info *info);
/* Creates the file and writes what the journal holds so far. */
int ftc_journal_file_open(struct ftc_state *st, const char *command);
/* /proc/PID/stat field 22, in clock ticks since boot; 0: no such process
 * (or a zombie). With the pid it names one process for good. */
unsigned long long ftc_pid_start_time(pid_t pid);

/* Our end of the guardian's socket (state-guard-link.c; the guardian
 * itself: state-guard.c). link: fd is our end. done: we finished, it
 * exits without restoring; release: we leave the rest to it (it restores
 * from the file). Both wait for it to exit. ftc_journal_guard_forget
 * closes our end in a forked child, which must not keep the guardian
 * waiting. */
void ftc_journal_guard_link(struct ftc_state *st, int fd);
void ftc_journal_guard_done(struct ftc_state *st);
void ftc_journal_guard_release(struct ftc_state *st);
void ftc_journal_guard_forget(void);

#endif
