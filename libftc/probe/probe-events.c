// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Probes of tracefs itself, instances, events, event filters and event
 * triggers. Writes happen only in the private instance, or write a file's
 * current value back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "probe.h"

int ftc_probe_tracefs(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *dir = ftc_tracefs_dir();
	char w[300], *buf = NULL;
	int ret;

	if (!dir)
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENODEV,
				   "tracefs is not mounted: mount -t tracefs nodev "
				   "/sys/kernel/tracing");
	ret = ftc_probe_file_read(p->instance, "tracing_on", 64, &buf);
	free(buf);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%s/%stracing_on", dir,
					  ftc_probe_where(p, w, sizeof(w)));
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "%s/%stracing_on readable", dir,
			   ftc_probe_where(p, w, sizeof(w)));
}

int ftc_probe_instances(struct ftc_probe *p, struct ftc_cap *cap)
{
	if (!ftc_probe_file_exists(NULL, "instances"))
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT,
				   "no instances directory in tracefs");
	if (!ftc_probe_scratch(p))
		return ftc_cap_from_errno(cap, p->scratch_err, "mkdir instances/%s", p->scratch);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "mkdir instances/%s (removed when done)",
			   p->scratch);
}

/* Writes the file's current value back; "none" in a filter means "0". */
static int write_back(const char *instance, const char *file)
{
	char *val = NULL;
	int ret = ftc_probe_file_read(instance, file, 4096, &val);

	if (ret < 0)
		return ret;
	val[strcspn(val, "\n")] = '\0';
	ret = ftc_probe_file_write(instance, file, strcmp(val, "none") ? val : "0", false);
	free(val);
	return ret;
}

/* Writes on, then off, into one file of the event's directory. */
static int event_file_toggle(struct ftc_probe *p, const char *file, const char *on,
			     const char *off, bool *in_scratch)
{
	const char *s = ftc_probe_scratch(p), *ev = ftc_probe_event(p);
	char path[400];
	int ret;

	snprintf(path, sizeof(path), "events/%s/%s", ev, file);
	*in_scratch = s != NULL;
	if (s && p->unexpanded && !strcmp(file, "enable"))
		return ftc_probe_file_open_write(s, path);
	if (!s)
		return write_back(p->instance, path);
	ret = ftc_probe_file_write(s, path, on, false);
	if (ret == 0)
		ret = ftc_probe_file_write(s, path, off, false);
	return ret;
}

int ftc_probe_events(struct ftc_probe *p, struct ftc_cap *cap)
{
	char w[300], *list = NULL;
	bool scratch;
	int ret;

	ret = ftc_probe_file_read(p->instance, "available_events", 256, &list);
	free(list);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%savailable_events",
					  ftc_probe_where(p, w, sizeof(w)));
	if (!ftc_probe_event(p))
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT,
				   "%savailable_events lists no event",
				   ftc_probe_where(p, w, sizeof(w)));
	ret = event_file_toggle(p, "enable", "1", "0", &scratch);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "events/%s/enable: writing%s", p->event,
					  scratch ? " in a private instance" : " its value back");
	if (scratch && p->unexpanded)
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "events/%s/enable: opens for writing in a "
				   "private instance (not written: it would expand the kernel's "
				   "trace buffers, not expanded yet)", p->event);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "events/%s/enable: %s", p->event,
			   scratch ? "enabled and disabled in a private instance"
			       : "value written back");
}

int ftc_probe_event_filter(struct ftc_probe *p, struct ftc_cap *cap)
{
	const struct ftc_cap *ev = ftc_probe_dep(p, FTC_CAP_EVENTS);
	bool scratch;
	int ret;

	if (ev->state != FTC_CAP_OK)
		return ftc_cap_set(cap, ev->state, ev->err, "no events: %s", ev->why);
	ret = event_file_toggle(p, "filter", "common_pid < 0", "0", &scratch);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "events/%s/filter: writing%s", p->event,
					  scratch ? " 'common_pid < 0' in a private instance"
					      : " its value back");
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "events/%s/filter: %s", p->event,
			   scratch ? "set and cleared in a private instance" :
			   "value written back");
}

