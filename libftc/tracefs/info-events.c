// SPDX-License-Identifier: LGPL-2.1-or-later
/* Events by glob, and their fields from the format files via libtraceevent. */
#include <errno.h>
#include <event-parse.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "ftc.h"
#include "ftc-tracefs-info.h"
#include "info.h"

static bool event_matches(const char *glob, const char *sys, const char *ev)
{
	char full[512];

	if (!glob || !*glob)
		return true;
	snprintf(full, sizeof(full), "%s:%s", sys, ev);
	if (strchr(glob, ':'))
		return fnmatch(glob, full, 0) == 0;
	return fnmatch(glob, sys, 0) == 0 || fnmatch(glob, ev, 0) == 0;
}

static int add_system(struct ftc_strvec *sv, const char *dir, const char *sys, const char *glob)
{
	char **events = tracefs_system_events(dir, sys);
	char full[512];
	int ret = 0;

	for (int i = 0; events && events[i] && ret == 0; i++) {
		if (!event_matches(glob, sys, events[i]))
			continue;
		snprintf(full, sizeof(full), "%s:%s", sys, events[i]);
		ret = ftc_strvec_add(sv, full);
	}
	tracefs_list_free(events);
	return ret;
}

char **ftc_info_events(const char *glob)
{
	const char *dir = ftc_tracefs_dir();
	struct ftc_strvec sv = { 0 };
	char **systems;

	if (!dir) {
		ftc_error(ENODEV, "tracefs is not mounted: mount -t tracefs nodev "
			  "/sys/kernel/tracing");
		return NULL;
	}
	systems = tracefs_event_systems(dir);
	if (!systems) {
		ftc_error(errno ? errno : ENOENT, "%s/events: no event systems readable: %s",
			  dir, strerror(errno ? errno : ENOENT));
		return NULL;
	}
	for (int i = 0; systems[i]; i++)
		if (add_system(&sv, dir, systems[i], glob) < 0)
			break;
	tracefs_list_free(systems);
	ftc_strvec_sort(&sv);
	return ftc_strvec_done(&sv);
}

static int walk_fields(struct tep_format_field *f, bool common,
		       int (*fn)(const struct ftc_event_field *f, void *ctx), void *ctx)
{
	for (; f; f = f->next) {
		struct ftc_event_field out = {
			.name = f->name,
			.type = f->type,
			.offset = f->offset,
			.size = f->size,
			.arraylen = (f->flags & TEP_FIELD_IS_ARRAY) ? f->arraylen : 0,
			.is_signed = (f->flags & TEP_FIELD_IS_SIGNED) != 0,
			.is_common = common,
		};
		int ret = fn(&out, ctx);

		if (ret)
			return ret;
	}
	return 0;
}

int ftc_info_event_fields(const char *system, const char *event,
			  int (*fn)(const struct ftc_event_field *f, void *ctx), void *ctx)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev;
	char file[512], *buf = NULL;
	size_t len = 0;
	int ret = -1;

	if (!tep)
		return ftc_error(ENOMEM, "out of memory");
	snprintf(file, sizeof(file), "events/%s/%s/format", system, event);
	if (ftc_tracefs_read(NULL, file, &buf, &len) < 0)
		goto out;
	if (tep_parse_format(tep, &ev, buf, len, system) != TEP_ERRNO__SUCCESS || !ev) {
		ftc_error(EINVAL, "%s/%s: libtraceevent cannot parse this format",
			  ftc_tracefs_dir(), file);
		goto out;
	}
	ret = walk_fields(ev->format.common_fields, true, fn, ctx);
	if (ret == 0)
		ret = walk_fields(ev->format.fields, false, fn, ctx);
out:
	free(buf);
	tep_free(tep);
	return ret;
}
