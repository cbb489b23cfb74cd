// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel's files beside tracefs that a program of ftrace reads or
 * sets: /proc/kallsyms, the tasks' names in /proc/PID/comm, whether a
 * task still runs (/proc/PID/stat) and the ftrace
 * sysctls of /proc/sys/kernel. The
 * sysctls follow the "raw" convention (tracefs-layer.h): a refusal is an
 * answer the caller words itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "tracefs-layer.h"

#define SYSCTL_MAX	4096	/* a sysctl is a word or a short list */

#define KALLSYMS	"/proc/kallsyms"

int ftc_kallsyms_read(char **buf, size_t *len)
{
	return ftc_path_read(KALLSYMS, buf, len);
}

int ftc_kallsyms_read_max(size_t max, char **out)
{
	return ftc_path_read_max(KALLSYMS, max, out);
}

int ftc_task_comm(pid_t pid, char *comm, size_t len)
{
	char path[64];
	int fd, err = 0;
	ssize_t n;

	if (!len)
		return -EINVAL;
	comm[0] = '\0';
	/* a thread's /proc/TID is there too, though readdir does not list it */
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, comm, len - 1);
	if (n < 0)
		err = -errno;
	close(fd);
	if (err)
		return err;
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return 0;
}

bool ftc_task_running(pid_t id, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)id);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* the comm in parentheses may hold spaces: count from its end */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return false;
	for (int field = 2; start && p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (start)
		*start = p ? strtoull(p + 1, NULL, 10) : 0;
	return true;
}

static char *sysctl_path(const char *name)
{
	char *path = NULL;

	if (!name || !*name || strchr(name, '/')) {
		errno = EINVAL;
		return NULL;
	}
	if (asprintf(&path, "/proc/sys/kernel/%s", name) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	return path;
}

int ftc_sysctl_read(const char *name, char **value)
{
	char *path = sysctl_path(name);
	int ret = path ? ftc_path_read_max(path, SYSCTL_MAX, value) : -errno;

	free(path);
	if (ret == 0)
		(*value)[strcspn(*value, "\n")] = '\0';
	return ret;
}

int ftc_sysctl_write(const char *name, const char *value)
{
	char *path = sysctl_path(name);
	int ret = path ? ftc_path_put(path, value) : -errno;

	free(path);
	return ret;
}
