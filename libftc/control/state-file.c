// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The journal on disk, so that tracefs can be put back after the process
 * that changed it was killed. One file per process, journal.PID in the
 * first usable directory of ftc_journal_set_dirs (/run/ftc, else
 * /tmp/ftc-UID, unless the program says otherwise). Text, one line
 * each, every field %XX-escaped so no field holds a space or a newline:
 *
 *   ftc-journal 1 PID STARTTIME COMMAND
 *   KIND FLAGS INSTANCE FILE UNDO_FILE UNDO
 *
 * A string field is "s" and its escaped bytes, "n" is NULL. Each line goes
 * out in one write(), so a kill cuts at most the last one short; the parser
 * only takes lines that end in a newline, which a cut line never has.
 * The owner holds an flock on the file as long as it lives: a journal that
 * can be locked has no one left to restore it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-control.h"
#include "state.h"
#include "tracefs-layer.h"

static const char *const kind_names[] = {
	[KNOB_PLAIN] = "plain", [KNOB_LIST] = "list", [KNOB_CLOCK] = "clock",
	[KNOB_FILTER] = "filter", [KNOB_BUFSIZE] = "bufsize", [KNOB_TRIGGER] = "trigger",
	[KNOB_FUNC_TRIGGER] = "func-trigger", [KNOB_INSTANCE] = "instance",
	[KNOB_PROBE] = "probe",
};
#define NKINDS (sizeof(kind_names) / sizeof(kind_names[0]))

/* The program's choice (ftc_journal_set_dirs); none: the default. */
static char *set_dirs[FTC_JOURNAL_DIRS_MAX];
static int set_ndirs;

void ftc_journal_dirs_free(char *dirs[FTC_JOURNAL_DIRS_MAX], int n)
{
	for (int i = 0; i < n; i++)
		free(dirs[i]);
}

int ftc_journal_set_dirs(const char *const *dirs, int n)
{
	char *copy[FTC_JOURNAL_DIRS_MAX];

	if (n < 0 || n > FTC_JOURNAL_DIRS_MAX || (n > 0 && !dirs))
		return ftc_error(EINVAL, "%d journal directories: from 0 to %d", n,
				 FTC_JOURNAL_DIRS_MAX);
	for (int i = 0; i < n; i++) {
		if (!dirs[i] || !*dirs[i]) {
			ftc_journal_dirs_free(copy, i);
			return ftc_error(EINVAL, "journal directory %d is empty", i + 1);
		}
		copy[i] = strdup(dirs[i]);
		if (!copy[i]) {
			ftc_journal_dirs_free(copy, i);
			return ftc_error(ENOMEM, "out of memory");
		}
	}
	ftc_journal_dirs_free(set_dirs, set_ndirs);
	for (int i = 0; i < n; i++)
		set_dirs[i] = copy[i];
	set_ndirs = n;
	return 0;
}

int ftc_journal_dirs(char *dirs[FTC_JOURNAL_DIRS_MAX])
{
	int n = 0;

	for (; n < set_ndirs; n++) {
		dirs[n] = strdup(set_dirs[n]);
		if (!dirs[n]) {
			ftc_journal_dirs_free(dirs, n);
			return ftc_error(ENOMEM, "out of memory");
		}
	}
	if (n)
		return n;
	dirs[n++] = strdup("/run/ftc");
	if (asprintf(&dirs[n], "/tmp/ftc-%u", (unsigned)geteuid()) >= 0)
		n++;
	return n;
}

/* Ours and private: a directory in /tmp could have been planted by anyone. */
static bool dir_usable(const char *dir)
{
	struct stat sb;

	if (!dir || (mkdir(dir, 0700) < 0 && errno != EEXIST))
		return false;
	if (lstat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 022))
		return false;
	return access(dir, W_OK | X_OK) == 0;
}

unsigned long long ftc_pid_start_time(pid_t pid)
{
	unsigned long long start = 0;

	/* a zombie has ended: it restores nothing any more */
	return ftc_task_running(pid, &start) ? start : 0;
}

static void put_field(FILE *m, const char *s)
{
	fputc(' ', m);
	if (!s) {
		fputc('n', m);
		return;
	}
	fputc('s', m);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c > ' ' && *c < 0x7f && *c != '%')
			fputc(*c, m);
		else
			fprintf(m, "%%%02X", *c);
	}
}

/* One whole line in one write(): a kill never leaves half of it. */
static int write_line(struct ftc_state *st, const char *line, size_t len)
{
	ssize_t n = write(st->jf.fd, line, len);

	if (n == (ssize_t)len)
		return 0;
	if (n >= 0)
		errno = ENOSPC;
	return ftc_error(errno, "%s: cannot add to the journal: %s; nothing was changed for this "
			 "write: free space there, or set FTC_JOURNAL_DIR to a writable directory",
			 st->jf.path, strerror(errno));
}

/* Ends the line being built in m (open_memstream on *line) and writes it whole. */
static int end_line(struct ftc_state *st, FILE *m, char **line, size_t *len)
{
	int ret;

	fputc('\n', m);
	if (fclose(m) != 0) {
		free(*line);
		return ftc_error(ENOMEM, "out of memory");
	}
	ret = write_line(st, *line, *len);
	free(*line);
	return ret;
}

