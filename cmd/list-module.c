// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc list --module NAME: what belongs to one module. Its functions are
 * the available_filter_functions lines tagged " [NAME]". Its events carry
 * no such tag in tracefs (the system is any name the module chose), but
 * each event of a loaded module has its tracepoint, __tracepoint_EVENT,
 * among the module's symbols in /proc/kallsyms: the names show even when
 * kptr_restrict hides the addresses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "list-module.h"

static const char tp_prefix[] = "__tracepoint_";

/* "ADDR TYPE __tracepoint_EVENT\t[MOD]": EVENT when MOD is m's module. */
static char *tracepoint_of(const struct list_module *m, char *line)
{
	char *sym, *tag, *end;
	size_t n = strlen(m->name);

	tag = strrchr(line, '[');
	if (!tag || strncmp(tag + 1, m->name, n) || tag[1 + n] != ']')
		return NULL;
	sym = strstr(line, tp_prefix);
	if (!sym || sym > tag)
		return NULL;
	sym += sizeof(tp_prefix) - 1;
	end = sym + strcspn(sym, " \t");
	return strndup(sym, (size_t)(end - sym));
}

int list_module_load(struct list_module *m, const char *name)
{
	char *text = NULL, *line, *save = NULL;

	memset(m, 0, sizeof(*m));
	m->name = name;
	if (ftc_kallsyms_read(&text, NULL) < 0)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *ev = strchr(line, '[') ? tracepoint_of(m, line) : NULL;
		char **grown;

		if (!ev)
			continue;
		grown = realloc(m->events, sizeof(*grown) * (size_t)(m->nevents + 1));
		if (!grown) {
			free(ev);
			free(text);
			list_module_free(m);
			return ftc_error(ENOMEM, "out of memory reading /proc/kallsyms");
		}
		m->events = grown;
		m->events[m->nevents++] = ev;
	}
	free(text);
	return 0;
}

bool list_module_event(const struct list_module *m, const char *event)
{
	for (int i = 0; i < m->nevents; i++)
		if (!strcmp(m->events[i], event))
			return true;
	return false;
}

/* An available_filter_functions line: "FUNC [MOD]". */
bool list_module_function(const struct list_module *m, const char *line)
{
	const char *tag = strrchr(line, '[');
	size_t n = strlen(m->name);

	return tag && tag > line && tag[-1] == ' ' && !strncmp(tag + 1, m->name, n) &&
	       tag[1 + n] == ']' && tag[2 + n] == '\0';
}

void list_module_free(struct list_module *m)
{
	for (int i = 0; i < m->nevents; i++)
		free(m->events[i]);
	free(m->events);
	m->events = NULL;
	m->nevents = 0;
}
