// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf_event_open probes: one disabled counter on this process, opened and
 * closed at once. A counter that is never enabled counts nothing.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ftc.h"
#include "probe.h"

static int perf_try(struct perf_event_attr *attr)
{
	int fd;

	attr->size = sizeof(*attr);
	attr->disabled = 1;
	fd = (int)syscall(__NR_perf_event_open, attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int perf_paranoid_refusal(struct ftc_cap *cap, int err, const char *what)
{
	char *level = NULL;
	int ret;

	ftc_probe_path_read("/proc/sys/kernel/perf_event_paranoid", 64, &level);
	if (level)
		level[strcspn(level, "\n")] = '\0';
	ret = ftc_cap_set(cap, FTC_CAP_REFUSED, err, "perf_event_open(%s): %s "
			  "(kernel.perf_event_paranoid=%s)", what, strerror(err),
			  level ? level : "?");
	free(level);
	return ret;
}

static int tracepoint_id(struct ftc_probe *p, unsigned long long *id)
{
	const char *ev = ftc_probe_event(p);
	char file[300], *buf = NULL;
	int ret;

	if (!ev)
		return -ENOENT;
	snprintf(file, sizeof(file), "events/%s/id", ev);
	ret = ftc_probe_file_read(NULL, file, 64, &buf);
	if (ret == 0)
		*id = strtoull(buf, NULL, 10);
	free(buf);
	return ret;
}

int ftc_probe_perf(struct ftc_probe *p, struct ftc_cap *cap)
{
	struct perf_event_attr attr;
	const char *what;
	int ret;

	memset(&attr, 0, sizeof(attr));
	switch (cap->id) {
	case FTC_CAP_PERF_SOFTWARE:
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_TASK_CLOCK;
		what = "software task-clock";
		break;
	case FTC_CAP_PERF_HARDWARE:
		attr.type = PERF_TYPE_HARDWARE;
		attr.config = PERF_COUNT_HW_CPU_CYCLES;
		what = "hardware cpu-cycles";
		break;
	default:
		attr.type = PERF_TYPE_TRACEPOINT;
		what = "tracepoint";
		ret = tracepoint_id(p, &attr.config);
		if (ret < 0)
			return ftc_cap_from_errno(cap, -ret, "perf_event_open(tracepoint): no "
						  "tracepoint id readable in tracefs");
		break;
	}
	ret = perf_try(&attr);
	if (ret == 0)
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "perf_event_open(%s%s%s) opened", what,
				   cap->id == FTC_CAP_PERF_TRACEPOINT ? " " : "",
				   cap->id == FTC_CAP_PERF_TRACEPOINT ? p->event : "");
	ret = -ret;
	if (ret == EACCES || ret == EPERM)
		return perf_paranoid_refusal(cap, ret, what);
	if (cap->id == FTC_CAP_PERF_HARDWARE)
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ret, "perf_event_open(%s): %s: no "
				   "hardware PMU", what, strerror(ret));
	if (ret == ENOSYS)
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ret, "perf_event_open(%s): %s (kernel "
				   "without CONFIG_PERF_EVENTS)", what, strerror(ret));
	return ftc_cap_from_errno(cap, ret, "perf_event_open(%s)", what);
}
