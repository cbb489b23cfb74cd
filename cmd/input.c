// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "options.h"
#include "parse-guard.h"
#include "ftc.h"
#include "ftc-reader.h"

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads up to n bytes, fewer only at the end of the input; -1 on error. */
static ssize_t read_full(int fd, char *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* -1 with errno: a read (errno saved in *rerr) or a write failed. */
static int copy_rest(int in, int out, int *rerr)
{
	static char buf[1 << 16];

	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));

		if (n == 0)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*rerr = errno;
			return -1;
		}
		if (write_all(out, buf, (size_t)n) < 0)
			return -1;
	}
}

/* An unlinked file in dir: O_TMPFILE, or a named one removed at once where that is missing. */
static int tmp_file(const char *dir)
{
	char name[PATH_MAX];
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	if (snprintf(name, sizeof(name), "%s/ftc-stdin.XXXXXX", dir) >= (int)sizeof(name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkostemp(name, O_CLOEXEC);
	if (fd >= 0)
		unlink(name);
	return fd;
}

static bool is_trace_dat(const char *cmd, const char *head, ssize_t n)
{
	if (n == FTC_DAT_MAGIC_LEN && !memcmp(head, FTC_DAT_MAGIC, FTC_DAT_MAGIC_LEN))
		return true;
	fprintf(stderr, "ftc %s: %s: not a trace.dat file (%s): give a file that ftc record "
		"or trace-cmd record wrote\n", cmd, CMD_STDIN_NAME,
		n == 0 ? "it is empty" : memcmp(head, FTC_DAT_MAGIC, (size_t)n) ?
		"it does not start with the trace.dat magic" : "it ends within the trace.dat magic");
	return false;
}

/* A pipe: the magic read already, the rest copied behind it into a file on disk. */
static int spool(const char *cmd, const char *head)
{
	const char *dir = getenv("TMPDIR");
	int fd, rerr = 0;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = tmp_file(dir);
	if (fd < 0) {
		fprintf(stderr, "ftc %s: %s: cannot make a temporary file in %s to read it from: "
			"%s (set TMPDIR to a writable directory)\n", cmd, CMD_STDIN_NAME, dir,
			strerror(errno));
		return -1;
	}
	if (write_all(fd, head, FTC_DAT_MAGIC_LEN) < 0 || copy_rest(0, fd, &rerr) < 0) {
		if (rerr)
			fprintf(stderr, "ftc %s: %s: %s\n", cmd, CMD_STDIN_NAME, strerror(rerr));
		else
			fprintf(stderr, "ftc %s: %s: cannot copy it to a temporary file in %s: %s "
				"(set TMPDIR to a directory with room)\n", cmd, CMD_STDIN_NAME,
				dir, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

const char *cmd_input_path(const char *cmd, const char *path, char *buf, size_t size)
{
	char head[FTC_DAT_MAGIC_LEN];
	struct stat st;
	ssize_t n;
	int fd;

	if (strcmp(path, "-"))
		return path;
	if (isatty(0)) {
		fprintf(stderr, "ftc %s: '-' reads the capture from standard input, which is a "
			"terminal: pipe a file in, or name it\n", cmd);
		return NULL;
	}
	/* a redirected file is read in place: it seeks, and may be large */
	if (fstat(0, &st) == 0 && S_ISREG(st.st_mode)) {
		n = pread(0, head, sizeof(head), 0);
		if (n < 0) {
			fprintf(stderr, "ftc %s: %s: %s\n", cmd, CMD_STDIN_NAME, strerror(errno));
			return NULL;
		}
		if (!is_trace_dat(cmd, head, n))
			return NULL;
		snprintf(buf, size, "/proc/self/fd/0");
		return buf;
	}
	n = read_full(0, head, sizeof(head));
	if (n < 0) {
		fprintf(stderr, "ftc %s: %s: %s\n", cmd, CMD_STDIN_NAME, strerror(errno));
		return NULL;
	}
	if (!is_trace_dat(cmd, head, n))
		return NULL;
	fd = spool(cmd, head);
	if (fd < 0)
		return NULL;
	snprintf(buf, size, "/proc/self/fd/%d", fd);	/* open until exit */
	return buf;
}

const char *cmd_input_name(const char *path)
{
	return strcmp(path, "-") ? path : CMD_STDIN_NAME;
}

struct ftc_reader *cmd_input_open(const struct command *cmd, const char **input, bool plugins,
				  char *buf, size_t size)
{
	struct ftc_reader_opts ro = FTC_OPTS_INIT(ftc_reader_opts, .parse_guard = parse_guard,
		.flags = plugins ? 0 : FTC_READER_NO_PLUGINS);
	struct ftc_reader *r;
	char dir[4096];
	const char *path;

	if (!*input)
		*input = "trace.dat";
	path = cmd_input_path(cmd->name, *input, buf, size);
	if (!path)
		return NULL;
	*input = ro.name = cmd_input_name(*input);
	if (plugins)
		ro.plugin_dir = cmd_plugin_dir(dir, sizeof(dir));
	r = ftc_reader_open_opts(path, &ro);
	if (!r)
		cmd_error(cmd, "%s", ftc_strerror());
	return r;
}

int cmd_input_view(const struct command *cmd, const char **input, cmd_view_fn view, void *ctx)
{
	char stdin_path[64];
	struct ftc_reader *r = cmd_input_open(cmd, input, false, stdin_path, sizeof(stdin_path));
	int status;

	if (!r)
		return FTC_EXIT_FAIL;
	status = view(ctx, r, *input);
	ftc_reader_close(r);
	return status;
}

/* "a, b or c" */
static void view_list(char *buf, size_t size, const char *const *views, int n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i == 0 ? "" :
					i == n - 1 ? " or " : ", ", views[i]);
}

const char *cmd_view_words(int argc, char **argv, int first, const char *const *views, int n,
			   int *view, const char **input)
{
	static char why[160];
	char list[96];

	for (int i = 0; i < n && first < argc; i++)
		if (!strcmp(argv[first], views[i])) {
			*view = i;
			first++;
			break;
		}
	view_list(list, sizeof(list), views, n);
	if (argc - first > 1) {
		snprintf(why, sizeof(why), "say %s, then one file", list);
		return why;
	}
	if (first < argc && !strchr(argv[first], '.') && !strchr(argv[first], '/') &&
	    strcmp(argv[first], "-")) {
		snprintf(why, sizeof(why), "say %s, then the file", list);
		return why;
	}
	if (first < argc && *input)
		return "two files";
	if (first < argc)
		*input = argv[first];
	return NULL;
}
