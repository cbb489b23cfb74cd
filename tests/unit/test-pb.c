// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the exporters' protocol-buffers encoder
 * (libftc/export/pb.c), against encodings worked out by hand from the
 * wire format: varints at their 7-bit boundaries, a negative int32 in ten
 * bytes, doubles, strings, a nested message whose length needs one byte, then two
 * (its body moved along), nesting three deep, packed varints, and an
 * encoder that ran out of memory writing nothing more.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "pb.h"

static bool bytes_are(const struct ftc_pb *pb, const unsigned char *want, size_t n)
{
	return !pb->failed && pb->len == n && !memcmp(pb->buf, want, n);
}

static void test_varints(void)
{
	struct ftc_pb pb = { 0 };
	static const unsigned char v1[] = { 0x08, 0x96, 0x01 };
	static const unsigned char v2[] = { 0x10, 0x7f, 0x10, 0x80, 0x01, 0x10, 0xff, 0xff, 0x03 };
	static const unsigned char neg[] = { 0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					     0xff, 0x01 };
	static const unsigned char max[] = { 0x20, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					     0xff, 0x01 };
	static const unsigned char big_tag[] = { 0xb8, 0x14, 0x2a };

	ftc_pb_uint(&pb, 1, 150);
	CHECK("field 1 = 150 is 08 96 01", bytes_are(&pb, v1, sizeof(v1)));
	ftc_pb_reset(&pb);
	ftc_pb_uint(&pb, 2, 127);
	ftc_pb_uint(&pb, 2, 128);
	ftc_pb_uint(&pb, 2, 65535);
	CHECK("127, 128 and 65535 take 1, 2 and 3 bytes", bytes_are(&pb, v2, sizeof(v2)));
	ftc_pb_reset(&pb);
	ftc_pb_int(&pb, 3, -1);
	CHECK("an int field of -1 takes ten bytes", bytes_are(&pb, neg, sizeof(neg)));
	ftc_pb_reset(&pb);
	ftc_pb_uint(&pb, 4, UINT64_MAX);
	CHECK("the largest uint64 takes ten bytes", bytes_are(&pb, max, sizeof(max)));
	ftc_pb_reset(&pb);
	ftc_pb_uint(&pb, 327, 42);
	CHECK("field 327's tag takes two bytes", bytes_are(&pb, big_tag, sizeof(big_tag)));
	ftc_pb_free(&pb);
}

static void test_double(void)
{
	struct ftc_pb pb = { 0 };
	static const unsigned char one[] = { 0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f,
					     0xe1, 0x02, 0, 0, 0, 0, 0, 0, 0x04, 0xc0 };

	ftc_pb_double(&pb, 1, 1.0);
	ftc_pb_double(&pb, 44, -2.5);
	CHECK("doubles 1.0 and -2.5: eight bytes, little-endian", bytes_are(&pb, one, sizeof(one)));
	ftc_pb_free(&pb);
}

static void test_strings(void)
{
	struct ftc_pb pb = { 0 };
	static const unsigned char s[] = { 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g',
					   0x1a, 0x00 };

	ftc_pb_str(&pb, 2, "testing");
	ftc_pb_bytes(&pb, 3, "", 0);
	CHECK("a string and an empty one", bytes_are(&pb, s, sizeof(s)));
	ftc_pb_free(&pb);
}

static void test_nested(void)
{
	struct ftc_pb pb = { 0 };
	static const unsigned char small[] = { 0x0a, 0x03, 0x08, 0x96, 0x01 };
	static const unsigned char deep[] = { 0x0a, 0x06, 0x12, 0x04, 0x1a, 0x02, 0x08, 0x01,
					      0x20, 0x05 };
	char text[200];
	size_t m, m2, m3;

	m = ftc_pb_open(&pb, 1);
	ftc_pb_uint(&pb, 1, 150);
	ftc_pb_close(&pb, m);
	CHECK("a 3-byte message: its length in one byte", bytes_are(&pb, small, sizeof(small)));

	ftc_pb_reset(&pb);
	memset(text, 'x', sizeof(text));
	m = ftc_pb_open(&pb, 1);
	ftc_pb_bytes(&pb, 2, text, sizeof(text));
	ftc_pb_close(&pb, m);
	/* body: 12 c8 01 + 200 bytes = 203 = 0xcb 0x01 */
	CHECK("a 203-byte message: its length in two bytes, the body after it",
	      pb.len == 1 + 2 + 203 && pb.buf[0] == 0x0a && pb.buf[1] == 0xcb &&
	      pb.buf[2] == 0x01 && pb.buf[3] == 0x12 && pb.buf[4] == 0xc8 && pb.buf[5] == 0x01 &&
	      pb.buf[6] == 'x' && pb.buf[pb.len - 1] == 'x');

	ftc_pb_reset(&pb);
	m = ftc_pb_open(&pb, 1);
	m2 = ftc_pb_open(&pb, 2);
	m3 = ftc_pb_open(&pb, 3);
	ftc_pb_uint(&pb, 1, 1);
	ftc_pb_close(&pb, m3);
	ftc_pb_close(&pb, m2);
	ftc_pb_close(&pb, m);
	ftc_pb_uint(&pb, 4, 5);
	CHECK("three messages deep, then a field after them", bytes_are(&pb, deep, sizeof(deep)));
	ftc_pb_free(&pb);
}

static void test_packed(void)
{
	struct ftc_pb pb = { 0 }, arr = { 0 };
	static const unsigned char want[] = { 0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05 };

	ftc_pb_raw_varint(&arr, 3);
	ftc_pb_raw_varint(&arr, 270);
	ftc_pb_raw_varint(&arr, 86942);
	ftc_pb_message(&pb, 4, &arr);
	CHECK("packed 3, 270, 86942 as the protobuf guide encodes them",
	      bytes_are(&pb, want, sizeof(want)));
	ftc_pb_free(&pb);
	ftc_pb_free(&arr);
}

static void test_failed(void)
{
	struct ftc_pb pb = { .failed = true };
	struct ftc_pb ok = { 0 };

	ftc_pb_uint(&pb, 1, 1);
	ftc_pb_str(&pb, 2, "x");
	CHECK("an encoder that failed writes nothing more", pb.len == 0 && pb.failed);
	ftc_pb_message(&ok, 1, &pb);
	CHECK("a message built by it makes its container fail too", ok.failed);
	ftc_pb_free(&ok);
	ftc_pb_free(&pb);
}

int main(void)
{
	test_varints();
	test_double();
	test_strings();
	test_nested();
	test_packed();
	test_failed();
	return check_failures != 0;
}
