// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Probes of dynamic events, buffer settings, markers, pid filters, the
 * ftrace sysctls and kallsyms.
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

static bool lockdown_confidentiality(void)
{
	char *mode = NULL, *sel;
	bool ret;

	if (ftc_probe_path_read("/sys/kernel/security/lockdown", 256, &mode) < 0)
		return false;
	sel = ftc_tracefs_selected(mode);
	ret = sel && !strcmp(sel, "confidentiality");
	free(sel);
	free(mode);
	return ret;
}

static const char *dynevent_file(enum ftc_cap_id id)
{
	switch (id) {
	case FTC_CAP_KPROBES:
		return "kprobe_events";
	case FTC_CAP_UPROBES:
		return "uprobe_events";
	default:
		return "dynamic_events";
	}
}

int ftc_probe_dynevent_file(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *file = dynevent_file(cap->id);
	char *buf = NULL;
	int ret;

	if (!ftc_probe_file_exists(NULL, file))
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "%s: no such file (not built into "
				   "this kernel)", file);
	ret = ftc_probe_file_read(NULL, file, 4096, &buf);
	free(buf);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%s: reading", file);
	/* No O_TRUNC: that would delete every probe defined. */
	ret = ftc_probe_file_open_write(NULL, file);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%s: opening for appending", file);
	if (cap->id == FTC_CAP_KPROBES && lockdown_confidentiality())
		return ftc_cap_set(cap, FTC_CAP_REFUSED, EPERM, "%s: kernel lockdown "
				   "(confidentiality) forbids kprobes", file);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "%s readable and opens for appending", file);
}

int ftc_probe_eprobes(struct ftc_probe *p, struct ftc_cap *cap)
{
	const struct ftc_cap *dyn = ftc_probe_dep(p, FTC_CAP_DYNAMIC_EVENTS);
	const char *ev = ftc_probe_event(p);
	char def[400], undef[100], group[64], *readme = NULL;
	char *dot;
	int ret;

	if (dyn->state != FTC_CAP_OK)
		return ftc_cap_set(cap, dyn->state, dyn->err, "%s", dyn->why);
	if (ftc_probe_file_read(NULL, "README", 1 << 16, &readme) == 0 && !strstr(readme, "e[:")) {
		free(readme);
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "README: no e[:...] syntax for "
				   "dynamic_events (no CONFIG_EPROBE_EVENTS)");
	}
	free(readme);
	if (!ev)
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "no event to attach an eprobe to");
	/* A group of our own, so that removing it can touch nothing else. */
	snprintf(group, sizeof(group), "ftc_probe_%d", (int)getpid());
	snprintf(def, sizeof(def), "e:%s/ep %s", group, ev);
	dot = strchr(def + strlen(group) + 6, '/');
	if (dot)
		*dot = '.';
	ret = ftc_probe_file_write(NULL, "dynamic_events", def, true);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "dynamic_events: writing '%s'", def);
	snprintf(undef, sizeof(undef), "-:%s/ep", group);
	ftc_probe_file_write(NULL, "dynamic_events", undef, true);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "dynamic_events: '%s' defined and removed", def);
}

/*
 * An fprobe on vfs_read (every kernel has it, and it is no notrace
 * function), defined in a group of our own and removed again.
 */
int ftc_probe_fprobes(struct ftc_probe *p, struct ftc_cap *cap)
{
	const struct ftc_cap *dyn = ftc_probe_dep(p, FTC_CAP_DYNAMIC_EVENTS);
	char def[128], undef[100], group[64], *readme = NULL;
	int ret;

	if (dyn->state != FTC_CAP_OK)
		return ftc_cap_set(cap, dyn->state, dyn->err, "%s", dyn->why);
	if (ftc_probe_file_read(NULL, "README", 1 << 16, &readme) == 0 && !strstr(readme, "f[:")) {
		free(readme);
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "README: no f[:...] syntax for "
				   "dynamic_events (no CONFIG_FPROBE_EVENTS, Linux 6.7+)");
	}
	free(readme);
	snprintf(group, sizeof(group), "ftc_probe_%d", (int)getpid());
	snprintf(def, sizeof(def), "f:%s/fp vfs_read", group);
	ret = ftc_probe_file_write(NULL, "dynamic_events", def, true);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "dynamic_events: writing '%s'", def);
	snprintf(undef, sizeof(undef), "-:%s/fp", group);
	ftc_probe_file_write(NULL, "dynamic_events", undef, true);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "dynamic_events: '%s' defined and removed", def);
}

