/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "-" names standard input wherever a command reads a capture file. Its
 * first bytes must be a trace.dat's magic: anything else is refused before
 * more is read. The reader seeks, so a pipe is then copied into an
 * unlinked file in $TMPDIR (on disk, as a file read would be, not in
 * memory); a redirected file is read in place.
 */
#ifndef FTC_CMD_INPUT_H
#define FTC_CMD_INPUT_H

#include <stdbool.h>
#include <stddef.h>

struct command;
struct ftc_reader;

/* What messages call "-". */
#define CMD_STDIN_NAME "standard input"

/*
 * Returns path itself, or for "-" a /proc/self/fd path (written into buf)
 * to standard input or to the copy of it; NULL with a message naming the
 * command when standard input is a terminal, is not a trace.dat or cannot
 * be copied (exit 1).
 */
const char *cmd_input_path(const char *cmd, const char *path, char *buf, size_t size);

/* What messages call path: CMD_STDIN_NAME for "-". */
const char *cmd_input_name(const char *path);

/*
 * Opens the capture an analysis command reads: *input (NULL: trace.dat;
 * "-": standard input, through buf), which then holds its name for
 * messages; libtraceevent's parser under parse_guard, with the plugins
 * beside ftc or none. NULL after a message naming cmd (exit 1).
 */
struct ftc_reader *cmd_input_open(const struct command *cmd, const char **input, bool plugins,
				  char *buf, size_t size);

/*
 * The words after an analysis command's options: an optional view (one of
 * the n views; *view keeps its value when none is given), then at most one
 * capture file, which must look like one (a '.' or '/' in it, or "-") and
 * not repeat -i's (*input). NULL, or why not, naming the views.
 */
const char *cmd_view_words(int argc, char **argv, int first, const char *const *views, int n,
			   int *view, const char **input);

/* A view over one capture: its status (an exit code). */
typedef int (*cmd_view_fn)(void *view, struct ftc_reader *r, const char *input);

/*
 * Opens *input (cmd_input_open, without plugins: the analyses decode their
 * own fields), runs view over it and closes it. Returns view's status, or
 * 1 when the file cannot be opened.
 */
int cmd_input_view(const struct command *cmd, const char **input, cmd_view_fn view, void *ctx);

#endif
