// SPDX-License-Identifier: LGPL-2.1-or-later
/* Locating tracefs and reading its files whole, on top of libtracefs. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "ftc.h"
#include "tracefs-layer.h"

const char *ftc_tracefs_dir(void)
{
	return tracefs_tracing_dir();
}

char *ftc_tracefs_path(const char *instance, const char *file)
{
	const char *top = ftc_tracefs_dir();
	char *path = NULL;
	int ret;

	if (!top) {
		ftc_error(ENODEV, "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
		return NULL;
	}
	if (instance && *instance)
		ret = asprintf(&path, "%s/instances/%s/%s", top, instance, file);
	else
		ret = asprintf(&path, "%s/%s", top, file);
	if (ret < 0) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	return path;
}

int ftc_tracefs_instance(const char *instance, struct tracefs_instance **ti)
{
	*ti = NULL;
	if (!instance || !*instance)
		return 0;
	*ti = tracefs_instance_alloc(NULL, instance);
	return *ti ? 0 : -(errno ? errno : ENOENT);
}

bool ftc_tracefs_exists(const char *instance, const char *file)
{
	struct tracefs_instance *ti;
	bool ret;

	if (!ftc_tracefs_dir() || ftc_tracefs_instance(instance, &ti) < 0)
		return false;
	ret = tracefs_file_exists(ti, file) || tracefs_dir_exists(ti, file);
	tracefs_instance_free(ti);
	return ret;
}

bool ftc_tracefs_is_dir(const char *instance, const char *file)
{
	struct tracefs_instance *ti;
	bool ret;

	if (!ftc_tracefs_dir() || ftc_tracefs_instance(instance, &ti) < 0)
		return false;
	ret = tracefs_dir_exists(ti, file);
	tracefs_instance_free(ti);
	return ret;
}

/*
 * libtracefs returns NULL for an empty file as for a failure; only errno
 * tells them apart, so it is cleared first.
 */
int ftc_tracefs_read(const char *instance, const char *file, char **buf, size_t *len)
{
	char *path = ftc_tracefs_path(instance, file);
	struct tracefs_instance *ti = NULL;
	char *data = NULL;
	int size = 0, err;

	if (!path)
		return -1;
	err = -ftc_tracefs_instance(instance, &ti);
	if (!err) {
		errno = 0;
		data = tracefs_instance_file_read(ti, file, &size);
		err = data ? 0 : errno;
		tracefs_instance_free(ti);
	}
	if (!data && !err && !(data = strdup("")))
		err = ENOMEM;
	if (err) {
		free(data);
		ftc_error(err, "%s: %s", path, strerror(err));
		free(path);
		return -1;
	}
	free(path);
	*buf = data;
	if (len)
		*len = (size_t)size;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ftc_tracefs_list(const char *instance, const char *dir, char ***names)
{
	char *path = ftc_tracefs_path(instance, dir);
	DIR *d = path ? opendir(path) : NULL;
	struct dirent *de;
	char **list = NULL, **more;
	int n = 0, ret;

	*names = NULL;
	if (!d) {
		ret = path ? ftc_error(errno, "%s: %s", path, strerror(errno)) : -1;
		free(path);
		return ret;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		more = tracefs_list_add(list, de->d_name);
		if (!more) {
			tracefs_list_free(list);
			closedir(d);
			free(path);
			return ftc_error(ENOMEM, "out of memory");
		}
		list = more;
		n++;
	}
	closedir(d);
	free(path);
	if (n)
		qsort(list, (size_t)n, sizeof(*list), cmp_name);
	*names = list;
	return n;
}

char *ftc_tracefs_clock(const char *instance)
{
	struct tracefs_instance *inst = NULL;
	char *clock;
	int err;

	err = -ftc_tracefs_instance(instance, &inst);
	if (err) {
		ftc_error(err, "instance '%s': %s", instance, strerror(err));
		return NULL;
	}
	clock = tracefs_get_clock(inst);
	tracefs_instance_free(inst);
	if (!clock)
		ftc_error(EIO, "cannot read the trace_clock of %s",
			  instance && *instance ? instance : "the top-level buffer");
	return clock;
}
