// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Events: enabling by system, event or glob, per-event filters and
 * triggers. The kernel's set_event understands "sys:*", "*:event" and
 * "sys:event" but no partial globs, so those are resolved here against the
 * events directory and written one event per line.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "ftc.h"
#include "ftc-control.h"
#include "control.h"
#include "tracefs-layer.h"

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Splits an event spec into system and event patterns. */
static int spec_split(const char *spec, char **sys, char **ev)
{
	const char *colon = strchr(spec, ':');

	if (!*spec || (colon && (colon == spec || !colon[1])))
		return ftc_error(EINVAL, "event '%s': use SYSTEM, SYSTEM:EVENT or EVENT (globs allowed)",
				 spec);
	if (colon) {
		*sys = strndup(spec, (size_t)(colon - spec));
		*ev = strdup(colon + 1);
	} else if (!strcmp(spec, "all")) {
		*sys = strdup("*");
		*ev = strdup("*");
	} else {
		char path_sys[512];

		/* a plain word is a system when such a directory exists */
		snprintf(path_sys, sizeof(path_sys), "events/%s", spec);
		if (!has_glob(spec) && ftc_tracefs_is_dir(NULL, path_sys)) {
			*sys = strdup(spec);
			*ev = strdup("*");
		} else {
			*sys = strdup("*");
			*ev = strdup(spec);
		}
	}
	if (!*sys || !*ev) {
		free(*sys);
		free(*ev);
		return ftc_error(ENOMEM, "out of memory");
	}
	return 0;
}

static int add_match(char ***list, int *n, const char *sys, const char *ev)
{
	/* a plain array, not libtracefs's: the caller frees it with ftc_list_free */
	char **bigger = realloc(*list, (size_t)(*n + 2) * sizeof(*bigger));

	if (!bigger)
		return ftc_error(ENOMEM, "out of memory");
	*list = bigger;
	if (asprintf(&bigger[*n], "%s:%s", sys, ev) < 0) {
		bigger[*n] = NULL;
		return ftc_error(ENOMEM, "out of memory");
	}
	bigger[++*n] = NULL;
	return 0;
}

/* Events of one system that match, counting only those that can be enabled
 * (ftrace's internal events have no enable file). */
static int match_system(const char *top, const char *sys, const char *evpat,
			char ***list, int *n)
{
	char **events = tracefs_system_events(top, sys);
	int ret = 0;

	for (int i = 0; events && events[i] && ret == 0; i++) {
		char file[512];

		if (fnmatch(evpat, events[i], 0))
			continue;
		snprintf(file, sizeof(file), "events/%s/%s/enable", sys, events[i]);
		if (ftc_knob_exists(NULL, file))
			ret = add_match(list, n, sys, events[i]);
	}
	tracefs_list_free(events);
	return ret;
}

int ftc_events_resolve(const char *spec, char ***matches)
{
	const char *top = ftc_tracefs_dir();
	char *sys = NULL, *ev = NULL, **systems;
	char **list = NULL;
	int n = 0, ret = 0;

	*matches = NULL;
	if (!top)
		return ftc_error(ENODEV, "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	if (spec_split(spec, &sys, &ev) < 0)
		return -1;
	systems = tracefs_event_systems(top);
	for (int i = 0; systems && systems[i] && ret == 0; i++)
		if (!fnmatch(sys, systems[i], 0))
			ret = match_system(top, systems[i], ev, &list, &n);
	tracefs_list_free(systems);
	free(sys);
	free(ev);
	if (ret < 0) {
		ftc_list_free(list);
		return -1;
	}
	if (!n)
		return ftc_error(ENOENT, "event '%s': no event matches (see `ftc list` or available_events)",
				 spec);
	*matches = list;
	return n;
}

int ftc_event_enable(struct ftc_state *st, const char *instance, const char *spec)
{
	char *sys = NULL, *ev = NULL, **list = NULL, *value = NULL;
	int n, ret = -1;

	n = ftc_events_resolve(spec, &list);
	if (n < 0 || spec_split(spec, &sys, &ev) < 0)
		goto out;
	/* what the kernel can match itself is written as is: short journal */
	if ((!has_glob(sys) || !strcmp(sys, "*")) && (!has_glob(ev) || !strcmp(ev, "*"))) {
		if (asprintf(&value, "%s:%s", sys, ev) < 0)
			value = NULL;
	} else {
		for (int i = 0; i < n; i++)
			if (ftc_str_addline(&value, list[i]) < 0)
				goto out;
	}
	if (!value) {
		ftc_error(ENOMEM, "out of memory");
		goto out;
	}
	ret = ftc_knob_append(st, instance, "set_event", value);
out:
	free(sys);
	free(ev);
	free(value);
	ftc_list_free(list);
	return ret < 0 ? -1 : n;
}

/* Writes the filter and triggers of one "sys:event"; 0 when all were taken. */
static int setup_one(struct ftc_state *st, const char *instance, const char *name,
		     const char *filter, char *const *triggers, size_t ntrig)
{
	const char *colon = strchr(name, ':');
	char file[512];
	int len = (int)(colon - name);

	if (filter) {
		snprintf(file, sizeof(file), "events/%.*s/%s/filter", len, name, colon + 1);
		if (ftc_knob_write(st, instance, file, filter) < 0)
			return -1;
	}
	snprintf(file, sizeof(file), "events/%.*s/%s/trigger", len, name, colon + 1);
	for (size_t i = 0; i < ntrig; i++)
		if (ftc_knob_write(st, instance, file, triggers[i]) < 0)
			return -1;
	return 0;
}

static int enable_list(struct ftc_state *st, const char *instance, char **list)
{
	char *value = NULL;
	int ret;

	for (int i = 0; list[i]; i++)
		if (ftc_str_addline(&value, list[i]) < 0) {
			free(value);
			return -1;
		}
	ret = ftc_knob_append(st, instance, "set_event", value);
	free(value);
	return ret;
}

int ftc_event_setup(struct ftc_state *st, const char *instance, const char *spec,
		    const char *filter, char *const *triggers, size_t ntrig)
{
	char **list = NULL, **taken = NULL, first[512] = "";
	int n, ntaken = 0, first_err = 0, ret = -1;

	if (!filter && !ntrig)
		return ftc_event_enable(st, instance, spec);
	n = ftc_events_resolve(spec, &list);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (setup_one(st, instance, list[i], filter, triggers, ntrig) < 0) {
			/* a glob takes the events that have the filter's fields */
			if (n == 1 || ftc_state_stopped(st))
				goto out;
			if (!first_err) {
				first_err = errno;
				snprintf(first, sizeof(first), "%s", ftc_strerror());
			}
			continue;
		}
		taken = tracefs_list_add(taken, list[i]);
		if (!taken) {
			ftc_error(ENOMEM, "out of memory");
			goto out;
		}
		ntaken++;
	}
	if (!ntaken) {
		ftc_error(first_err, "event '%s': none of its %d events took the filter or trigger; the first said: %s",
			  spec, n, first);
		goto out;
	}
	ret = enable_list(st, instance, taken) < 0 ? -1 : ntaken;
out:
	ftc_list_free(list);
	tracefs_list_free(taken);
	return ret;
}
