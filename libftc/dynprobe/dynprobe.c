// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Dynamic probes in ftc's group: the definition line from a parsed spec,
 * written through the journal (so that restore, the guardian and
 * `ftc reset --journal` remove it), listing and removing kept ones.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ksym-line.h"
#include "ftc-control.h"
#include "ftc-dynprobe.h"
#include "dynprobe.h"

static int user_definition(const struct ftc_probe_spec *ps, const char *event, char **def)
{
	struct ubin b;
	GElf_Addr addr = 0, off;
	bool vars = false;
	int ret;

	for (size_t i = 0; i < ps->nargs; i++)
		vars |= !ps->args[i].raw;
	if (ftc_ubin_open(&b, ps->binary) < 0)
		return -1;
	if (ps->file) {
		ret = ftc_udw_line_addr(&b, ps->file, ps->line, &addr);
	} else {
		ret = ftc_ubin_func_addr(&b, ps->func, &addr);
		/* variables are stored past the prologue: probe there */
		if (!ret && !ps->ret && !ps->off && vars)
			ret = ftc_udw_func_point(&b, ps->func, addr, true, &addr);
		addr += ps->off;
	}
	if (!ret)
		ret = ftc_ubin_file_offset(&b, addr, &off);
	if (!ret)
		ret = ftc_str_addf(def, "%c:%s/%s %s:0x%llx", ps->ret ? 'r' : 'p', FTC_PROBE_GROUP,
				   event, b.path, (unsigned long long)off);
	if (!ret)
		ret = ftc_udw_args(&b, ps, addr, def);
	ftc_ubin_close(&b);
	return ret;
}

/* Whether kallsyms line [line, end) is a text symbol named func (of module). */
static int ksym_match(const char *line, const char *end, const char *module, const char *func,
		      bool *module_seen, struct near_names *near_names)
{
	struct ftc_ksym_line l;
	char name[256];

	if (!ftc_ksym_line_parse(line, end, &l))
		return 0;
	if (module && (!l.mod || l.mod_len != strlen(module) ||
		       strncmp(l.mod, module, l.mod_len)))
		return 0;
	*module_seen = true;
	if (l.type != 't' && l.type != 'T')
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)l.name_len, l.name);
	if (!strcmp(name, func))
		return 1;
	/* edit distance >= the length difference: skip the far ones cheaply */
	if (strlen(name) + 4 >= strlen(func) && strlen(func) + 4 >= strlen(name))
		ftc_near_consider(near_names, func, name);
	return 0;
}

/*
 * A kprobe's function must be a text symbol of the kernel or of MODULE
 * (/proc/kallsyms); when it is not, the nearest names are given. A
 * module that is not loaded is left to the kernel, which keeps such a
 * probe until it loads. Unreadable kallsyms: left to the kernel too.
 */
static int ksym_check(const char *what, const char *module, const char *func)
{
	struct near_names near_names = { 0 };
	char near[800] = "", *buf = NULL;
	bool module_seen = false;
	size_t len = 0;
	int found = 0;

	if (ftc_kallsyms_read(&buf, &len) < 0)
		return 0;
	for (const char *line = buf, *end; !found && line < buf + len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(buf + len - line));
		if (!end)
			end = buf + len;
		found = ksym_match(line, end, module, func, &module_seen, &near_names);
	}
	free(buf);
	if (found || (module && !module_seen))
		return 0;
	ftc_near_format(&near_names, near, sizeof(near));
	return ftc_error(ENOENT, "%s: no function '%s' in %s%s%s%s (/proc/kallsyms)", what, func,
			 module ? "module " : "the kernel", module ? module : "",
			 *near ? "; nearest: " : "", near);
}

static int raw_args(const struct ftc_probe_spec *ps, char **def)
{
	for (size_t i = 0; i < ps->nargs; i++) {
		const struct ftc_probe_arg *a = &ps->args[i];

		/* kprobes and eprobes: the kernel resolves names (BTF, fields) */
		if (ftc_str_addf(def, " %s%s%s%s%s", a->name ? a->name : "", a->name ? "=" : "",
				 a->fetch, a->type ? ":" : "", a->type ? a->type : "") < 0)
			return -1;
	}
	return 0;
}

