/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ftc record -N HOST:PORT and --send DEST: where the trace goes instead of a file. */
#ifndef FTC_CMD_RECORD_SEND_H
#define FTC_CMD_RECORD_SEND_H

/*
 * Opens the stream: tcp true connects to HOST:PORT (IPv6 as [ADDR]:PORT),
 * otherwise DEST is fd:N (an inherited descriptor) or the path of a
 * device, FIFO or socket (a tty is put in raw mode). Returns the file
 * descriptor, or -1 with the error set.
 */
int record_send_open(const char *dest, int tcp);

#endif
