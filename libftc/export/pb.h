/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A protocol-buffers encoder for the few wire types the exporters write
 * (pb.c): varints, zigzag-free signed integers (as int32/int64 encode
 * them), doubles, length-delimited strings and nested messages, packed
 * varints.
 * A nested message is opened with ftc_pb_open() and closed with
 * ftc_pb_close(), which moves its bytes to fit its length's varint, so the
 * output is the shortest encoding, as protoc writes it.
 */
#ifndef FTC_PB_H
#define FTC_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ftc_pb {
	unsigned char *buf;
	size_t len, cap;
	bool failed;		/* out of memory once: every later write is dropped */
};

void ftc_pb_free(struct ftc_pb *pb);
void ftc_pb_reset(struct ftc_pb *pb);
void ftc_pb_uint(struct ftc_pb *pb, unsigned int field, uint64_t v);
/* int32 and int64 fields: a negative value takes ten bytes, as in protoc. */
void ftc_pb_int(struct ftc_pb *pb, unsigned int field, int64_t v);
/* A double field (wire type 1: eight bytes, little-endian). */
void ftc_pb_double(struct ftc_pb *pb, unsigned int field, double v);
void ftc_pb_bytes(struct ftc_pb *pb, unsigned int field, const void *p, size_t n);
void ftc_pb_str(struct ftc_pb *pb, unsigned int field, const char *s);
/* Bytes already encoded (fields built apart, tags included). */
void ftc_pb_raw(struct ftc_pb *pb, const void *p, size_t n);
/* A varint with no tag (an element of a packed field). */
void ftc_pb_raw_varint(struct ftc_pb *pb, uint64_t v);
/* Appends another encoder's bytes as field (a message built apart). */
void ftc_pb_message(struct ftc_pb *pb, unsigned int field, const struct ftc_pb *m);
/* Opens a nested message or packed field: what ftc_pb_close() takes. */
size_t ftc_pb_open(struct ftc_pb *pb, unsigned int field);
void ftc_pb_close(struct ftc_pb *pb, size_t mark);

#endif