int ftc_probe_definition(const struct ftc_probe_spec *ps, const char *event, char **def,
			 const char **file)
{
	int ret;

	*def = NULL;
	switch (ps->kind) {
	case FTC_PROBE_UPROBE:
		*file = "uprobe_events";
		ret = user_definition(ps, event, def);
		break;
	case FTC_PROBE_KPROBE:
		*file = "kprobe_events";
		ret = ksym_check("kprobe", ps->module, ps->func);
		if (!ret)
			ret = ftc_str_addf(def, "%c:%s/%s %s%s%s", ps->ret ? 'r' : 'p',
					   FTC_PROBE_GROUP, event, ps->module ? ps->module : "",
					   ps->module ? ":" : "", ps->func);
		if (!ret && ps->off)
			ret = ftc_str_addf(def, "+%llu", ps->off);
		if (!ret)
			ret = raw_args(ps, def);
		break;
	case FTC_PROBE_FPROBE:
		*file = "dynamic_events";
		ret = ksym_check("fprobe", NULL, ps->func);
		if (!ret)
			ret = ftc_str_addf(def, "f:%s/%s %s%s", FTC_PROBE_GROUP, event, ps->func,
					   ps->ret ? "%return" : "");
		if (!ret)
			ret = raw_args(ps, def);
		break;
	case FTC_PROBE_SYNTH:
		*file = "dynamic_events";
		ret = ftc_str_addf(def, "s:%s/%s", FTC_SYNTH_GROUP, event);
		for (size_t i = 0; !ret && i < ps->nargs; i++)
			ret = ftc_str_addf(def, "%s %s %s", i ? ";" : "", ps->args[i].type,
					   ps->args[i].fetch);
		break;
	default:
		*file = "dynamic_events";
		ret = ftc_str_addf(def, "e:%s/%s %s", FTC_PROBE_GROUP, event, ps->func);
		if (!ret)
			ret = raw_args(ps, def);
		break;
	}
	if (ret < 0) {
		free(*def);
		*def = NULL;
	}
	return ret;
}

static bool event_exists(const char *name)
{
	char file[300];

	snprintf(file, sizeof(file), "events/%s/%s/format", FTC_PROBE_GROUP, name);
	return ftc_knob_exists(NULL, file);
}

/* The spec's name, with _1, _2... when the group has it already. */
static char *unique_event(const struct ftc_probe_spec *ps)
{
	char *base = ftc_probe_spec_event(ps), *name;
	char file[300];

	if (base && ps->kind == FTC_PROBE_SYNTH) {
		/* hist actions name it: keep the name, refuse a second one */
		snprintf(file, sizeof(file), "events/%s/%s/format", FTC_SYNTH_GROUP, base);
		if (!ftc_knob_exists(NULL, file))
			return base;
		ftc_error(EEXIST, "probe: %s:%s exists already (`ftc probe del %s:%s`)",
			  FTC_SYNTH_GROUP, base, FTC_SYNTH_GROUP, base);
		free(base);
		return NULL;
	}
	if (!base || !event_exists(base))
		return base;
	for (int i = 1; i < 1000; i++) {
		name = NULL;
		if (ftc_str_addf(&name, "%s_%d", base, i) < 0)
			break;
		if (!event_exists(name)) {
			free(base);
			return name;
		}
		free(name);
	}
	free(base);
	ftc_error(EEXIST, "probe: too many events of that name in group %s", FTC_PROBE_GROUP);
	return NULL;
}

static const char *const kind_files[] = {
	[FTC_PROBE_KPROBE] = "kprobe_events",
	[FTC_PROBE_UPROBE] = "uprobe_events",
	[FTC_PROBE_EPROBE] = "dynamic_events",
	[FTC_PROBE_SYNTH] = "synthetic_events",
	[FTC_PROBE_FPROBE] = "dynamic_events",
};

/* dynamic_events takes fprobes where the README shows their syntax (6.7+). */
static int fprobes_refused(void)
{
	char *readme = NULL;
	bool absent = ftc_knob_read(NULL, "README", &readme) == 0 && !strstr(readme, "f[:");

	free(readme);
	if (absent)
		return ftc_error(ENOTSUP, "dynamic_events: this kernel has no fprobes (Linux 6.7 "
				 "and CONFIG_FPROBE_EVENTS; README shows no f[:...]): use a kprobe, "
				 "FUNC or FUNC%%return; run `ftc check`");
	return 0;
}

