// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The listener's side of the trace.dat stream (stream.h): a parser fed
 * with whatever the connection hands out, applying each operation to the
 * output file as it comes. Hostile input meets fixed limits: the only
 * buffers are fixed (a message head, a MOVE's 16 bytes, END's text, one
 * copy buffer), offsets stop at FTC_STREAM_MAX_SIZE, and MOVE copies at
 * most what the stream wrote (a legitimate one moves written data only),
 * so a few bytes can neither allocate much nor keep the host busy.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-stream.h"
#include "stream.h"

#define COPY_BUF	(64u << 10)
/* Slack over the bytes written that MOVEs may copy: rounding to blocks. */
#define MOVE_SLACK	(16ULL << 20)

enum rstate { R_HELLO, R_HEAD, R_WRITE, R_MOVE, R_END, R_DONE, R_BAD };

struct ftc_stream_recv {
	int fd;
	char *path;
	enum rstate state;
	unsigned char head[FTC_STREAM_HEAD];
	size_t fill;		/* bytes of head (or MOVE payload, END text) so far */
	uint32_t len;		/* the message's payload length */
	uint64_t arg;
	uint64_t at;		/* WRITE: where the next payload byte goes */
	uint64_t written, moved;
	char text[FTC_STREAM_MAX_TEXT + 1];
	int status;
	char *copy;
};

struct ftc_stream_recv *ftc_stream_recv_new(int out_fd, const char *path)
{
	struct ftc_stream_recv *s = calloc(1, sizeof(*s));

