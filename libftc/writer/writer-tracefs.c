// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public writer calls that take what they store from this kernel:
 * each reads through the tracefs layer (tracefs-meta.c) and hands the
 * result to the writer proper (writer.c), which reads nothing. A program
 * that has its metadata already (a test, another machine's capture) uses
 * ftc_writer_set_meta() and ftc_writer_add_buffer_clock() (meta.h)
 * instead, and then nothing here reads the kernel either.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-tracefs-info.h"
#include "meta.h"
#include "tracefs-layer.h"
#include "writer.h"

/* One event's line and its triggers' ("\tTRIGGER" each) into f, if it records. */
static void enabled_event(FILE *f, const char *instance, const char *line)
{
	const char *colon = strchr(line, ':');
	char file[512], *v = NULL;
	bool records;

	if (!colon || (size_t)snprintf(file, sizeof(file), "events/%.*s/%s/enable",
				       (int)(colon - line), line, colon + 1) >= sizeof(file) ||
	    ftc_tracefs_read_max(instance, file, 64, &v) < 0)
		return;
	/* "0*": held by a trigger alone, recording nothing */
	records = v[0] == '1';
	free(v);
	if (records)
		fprintf(f, "%s\n", line);
	strcpy(strrchr(file, '/') + 1, "trigger");
	if (ftc_tracefs_read_max(instance, file, 1 << 16, &v) < 0)
		return;
	for (char *t = v, *end; *t; t = end + (*end != '\0')) {
		end = t + strcspn(t, "\n");
		if (*t != '#' && end > t) {
			if (!records)
				fprintf(f, "%s (triggers only)\n", line);
			records = true;
			fprintf(f, "\t%.*s\n", (int)(end - t), t);
		}
	}
	free(v);
}

/* Unreadable, the option is left out: the file then says nothing, as another writer's. */
int ftc_writer_add_enabled(struct ftc_writer *w, const char *instance)
{
	char *events = NULL, *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (ftc_tracefs_read_max(instance, "set_event", 1 << 20, &events) < 0)
		return 0;
	f = open_memstream(&text, &len);
	if (!f) {
		free(events);
		return ftc_error(ENOMEM, "out of memory");
	}
	fprintf(f, "%s\n", instance ? instance : "");
	for (char *l = events, *end; *l; l = end + (*end != '\0')) {
		end = l + strcspn(l, "\n");
		if (end > l) {
			char c = *end;

			*end = '\0';
			enabled_event(f, instance, l);
			*end = c;
		}
	}
	free(events);
	if (fclose(f)) {
		free(text);
		return ftc_error(ENOMEM, "out of memory");
	}
	ret = ftc_writer_add_option(w, FTC_OPT_FTC_ENABLED, text, (uint32_t)len + 1);
	free(text);
	return ret;
}

int ftc_writer_add_buffer(struct ftc_writer *w, const char *instance,
			  int ncpus, const int *cpus)
{
	char *clock;
	int ret;

	if (ftc_wbuf_check(w, instance, ncpus) < 0)
		return -1;
	clock = ftc_tracefs_clock(instance);
	if (!clock)
		return -1;
	ret = ftc_writer_add_buffer_clock(w, instance, clock, ncpus, cpus);
	free(clock);
	return ret;
}

/* "\nNAME\nNAME...\n": the loaded modules (NULL when unreadable). */
static char *module_names(void)
{
	char *text = NULL, *out, *o, *line, *save = NULL;
	size_t len = 0;

	if (ftc_path_read("/proc/modules", &text, &len) < 0)
		return NULL;	/* then no kallsyms at the end either */
	out = malloc(len + 2);
	if (!out) {
		free(text);
		return NULL;
	}
	o = out;
	*o++ = '\n';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strcspn(line, " ");

		memcpy(o, line, n);
		o += n;
		*o++ = '\n';
	}
	*o = '\0';
	free(text);
	return out;
}

/* Whether a module in now was not in before. */
static bool modules_added(const char *before, const char *now)
{
	for (const char *p = now + 1; *p; p = strchr(p, '\n') + 1) {
		char key[130];
		size_t n = strcspn(p, "\n");

		if (n + 3 > sizeof(key))
			continue;
		snprintf(key, sizeof(key), "\n%.*s\n", (int)n, p);
		if (!strstr(before, key))
			return true;
	}
	return false;
}