static int refused(const struct ftc_probe_spec *ps)
{
	static const char *const what[] = {
		[FTC_PROBE_KPROBE] = "kprobes", [FTC_PROBE_UPROBE] = "uprobes",
		[FTC_PROBE_EPROBE] = "eprobes", [FTC_PROBE_SYNTH] = "synthetic events",
		[FTC_PROBE_FPROBE] = "fprobes",
	};

	if (ps->kind == FTC_PROBE_FPROBE && ftc_knob_exists(NULL, kind_files[ps->kind]))
		return fprobes_refused();
	if (ftc_knob_exists(NULL, kind_files[ps->kind]))
		return 0;
	/* hist triggers select synthetic events: without them, none */
	if (ps->kind == FTC_PROBE_SYNTH)
		return ftc_error(ENOTSUP, "synthetic_events: absent: this kernel has no synthetic "
				 "events (CONFIG_SYNTH_EVENTS) nor hist triggers to fill them (`ftc "
				 "check`: trigger-hist absent)");
	return ftc_error(ENOTSUP, "%s: absent: this kernel has no %s (CONFIG_%s); run `ftc check`",
			 kind_files[ps->kind], what[ps->kind],
			 ps->kind == FTC_PROBE_KPROBE ? "KPROBE_EVENTS" :
			 ps->kind == FTC_PROBE_UPROBE ? "UPROBE_EVENTS" :
			 ps->kind == FTC_PROBE_FPROBE ? "FPROBE_EVENTS" : "EPROBE_EVENTS");
}

/* This kernel may take dynamic_events but refuse every eprobe (EINVAL and
 * no error_log entry): say so as `ftc check` does, and exit as refused. */
static void eprobe_refused(const struct ftc_probe_spec *ps)
{
	char msg[1024];

	if (ps->kind != FTC_PROBE_EPROBE || errno != EINVAL || strstr(ftc_strerror(), "error_log"))
		return;
	snprintf(msg, sizeof(msg), "%s", ftc_strerror());
	ftc_error(ENOTSUP, "%s: this kernel refuses eprobes (`ftc check`: eprobes refused)", msg);
}

int ftc_probe_add(struct ftc_state *st, const char *spec, const char *binary, char **event)
{
	struct ftc_probe_spec *ps;
	const char *file;
	char *name = NULL, *def = NULL;
	int ret = -1;

	*event = NULL;
	if (ftc_probe_spec_parse(spec, binary, &ps) < 0)
		return -1;
	if (refused(ps) < 0)
		goto out;
	name = unique_event(ps);
	if (!name || ftc_probe_definition(ps, name, &def, &file) < 0)
		goto out;
	if (ftc_knob_append(st, NULL, file, def) < 0) {
		eprobe_refused(ps);
		goto out;
	}
	if (ftc_str_addf(event, "%s:%s", ps->kind == FTC_PROBE_SYNTH ? FTC_SYNTH_GROUP :
			 FTC_PROBE_GROUP, name) == 0)
		ret = 0;
out:
	free(name);
	free(def);
	ftc_probe_spec_free(ps);
	return ret;
}

struct each_ctx {
	const char *group;	/* del: only this group's (NULL: both) */
	const char *glob;
	FILE *out;
	int count, err;
};

/*
 * "p:ftc/name ..." -> "ftc", name; "s:synthetic/ftc_name\tu64 x" ->
 * "synthetic", ftc_name: our group's events, and the synthetic events of
 * ftc's prefix. NULL for anyone else's.
 */
static const char *our_event(const char *line, char *name, size_t size)
{
	const char *colon = strchr(line, ':'), *slash = colon ? strchr(colon, '/') : NULL;
	size_t glen = slash ? (size_t)(slash - colon - 1) : 0, nlen;

	if (!slash)
		return NULL;
	nlen = strcspn(slash + 1, " \t");
	snprintf(name, size, "%.*s", (int)nlen, slash + 1);
	if (glen == strlen(FTC_PROBE_GROUP) && !strncmp(colon + 1, FTC_PROBE_GROUP, glen))
		return FTC_PROBE_GROUP;
	if (*line == 's' && glen == strlen(FTC_SYNTH_GROUP) &&
	    !strncmp(colon + 1, FTC_SYNTH_GROUP, glen) &&
	    !strncmp(name, FTC_SYNTH_PREFIX, strlen(FTC_SYNTH_PREFIX)))
		return FTC_SYNTH_GROUP;
	return NULL;
}

