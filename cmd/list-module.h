/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef FTC_CMD_LIST_MODULE_H
#define FTC_CMD_LIST_MODULE_H

#include <stdbool.h>

/* The trace events a loaded module defines, from /proc/kallsyms. */
struct list_module {
	const char *name;
	char **events;	/* event names (the part after "system:") */
	int nevents;
};

int list_module_load(struct list_module *m, const char *name);
bool list_module_event(const struct list_module *m, const char *event);
bool list_module_function(const struct list_module *m, const char *line);
void list_module_free(struct list_module *m);

#endif
