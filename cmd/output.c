// SPDX-License-Identifier: GPL-2.0-or-later
/* Output checks and the FILE.old rule shared by every command (output.h). */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "ftc.h"
#include "ftc-perf.h"

static void on_xfsz(int sig)
{
	(void)sig;	/* the write that crossed the limit fails with EFBIG */
}

void cmd_output_init(void)
{
	struct sigaction sa = { .sa_handler = on_xfsz, .sa_flags = SA_RESTART };
	struct sigaction old;

	/*
	 * A handler, not SIG_IGN: exec resets a handler to the default, so a
	 * traced COMMAND gets the limit's usual signal. A caller that
	 * ignores SIGXFSZ already gets EFBIG and its setting is kept.
	 */
	if (sigaction(SIGXFSZ, NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
		sigemptyset(&sa.sa_mask);
		sigaction(SIGXFSZ, &sa, NULL);
	}
}

/* A closed pipe ends ftc as it ends any filter, even when SIGPIPE was ignored. */
static void closed_pipe(void)
{
	signal(SIGPIPE, SIG_DFL);
	raise(SIGPIPE);
}

/* The reason of the first failed write to standard output (0: none seen yet). */
static int out_errno;

bool cmd_output_failed(void)
{
	if (!ferror_unlocked(stdout))
		return false;
	if (!out_errno)
		out_errno = errno;
	return true;
}

bool cmd_output_closed(void)
{
	struct pollfd p = { .fd = 1, .events = POLLOUT };
	struct stat st;

	if (out_errno == EPIPE)
		return true;
	/* a pipe whose reader left polls POLLERR, whatever errno said since */
	return fstat(1, &st) == 0 && S_ISFIFO(st.st_mode) && poll(&p, 1, 0) == 1 &&
	       (p.revents & POLLERR);
}

int cmd_output_flush(void)
{
	int saved = errno;	/* callers still read the failure they are reporting */

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout)) {
		errno = saved;
		return 0;
	}
	if (!out_errno && errno)
		out_errno = errno;
	return -1;
}

/*
 * glibc drops a buffer it could not write and keeps only the error flag,
 * and errno has moved on since: one byte more says why (the output is
 * lost already; a device that took it now only gains a newline).
 */
static int write_error_now(void)
{
	return write(1, "\n", 1) < 0 ? errno : 0;
}

int cmd_output_finish(const struct command *cmd, int status)
{
	int err;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	/* a flush that failed now says why; an earlier one may have (glibc then drops the rest) */
	err = errno ? errno : out_errno;
	if (err == EPIPE || (!err && cmd_output_closed()))
		closed_pipe();
	if (!err)
		err = write_error_now();
	fprintf(stderr, "ftc%s%s: standard output: %s\n", cmd ? " " : "", cmd ? cmd->name : "",
		err ? strerror(err) : "a write failed");
	/* nothing more goes out, not even at exit */
	clearerr(stdout);
	if (freopen("/dev/null", "w", stdout) == NULL)
		close(1);
	return status == FTC_EXIT_OK ? FTC_EXIT_FAIL : status;
}

int cmd_output_set_aside(const struct command *cmd, const char *path, const char *suffix,
			 char *old, size_t size)
{
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	if (snprintf(old, size, "%s%s", path, suffix) >= (int)size) {
		cmd_error(cmd, "%s: the name is too long to keep the previous file as %s%s: "
			  "move it away, or write another file", path, path, suffix);
		return -1;
	}
	if (rename(path, old) < 0) {
		cmd_error(cmd, "%s: cannot keep the previous file as %s: %s (move it away, or "
			  "write another file)", path, old, strerror(errno));
		return -1;
	}
	return 1;
}

int cmd_output_not_input(const struct command *cmd, const char *path, const char *input)
{
	struct stat in, out;

	if (stat(input, &in) < 0 || stat(path, &out) < 0 || in.st_dev != out.st_dev ||
	    in.st_ino != out.st_ino)
		return 0;
	cmd_error(cmd, "%s: is the file being read (%s): write to another file", path, input);
	return -1;
}

void cmd_output_kept_note(const struct command *cmd, const char *path, const char *old)
{
	fprintf(stderr, "ftc %s: kept the previous %s as %s\n", cmd->name, path, old);
}

int cmd_output_keep_old(const struct command *cmd, const char *path)
{
	char old[PATH_MAX];
	int ret = cmd_output_set_aside(cmd, path, ".old", old, sizeof(old));

	if (ret > 0)
		cmd_output_kept_note(cmd, path, old);
	return ret < 0 ? -1 : 0;
}

int cmd_output_no_stdout(const char *path)
{
	if (strcmp(path, "-"))
		return 0;
	return cmd_bad_value("a trace.dat cannot be written to standard output (the writer goes "
			     "back to fill in sizes and its index): name a file, or record on "
			     "another host with 'ftc record -N HOST:PORT' and 'ftc listen'");
}

FILE *cmd_output_open(const struct command *cmd, const char *path)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	if (cmd_output_keep_old(cmd, path) < 0)
		return NULL;
	f = fopen(path, "w");
	if (!f)
		cmd_error(cmd, "%s: cannot create: %s", path, strerror(errno));
	return f;
}

int cmd_output_close(const struct command *cmd, FILE *f, const char *path)
{
	int err;

	if (!f)
		return 0;
	if (f == stdout)
		return cmd_output_flush();	/* reported by cmd_output_finish */
	errno = 0;
	err = fflush(f) || ferror(f) ? (errno ? errno : EIO) : 0;
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	if (!err)
		return 0;
	cmd_error(cmd, "%s: %s", path, strerror(err));
	return -1;
}

int cmd_output_flame(const struct command *cmd, const char *path, struct ftc_perf_agg *a,
		     const char *event)
{
	FILE *f = cmd_output_open(cmd, path);

	if (!f)
		return -1;
	/* a failed write is named by the close, with its reason (the drawing says EIO) */
	if (ftc_perf_agg_flame(f, a, event) < 0 && !ferror(f)) {
		cmd_error(cmd, "%s: %s", path, ftc_strerror());
		if (f != stdout)
			fclose(f);
		return -1;
	}
	return cmd_output_close(cmd, f, path);
}

void cmd_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}