static int each_line(const char *file, int (*fn)(const char *line, const char *file, void *),
		     void *ctx)
{
	char *text, *save = NULL;
	int ret = 0;

	if (!ftc_knob_exists(NULL, file))
		return 0;
	if (ftc_knob_read(NULL, file, &text) < 0)
		return -1;
	for (char *l = strtok_r(text, "\n", &save); l && !ret; l = strtok_r(NULL, "\n", &save))
		ret = fn(l, file, ctx);
	free(text);
	return ret;
}

/* eprobes, fprobes and synthetic events: dynamic_events has them, and only it. */
static bool dynamic_only(const char *line)
{
	return *line == 'e' || *line == 'f' || *line == 's';
}

static int list_one(const char *line, const char *file, void *arg)
{
	struct each_ctx *c = arg;
	const char *group;
	char name[128];

	/* dynamic_events repeats the u/kprobes: only its eprobes, fprobes
	 * and synthetic events are new */
	if (!strcmp(file, "dynamic_events") && !dynamic_only(line))
		return 0;
	group = our_event(line, name, sizeof(name));
	if (group)
		fprintf(c->out, "%s:%s\t%s\n", group, name, line);
	return 0;
}

int ftc_probe_list(FILE *out)
{
	struct each_ctx c = { .out = out };

	if (each_line("uprobe_events", list_one, &c) < 0 ||
	    each_line("kprobe_events", list_one, &c) < 0)
		return -1;
	return each_line("dynamic_events", list_one, &c) < 0 ? -1 : 0;
}

static int del_busy(const char *group, const char *name)
{
	if (!strcmp(group, FTC_SYNTH_GROUP))
		return ftc_error(EBUSY, "%s:%s is enabled in some buffer or named by a hist "
				 "trigger's action: disable it and remove the trigger first (or "
				 "stop the command that uses it)", group, name);
	return ftc_error(EBUSY, "%s:%s is enabled in some buffer: disable it first (or stop "
			 "the command that uses it)", group, name);
}

static int del_one(const char *line, const char *file, void *arg)
{
	struct each_ctx *c = arg;
	const char *group;
	char name[128], *cmd = NULL;

	group = our_event(line, name, sizeof(name));
	if (!group || (c->group && strcmp(c->group, group)) || fnmatch(c->glob, name, 0))
		return 0;
	/* e:, f: and s: lines live in dynamic_events only */
	if (dynamic_only(line) && strcmp(file, "dynamic_events"))
		return 0;
	if (ftc_str_addf(&cmd, "-:%s/%s", group, name) < 0)
		return -1;
	if (ftc_knob_set(NULL, file, cmd, true) < 0) {
		free(cmd);
		return errno == EBUSY ? del_busy(group, name) : -1;
	}
	free(cmd);
	c->count++;
	return 0;
}

/* "ftc:GLOB" or "synthetic:GLOB" limits GLOB to that group. */
static const char *del_group(const char *glob, const char **rest)
{
	static const char *const groups[] = { FTC_PROBE_GROUP, FTC_SYNTH_GROUP };

	*rest = glob;
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		size_t glen = strlen(groups[i]);

		if (!strncmp(glob, groups[i], glen) && glob[glen] == ':') {
			*rest = glob + glen + 1;
			return groups[i];
		}
	}
	return NULL;
}

int ftc_probe_del(const char *glob)
{
	struct each_ctx c = { 0 };

	c.group = del_group(glob, &c.glob);
	if (each_line("uprobe_events", del_one, &c) < 0 ||
	    each_line("kprobe_events", del_one, &c) < 0)
		return -1;
	/* dynamic_events lists u/k probes again: those are gone by now */
	if (each_line("dynamic_events", del_one, &c) < 0)
		return -1;
	if (!c.count)
		return ftc_error(ENOENT, "probe '%s': no such event in group %s, nor a synthetic "
				 "event %s* (see `ftc probe list`)", glob, FTC_PROBE_GROUP,
				 FTC_SYNTH_PREFIX);
	return c.count;
}

int ftc_probe_lines(const char *binary, const char *func, FILE *out)
{
	struct ubin b;
	int ret;

	if (ftc_ubin_open(&b, binary) < 0)
		return -1;
	ret = ftc_udw_list_lines(&b, func, out);
	ftc_ubin_close(&b);
	return ret;
}

int ftc_probe_vars(const char *binary, const char *func, FILE *out)
{
	struct ubin b;
	int ret;

	if (ftc_ubin_open(&b, binary) < 0)
		return -1;
	ret = ftc_udw_list_vars(&b, func, out);
	ftc_ubin_close(&b);
	return ret;
}
