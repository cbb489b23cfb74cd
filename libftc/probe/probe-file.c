// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * File helpers for the probes, over the tracefs layer (tracefs-layer.h). They
 * return a negative errno instead of setting ftc_error(), because a
 * refusal is an answer here, not a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "probe.h"
#include "tracefs-layer.h"

bool ftc_probe_file_exists(const char *instance, const char *file)
{
	return ftc_tracefs_exists(instance, file);
}

int ftc_probe_path_read(const char *path, size_t max, char **out)
{
	return ftc_path_read_max(path, max, out);
}

int ftc_probe_file_read(const char *instance, const char *file, size_t max, char **out)
{
	return ftc_tracefs_read_max(instance, file, max, out);
}

int ftc_probe_path_write(const char *path, const char *val)
{
	return ftc_path_put(path, val);
}

int ftc_probe_file_write(const char *instance, const char *file, const char *val, bool append)
{
	return ftc_tracefs_put(instance, file, val, strlen(val), append);
}

int ftc_probe_file_open_write(const char *instance, const char *file)
{
	/* O_APPEND and no write: the kernel keeps what the file holds. */
	int fd = ftc_tracefs_open(instance, file, O_WRONLY | O_APPEND);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
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