	if (!s || !(s->path = strdup(path))) {
		free(s);
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	s->fd = out_fd;
	return s;
}

void ftc_stream_recv_free(struct ftc_stream_recv *s)
{
	if (!s)
		return;
	free(s->copy);
	free(s->path);
	free(s);
}

int ftc_stream_recv_status(const struct ftc_stream_recv *s, const char **text)
{
	if (text)
		*text = s->text;
	return s->status;
}

uint64_t ftc_stream_recv_bytes(const struct ftc_stream_recv *s)
{
	return s->written;
}

static int bad(struct ftc_stream_recv *s, const char *why)
{
	s->state = R_BAD;
	return ftc_error(EPROTO, "bad stream from the recorder: %s", why);
}

static int pwrite_all(struct ftc_stream_recv *s, const char *p, size_t n, uint64_t off)
{
	while (n) {
		ssize_t r = pwrite(s->fd, p, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = r < 0 ? errno : EIO;

			s->state = R_BAD;
			return ftc_error(err, "writing %zu bytes at offset %llu: %s",
					 n, (unsigned long long)off, strerror(err));
		}
		p += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/* Blocks move down, so copying upwards from the start never reads what it wrote. */
static int do_move(struct ftc_stream_recv *s, uint64_t from, uint64_t to, uint64_t len)
{
	if (to > from || from > FTC_STREAM_MAX_SIZE || len > FTC_STREAM_MAX_SIZE - from)
		return bad(s, "MOVE out of bounds");
	if (len > s->written + MOVE_SLACK || s->moved + len > 2 * s->written + MOVE_SLACK)
		return bad(s, "MOVE of more than the stream wrote");
	s->moved += len;
	if (!s->copy && !(s->copy = malloc(COPY_BUF))) {
		s->state = R_BAD;
		return ftc_error(ENOMEM, "out of memory");
	}
	for (uint64_t done = 0; done < len && from != to;) {
		size_t n = len - done < COPY_BUF ? (size_t)(len - done) : COPY_BUF;
		ssize_t r = pread(s->fd, s->copy, n, (off_t)(from + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			s->state = R_BAD;
			return ftc_error(errno, "reading back at %llu: %s",
					 (unsigned long long)(from + done), strerror(errno));
		}
		if ((size_t)r < n)	/* past the end of the file: zeros */
			memset(s->copy + r, 0, n - (size_t)r);
		if (pwrite_all(s, s->copy, n, to + done) < 0)
			return -1;
		done += n;
	}
	return 0;
}

static int do_trunc(struct ftc_stream_recv *s, uint64_t size)
{
	if (size > FTC_STREAM_MAX_SIZE)
		return bad(s, "TRUNC past the largest file");
	if (ftruncate(s->fd, (off_t)size) < 0) {
		s->state = R_BAD;
		return ftc_error(errno, "truncate: %s", strerror(errno));
	}
	return 0;
}

static uint32_t le32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static int take_hello(struct ftc_stream_recv *s)
{
	if (memcmp(s->head, FTC_STREAM_MAGIC, 8))
		return bad(s, "it does not begin with ftc's stream magic (is it ftc record -N?)");
	if (le32(s->head + 8) != FTC_STREAM_VERSION)
		return bad(s, "unknown stream version (use the same ftc version on both ends)");
	s->state = R_HEAD;
	return 0;
}

static int take_head(struct ftc_stream_recv *s)
{
	uint32_t type = le32(s->head);

	s->len = le32(s->head + 4);
	s->arg = le64(s->head + 8);
	s->fill = 0;
	if (s->len > FTC_STREAM_MAX_PAYLOAD)
		return bad(s, "a message larger than 1 MB");
	switch (type) {
	case FTC_STREAM_WRITE:
		if (s->arg > FTC_STREAM_MAX_SIZE || s->len > FTC_STREAM_MAX_SIZE - s->arg)
			return bad(s, "WRITE past the largest file");
		s->at = s->arg;
		s->state = R_WRITE;
		break;
	case FTC_STREAM_TRUNC:
		if (s->len)
			return bad(s, "TRUNC with a payload");
		return do_trunc(s, s->arg);
	case FTC_STREAM_MOVE:
		if (s->len != 16)
			return bad(s, "MOVE whose payload is not 16 bytes");
		s->state = R_MOVE;
		break;
	case FTC_STREAM_END:
		if (s->len > FTC_STREAM_MAX_TEXT)
			return bad(s, "END with a text over 4 KB");
		if (s->arg > 1)
			return bad(s, "END with an unknown status");
		s->status = (int)s->arg;
		s->state = R_END;
		break;
	default:
		return bad(s, "unknown message type");
	}
	return 0;
}

/* Payload bytes: WRITE goes straight to the file, the others to fixed buffers. */
static int take_payload(struct ftc_stream_recv *s, const unsigned char *p, size_t n)
{
	if (s->state == R_WRITE) {
		if (pwrite_all(s, (const char *)p, n, s->at) < 0)
			return -1;
		s->at += n;
		s->written += n;
	} else if (s->state == R_MOVE) {
		memcpy(s->head + s->fill, p, n);
	} else {
		memcpy(s->text + s->fill, p, n);
	}
	s->fill += n;
	if (s->fill < s->len)
		return 0;
	s->fill = 0;
	if (s->state == R_MOVE) {
		s->state = R_HEAD;
		return do_move(s, s->arg, le64(s->head), le64(s->head + 8));
	}
	if (s->state == R_END) {
		s->text[s->len] = 0;
		s->state = R_DONE;
		return 1;
	}
	s->state = R_HEAD;
	return 0;
}

int ftc_stream_recv_feed(struct ftc_stream_recv *s, const void *buf, size_t n)
{
	const unsigned char *p = buf;
	int ret = 0;

	while (n) {
		size_t k;

		if (s->state == R_BAD)
			return ftc_error(EPROTO, "the stream was refused already");
		if (s->state == R_DONE)
			return bad(s, "bytes after END");
		if (s->state == R_HELLO || s->state == R_HEAD) {
			k = FTC_STREAM_HEAD - s->fill < n ? FTC_STREAM_HEAD - s->fill : n;
			memcpy(s->head + s->fill, p, k);
			s->fill += k;
			p += k;
			n -= k;
			if (s->fill < FTC_STREAM_HEAD)
				break;
			s->fill = 0;
			ret = s->state == R_HELLO ? take_hello(s) : take_head(s);
			if (ret < 0)
				return -1;
			if (s->state == R_END && !s->len) {
				s->text[0] = 0;
				s->state = R_DONE;
				ret = 1;
			}
			continue;
		}
		k = s->len - s->fill < n ? s->len - s->fill : n;
		ret = take_payload(s, p, k);
		if (ret < 0)
			return -1;
		p += k;
		n -= k;
	}
	return s->state == R_DONE ? 1 : 0;
}
