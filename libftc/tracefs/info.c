// SPDX-License-Identifier: LGPL-2.1-or-later
/* Reading tracefs state: values, word lists, instances, filterable functions. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "ftc.h"
#include "ftc-tracefs-info.h"
#include "info.h"
#include "tracefs-layer.h"

void ftc_list_free(char **list)
{
	for (int i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

int ftc_list_count(char *const *list)
{
	int n = 0;

	while (list && list[n])
		n++;
	return n;
}

int ftc_strvec_add(struct ftc_strvec *sv, const char *s)
{
	if (sv->n + 2 > sv->cap) {
		int cap = sv->cap ? sv->cap * 2 : 16;
		char **bigger = realloc(sv->v, (size_t)cap * sizeof(*bigger));

		if (!bigger)
			goto nomem;
		sv->v = bigger;
		sv->cap = cap;
	}
	sv->v[sv->n] = strdup(s);
	if (!sv->v[sv->n])
		goto nomem;
	sv->v[++sv->n] = NULL;
	return 0;
nomem:
	ftc_list_free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = -1;	/* further adds fail too */
	return ftc_error(ENOMEM, "out of memory");
}

char **ftc_strvec_done(struct ftc_strvec *sv)
{
	char **v = sv->v;

	if (sv->n < 0)
		return NULL;
	if (!v) {
		v = calloc(1, sizeof(*v));
		if (!v)
			ftc_error(ENOMEM, "out of memory");
	}
	sv->v = NULL;
	sv->n = sv->cap = 0;
	return v;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ftc_strvec_sort(struct ftc_strvec *sv)
{
	if (sv->n > 1)
		qsort(sv->v, (size_t)sv->n, sizeof(*sv->v), cmp_str);
}

char *ftc_info_value(const char *instance, const char *file)
{
	char *buf = NULL;
	size_t len = 0;

	if (ftc_tracefs_read(instance, file, &buf, &len) < 0)
		return NULL;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return buf;
}

char **ftc_info_words(const char *instance, const char *file)
{
	char *buf = ftc_info_value(instance, file), *save = NULL;
	struct ftc_strvec sv = { 0 };

	if (!buf)
		return NULL;
	for (char *w = strtok_r(buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
		if (ftc_strvec_add(&sv, w) < 0)
			break;
	free(buf);
	return ftc_strvec_done(&sv);
}

char **ftc_info_tracers(const char *instance)
{
	return ftc_info_words(instance, "available_tracers");
}

char **ftc_info_clocks(const char *instance, char **current)
{
	char **list = ftc_info_words(instance, "trace_clock");

	if (current)
		*current = NULL;
	for (int i = 0; list && list[i]; i++) {
		size_t n = strlen(list[i]);

		if (list[i][0] != '[' || n < 2 || list[i][n - 1] != ']')
			continue;
		memmove(list[i], list[i] + 1, n - 2);
		list[i][n - 2] = '\0';
		if (current)
			*current = strdup(list[i]);
	}
	return list;
}

char **ftc_info_instances(void)
{
	struct ftc_strvec sv = { 0 };
	char **list;

	if (!ftc_tracefs_dir()) {
		ftc_error(ENODEV, "tracefs is not mounted: mount -t tracefs nodev "
			  "/sys/kernel/tracing");
		return NULL;
	}
	/* libtracefs returns NULL for none as well as for errors. */
	list = tracefs_instances(NULL);
	for (int i = 0; list && list[i]; i++)
		if (ftc_strvec_add(&sv, list[i]) < 0)
			break;
	tracefs_list_free(list);
	ftc_strvec_sort(&sv);
	return ftc_strvec_done(&sv);
}

/* "" is the top level, as libtracefs takes it: it always exists. */
bool ftc_info_instance_exists(const char *name)
{
	return name && ftc_tracefs_dir() && (!*name || tracefs_instance_exists(name));
}

int ftc_info_last_boot(const char *instance, char **info)
{
	char *v = NULL;
	int ret;

	if (info)
		*info = NULL;
	if (!instance || !*instance ||
	    ftc_tracefs_read_max(instance, "last_boot_info", 1 << 20, &v) < 0)
		return 0;
	/* "# Current": the buffer was written in this boot. */
	ret = *v && strncmp(v, "# Current", 9) != 0;
	if (ret && info)
		*info = v;
	else
		free(v);
	return ret;
}

static bool func_matches(const char *line, const char *glob)
{
	char name[512];
	size_t n = strcspn(line, " \t");

	if (!glob || !*glob)
		return true;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, line, n);
	name[n] = '\0';
	return fnmatch(glob, name, 0) == 0;
}

char **ftc_info_filter_functions(const char *glob)
{
	char *buf = NULL, *save = NULL;
	struct ftc_strvec sv = { 0 };

	if (ftc_tracefs_read(NULL, "available_filter_functions", &buf, NULL) < 0) {
		int err = errno;
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", ftc_strerror());
		ftc_error(err, "%s: the kernel %s function filtering here (ftc check "
			  "shows what it allows)", msg, err == ENOENT ? "lacks" : "refuses");
		return NULL;
	}
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (func_matches(l, glob) && ftc_strvec_add(&sv, l) < 0)
			break;
	free(buf);
	return ftc_strvec_done(&sv);
}