/* The clock in brackets, and another one from the list, if any. */
static void clock_pick(char *list, char *cur, size_t cur_size, char *other, size_t other_size)
{
	char *sel = ftc_tracefs_selected(list), *save = NULL;

	snprintf(cur, cur_size, "%s", sel ? sel : "");
	free(sel);
	*other = '\0';
	for (char *w = strtok_r(list, " \n", &save); w && !*other; w = strtok_r(NULL, " \n", &save))
		if (w[0] != '[')
			snprintf(other, other_size, "%s", w);
}

int ftc_probe_trace_clock(struct ftc_probe *p, struct ftc_cap *cap)
{
	char cur[64], other[64], w[300], *list = NULL;
	const char *s;
	int ret;

	ret = ftc_probe_file_read(p->instance, "trace_clock", 4096, &list);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%strace_clock: reading",
					  ftc_probe_where(p, w, sizeof(w)));
	free(list);
	s = ftc_probe_scratch(p);
	if (!s)
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "trace_clock readable (not write-tested)");
	ret = ftc_probe_file_read(s, "trace_clock", 4096, &list);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "trace_clock: reading in a private instance");
	clock_pick(list, cur, sizeof(cur), other, sizeof(other));
	free(list);
	if (!*other)
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "trace_clock: only '%s'", cur);
	ret = ftc_probe_file_write(s, "trace_clock", other, false);
	ftc_probe_file_write(s, "trace_clock", cur, false);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret,
					  "trace_clock: writing '%s' in a private instance", other);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "trace_clock: '%s' set and reset in a private "
			   "instance", other);
}

/* Reads a file of the private instance (or the asked one) and writes it back. */
static int value_write_back(struct ftc_probe *p, struct ftc_cap *cap, const char *file)
{
	const char *s = ftc_probe_scratch(p), *in = s ? s : p->instance;
	char w[300], *val = NULL;
	int ret;

	if (!ftc_probe_file_exists(p->instance, file))
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "%s%s: no such file (older kernel)",
				   ftc_probe_where(p, w, sizeof(w)), file);
	ret = ftc_probe_file_read(in, file, 256, &val);
	if (ret == 0) {
		val[strcspn(val, "\n")] = '\0';
		ret = ftc_probe_file_write(in, file, val, false);
	}
	if (ret < 0)
		ret = ftc_cap_from_errno(cap, -ret, "%s: writing its value back%s", file,
					 s ? " in a private instance" : "");
	else
		ret = ftc_cap_set(cap, FTC_CAP_OK, 0, "%s: '%s' written back%s", file, val,
				  s ? " in a private instance" : "");
	free(val);
	return ret;
}

int ftc_probe_subbuf_size(struct ftc_probe *p, struct ftc_cap *cap)
{
	return value_write_back(p, cap, "buffer_subbuf_size_kb");
}

int ftc_probe_trace_pipe_raw(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *s = ftc_probe_scratch(p), *in = s ? s : p->instance;
	char file[64];
	int cpu, fd, err = 0;

	for (cpu = 0; cpu < 8192; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		if (ftc_probe_file_exists(in, file))
			break;
	}
	if (cpu == 8192)
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT,
				   "per_cpu/cpuN/trace_pipe_raw: none");
	/* Opening consumes nothing; only reads do. */
	fd = ftc_tracefs_open(in, file, O_RDONLY | O_NONBLOCK);
	if (fd == -ENODEV)
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENODEV, "tracefs is not mounted");
	if (fd < 0)
		err = -fd;
	else
		close(fd);
	return ftc_cap_from_errno(cap, err, "%s: %s%s", file, err ? "opening" : "opens for reading",
				  s ? " in a private instance" : "");
}