int ftc_journal_file_append(struct ftc_state *st, struct journal_entry *e)
{
	char *line = NULL;
	size_t len = 0;
	FILE *m;

	if (st->jf.fd < 0)
		return 0;
	e->off = lseek(st->jf.fd, 0, SEEK_END);
	m = open_memstream(&line, &len);
	if (!m)
		return ftc_error(ENOMEM, "out of memory");
	fputs(kind_names[e->kind], m);
	fprintf(m, " %s%s%s", e->dup ? "d" : "", e->saved_only ? "s" : "",
		e->dup || e->saved_only ? "" : "-");
	put_field(m, e->instance);
	put_field(m, e->file);
	put_field(m, e->undo_file);
	put_field(m, e->undo);
	return end_line(st, m, &line, &len);
}

void ftc_journal_file_cut(struct ftc_state *st, const struct journal_entry *e)
{
	if (st->jf.fd >= 0 && ftruncate(st->jf.fd, e->off) < 0)
		ftc_error(errno, "%s: %s", st->jf.path, strerror(errno));
}

/* Removes the file only while the name is still ours: after a kill its
 * name may have been given to a newer journal (see move_aside). */
static void unlink_if_ours(const char *path, int fd)
{
	struct stat a, b;

	if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		unlink(path);
}

void ftc_journal_file_done(struct ftc_state *st)
{
	if (st->jf.fd < 0)
		return;
	unlink_if_ours(st->jf.path, st->jf.fd);
	close(st->jf.fd);
	st->jf.fd = -1;
}

/* A journal.PID left by an earlier process with our PID: its owner is
 * gone, so keep it for `ftc reset --journal` under another name. */
static void move_aside(const char *path)
{
	char *aside;

	for (int i = 1; i < 1000; i++) {
		if (asprintf(&aside, "%s.%d", path, i) < 0)
			return;
		if (access(aside, F_OK) < 0) {
			rename(path, aside);
			free(aside);
			return;
		}
		free(aside);
	}
}

/*
 * Made under a hidden name and locked before it is named journal.PID, so
 * that no one ever sees an unlocked journal of a live owner (and restores
 * it from under us).
 */
static int create_in(struct ftc_state *st, const char *dir, char **tmp)
{
	int fd;

	if (asprintf(&st->jf.path, "%s/journal.%d", dir, (int)getpid()) < 0 ||
	    asprintf(tmp, "%s/.journal.%d", dir, (int)getpid()) < 0) {
		free(st->jf.path);
		st->jf.path = *tmp = NULL;
		return ftc_error(ENOMEM, "out of memory");
	}
	unlink(*tmp);
	fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		ftc_error(err, "%s: cannot create the journal: %s", *tmp, strerror(err));
		free(st->jf.path);
		free(*tmp);
		st->jf.path = *tmp = NULL;
		return -1;
	}
	st->jf.fd = fd;
	return 0;
}

static int name_it(struct ftc_state *st, const char *tmp)
{
	if (access(st->jf.path, F_OK) == 0)
		move_aside(st->jf.path);
	if (rename(tmp, st->jf.path) == 0)
		return 0;
	return ftc_error(errno, "%s: cannot name the journal %s: %s", tmp, st->jf.path,
			 strerror(errno));
}

static int write_header(struct ftc_state *st, const char *command)
{
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);

	if (!m)
		return ftc_error(ENOMEM, "out of memory");
	fprintf(m, "%s %d %llu", JOURNAL_MAGIC, (int)getpid(), ftc_pid_start_time(getpid()));
	put_field(m, command);
	return end_line(st, m, &line, &len);
}

int ftc_journal_file_open(struct ftc_state *st, const char *command)
{
	char *dirs[FTC_JOURNAL_DIRS_MAX], *tmp = NULL;
	int n = ftc_journal_dirs(dirs), ret = -1;

	if (st->jf.fd >= 0)
		return 0;
	for (int i = 0; i < n && ret < 0; i++)
		if (dir_usable(dirs[i]))
			ret = create_in(st, dirs[i], &tmp);
	if (ret < 0 && n > 0)
		ftc_error(errno ? errno : EACCES, "no directory for the journal: %s%s%s are not "
			  "writable private directories: set FTC_JOURNAL_DIR to one", dirs[0],
			  n > 1 ? ", " : "", n > 1 ? dirs[n - 1] : "");
	ftc_journal_dirs_free(dirs, n);
	if (ret < 0)
		return -1;
	ret = write_header(st, command);
	for (size_t i = 0; ret == 0 && i < st->n; i++)
		ret = ftc_journal_file_append(st, &st->e[i]);
	if (ret == 0)
		ret = name_it(st, tmp);
	if (ret < 0) {
		unlink(tmp);
		close(st->jf.fd);
		st->jf.fd = -1;
	}
	free(tmp);
	return ret;
}

int ftc_journal_kind_parse(const char *s)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (!strcmp(s, kind_names[i]))
			return (int)i;
	return -1;
}
