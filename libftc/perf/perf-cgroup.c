// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Counting in a cgroup (perf stat -G): perf_event_open takes the cgroup's
 * directory as its "pid" with PERF_FLAG_PID_CGROUP, and the event counts
 * only while that cgroup's tasks run on the CPU it is opened on. The
 * directory is found under the hierarchy the perf_event controller is bound
 * to: a cgroup v1 mount with the perf_event option, else the cgroup2 mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"

/* mountinfo escapes blanks and backslashes in paths as \ooo. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Whether a comma-separated option list holds opt. */
static bool has_option(const char *list, const char *opt)
{
	size_t len = strlen(opt);

	for (const char *p = list; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncmp(p, opt, len) && (p[len] == ',' || !p[len]))
			return true;
	}
	return false;
}

/*
 * The mount point of the perf_event controller's hierarchy, from
 * /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] - FS SRC SUPEROPTS".
 */
static int cgroup_mount(char *out, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], v2[4096] = "";
	bool found = false;

	if (!f)
		return ftc_error(errno, "cannot read /proc/self/mountinfo: %s", strerror(errno));
	while (!found && fgets(line, sizeof(line), f)) {
		char mnt[4096], fs[64], super[1024] = "";
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s %*s %1023s", fs, super) < 1)
			continue;
		unescape(mnt);
		if (!strcmp(fs, "cgroup") && has_option(super, "perf_event")) {
			snprintf(out, size, "%s", mnt);
			found = true;
		} else if (!strcmp(fs, "cgroup2") && !*v2) {
			snprintf(v2, sizeof(v2), "%s", mnt);
		}
	}
	fclose(f);
	if (!found && !*v2)
		return ftc_error(ENOENT, "no cgroup2 mount (nor a cgroup v1 mount with perf_event) "
				 "in /proc/self/mountinfo: mount one, e.g. "
				 "'mount -t cgroup2 none /sys/fs/cgroup'");
	if (!found)
		snprintf(out, size, "%s", v2);
	return 0;
}

/* A path under the mount: no "..", which would climb out of it. */
static bool safe_name(const char *name)
{
	for (const char *p = name; *p; ) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += n;
		p += strspn(p, "/");
	}
	return true;
}

static int open_cgroup(const char *name, char **path)
{
	char mnt[4096];
	int fd;

	if (!*name || !safe_name(name))
		return ftc_error(EINVAL, "'%s' is not a cgroup (a path under the cgroup mount, "
				 "without '..')", name);
	if (cgroup_mount(mnt, sizeof(mnt)) < 0)
		return -1;
	while (*name == '/')
		name++;
	if (asprintf(path, "%s/%s", mnt, name) < 0)
		return ftc_error(ENOMEM, "out of memory");
	fd = open(*path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		ftc_error(err == ENOTDIR ? ENOENT : err, "no cgroup '%s' (%s: %s); cgroups are the "
			  "directories under %s", name, *path, strerror(err), mnt);
		free(*path);
		*path = NULL;
		return -1;
	}
	return fd;
}

void ftc_perf_event_cgroup_clear(struct ftc_perf_event *e)
{
	if (!e->cgroup)
		return;
	close(e->cgroup_fd);
	free(e->cgroup);
	e->cgroup = NULL;
	e->cgroup_fd = -1;
}

int ftc_perf_evlist_cgroup(struct ftc_perf_evlist *l, int i, const char *name)
{
	struct ftc_perf_event *e;
	char *path = NULL, *copy;
	int fd;

	if (i < 0 || i >= l->n)
		return ftc_error(EINVAL, "no event %d in the list (it has %d)", i, l->n);
	e = &l->ev[i];
	if (!name) {
		ftc_perf_event_cgroup_clear(e);
		return 0;
	}
	fd = open_cgroup(name, &path);
	if (fd < 0)
		return -1;
	free(path);
	copy = strdup(name);
	if (!copy) {
		close(fd);
		return ftc_error(ENOMEM, "out of memory");
	}
	ftc_perf_event_cgroup_clear(e);
	e->cgroup = copy;
	e->cgroup_fd = fd;
	return 0;
}

const char *ftc_perf_event_cgroup(const struct ftc_perf_event *e)
{
	return e->cgroup;
}
