/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The trace.dat stream of `ftc record -N` / `--send` and `ftc listen`.
 *
 * Why this shape: the writer already makes a file that is readable at any
 * moment out of positioned writes (pwrite of pages, rewrites of the index,
 * a cut at the end). Sending those very operations makes the listener's
 * file the same bytes a local capture would have written: the same loss
 * accounting, CPU stats, metadata and interop, with no second file format
 * to keep in step. The board keeps nothing; the only operation that reads
 * the file back (closing the gaps between CPU regions at the end) is sent
 * as MOVE and done by the listener on its copy.
 *
 * One way only (board to host), so it also runs over a device or a pipe.
 * All numbers little-endian. The stream opens with 16 bytes:
 *   "ftcstrm1", u32 version (1), u32 flags (0)
 * then messages, each a 16-byte head and a payload:
 *   u32 type, u32 len (payload bytes, at most FTC_STREAM_MAX_PAYLOAD), u64 arg
 *   WRITE  arg: file offset; payload: the bytes to write there
 *   TRUNC  arg: the file's new size; no payload
 *   MOVE   arg: source offset; payload: u64 destination, u64 length
 *          (destination <= source: blocks only move down)
 *   END    arg: 0 when the capture ended well, else 1; payload: the
 *          recorder's error text, at most FTC_STREAM_MAX_TEXT bytes
 * A stream that stops without END was cut: the listener keeps what came.
 */
#ifndef FTC_STREAM_INTERNAL_H
#define FTC_STREAM_INTERNAL_H

#define FTC_STREAM_MAGIC	"ftcstrm1"
#define FTC_STREAM_VERSION	1
#define FTC_STREAM_HEAD		16
#define FTC_STREAM_MAX_PAYLOAD	(1u << 20)
#define FTC_STREAM_MAX_TEXT	4096u
/* Offsets past this are refused: the writer's sparse regions stay below. */
#define FTC_STREAM_MAX_SIZE	(16ULL << 40)

enum ftc_stream_type {
	FTC_STREAM_WRITE = 1,
	FTC_STREAM_TRUNC = 2,
	FTC_STREAM_MOVE = 3,
	FTC_STREAM_END = 4,
};

#endif
