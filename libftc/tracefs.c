// SPDX-License-Identifier: LGPL-2.1-or-later
/* Locating tracefs and reading its files, on top of libtracefs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "ftc.h"

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

int ftc_tracefs_read(const char *instance, const char *file, char **buf, size_t *len)
{
	char *path = ftc_tracefs_path(instance, file);
	FILE *f;
	size_t cap = 4096, n = 0;
	char *data;
	int err;

	if (!path)
		return -1;
	f = fopen(path, "r");
	if (!f) {
		err = errno;
		ftc_error(err, "%s: %s", path, strerror(err));
		free(path);
		return -1;
	}
	data = malloc(cap + 1);
	while (data) {
		size_t r = fread(data + n, 1, cap - n, f);

		n += r;
		if (r == 0)
			break;
		if (n == cap) {
			char *bigger = realloc(data, cap * 2 + 1);

			if (!bigger) {
				free(data);
				data = NULL;
				break;
			}
			data = bigger;
			cap *= 2;
		}
	}
	err = ferror(f) ? errno : 0;
	fclose(f);
	if (!data || err) {
		free(data);
		ftc_error(err ? err : ENOMEM, "%s: %s", path, strerror(err ? err : ENOMEM));
		free(path);
		return -1;
	}
	free(path);
	data[n] = '\0';
	*buf = data;
	if (len)
		*len = n;
	return 0;
}

char *ftc_tracefs_clock(const char *instance)
{
	struct tracefs_instance *inst = NULL;
	char *clock;

	if (instance && *instance) {
		inst = tracefs_instance_alloc(NULL, instance);
		if (!inst) {
			ftc_error(errno, "instance '%s': %s", instance, strerror(errno));
			return NULL;
		}
	}
	clock = tracefs_get_clock(inst);
	tracefs_instance_free(inst);
	if (!clock)
		ftc_error(EIO, "cannot read the trace_clock of %s",
			  instance && *instance ? instance : "the top-level buffer");
	return clock;
}

bool ftc_tracefs_word_in(const char *list, const char *word)
{
	size_t len = strlen(word);

	/* strstr finds "" everywhere without moving on: it would never end */
	if (!list || !len)
		return false;
	for (const char *s = list; (s = strstr(s, word)); s++) {
		bool start = s == list || strchr(" \t\n[", s[-1]);
		bool end = !s[len] || strchr(" \t\n]", s[len]);

		if (start && end)
			return true;
	}
	return false;
}
