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

#include <stddef.h>

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

#endif
