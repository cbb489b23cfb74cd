// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The protocol-buffers encoder (see pb.h). Tags are (field << 3) | wire
 * type: 0 for varints, 1 for doubles, 2 for length-delimited bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "pb.h"

enum { WIRE_VARINT = 0, WIRE_64BIT = 1, WIRE_LEN = 2 };

static bool room(struct ftc_pb *pb, size_t n)
{
	size_t cap = pb->cap ? pb->cap : 256;
	unsigned char *b;

	if (pb->failed)
		return false;
	if (pb->len + n <= pb->cap)
		return true;
	while (cap < pb->len + n)
		cap *= 2;
	b = realloc(pb->buf, cap);
	if (!b) {
		pb->failed = true;
		return false;
	}
	pb->buf = b;
	pb->cap = cap;
	return true;
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p = (unsigned char)v;
}

void ftc_pb_raw_varint(struct ftc_pb *pb, uint64_t v)
{
	size_t n = varint_len(v);

	if (!room(pb, n))
		return;
	put_varint(pb->buf + pb->len, v);
	pb->len += n;
}

static void tag(struct ftc_pb *pb, unsigned int field, unsigned int wire)
{
	ftc_pb_raw_varint(pb, (uint64_t)field << 3 | wire);
}

void ftc_pb_uint(struct ftc_pb *pb, unsigned int field, uint64_t v)
{
	tag(pb, field, WIRE_VARINT);
	ftc_pb_raw_varint(pb, v);
}

void ftc_pb_int(struct ftc_pb *pb, unsigned int field, int64_t v)
{
	ftc_pb_uint(pb, field, (uint64_t)v);
}

void ftc_pb_double(struct ftc_pb *pb, unsigned int field, double v)
{
	uint64_t bits;
	unsigned char le[8];

	memcpy(&bits, &v, 8);
	for (int i = 0; i < 8; i++)
		le[i] = (unsigned char)(bits >> (8 * i));
	tag(pb, field, WIRE_64BIT);
	ftc_pb_raw(pb, le, 8);
}

void ftc_pb_bytes(struct ftc_pb *pb, unsigned int field, const void *p, size_t n)
{
	tag(pb, field, WIRE_LEN);
	ftc_pb_raw_varint(pb, n);
	ftc_pb_raw(pb, p, n);
}

void ftc_pb_raw(struct ftc_pb *pb, const void *p, size_t n)
{
	if (!n || !room(pb, n))
		return;
	memcpy(pb->buf + pb->len, p, n);
	pb->len += n;
}

void ftc_pb_str(struct ftc_pb *pb, unsigned int field, const char *s)
{
	ftc_pb_bytes(pb, field, s, strlen(s));
}

void ftc_pb_message(struct ftc_pb *pb, unsigned int field, const struct ftc_pb *m)
{
	if (m->failed)
		pb->failed = true;
	ftc_pb_bytes(pb, field, m->buf, m->len);
}

/* One byte is kept for the length: most nested messages are short. */
size_t ftc_pb_open(struct ftc_pb *pb, unsigned int field)
{
	tag(pb, field, WIRE_LEN);
	if (room(pb, 1))
		pb->buf[pb->len++] = 0;
	return pb->len;
}

void ftc_pb_close(struct ftc_pb *pb, size_t mark)
{
	size_t body, n;

	if (pb->failed)
		return;
	body = pb->len - mark;
	n = varint_len(body);
	if (n > 1) {
		if (!room(pb, n - 1))
			return;
		memmove(pb->buf + mark + n - 1, pb->buf + mark, body);
		pb->len += n - 1;
	}
	put_varint(pb->buf + mark - 1, body);
}

void ftc_pb_reset(struct ftc_pb *pb)
{
	pb->len = 0;
	pb->failed = false;
}

void ftc_pb_free(struct ftc_pb *pb)
{
	free(pb->buf);
	*pb = (struct ftc_pb){ 0 };
}
