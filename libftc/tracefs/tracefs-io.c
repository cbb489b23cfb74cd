// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracefs and procfs accesses libtracefs does not do as ftc needs:
 * bounded non-blocking reads (a probe must not hang on a pipe nor read
 * megabytes of available_filter_functions for one line), writes whose
 * close() error counts (list files apply what they were given at close),
 * and /proc files. They return -errno and leave the wording to the caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

#include "ftc.h"
#include "tracefs-layer.h"

int ftc_tracefs_open(const char *instance, const char *file, int flags)
{
	struct tracefs_instance *ti;
	int fd, err;

	if (!ftc_tracefs_dir())
		return -ENODEV;
	err = ftc_tracefs_instance(instance, &ti);
	if (err < 0)
		return err;
	fd = tracefs_instance_file_open(ti, file, flags | O_CLOEXEC);
	err = fd < 0 ? -errno : fd;
	tracefs_instance_free(ti);
	return err;
}

static int read_fd_max(int fd, size_t max, char **out)
{
	char *buf = malloc(max + 1);
	size_t n = 0;
	int err = 0;

	if (!buf)
		err = ENOMEM;
	while (buf && n < max) {
		ssize_t r = read(fd, buf + n, max - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			/* An empty non-blocking pipe is readable, just empty. */
			err = errno == EAGAIN ? 0 : errno;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (err) {
		free(buf);
		return -err;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}

int ftc_tracefs_read_max(const char *instance, const char *file, size_t max, char **out)
{
	int fd = ftc_tracefs_open(instance, file, O_RDONLY | O_NONBLOCK);

	*out = NULL;
	return fd < 0 ? fd : read_fd_max(fd, max, out);
}

int ftc_path_read_max(const char *path, size_t max, char **out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	*out = NULL;
	return fd < 0 ? -errno : read_fd_max(fd, max, out);
}

static int put_fd(int fd, const char *buf, size_t len)
{
	int err = 0;

	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : EIO;
			break;
		}
		buf += n;
		len -= (size_t)n;
	}
	if (close(fd) < 0 && !err)
		err = errno;
	return -err;
}

int ftc_tracefs_put(const char *instance, const char *file, const char *buf, size_t len,
		    bool append)
{
	int fd = ftc_tracefs_open(instance, file, O_WRONLY | (append ? O_APPEND : O_TRUNC));

	return fd < 0 ? fd : put_fd(fd, buf, len);
}

int ftc_path_put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	return fd < 0 ? -errno : put_fd(fd, val, strlen(val));
}

/* procfs files report size 0: read to EOF. */
int ftc_path_read(const char *path, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *data = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t r = 1;

	if (fd < 0 || !data) {
		err = fd < 0 ? errno : ENOMEM;
		goto out;
	}
	while (r > 0) {
		if (n == cap) {
			char *bigger = realloc(data, cap * 2 + 1);

			if (!bigger) {
				err = ENOMEM;
				break;
			}
			data = bigger;
			cap *= 2;
		}
		r = read(fd, data + n, cap - n);
		if (r < 0 && errno == EINTR)
			r = 1;
		else if (r < 0)
			err = errno;
		else
			n += (size_t)r;
	}
out:
	if (fd >= 0)
		close(fd);
	if (err) {
		free(data);
		return ftc_error(err, "%s: %s", path, strerror(err));
	}
	data[n] = '\0';
	*buf = data;
	if (len)
		*len = n;
	return 0;
}

/*
 * A new instance directory, or -EEXIST: tracefs_instance_create() also
 * succeeds on an existing instance, which a probe must not adopt.
 */
int ftc_tracefs_mkdir(const char *name)
{
	char *path = ftc_tracefs_path(NULL, "instances");
	char *dir = NULL;
	int ret;

	if (!path)
		return -ENODEV;
	if (asprintf(&dir, "%s/%s", path, name) < 0)
		dir = NULL;
	ret = !dir ? -ENOMEM : mkdir(dir, 0750) < 0 ? -errno : 0;
	free(dir);
	free(path);
	return ret;
}

/* A reader that is just closing can hold the instance for a moment. */
int ftc_tracefs_rmdir(const char *name)
{
	char *path = ftc_tracefs_path(NULL, "instances");
	char *dir = NULL;
	int ret = -ENOMEM;

	if (!path)
		return -ENODEV;
	if (asprintf(&dir, "%s/%s", path, name) >= 0) {
		for (int i = 0; (ret = rmdir(dir) < 0 ? -errno : 0) == -EBUSY && i < 50; i++)
			usleep(10000);
		free(dir);
	}
	free(path);
	return ret;
}
