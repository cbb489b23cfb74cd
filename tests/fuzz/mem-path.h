/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An output file in memory for the fuzz targets that write: the writer
 * needs a path, and a memfd named by /proc/self/fd keeps the disk out of
 * every execution. The same fd is emptied and reused across inputs.
 */
#ifndef FTC_FUZZ_MEM_PATH_H
#define FTC_FUZZ_MEM_PATH_H

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static inline const char *fuzz_mem_path(int *fd, char *buf, size_t size)
{
	if (*fd < 0)
		*fd = memfd_create("fuzz-out", 0);
	if (*fd < 0 || ftruncate(*fd, 0) < 0)
		return NULL;
	snprintf(buf, size, "/proc/self/fd/%d", *fd);
	return buf;
}

#endif
