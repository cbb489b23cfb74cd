// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What an offline reader needs besides the pages: header_page and
 * header_event, every event format (all systems, so that events enabled
 * later by triggers still decode), kallsyms, printk formats, saved
 * cmdlines, uname and the clock. Each is built into a payload laid out
 * as trace.dat carries it; writer.c decides where it goes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <tracefs.h>
#include <unistd.h>

#include "ftc.h"
#include "writer.h"

void ftc_dbuf_add(struct ftc_dbuf *b, const void *p, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *np;

		while (cap < b->len + n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void ftc_dbuf_u16(struct ftc_dbuf *b, uint16_t v) { ftc_dbuf_add(b, &v, 2); }
void ftc_dbuf_u32(struct ftc_dbuf *b, uint32_t v) { ftc_dbuf_add(b, &v, 4); }
void ftc_dbuf_u64(struct ftc_dbuf *b, uint64_t v) { ftc_dbuf_add(b, &v, 8); }
void ftc_dbuf_str(struct ftc_dbuf *b, const char *s) { ftc_dbuf_add(b, s, strlen(s) + 1); }

void ftc_dbuf_free(struct ftc_dbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* Whole file into memory; /proc files report size 0, so read to EOF. */
static int slurp(const char *path, char **out, size_t *len)
{
	struct ftc_dbuf b = { 0 };
	char tmp[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return ftc_error(errno, "%s: %s", path, strerror(errno));
	while ((r = read(fd, tmp, sizeof(tmp))) > 0)
		ftc_dbuf_add(&b, tmp, (size_t)r);
	close(fd);
	if (r < 0 || b.oom) {
		int err = r < 0 ? errno : ENOMEM;

		ftc_dbuf_free(&b);
		return ftc_error(err, "%s: %s", path, strerror(err));
	}
	ftc_dbuf_add(&b, "", 1);
	*out = b.p;
	*len = b.len - 1;
	return 0;
}

static int tracefs_slurp(const char *file, char **out, size_t *len)
{
	char *path = ftc_tracefs_path(NULL, file);
	int ret;

	if (!path)
		return -1;
	ret = slurp(path, out, len);
	free(path);
	return ret;
}

static int add_named_file(struct ftc_dbuf *b, const char *name, const char *file)
{
	char *text;
	size_t len;

	if (tracefs_slurp(file, &text, &len) < 0)
		return -1;
	ftc_dbuf_str(b, name);
	ftc_dbuf_u64(b, len);
	ftc_dbuf_add(b, text, len);
	free(text);
	return 0;
}

/* Appends (u64 size, format) for every event of the system; counts them. */
static int add_system_formats(struct ftc_dbuf *b, const char *system, uint32_t *count)
{
	char **events = tracefs_system_events(NULL, system);
	char *path;
	char *text;
	size_t len;

	*count = 0;
	for (int i = 0; events && events[i]; i++) {
		if (asprintf(&path, "events/%s/%s/format", system, events[i]) < 0)
			continue;
		if (tracefs_slurp(path, &text, &len) == 0) {
			ftc_dbuf_u64(b, len);
			ftc_dbuf_add(b, text, len);
			free(text);
			(*count)++;
		}
		free(path);
	}
	tracefs_list_free(events);
	return 0;
}

static void patch_u32(struct ftc_dbuf *b, size_t at, uint32_t v)
{
	if (!b->oom)
		memcpy(b->p + at, &v, 4);
}

static int collect_formats(struct ftc_wmeta *m)
{
	char **systems = tracefs_event_systems(NULL);
	uint32_t n, nsys = 0;
	size_t at;

	if (!systems)
		return ftc_error(ENOENT, "%s/events: no event systems listed; is tracefs mounted?",
				 ftc_tracefs_dir() ? ftc_tracefs_dir() : "tracefs");
	ftc_dbuf_u32(&m->ftrace_events, 0);
	add_system_formats(&m->ftrace_events, "ftrace", &n);
	patch_u32(&m->ftrace_events, 0, n);

	ftc_dbuf_u32(&m->event_formats, 0);
	for (int i = 0; systems[i]; i++) {
		if (!strcmp(systems[i], "ftrace"))
			continue;
		ftc_dbuf_str(&m->event_formats, systems[i]);
		at = m->event_formats.len;
		ftc_dbuf_u32(&m->event_formats, 0);
		add_system_formats(&m->event_formats, systems[i], &n);
		patch_u32(&m->event_formats, at, n);
		nsys++;
	}
	patch_u32(&m->event_formats, 0, nsys);
	tracefs_list_free(systems);
	return 0;
}

static int collect_text32(struct ftc_dbuf *b, const char *path, int in_tracefs)
{
	char *text;
	size_t len;
	int ret = in_tracefs ? tracefs_slurp(path, &text, &len) : slurp(path, &text, &len);

	if (ret < 0)
		return -1;
	ftc_dbuf_u32(b, (uint32_t)len);
	ftc_dbuf_add(b, text, len);
	free(text);
	return 0;
}

int ftc_wmeta_cmdlines(struct ftc_dbuf *out)
{
	char *text;
	size_t len;

	if (tracefs_slurp("saved_cmdlines", &text, &len) < 0)
		return -1;
	ftc_dbuf_u64(out, len);
	ftc_dbuf_add(out, text, len);
	free(text);
	return out->oom ? ftc_error(ENOMEM, "out of memory") : 0;
}


char *ftc_wmeta_cpustat(const char *instance, int cpu)
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

void ftc_wmeta_subbuf(struct ftc_subbuf_layout *l, const char *payload, size_t len)
{
	static const char tag[] = "header_page";
	uint64_t n;

	if (len < sizeof(tag) + 8 || memcmp(payload, tag, sizeof(tag)))
		return;
	memcpy(&n, payload + sizeof(tag), 8);
	if (n <= len - sizeof(tag) - 8)
		ftc_subbuf_layout_parse(l, payload + sizeof(tag) + 8, (size_t)n);
}

int ftc_wmeta_collect(struct ftc_wmeta *m, const char *first_instance)
{
	struct utsname u;

	memset(m, 0, sizeof(*m));
	if (add_named_file(&m->header_info, "header_page", "events/header_page") < 0 ||
	    add_named_file(&m->header_info, "header_event", "events/header_event") < 0)
		return -1;
	if (collect_formats(m) < 0)
		return -1;
	/* kptr_restrict may hide the addresses; we never change it unasked. */
	if (collect_text32(&m->kallsyms, "/proc/kallsyms", 0) < 0)
		return -1;
	if (collect_text32(&m->printk, "printk_formats", 1) < 0)
		return -1;
	if (ftc_wmeta_cmdlines(&m->cmdlines) < 0)
		return -1;
	if (ftc_tracefs_read(first_instance, "trace_clock", &m->trace_clock, NULL) < 0)
		return -1;
	uname(&u);
	if (asprintf(&m->uname, "%s %s %s %s %s", u.sysname, u.nodename, u.release,
		     u.version, u.machine) < 0)
		m->uname = NULL;
	if (m->header_info.oom || m->ftrace_events.oom || m->event_formats.oom ||
	    m->kallsyms.oom || m->printk.oom || !m->uname)
		return ftc_error(ENOMEM, "out of memory while reading the trace metadata");
	return 0;
}

void ftc_wmeta_free(struct ftc_wmeta *m)
{
	ftc_dbuf_free(&m->header_info);
	ftc_dbuf_free(&m->ftrace_events);
	ftc_dbuf_free(&m->event_formats);
	ftc_dbuf_free(&m->kallsyms);
	ftc_dbuf_free(&m->printk);
	ftc_dbuf_free(&m->cmdlines);
	free(m->uname);
	free(m->trace_clock);
	memset(m, 0, sizeof(*m));
}
