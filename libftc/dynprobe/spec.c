// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The probe SPEC parser: text only, no file or kernel is read, so that it
 * can be fuzzed on its own (tests/fuzz/run --target probe).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-dynprobe.h"
#include "dynprobe.h"

#define SPEC_MAX 4096
#define EVENT_NAME_MAX 56	/* the kernel's 64, less a unique suffix */

static bool ident_char(char c, bool first)
{
	return c == '_' || isalpha((unsigned char)c) || (!first && isdigit((unsigned char)c));
}

static bool is_ident(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!ident_char(s[i], i == 0))
			return false;
	return true;
}

/* Function names may carry the compiler's suffixes: foo.isra.0, foo.cold. */
static bool is_func(const char *s)
{
	if (!*s || !ident_char(*s, true))
		return false;
	for (; *s; s++)
		if (!ident_char(*s, false) && *s != '.')
			return false;
	return true;
}

static bool is_type(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("@/[]_", *s))
			return false;
	return true;
}

static int parse_u(const char *s, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

void ftc_probe_spec_free(struct ftc_probe_spec *ps)
{
	if (!ps)
		return;
	free(ps->binary);
	free(ps->module);
	free(ps->func);
	free(ps->file);
	for (size_t i = 0; i < ps->nargs; i++) {
		free(ps->args[i].name);
		free(ps->args[i].fetch);
		free(ps->args[i].type);
	}
	free(ps->args);
	free(ps);
}

static int oom(void)
{
	return ftc_error(ENOMEM, "out of memory");
}

/* FUNC[+OFF][%return], in place. */
static int parse_func(struct ftc_probe_spec *ps, char *loc, const char *spec)
{
	char *pct = strchr(loc, '%'), *plus;

	if (pct) {
		if (strcmp(pct, "%return"))
			return ftc_error(EINVAL, "probe '%s': '%s': only %%return may follow a function",
					 spec, pct);
		ps->ret = true;
		*pct = '\0';
	}
	plus = strchr(loc, '+');
	if (plus) {
		*plus = '\0';
		if (parse_u(plus + 1, &ps->off) < 0)
			return ftc_error(EINVAL, "probe '%s': '+%s': the offset must be a number "
					 "(decimal or 0x hex)", spec, plus + 1);
		if (ps->ret && ps->off)
			return ftc_error(EINVAL, "probe '%s': a return probe takes no offset", spec);
	}
	if (!is_func(loc))
		return ftc_error(EINVAL, "probe '%s': '%s' is not a function name", spec, loc);
	ps->func = strdup(loc);
	return ps->func ? 0 : oom();
}

/* With a binary: FUNC... or FILE:LINE. */
static int parse_user_loc(struct ftc_probe_spec *ps, char *loc, const char *spec)
{
	char *colon = strrchr(loc, ':');
	unsigned long long line;

	ps->kind = FTC_PROBE_UPROBE;
	if (!colon)
		return parse_func(ps, loc, spec);
	*colon = '\0';
	if (!*loc || parse_u(colon + 1, &line) < 0 || !line || line > 10000000)
		return ftc_error(EINVAL, "probe '%s': '%s:%s': give FILE:LINE with a line number "
				 "from 1, or FUNC[+OFF][%%return]", spec, loc, colon + 1);
	ps->line = line;
	ps->file = strdup(loc);
	return ps->file ? 0 : oom();
}

static int parse_location(struct ftc_probe_spec *ps, char *loc, const char *binary,
			  const char *spec)
{
	char *colon;

	if (binary) {
		ps->binary = strdup(binary);
		if (!ps->binary)
			return oom();
		return parse_user_loc(ps, loc, spec);
	}
	if (!strncmp(loc, "e:", 2)) {
		char *ev = loc + 2, *sep = strpbrk(ev, ":./");

		ps->kind = FTC_PROBE_EPROBE;
		if (!sep || !is_ident(ev, sep - ev) || !is_ident(sep + 1, strlen(sep + 1)))
			return ftc_error(EINVAL, "probe '%s': give the event as e:SYSTEM:EVENT", spec);
		*sep = '.';
		ps->func = strdup(ev);
		return ps->func ? 0 : oom();
	}
	if (!strncmp(loc, "f:", 2)) {
		ps->kind = FTC_PROBE_FPROBE;
		if (parse_func(ps, loc + 2, spec) < 0)
			return -1;
		/* the function's entry, or its exit: ftrace hooks no other place */
		return ps->off ? ftc_error(EINVAL, "probe '%s': an fprobe takes no offset (a "
					  "kprobe does: FUNC+OFF)", spec) : 0;
	}
	colon = strchr(loc, ':');
	if (colon && memchr(loc, '/', colon - loc)) {
		*colon = '\0';
		ps->binary = strdup(loc);
		if (!ps->binary)
			return oom();
		return parse_user_loc(ps, colon + 1, spec);
	}
	ps->kind = FTC_PROBE_KPROBE;
	if (colon) {
		*colon = '\0';
		if (!is_ident(loc, strlen(loc)))
			return ftc_error(EINVAL, "probe '%s': '%s' is not a module name (a binary "
					 "needs a '/': ./prog:FUNC)", spec, loc);
		ps->module = strdup(loc);
		if (!ps->module)
			return oom();
		loc = colon + 1;
	}
	return parse_func(ps, loc, spec);
}

/* NAME=FETCH[:TYPE], FETCH[:TYPE]: FETCH is a variable or a raw fetcharg. */
static int parse_arg(struct ftc_probe_arg *a, char *tok, const char *spec)
{
	char *eq = strchr(tok, '='), *colon;

	if (eq && is_ident(tok, eq - tok)) {
		*eq = '\0';
		a->name = strdup(tok);
		if (!a->name)
			return oom();
		tok = eq + 1;
	}
	colon = strrchr(tok, ':');
	if (colon && !strchr(colon, ')')) {
		*colon = '\0';
		if (!is_type(colon + 1))
			return ftc_error(EINVAL, "probe '%s': argument '%s': '%s' is not a type "
					 "(u32, s64, x64, string, ...)", spec, tok, colon + 1);
		a->type = strdup(colon + 1);
		if (!a->type)
			return oom();
	}
	if (!*tok)
		return ftc_error(EINVAL, "probe '%s': an argument has no value", spec);
	a->raw = strchr("$%+-@0123456789", *tok) != NULL;
	if (!a->raw && !is_ident(tok, strlen(tok)))
		return ftc_error(EINVAL, "probe '%s': argument '%s': give a variable name or a "
				 "fetcharg ($retval, %%REG, +OFF(...))", spec, tok);
	if (a->raw && strpbrk(tok, "\"'\\"))
		return ftc_error(EINVAL, "probe '%s': argument '%s': quotes are not allowed", spec,
				 tok);
	a->fetch = strdup(tok);
	return a->fetch ? 0 : oom();
}

static int add_arg(struct ftc_probe_spec *ps, char *tok, const char *spec)
{
	struct ftc_probe_arg *bigger;

	if (ps->nargs >= 128)
		return ftc_error(E2BIG, "probe '%s': more than 128 arguments", spec);
	bigger = realloc(ps->args, (ps->nargs + 1) * sizeof(*bigger));
	if (!bigger)
		return oom();
	ps->args = bigger;
	memset(&bigger[ps->nargs], 0, sizeof(*bigger));
	ps->nargs++;
	return parse_arg(&bigger[ps->nargs - 1], tok, spec);
}

/* s:NAME TYPE FIELD[; TYPE FIELD]...: the name is kept as given, since
 * hist actions name it (trace(NAME,...)). */
static int parse_synth_field(struct ftc_probe_spec *ps, char *f, const char *spec)
{
	char *end, *sp;
	struct ftc_probe_arg *a;

	while (isspace((unsigned char)*f))
		f++;
	end = f + strlen(f);
	while (end > f && isspace((unsigned char)end[-1]))
		*--end = '\0';
	sp = strrchr(f, ' ');
	if (!sp || !is_ident(sp + 1, strlen(sp + 1)) || sp == f)
		return ftc_error(EINVAL, "probe '%s': field '%s': give TYPE NAME (u64 lat)", spec, f);
	*sp = '\0';
	for (char *t = f; *t; t++)
		if (!isalnum((unsigned char)*t) && !strchr("_ []", *t))
			return ftc_error(EINVAL, "probe '%s': field type '%s': give a C type "
					 "(u64, pid_t, char[16])", spec, f);
	if (add_arg(ps, sp + 1, spec) < 0)
		return -1;
	a = &ps->args[ps->nargs - 1];
	a->type = strdup(f);
	return a->type ? 0 : oom();
}

static int parse_synth(struct ftc_probe_spec *ps, char *text, const char *spec)
{
	char *name = text + 2, *rest = strpbrk(name, " \t\n"), *save = NULL, *f;

	ps->kind = FTC_PROBE_SYNTH;
	if (!strncmp(name, FTC_SYNTH_GROUP "/", strlen(FTC_SYNTH_GROUP) + 1))
		name += strlen(FTC_SYNTH_GROUP) + 1;
	if (rest)
		*rest++ = '\0';
	else
		rest = name + strlen(name);	/* strtok_r(NULL) would read save */
	if (!is_ident(name, strlen(name)) || strlen(name) > EVENT_NAME_MAX)
		return ftc_error(EINVAL, "probe '%s': give the synthetic event as "
				 "s:NAME TYPE FIELD[; TYPE FIELD]...", spec);
	/* the kernel's group is "synthetic" for all: the prefix marks ftc's */
	if (!strcmp(name, FTC_SYNTH_PREFIX))
		return ftc_error(EINVAL, "probe '%s': give the synthetic event a name after "
				 FTC_SYNTH_PREFIX " (s:" FTC_SYNTH_PREFIX "lat ...)", spec);
	if (strncmp(name, FTC_SYNTH_PREFIX, strlen(FTC_SYNTH_PREFIX)))
		return ftc_error(EINVAL, "probe '%s': synthetic event '%s': ftc's names begin "
				 "with " FTC_SYNTH_PREFIX " (s:" FTC_SYNTH_PREFIX "%s ...), so that "
				 "list and del know them", spec, name, name);
	ps->func = strdup(name);
	if (!ps->func)
		return oom();
	for (f = strtok_r(rest, ";", &save); f; f = strtok_r(NULL, ";", &save))
		if (parse_synth_field(ps, f, spec) < 0)
			return -1;
	if (!ps->nargs)
		return ftc_error(EINVAL, "probe '%s': a synthetic event needs a field (u64 lat)",
				 spec);
	return 0;
}

static int parse_words(struct ftc_probe_spec *ps, char *text, const char *binary,
		       const char *spec)
{
	const char *blank = " \t\n";
	char *save = NULL, *tok;

	while (isspace((unsigned char)*text))
		text++;
	if (!binary && !strncmp(text, "s:", 2))
		return parse_synth(ps, text, spec);
	tok = strtok_r(text, blank, &save);
	if (!tok)
		return ftc_error(EINVAL, "probe '': empty: give FUNC, BINARY:FUNC, f:FUNC or e:SYS:EVENT");
	if (parse_location(ps, tok, binary, spec) < 0)
		return -1;
	while ((tok = strtok_r(NULL, blank, &save)))
		if (add_arg(ps, tok, spec) < 0)
			return -1;
	if (ps->kind == FTC_PROBE_EPROBE && !ps->nargs)
		return 0;
	return 0;
}

int ftc_probe_spec_parse(const char *spec, const char *binary, struct ftc_probe_spec **out)
{
	struct ftc_probe_spec *ps;
	char *text;
	int ret;

	*out = NULL;
	if (!spec || strlen(spec) > SPEC_MAX)
		return ftc_error(EINVAL, "probe: a spec is at most %d bytes", SPEC_MAX);
	if (binary && !*binary)
		return ftc_error(EINVAL, "probe: -x needs a binary");
	ps = calloc(1, sizeof(*ps));
	text = strdup(spec);
	if (!ps || !text) {
		free(ps);
		free(text);
		return oom();
	}
	ret = parse_words(ps, text, binary, spec);
	free(text);
	if (ret < 0) {
		ftc_probe_spec_free(ps);
		return -1;
	}
	*out = ps;
	return 0;
}

/* Event names are [A-Za-z_][A-Za-z0-9_]*: other bytes become '_'. */
static void name_add(char *buf, size_t size, const char *part)
{
	size_t len = strlen(buf);

	for (; *part && len + 1 < size; part++, len++)
		buf[len] = ident_char(*part, len == 0) ? *part : '_';
	buf[len] = '\0';
}

char *ftc_probe_spec_event(const struct ftc_probe_spec *ps)
{
	char buf[EVENT_NAME_MAX + 1] = "", num[32];
	const char *base;

	if (ps->file) {
		base = strrchr(ps->file, '/');
		name_add(buf, sizeof(buf), base ? base + 1 : ps->file);
		snprintf(num, sizeof(num), "_L%lu", ps->line);
		name_add(buf, sizeof(buf), num);
	} else if (ps->kind == FTC_PROBE_SYNTH) {
		name_add(buf, sizeof(buf), ps->func);
	} else if (ps->kind == FTC_PROBE_EPROBE) {
		name_add(buf, sizeof(buf), strchr(ps->func, '.') + 1);
	} else {
		name_add(buf, sizeof(buf), ps->func);
	}
	if (ps->off) {
		snprintf(num, sizeof(num), "_%llu", ps->off);
		name_add(buf, sizeof(buf), num);
	}
	if (ps->ret)
		name_add(buf, sizeof(buf), "__return");
	if (!*buf)
		name_add(buf, sizeof(buf), "probe");
	return strdup(buf);
}
