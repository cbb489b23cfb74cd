// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

static int copy_all(int in, int out)
{
	char buf[1 << 16];

	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));

		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (ssize_t off = 0; off < n; ) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0) {
				if (errno == EINTR)
					continue;
				return -1;
			}
			off += w;
		}
	}
}

const char *cmd_input_path(const char *cmd, const char *path, char *buf, size_t size)
{
	struct stat st;
	int fd;

	if (strcmp(path, "-"))
		return path;
	if (isatty(0)) {
		fprintf(stderr, "ftc %s: '-' reads the capture from standard input, which is a "
			"terminal: pipe a file in, or name it\n", cmd);
		return NULL;
	}
	/* a redirected file is read in place: it seeks, and may be large */
	if (fstat(0, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(buf, size, "/proc/self/fd/0");
		return buf;
	}
	fd = memfd_create("ftc-stdin", MFD_CLOEXEC);
	if (fd < 0 || copy_all(0, fd) < 0) {
		fprintf(stderr, "ftc %s: '-': cannot copy standard input: %s\n", cmd,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	snprintf(buf, size, "/proc/self/fd/%d", fd);	/* open until exit */
	return buf;
}
