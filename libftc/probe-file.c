// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * File helpers for the probes. They return a negative errno instead of
 * setting ftc_error(), because a refusal is an answer here, not a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ftc.h"
#include "probe.h"

bool ftc_probe_file_exists(const char *instance, const char *file)
{
	char *path = ftc_tracefs_path(instance, file);
	struct stat st;
	bool ret;

	if (!path)
		return false;
	ret = stat(path, &st) == 0;
	free(path);
	return ret;
}

int ftc_probe_path_read(const char *path, size_t max, char **out)
{
	char *buf = malloc(max + 1);
	size_t n = 0;
	int fd, err = 0;

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err = errno;
		free(buf);
		return -err;
	}
	while (n < max) {
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

int ftc_probe_file_read(const char *instance, const char *file, size_t max, char **out)
{
	char *path = ftc_tracefs_path(instance, file);
	int ret;

	*out = NULL;
	if (!path)
		return -ENODEV;
	ret = ftc_probe_path_read(path, max, out);
	free(path);
	return ret;
}

static int write_path(const char *path, const char *val, int flags)
{
	size_t len = strlen(val);
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	if (len && write(fd, val, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	if (close(fd) < 0 && !err)
		err = errno;
	return -err;
}

int ftc_probe_path_write(const char *path, const char *val)
{
	return write_path(path, val, 0);
}

int ftc_probe_file_write(const char *instance, const char *file, const char *val, bool append)
{
	char *path = ftc_tracefs_path(instance, file);
	int ret;

	if (!path)
		return -ENODEV;
	errno = 0;
	ret = write_path(path, val, append ? O_APPEND : O_TRUNC);
	free(path);
	return ret;
}

int ftc_probe_file_open_write(const char *instance, const char *file)
{
	char *path = ftc_tracefs_path(instance, file);
	int fd, err = 0;

	if (!path)
		return -ENODEV;
	/* O_APPEND and no write: the kernel keeps what the file holds. */
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		err = errno;
	else
		close(fd);
	free(path);
	return -err;
}

const char *ftc_probe_where(const struct ftc_probe *p, char *buf, size_t size)
{
	if (!p->instance)
		return "";
	snprintf(buf, size, "instances/%s/", p->instance);
	return buf;
}

bool ftc_probe_word_in(const char *list, const char *word)
{
	return ftc_tracefs_word_in(list, word);
}

/*
 * The event the event probes use: sched_switch exists nearly everywhere;
 * otherwise the first event of available_events.
 */
const char *ftc_probe_event(struct ftc_probe *p)
{
	static const char *const preferred[] = {
		"sched/sched_switch", "sched/sched_wakeup", "syscalls/sys_enter_getpid",
	};
	char *list = NULL, *colon, *nl;

	if (p->event_done)
		return p->event[0] ? p->event : NULL;
	p->event_done = true;
	for (size_t i = 0; i < sizeof(preferred) / sizeof(preferred[0]); i++) {
		char file[300];

		snprintf(file, sizeof(file), "events/%s/enable", preferred[i]);
		if (ftc_probe_file_exists(p->instance, file)) {
			snprintf(p->event, sizeof(p->event), "%s", preferred[i]);
			return p->event;
		}
	}
	if (ftc_probe_file_read(p->instance, "available_events", 4096, &list) == 0 &&
	    (colon = strchr(list, ':'))) {
		*colon = '/';
		nl = strchr(list, '\n');
		if (nl)
			*nl = '\0';
		snprintf(p->event, sizeof(p->event), "%s", list);
	}
	free(list);
	return p->event[0] ? p->event : NULL;
}

/* A function that set_ftrace_filter accepts, for write probes. */
const char *ftc_probe_func(struct ftc_probe *p)
{
	char *list = NULL;
	size_t n;

	if (p->func_done)
		return p->func[0] ? p->func : NULL;
	p->func_done = true;
	if (ftc_probe_file_read(NULL, "available_filter_functions", 4096, &list) < 0)
		return NULL;
	n = strcspn(list, " \t\n");	/* drop " [module]" */
	if (n && n < sizeof(p->func) && memchr(list, '\n', strlen(list))) {
		memcpy(p->func, list, n);
		p->func[n] = '\0';
	}
	free(list);
	return p->func[0] ? p->func : NULL;
}
