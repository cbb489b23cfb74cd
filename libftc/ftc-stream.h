/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capture off the machine: a trace.dat writer whose file lives on another
 * host (ftc record -N), and the receiving end that turns the stream back
 * into the file (ftc listen). The protocol is in writer/stream.h.
 */
#ifndef FTC_STREAM_H
#define FTC_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-writer.h"
#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A writer (ftc-writer.h) that sends its file over fd (a connected
 * socket, a pipe, a serial device) instead of writing one; name stands
 * for the file in messages (e.g. "HOST:PORT"). The writer owns fd.
 * ftc_writer_set_max() is refused: keeping the newest reads the file back.
 */
FTC_API struct ftc_writer *ftc_writer_create_stream(int fd, const char *name, int version,
						    enum ftc_compression comp);

struct ftc_stream_recv;

/* Applies a stream to the file open on out_fd (read-write); path names it.
 * Error messages leave the path to the caller. */
FTC_API struct ftc_stream_recv *ftc_stream_recv_new(int out_fd, const char *path);

/*
 * Feeds n bytes of the stream, in pieces of any size. Returns 0 while more
 * is expected, 1 once END came (more bytes after it are an error), -1 on
 * a bad stream or a failed write, with the error set.
 */
FTC_API int ftc_stream_recv_feed(struct ftc_stream_recv *s, const void *p, size_t n);

/* After END: the recorder's status (0 ok) and its error text ("" if none). */
FTC_API int ftc_stream_recv_status(const struct ftc_stream_recv *s, const char **text);

/* Bytes of the file received so far (WRITE payloads). */
FTC_API uint64_t ftc_stream_recv_bytes(const struct ftc_stream_recv *s);

FTC_API void ftc_stream_recv_free(struct ftc_stream_recv *s);

#ifdef __cplusplus
}
#endif

#endif
