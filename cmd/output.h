/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every command does with what it writes (ftc(1) OUTPUT FILES):
 * standard output checked once the work is done, a previous output file
 * kept as FILE.old, and "-" as an output name.
 */
#ifndef FTC_CMD_OUTPUT_H
#define FTC_CMD_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"

/*
 * Called by main before the command runs: a file size limit (ulimit -f)
 * becomes a write error (EFBIG) the command reports, instead of a
 * SIGXFSZ that kills it half-way (a capture would leave tracefs changed).
 */
void cmd_output_init(void);

/*
 * Called by main with the command's status (cmd NULL before one was
 * found): standard output flushed and checked. A write that failed is reported as "ftc NAME: standard output:
 * REASON" and makes the status 1; a reader that went away (EPIPE) ends
 * the process by SIGPIPE, quietly, as it does for any filter.
 */
int cmd_output_finish(const struct command *cmd, int status);

/*
 * True once a write to standard output failed: a long loop stops instead
 * of formatting on. Checked right after a write, it also keeps the reason
 * for cmd_output_finish (glibc drops what a failed flush could not write).
 */
bool cmd_output_failed(void);

/* True when standard output is a pipe whose reader went away (EPIPE). */
bool cmd_output_closed(void);

/* s as a JSON string, quoted, into f. */
void cmd_json_string(FILE *f, const char *s);

/* fflush(stdout), keeping the reason of a failure for cmd_output_finish; 0 or -1. */
int cmd_output_flush(void);

/*
 * Before a command writes path: an existing regular file that is not
 * empty is renamed path.old (replacing an older one), with a note on
 * stderr; a fifo, a device or a missing file is left for the command to
 * open. Returns 0, or -1 after a message naming the command (exit 1).
 */
int cmd_output_keep_old(const struct command *cmd, const char *path);

/* Refuses (-1 after a message, exit 1) an output that is the input itself, before it is kept as .old. */
int cmd_output_not_input(const struct command *cmd, const char *path, const char *input);

/*
 * The two halves of cmd_output_keep_old, for a command that learns only
 * later whether it writes path (split's next part) or that says it its own
 * way (listen's log): set_aside renames path to path + suffix quietly and
 * returns 1 (old holds the new name), 0 when there was nothing to keep, -1
 * after a message.
 */
int cmd_output_set_aside(const struct command *cmd, const char *path, const char *suffix,
			 char *old, size_t size);
void cmd_output_kept_note(const struct command *cmd, const char *path, const char *old);

/*
 * From the handler of an option that names a trace.dat to write: "-" is
 * refused (cmd_bad_value, exit 2), since the writer goes back to fill in
 * sizes and its index and cannot write a stream; the message says what to
 * use. Returns 0 for any other name.
 */
int cmd_output_no_stdout(const char *path);

/*
 * Opens a text output named by an option: "-" is standard output, any
 * other name is kept as .old (above) and opened for writing. NULL after a
 * message.
 */
FILE *cmd_output_open(const struct command *cmd, const char *path);

/* Closes what cmd_output_open gave, reporting a failed write; 0 or -1. */
int cmd_output_close(const struct command *cmd, FILE *f, const char *path);

struct ftc_perf_agg;

/* An SVG flame graph of a into path (cmd_output_open: "-", .old); 0 or -1 after a message. */
int cmd_output_flame(const struct command *cmd, const char *path, struct ftc_perf_agg *a,
		     const char *event);

#endif
