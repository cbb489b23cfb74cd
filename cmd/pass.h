/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The loop of the analysis commands (sched, syscalls): every record of a
 * file, in timestamp order, through one pass of the library.
 */
#ifndef FTC_CMD_PASS_H
#define FTC_CMD_PASS_H

struct ftc_reader;
struct ftc_merge_record;

/*
 * Gives every record of r to add, in timestamp order, until add fails or
 * standard output does. Returns 0, or -1 (ftc_strerror() says why).
 */
int cmd_pass(struct ftc_reader *r, int (*add)(void *pass, const struct ftc_merge_record *mr),
	     void *pass);

#endif