/*
 * A traceoff trigger set and removed in the private instance, once. Its
 * filter never matches: a trigger arms its event, and sched_switch fired
 * it between the two writes, which left the instance's tracing off and
 * the trace_marker probe after it refused (EBADF, 1 run in 5).
 */
static int trigger_write_test(struct ftc_probe *p, const char *s)
{
	char path[400];

	if (p->trig_done)
		return p->trig_err;
	p->trig_done = true;
	snprintf(path, sizeof(path), "events/%s/trigger", p->event);
	p->trig_err = ftc_probe_file_write(s, path, "traceoff if common_pid < 0", true);
	if (p->trig_err == 0)
		p->trig_err = ftc_probe_file_write(s, path, "!traceoff", true);
	return p->trig_err;
}

int ftc_probe_trigger(struct ftc_probe *p, struct ftc_cap *cap)
{
	const struct ftc_cap *ev = ftc_probe_dep(p, FTC_CAP_EVENTS);
	const char *name = ftc_cap_name(cap->id) + strlen("trigger-");
	const char *s = ftc_probe_scratch(p);
	char path[400], *list = NULL;
	int ret;

	if (ev->state != FTC_CAP_OK)
		return ftc_cap_set(cap, ev->state, ev->err, "no events: %s", ev->why);
	snprintf(path, sizeof(path), "events/%s/trigger", p->event);
	/* A trigger file with no trigger set lists the kernel's trigger commands. */
	ret = ftc_probe_file_read(s ? s : p->instance, path, 4096, &list);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%s", path);
	if (!strstr(list, "# Available triggers:")) {
		free(list);
		return ftc_cap_set(cap, FTC_CAP_REFUSED, EBUSY, "%s: holds triggers, so it does "
				   "not list the available ones; try ftc check -B with another "
				   "instance", path);
	}
	ret = ftc_probe_word_in(list, name);
	free(list);
	if (!ret)
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT,
				   "%s: '%s' is not in the kernel's list of triggers", path, name);
	if (!s)
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "%s: listed (not write-tested: no private "
				   "instance)", path);
	ret = trigger_write_test(p, s);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%s: writing 'traceoff' in a private instance",
					  path);
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "%s: listed; a trigger was set and removed in a "
			   "private instance", path);
}

int ftc_probe_snapshot(struct ftc_probe *p, struct ftc_cap *cap)
{
	const char *s;
	char w[300], *buf = NULL;
	int ret;

	if (!ftc_probe_file_exists(p->instance, "snapshot"))
		return ftc_cap_set(cap, FTC_CAP_ABSENT, ENOENT, "%ssnapshot: no such file "
				   "(kernel built without CONFIG_TRACER_SNAPSHOT)",
				   ftc_probe_where(p, w, sizeof(w)));
	ret = ftc_probe_file_read(p->instance, "snapshot", 512, &buf);
	free(buf);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "%ssnapshot: reading",
					  ftc_probe_where(p, w, sizeof(w)));
	s = ftc_probe_scratch(p);
	if (!s || !ftc_probe_file_exists(s, "snapshot") || p->unexpanded)
		return ftc_cap_set(cap, FTC_CAP_OK, 0, "%ssnapshot readable (not write-tested%s)",
				   ftc_probe_where(p, w, sizeof(w)), p->unexpanded ?
				   ": a snapshot would expand the kernel's trace buffers, not "
				   "expanded yet" : "");
	/* Allocating and freeing a snapshot touches only the private instance. */
	ret = ftc_probe_file_write(s, "snapshot", "1", false);
	if (ret == 0)
		ret = ftc_probe_file_write(s, "snapshot", "0", false);
	if (ret < 0)
		return ftc_cap_from_errno(cap, -ret, "snapshot: writing 1 in a private instance");
	return ftc_cap_set(cap, FTC_CAP_OK, 0, "snapshot: taken and freed in a private instance");
}
