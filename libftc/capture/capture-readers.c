// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Who else drains this buffer? Consuming reads are destructive: a
 * forgotten `cat trace_pipe` or an orphaned trace-cmd recorder silently
 * takes events away from a capture. The kernel does not tell, so look at
 * every process's open files for the instance's pipes.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-capture.h"

/* True for DIR/trace_pipe and DIR/per_cpu/cpuN/trace_pipe{,_raw}. */
static int is_pipe_of(const char *link, const char *dir)
{
	size_t n = strlen(dir);
	const char *rest;

	if (strncmp(link, dir, n) || link[n] != '/')
		return 0;
	rest = link + n + 1;
	if (!strcmp(rest, "trace_pipe"))
		return 1;
	if (strncmp(rest, "per_cpu/cpu", 11))
		return 0;
	rest = strchr(rest + 11, '/');
	return rest && (!strcmp(rest, "/trace_pipe_raw") || !strcmp(rest, "/trace_pipe"));
}

static void comm_of(const char *pid, char *comm, size_t len)
{
	if (ftc_task_comm((pid_t)atoi(pid), comm, len) < 0)
		snprintf(comm, len, "?");
}

static void append_line(char **who, const char *line)
{
	size_t old = *who ? strlen(*who) : 0;
	char *n = realloc(*who, old + strlen(line) + 1);

	if (!n)
		return;
	strcpy(n + old, line);
	*who = n;
}

static int scan_pid(const char *pid, const char *dir, char **who)
{
	char fddir[64], link[4096], lpath[600], comm[64], line[4300];
	struct dirent *e;
	int found = 0;
	DIR *d;

	snprintf(fddir, sizeof(fddir), "/proc/%s/fd", pid);
	d = opendir(fddir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		ssize_t n;

		snprintf(lpath, sizeof(lpath), "%s/%s", fddir, e->d_name);
		n = readlink(lpath, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (!is_pipe_of(link, dir))
			continue;
		comm_of(pid, comm, sizeof(comm));
		snprintf(line, sizeof(line), "pid %s (%s): %s\n", pid, comm, link);
		append_line(who, line);
		found++;
	}
	closedir(d);
	return found;
}

int ftc_capture_find_readers(const char *instance, char **who)
{
	char self[32], *dir = ftc_tracefs_path(instance, "x");
	struct dirent *e;
	int found = 0;
	DIR *proc;

	*who = NULL;
	if (!dir)
		return -1;
	dir[strlen(dir) - 2] = '\0';	/* drop "/x" */
	snprintf(self, sizeof(self), "%d", getpid());
	proc = opendir("/proc");
	if (!proc) {
		free(dir);
		return ftc_error(errno, "/proc: %s", strerror(errno));
	}
	while ((e = readdir(proc))) {
		if (!isdigit((unsigned char)e->d_name[0]) || !strcmp(e->d_name, self))
			continue;
		found += scan_pid(e->d_name, dir, who);
	}
	closedir(proc);
	free(dir);
	return found;
}
