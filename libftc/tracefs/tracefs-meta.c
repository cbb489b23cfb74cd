// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What an offline reader needs besides the pages, read from the kernel:
 * header_page and header_event, every event format (all systems, so that
 * events enabled later by triggers still decode), kallsyms, printk
 * formats, saved cmdlines, uname and the clock. The writer gets it as a
 * struct ftc_meta (meta.h) and reads nothing itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <tracefs.h>

#include "ftc.h"
#include "meta.h"
#include "ringbuf.h"
#include "tracefs-layer.h"

static int read_blob(const char *file, struct ftc_blob *b)
{
	return ftc_tracefs_read(NULL, file, &b->data, &b->len);
}

/* Formats that cannot be read (a race with a module unload) are left out. */
static int collect_system(struct ftc_meta_system *s, const char *name)
{
	char **events = tracefs_system_events(NULL, name);
	int n = 0;

	s->name = strdup(name);
	for (; events && events[n]; n++)
		;
	s->formats = calloc((size_t)n + 1, sizeof(*s->formats));
	if (!s->name || !s->formats) {
		tracefs_list_free(events);
		return ftc_error(ENOMEM, "out of memory");
	}
	for (int i = 0; i < n; i++) {
		struct ftc_blob *f = &s->formats[s->nformats];
		int size = 0;

		f->data = tracefs_event_file_read(NULL, name, events[i], "format", &size);
		if (!f->data)
			continue;
		f->len = (size_t)size;
		s->nformats++;
	}
	tracefs_list_free(events);
	return 0;
}

static int collect_formats(struct ftc_meta *m)
{
	char **systems = tracefs_event_systems(NULL);
	int n = 0, ret = 0;

	if (!systems)
		return ftc_error(ENOENT, "%s/events: no event systems listed; is tracefs mounted?",
				 ftc_tracefs_dir() ? ftc_tracefs_dir() : "tracefs");
	for (; systems[n]; n++)
		;
	m->systems = calloc((size_t)n + 1, sizeof(*m->systems));
	if (!m->systems) {
		tracefs_list_free(systems);
		return ftc_error(ENOMEM, "out of memory");
	}
	ret = collect_system(&m->ftrace, "ftrace");
	for (int i = 0; ret == 0 && systems[i]; i++) {
		if (!strcmp(systems[i], "ftrace"))
			continue;
		ret = collect_system(&m->systems[m->nsystems++], systems[i]);
	}
	tracefs_list_free(systems);
	return ret;
}

static int collect_uname(struct ftc_meta *m)
{
	struct utsname u;

	uname(&u);
	if (asprintf(&m->uname, "%s %s %s %s %s", u.sysname, u.nodename, u.release,
		     u.version, u.machine) < 0) {
		m->uname = NULL;
		return ftc_error(ENOMEM, "out of memory while reading the trace metadata");
	}
	return 0;
}

int ftc_meta_collect(struct ftc_meta *m, const char *first_instance)
{
	size_t len;

	memset(m, 0, sizeof(*m));
	if (read_blob("events/header_page", &m->header_page) < 0 ||
	    read_blob("events/header_event", &m->header_event) < 0 ||
	    collect_formats(m) < 0 ||
	    /* kptr_restrict may hide the addresses; we never change it unasked. */
	    ftc_kallsyms_read(&m->kallsyms.data, &m->kallsyms.len) < 0 ||
	    read_blob("printk_formats", &m->printk) < 0 ||
	    ftc_meta_cmdlines(&m->cmdlines) < 0 ||
	    ftc_tracefs_read(first_instance, "trace_clock", &m->trace_clock, &len) < 0 ||
	    collect_uname(m) < 0) {
		ftc_meta_free(m);
		return -1;
	}
	return 0;
}

void ftc_tracefs_subbuf_layout(struct ftc_subbuf_layout *l)
{
	char *text = NULL;

	ftc_subbuf_layout_ours(l);
	if (ftc_tracefs_read_max(NULL, "events/header_page", 4096, &text) == 0)
		ftc_subbuf_layout_parse(l, text, strlen(text));
	free(text);
}

int ftc_meta_cmdlines(struct ftc_blob *out)
{
	return read_blob("saved_cmdlines", out);
}

char *ftc_meta_cpustat(const char *instance, int cpu)
{
	char file[64], *text, *out = NULL;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	if (ftc_tracefs_read(instance, file, &text, NULL) < 0)
		return NULL;
	if (asprintf(&out, "CPU: %d\n%s", cpu, text) < 0)
		out = NULL;
	free(text);
	return out;
}

static void system_free(struct ftc_meta_system *s)
{
	for (int i = 0; i < s->nformats; i++)
		free(s->formats[i].data);
	free(s->formats);
	free(s->name);
}

void ftc_meta_free(struct ftc_meta *m)
{
	free(m->header_page.data);
	free(m->header_event.data);
	system_free(&m->ftrace);
	for (int i = 0; i < m->nsystems; i++)
		system_free(&m->systems[i]);
	free(m->systems);
	free(m->kallsyms.data);
	free(m->printk.data);
	free(m->cmdlines.data);
	free(m->uname);
	free(m->trace_clock);
	memset(m, 0, sizeof(*m));
}