/* The module of a kallsyms line, "[NAME]" at its end, into key as "\nNAME\n". */
static bool line_module(const char *line, size_t len, char *key, size_t size)
{
	const char *open;

	if (len < 3 || line[len - 1] != ']')
		return false;
	open = memrchr(line, '[', len);
	if (!open || (size_t)(line + len - open) + 1 > size)
		return false;
	snprintf(key, size, "\n%.*s\n", (int)(line + len - open - 2), open + 1);
	return true;
}

/*
 * A module loaded during the capture has symbols the kallsyms saved at the
 * start lacks: save kallsyms again, now, with the lines of the modules that
 * went in the meantime added back, so that both are named.
 */
static int end_kallsyms(struct ftc_writer *w)
{
	char *now_mods, *text = NULL, key[130];
	const char *start;
	size_t len = 0, slen;
	struct ftc_dbuf all = { 0 };
	int ret;

	if (!w->start_modules || w->version < 7 || w->meta.kallsyms.len < 4)
		return 0;
	now_mods = module_names();
	if (!now_mods || !modules_added(w->start_modules, now_mods)) {
		free(now_mods);
		return 0;
	}
	if (ftc_path_read("/proc/kallsyms", &text, &len) < 0) {
		free(now_mods);
		return -1;
	}
	ftc_dbuf_add(&all, text, len);
	start = w->meta.kallsyms.p + 4;
	slen = w->meta.kallsyms.len - 4;
	for (size_t at = 0; at < slen;) {
		const char *nl = memchr(start + at, '\n', slen - at);
		size_t n = nl ? (size_t)(nl - start - at) : slen - at;

		if (line_module(start + at, n, key, sizeof(key)) && !strstr(now_mods, key)) {
			ftc_dbuf_add(&all, start + at, n);
			ftc_dbuf_add(&all, "\n", 1);
		}
		at += n + 1;
	}
	ret = all.oom ? ftc_error(ENOMEM, "out of memory") :
		ftc_wset_end_kallsyms(w, all.p, all.len);
	ftc_dbuf_free(&all);
	free(text);
	free(now_mods);
	return ret;
}

int ftc_writer_start(struct ftc_writer *w)
{
	struct ftc_meta m;
	int ret;

	if (!w->nbufs)
		return ftc_error(EINVAL, "%s: no buffer to write", w->path);
	if (!w->have_meta && !w->started) {
		if (ftc_meta_collect(&m, w->bufs[0].name) < 0)
			return -1;
		ret = ftc_writer_set_meta(w, &m);
		ftc_meta_free(&m);
		if (ret < 0)
			return -1;
		w->kernel_meta = true;
		w->start_modules = module_names();
	}
	return ftc_wstart(w);
}

/*
 * The end of a capture from this kernel: the final saved_cmdlines (v7
 * stores them again at the end) and each CPU's stats. A CPU whose stats
 * cannot be read (a synthetic buffer's) gets none, as before.
 */
static int collect_end(struct ftc_writer *w)
{
	struct ftc_blob cmd = { 0 };
	int ret = 0;

	for (int b = 0; b < w->nbufs; b++)
		for (int c = 0; c < w->bufs[b].ncpus; c++) {
			char *st = ftc_meta_cpustat(w->bufs[b].name, w->bufs[b].cpus[c].cpu);

			if (st)
				ftc_writer_set_cpustat(w, b, c, st);
			free(st);
		}
	if (end_kallsyms(w) < 0)
		return -1;
	if (w->version >= 7) {
		ret = ftc_meta_cmdlines(&cmd);
		if (ret == 0)
			ret = ftc_writer_set_cmdlines(w, cmd.data, cmd.len);
		free(cmd.data);
	}
	return ret;
}

int ftc_writer_finish(struct ftc_writer *w)
{
	if (w->started && w->kernel_meta && collect_end(w) < 0) {
		/* The file is still finished, without the final cmdlines. */
		int err = errno;
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", ftc_strerror());
		ftc_wfinish(w);
		return ftc_error(err, "%s", msg);
	}
	return ftc_wfinish(w);
}

int ftc_writer_add_last_boot(struct ftc_writer *w, const char *instance)
{
	char *info = NULL, *text = NULL;
	int ret;

	if (!ftc_info_last_boot(instance, &info))
		return 0;
	ret = asprintf(&text, "%s:%s", instance, info) < 0 ? -1 : 0;
	free(info);
	if (ret < 0)
		return ftc_error(ENOMEM, "out of memory");
	ret = ftc_writer_add_option(w, FTC_OPT_LAST_BOOT_INFO, text, (uint32_t)strlen(text) + 1);
	free(text);
	return ret < 0 ? -1 : 1;
}
