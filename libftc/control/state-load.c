// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A journal file read back (its format: state-file.c): described for
 * `ftc reset --journal`, found in the journal directories, and restored,
 * by `ftc reset` or by the guardian when its owner died. Restoring goes
 * through the journal itself (state.c), which this file sits above.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-control.h"
#include "state.h"

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

static bool parse_entry(char *line, struct journal_entry *e)
{
	char *tok[6];
	int kind;

	memset(e, 0, sizeof(*e));
	if (split(line, tok, 6) != 6 || (kind = ftc_journal_kind_parse(tok[0])) < 0 ||
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
	int n = ftc_journal_dirs(dirs), ret = 0, err = 0;

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
	ftc_journal_dirs_free(dirs, n);
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
	int n = ftc_journal_dirs(dirs), ret = 0;

	*list = NULL;
	*count = 0;
	for (int i = 0; i < n && ret == 0; i++)
		ret = scan_dir(dirs[i], list, count);
	ftc_journal_dirs_free(dirs, n);
	return ret;
}

void ftc_journals_free(struct ftc_journal_info *list, size_t count)
{
	for (size_t i = 0; i < count; i++)
		ftc_journal_info_free(&list[i]);
	free(list);
}
