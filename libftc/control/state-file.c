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
#include <dirent.h>
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

#define JOURNAL_MAGIC "ftc-journal 1"

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

static void dirs_free(char *dirs[FTC_JOURNAL_DIRS_MAX], int n)
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
			dirs_free(copy, i);
			return ftc_error(EINVAL, "journal directory %d is empty", i + 1);
		}
		copy[i] = strdup(dirs[i]);
		if (!copy[i]) {
			dirs_free(copy, i);
			return ftc_error(ENOMEM, "out of memory");
		}
	}
	dirs_free(set_dirs, set_ndirs);
	for (int i = 0; i < n; i++)
		set_dirs[i] = copy[i];
	set_ndirs = n;
	return 0;
}

/* Where journals live, most preferred first; the caller frees each. */
static int journal_dirs(char *dirs[FTC_JOURNAL_DIRS_MAX])
{
	int n = 0;

	for (; n < set_ndirs; n++) {
		dirs[n] = strdup(set_dirs[n]);
		if (!dirs[n]) {
			dirs_free(dirs, n);
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
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the comm in parentheses may hold spaces: count from its end */
	p = strrchr(buf, ')');
	/* a zombie has ended: it restores nothing any more */
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return 0;
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	return start;
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
	int n = journal_dirs(dirs), ret = -1;

	if (st->jf.fd >= 0)
		return 0;
	for (int i = 0; i < n && ret < 0; i++)
		if (dir_usable(dirs[i]))
			ret = create_in(st, dirs[i], &tmp);
	if (ret < 0 && n > 0)
		ftc_error(errno ? errno : EACCES, "no directory for the journal: %s%s%s are not "
			  "writable private directories: set FTC_JOURNAL_DIR to one", dirs[0],
			  n > 1 ? ", " : "", n > 1 ? dirs[n - 1] : "");
	dirs_free(dirs, n);
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

/* Reading a journal back. */

static int unhex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Decodes one field in place; false when it is not a field. */
static bool get_field(char *tok, char **out)
{
	char *w;

	*out = NULL;
	if (!strcmp(tok, "n"))
		return true;
	if (*tok != 's')
		return false;
	w = tok;
	for (char *r = tok + 1; *r; r++) {
		if (*r == '%') {
			int hi = unhex(r[1]), lo = hi < 0 ? -1 : unhex(r[2]);

			if (lo < 0)
				return false;
			*w++ = (char)(hi << 4 | lo);
			r += 2;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	*out = strdup(tok);
	return *out != NULL;
}

static int split(char *line, char **tok, int max)
{
	int n = 0;

	for (char *save = NULL, *t = strtok_r(line, " ", &save); t;
	     t = strtok_r(NULL, " ", &save)) {
		if (n == max)
			return -1;
		tok[n++] = t;
	}
	return n;
}

static int parse_kind(const char *s)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (!strcmp(s, kind_names[i]))
			return (int)i;
	return -1;
}

static bool parse_entry(char *line, struct journal_entry *e)
{
	char *tok[6];
	int kind;

	memset(e, 0, sizeof(*e));
	if (split(line, tok, 6) != 6 || (kind = parse_kind(tok[0])) < 0 ||
	    strspn(tok[1], "ds-") != strlen(tok[1]))
		return false;
	e->kind = (enum knob_kind)kind;
	e->dup = strchr(tok[1], 'd') != NULL;
	e->saved_only = strchr(tok[1], 's') != NULL;
	if (get_field(tok[2], &e->instance) && get_field(tok[3], &e->file) &&
	    get_field(tok[4], &e->undo_file) && get_field(tok[5], &e->undo) &&
	    e->file && e->undo_file)
		return true;
	ftc_journal_entry_free(e);
	return false;
}

static bool parse_header(char *line, struct ftc_journal_info *info)
{
	char *tok[5], *cmd;
	int pid;

	if (strncmp(line, JOURNAL_MAGIC " ", sizeof(JOURNAL_MAGIC)))
		return false;
	if (split(line + sizeof(JOURNAL_MAGIC), tok, 3) != 3 ||
	    sscanf(tok[0], "%d", &pid) != 1 || pid <= 0 || !get_field(tok[2], &cmd))
		return false;
	info->pid = pid;
	info->start = strtoull(tok[1], NULL, 10);
	info->command = cmd;
	return true;
}

static char *read_all(int fd, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	ssize_t r;

	while (buf && (r = read(fd, buf + n, cap - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return NULL;
		}
		n += (size_t)r;
		if (n == cap) {
			char *bigger = realloc(buf, cap * 2 + 1);

			if (!bigger)
				free(buf);
			buf = bigger;
			cap *= 2;
		}
	}
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/* Entries go into st when given (to restore them), else are only counted. */
static int parse_journal(const char *path, char *text, size_t len, struct ftc_journal_info *info,
			 struct ftc_state *st)
{
	char *end = text + len, *line = text, *nl;
	int lineno = 1;

	if (memchr(text, '\0', len))
		return ftc_error(EINVAL, "%s: not an ftc journal (it holds a NUL byte): remove it",
				 path);
	nl = strchr(line, '\n');
	if (!nl || (*nl = '\0', !parse_header(line, info)))
		return ftc_error(EINVAL, "%s: not an ftc journal (no '%s' header): remove it",
				 path, JOURNAL_MAGIC);
	for (line = nl + 1; line < end; line = nl + 1) {
		struct journal_entry e;

		lineno++;
		nl = strchr(line, '\n');
		if (!nl) {
			/* cut short by a kill: it was never written to tracefs */
			info->torn = true;
			break;
		}
		*nl = '\0';
		if (!parse_entry(line, &e))
			return ftc_error(EINVAL, "%s: line %d is not a journal entry: restore by "
					 "hand (ftc reset) and remove the file", path, lineno);
		e.off = line - text;
		if (!e.dup)
			info->changes++;
		if (!st)
			ftc_journal_entry_free(&e);
		else if (ftc_journal_push(st, &e) < 0)
			return -1;
	}
	return 0;
}

void ftc_journal_info_free(struct ftc_journal_info *info)
{
	free(info->path);
	free(info->command);
	free(info->error);
	memset(info, 0, sizeof(*info));
}

/*
 * Opens and reads one journal. wait: block until no one holds it (the
 * guardian waits for its owner's last file descriptor to close); without
 * it a held journal is only described (owner_alive). On success *fd is
 * left open and locked when the journal is ours to restore.
 */
static int journal_load(const char *path, bool wait, struct ftc_journal_info *info,
			struct ftc_state *st, int *fd)
{
	size_t len;
	char *text;
	int ret;

	memset(info, 0, sizeof(*info));
	info->path = strdup(path);
	*fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (!info->path || *fd < 0)
		return ftc_error(errno, "%s: %s", path, strerror(errno));
	while ((ret = flock(*fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB)) < 0 && errno == EINTR)
		;
	info->owner_alive = ret < 0;
	text = read_all(*fd, &len);
	if (!text)
		ret = ftc_error(errno, "%s: %s", path, strerror(errno));
	else
		ret = parse_journal(path, text, len, info, info->owner_alive ? NULL : st);
	free(text);
	if (ret < 0 || info->owner_alive) {
		close(*fd);
		*fd = -1;
	}
	return ret;
}

int ftc_journal_describe(const char *path, struct ftc_journal_info *info)
{
	int fd;
	int ret = journal_load(path, false, info, NULL, &fd);

	if (fd >= 0)
		close(fd);
	if (ret == 0 && !info->owner_alive)
		info->owner_alive = info->start && ftc_pid_start_time(info->pid) == info->start;
	return ret;
}

int ftc_journal_restore(const char *path, bool wait, pid_t owner, struct ftc_journal_info *info)
{
	struct ftc_state *st = ftc_state_new();
	int fd = -1, ret;

	if (!st)
		return -1;
	ret = journal_load(path, wait, info, st, &fd);
	if (ret == 0 && info->owner_alive)
		ret = ftc_error(EBUSY, "%s: pid %d (ftc %s) still holds the journal: it restores "
				"tracefs itself when it ends", path, (int)info->pid, info->command);
	/* no lock held, yet the owner runs: a journal written without locking */
	if (ret == 0 && !owner && info->start && ftc_pid_start_time(info->pid) == info->start)
		ret = ftc_error(EBUSY, "%s: pid %d (ftc %s) is still running: it restores tracefs "
				"itself when it ends", path, (int)info->pid, info->command);
	if (ret == 0 && owner && info->pid != owner)
		ret = ftc_error(ESRCH, "%s: the journal of pid %d, not of %d: left as is",
				path, (int)info->pid, (int)owner);
	if (ret == 0) {
		st->jf.fd = fd;
		st->jf.path = strdup(path);
		fd = -1;
		if (!st->jf.path)
			ret = ftc_error(ENOMEM, "out of memory");
		else
			ret = ftc_state_restore(st);
	}
	if (fd >= 0)
		close(fd);
	ftc_state_free(st);
	return ret;
}

/*
 * The guardian's part when its owner died: the owner makes its journal
 * after the guardian is armed, so the guardian looks where it would be
 * (journal.OWNER, of that very process: its start time) in each
 * directory, and removes a hidden one the owner had no time to name (no
 * change was made before it was named). ENOENT: none was made.
 */
int ftc_journal_restore_owner(pid_t owner, unsigned long long start, char **path,
			      struct ftc_journal_info *info)
{
	char *dirs[FTC_JOURNAL_DIRS_MAX];
	int n = journal_dirs(dirs), ret = 0, err = 0;

	*path = NULL;
	for (int i = 0; i < n; i++) {
		char *p = NULL, *tmp = NULL;
		struct ftc_journal_info d = { 0 };

		if (asprintf(&tmp, "%s/.journal.%d", dirs[i], (int)owner) >= 0)
			unlink(tmp);
		free(tmp);
		if (*path || asprintf(&p, "%s/journal.%d", dirs[i], (int)owner) < 0)
			continue;
		if (ftc_journal_describe(p, &d) == 0 && d.pid == owner && d.start == start) {
			ret = ftc_journal_restore(p, true, owner, info);
			err = errno;	/* the other directories' look-ups change it */
			*path = p;
			p = NULL;
		}
		ftc_journal_info_free(&d);
		free(p);
	}
	dirs_free(dirs, n);
	if (!*path)
		return ftc_error(ENOENT, "no journal of pid %d", (int)owner);
	errno = err;
	return ret;
}

static int add_found(struct ftc_journal_info **list, size_t *n, const char *dir,
		     const char *name)
{
	struct ftc_journal_info *bigger = realloc(*list, (*n + 1) * sizeof(**list));
	char *path;

	if (!bigger)
		return ftc_error(ENOMEM, "out of memory");
	*list = bigger;
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return ftc_error(ENOMEM, "out of memory");
	if (ftc_journal_describe(path, &bigger[*n]) < 0) {
		/* an unreadable one is still listed, with the reason */
		ftc_journal_info_free(&bigger[*n]);
		bigger[*n].path = path;
		bigger[*n].error = strdup(ftc_strerror());
		path = NULL;
	}
	free(path);
	(*n)++;
	return 0;
}

static int scan_dir(const char *dir, struct ftc_journal_info **list, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return 0;
	while (ret == 0 && (de = readdir(d)))
		if (!strncmp(de->d_name, "journal.", 8))
			ret = add_found(list, n, dir, de->d_name);
	closedir(d);
	return ret;
}

int ftc_journals_find(struct ftc_journal_info **list, size_t *count)
{
	char *dirs[FTC_JOURNAL_DIRS_MAX];
	int n = journal_dirs(dirs), ret = 0;

	*list = NULL;
	*count = 0;
	for (int i = 0; i < n && ret == 0; i++)
		ret = scan_dir(dirs[i], list, count);
	dirs_free(dirs, n);
	return ret;
}

void ftc_journals_free(struct ftc_journal_info *list, size_t count)
{
	for (size_t i = 0; i < count; i++)
		ftc_journal_info_free(&list[i]);
	free(list);
}
