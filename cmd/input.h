/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "-" names standard input wherever a command reads a capture file. The
 * reader seeks, so a pipe is first copied into an anonymous memory file.
 */
#ifndef FTC_CMD_INPUT_H
#define FTC_CMD_INPUT_H

#include <stddef.h>

/*
 * Returns path itself, or for "-" a /proc/self/fd path (written into buf)
 * to standard input, or to a seekable copy of it; NULL with a message
 * naming the command when standard input is a terminal or cannot be read.
 */
const char *cmd_input_path(const char *cmd, const char *path, char *buf, size_t size);

#endif