int ftc_probe_trace_marker(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *s = ftc_probe_scratch(p);
	char w[300];
	int ret;

	if (!ftc_probe_file_exists(p->instance, "trace_marker"))
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "%strace_marker: no such file",
				   ftc_probe_where(p, w, sizeof(w)));
	if (!s) {
		ret = ftc_probe_file_open_write(p->instance, "trace_marker");
		return ftc_cap_from_errno(cap, -ret, "%strace_marker: %s",
					  ftc_probe_where(p, w, sizeof(w)),
					  ret ? "opening for writing" : "opens for writing");
	}
	ret = ftc_probe_file_write(s, "trace_marker", "ftc check", true);
	return ftc_cap_from_errno(cap, -ret, "trace_marker: %s in a private instance",
				  ret ? "writing" : "written");
}

int ftc_probe_event_pid(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *s = ftc_probe_scratch(p);
	char w[300], pid[32];
	int ret;

	if (!ftc_probe_file_exists(p->instance, "set_event_pid"))
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "%sset_event_pid: no such file",
				   ftc_probe_where(p, w, sizeof(w)));
	if (s && p->unexpanded) {
		/* A pid write would expand unexpanded buffers (6.1). */
		ret = ftc_probe_file_open_write(s, "set_event_pid");
		return ftc_cap_from_errno(cap, -ret, "set_event_pid: %s in a private instance%s",
					  ret ? "opening for writing" : "opens for writing",
					  ret ? "" : " (not written: it would expand the kernel's "
					  "trace buffers, not expanded yet)");
	}
	if (!s) {
		ret = ftc_probe_file_open_write(p->instance, "set_event_pid");
		return ftc_cap_from_errno(cap, -ret, "%sset_event_pid: %s",
					  ftc_probe_where(p, w, sizeof(w)),
					  ret ? "opening for writing" : "opens for writing");
	}
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ret = ftc_probe_file_write(s, "set_event_pid", pid, false);
	ftc_probe_file_write(s, "set_event_pid", "", false);
	return ftc_cap_from_errno(cap, -ret, "set_event_pid: %s in a private instance",
				  ret ? "writing a pid" : "a pid set and cleared");
}

int ftc_probe_sysctl(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *path = cap->id == FTC_CAP_FTRACE_ENABLED ?
		"/proc/sys/kernel/ftrace_enabled" : "/proc/sys/kernel/ftrace_dump_on_oops";
	char *val = NULL;
	int ret;

	ret = ftc_probe_path_read(path, 256, &val);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%s: reading", path);
	val[strcspn(val, "\n")] = '\0';
	/* The same value again: the kernel sees a write but nothing changes. */
	ret = ftc_probe_path_write(path, val);
	if (ret < 0)
		ret = ftc_cap_from_errno(cap, -ret, "%s: writing its value '%s' back", path, val);
	else
		ret = ftc_cap_set(cap, FTC_CAP_OK, 0, "%s: value '%s' written back", path, val);
	free(val);
	return ret;
}

/* Whether any address in a piece of /proc/kallsyms is not zero. */
static bool some_address(const char *buf)
{
	for (const char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t zeros = strspn(l, "0");

		if (l[zeros] != ' ' && l[zeros] != '\0')
			return true;
	}
	return false;
}

int ftc_probe_kallsyms(struct ftc_probe *p, struct ftc_cap *cap)
{
	char *buf = NULL, *restrict_val = NULL;
	int ret;

	ret = ftc_kallsyms_read_max(1 << 16, &buf);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "/proc/kallsyms: reading");
	/*
	 * Hidden addresses all read as zeroes. Per-CPU symbols come first and
	 * the first of them is 0 even when nothing is hidden: look further.
	 */
	if (some_address(buf)) {
		free(buf);
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "/proc/kallsyms shows addresses");
	}
	free(buf);
	ftc_probe_path_read("/proc/sys/kernel/kptr_restrict", 64, &restrict_val);
	if (restrict_val)
		restrict_val[strcspn(restrict_val, "\n")] = '\0';
	ret = ftc_cap_set(cap, FTC_CAP_REFUSED, EPERM, "/proc/kallsyms: addresses read as 0 "
			  "(kernel.kptr_restrict=%s; needs root, or kptr_restrict 0 or 1 with "
			  "CAP_SYSLOG)", restrict_val ? restrict_val : "?");
	free(restrict_val);
	return ret;
}
