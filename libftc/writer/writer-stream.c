// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The recorder's side of the trace.dat stream (stream.h): the writer's
 * positioned writes, cuts and end-of-capture moves become messages on a
 * file descriptor instead of operations on a file. The reader threads
 * and the checkpoint write at once, so each message goes out whole under
 * a lock. SIGPIPE is held back while writing: a listener that went away
 * is an error (EPIPE) the capture reports, never a signal that kills it.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-stream.h"
#include "stream.h"
#include "writer.h"

#define BYE_WAIT_MS	10000	/* longest wait for the listener to close its file */

static int write_all(struct ftc_writer *w, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t r = send(w->fd, c, n, MSG_NOSIGNAL);

		if (r < 0 && errno == ENOTSOCK)
			r = write(w->fd, c, n);
		if (r < 0 && (errno == EINTR || errno == EAGAIN)) {
			if (errno == EAGAIN)
				poll(&(struct pollfd){ .fd = w->fd, .events = POLLOUT }, 1, 100);
			continue;
		}
		if (r <= 0) {
			int err = r < 0 ? errno : EIO;

			return ftc_error(err, "%s: sending the trace: %s%s", w->path, strerror(err),
					 err == EPIPE || err == ECONNRESET ?
					 " (the listener closed the connection: what it received "
					 "stays readable there)" : "");
		}
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

/* head and payload out whole, SIGPIPE held back (see the top). */
static int send_raw(struct ftc_writer *w, const void *head, size_t hlen, const void *p,
		    size_t len)
{
	sigset_t pipe_set, old;
	int ret;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_mutex_lock(&w->send_lock);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	ret = write_all(w, head, hlen);
	if (ret == 0 && len)
		ret = write_all(w, p, len);
	if (ret < 0 && errno == EPIPE && !sigismember(&old, SIGPIPE)) {
		struct timespec zero = { 0 };
		int err = errno;

		sigtimedwait(&pipe_set, NULL, &zero);	/* ours: drop it */
		errno = err;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_mutex_unlock(&w->send_lock);
	return ret;
}

static int send_msg(struct ftc_writer *w, uint32_t type, uint64_t arg, const void *p,
		    uint32_t len)
{
	uint32_t h32[2] = { htole32(type), htole32(len) };
	uint64_t a = htole64(arg);
	unsigned char head[FTC_STREAM_HEAD];

	memcpy(head, h32, 8);
	memcpy(head + 8, &a, 8);
	return send_raw(w, head, sizeof(head), p, len);
}

int ftc_wsend_write(struct ftc_writer *w, const void *p, size_t len, uint64_t off)
{
	const char *c = p;

	do {
		uint32_t n = len < FTC_STREAM_MAX_PAYLOAD ? (uint32_t)len : FTC_STREAM_MAX_PAYLOAD;

		if (send_msg(w, FTC_STREAM_WRITE, off, c, n) < 0)
			return -1;
		c += n;
		off += n;
		len -= n;
	} while (len);
	return 0;
}

int ftc_wsend_trunc(struct ftc_writer *w, uint64_t size)
{
	return send_msg(w, FTC_STREAM_TRUNC, size, NULL, 0);
}

int ftc_wsend_move(struct ftc_writer *w, uint64_t from, uint64_t to, uint64_t len)
{
	uint64_t p[2] = { htole64(to), htole64(len) };

	return send_msg(w, FTC_STREAM_MOVE, from, p, sizeof(p));
}

/*
 * The end: on a socket, wait until the listener closed its side, which it
 * does once the file is complete, so that the file is there when record
 * returns. A device or pipe cannot tell; the listener finishes on its own.
 */
int ftc_wsend_end(struct ftc_writer *w, bool ok, const char *text)
{
	size_t n = text ? strlen(text) : 0;
	char buf[256];
	int type;
	socklen_t tl = sizeof(type);

	if (n > FTC_STREAM_MAX_TEXT)
		n = FTC_STREAM_MAX_TEXT;
	if (send_msg(w, FTC_STREAM_END, ok ? 0 : 1, text, (uint32_t)n) < 0)
		return -1;
	if (isatty(w->fd))
		tcdrain(w->fd);	/* a serial line: out of the UART before we exit */
	if (getsockopt(w->fd, SOL_SOCKET, SO_TYPE, &type, &tl) < 0 || type != SOCK_STREAM)
		return 0;
	shutdown(w->fd, SHUT_WR);
	for (int waited = 0; waited < BYE_WAIT_MS; waited += 100) {
		struct pollfd pf = { .fd = w->fd, .events = POLLIN };
		ssize_t r;

		if (poll(&pf, 1, 100) <= 0)
			continue;
		r = read(w->fd, buf, sizeof(buf));
		if (r <= 0)
			return 0;
	}
	return ftc_error(ETIMEDOUT, "%s: the listener did not confirm the end of the trace in "
			 "%d s: check its messages", w->path, BYE_WAIT_MS / 1000);
}

int ftc_wsend_hello(struct ftc_writer *w)
{
	uint32_t hello[2] = { htole32(FTC_STREAM_VERSION), 0 };
	char head[FTC_STREAM_HEAD];

	memcpy(head, FTC_STREAM_MAGIC, 8);
	memcpy(head + 8, hello, 8);
	return send_raw(w, head, sizeof(head), NULL, 0);
}
