/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command's one way of stopping on a signal: SIGINT, SIGTERM and SIGHUP
 * record the signal and wake a self-pipe; loops poll the pipe or test the
 * flag, and the library's long operations are given the flag as their stop
 * condition (ftc_state_set_stop). libftc installs no handler of its own.
 */
#ifndef FTC_CMD_SIGNALS_H
#define FTC_CMD_SIGNALS_H

#include <signal.h>

/* Installs the handler (once; later calls do nothing). No SA_RESTART: a
 * blocking read or poll returns EINTR, so the command notices the flag
 * and restores. -1 with a message when the pipe could not be made (the
 * flag still works). */
int cmd_signals_catch(void);
/* The signal caught, 0 while none came. */
int cmd_signal_caught(void);
/* The flag itself (the signal number, 0 while none came), for libftc. */
const volatile sig_atomic_t *cmd_signal_flag(void);
/* Readable once a signal came, for poll(); -1 when there is no pipe. */
int cmd_signal_fd(void);
/* Empties the pipe (a poll loop that goes on after a signal). */
void cmd_signal_drain(void);

#endif
