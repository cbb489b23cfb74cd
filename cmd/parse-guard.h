/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guard ftc passes to the reader around libtraceevent's format parser. */
#ifndef FTC_CMD_PARSE_GUARD_H
#define FTC_CMD_PARSE_GUARD_H

/*
 * A struct ftc_reader_opts parse_guard: runs parse(arg) with SIGFPE,
 * SIGSEGV and SIGBUS caught; returns -1 when one of them abandoned it.
 */
int parse_guard(int (*parse)(void *arg), void *arg, void *ctx);

#endif
