// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event names to perf_event_attr: the symbolic names perf users know
 * (hardware, software, cache), raw "rNNN" and tracepoints "system:event",
 * each with optional ":u"/":k"/":h" modifiers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"

struct named_event {
	const char *name;
	uint32_t type;
	uint64_t config;
};

static const struct named_event symbolic[] = {
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ NULL, 0, 0 }
};

/* Cache events are "<cache>-<op>[-<result>]", as perf spells them. */
static const char *const cache_names[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache",
	[PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC",
	[PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB",
	[PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};

static const char *const cache_ops[][2] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "loads", "load-misses" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "stores", "store-misses" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetches", "prefetch-misses" },
};

static int resolve_cache(const char *name, struct perf_event_attr *attr)
{
	for (size_t c = 0; c < sizeof(cache_names) / sizeof(cache_names[0]); c++) {
		size_t len = strlen(cache_names[c]);

		if (strncmp(name, cache_names[c], len) || name[len] != '-')
			continue;
		for (size_t op = 0; op < 3; op++) {
			for (int miss = 0; miss < 2; miss++) {
				if (strcmp(name + len + 1, cache_ops[op][miss]))
					continue;
				attr->type = PERF_TYPE_HW_CACHE;
				attr->config = c | (op << 8) |
					((uint64_t)(miss ? PERF_COUNT_HW_CACHE_RESULT_MISS :
						    PERF_COUNT_HW_CACHE_RESULT_ACCESS) << 16);
				return 0;
			}
		}
	}
	return -1;
}

static int resolve_raw(const char *name, struct perf_event_attr *attr)
{
	char *end;
	unsigned long long v;

	if (name[0] != 'r' || !name[1])
		return -1;
	errno = 0;
	v = strtoull(name + 1, &end, 16);
	if (errno || *end)
		return -1;
	attr->type = PERF_TYPE_RAW;
	attr->config = v;
	return 0;
}

/* Tracepoint ids live in tracefs at events/<system>/<event>/id. */
static int resolve_tracepoint(const char *sys, const char *event, struct perf_event_attr *attr)
{
	char file[512], *buf = NULL;
	unsigned long long id;
	int ret;

	if (strchr(sys, '/') || strchr(event, '/') || !*sys || !*event)
		return ftc_error(EINVAL, "'%s:%s' is not a tracepoint name (system:event)",
				 sys, event);
	snprintf(file, sizeof(file), "events/%s/%s/id", sys, event);
	ret = ftc_tracefs_read(NULL, file, &buf, NULL);
	if (ret < 0) {
		/* copied: ftc_error() writes the buffer ftc_strerror() returns */
		char why[512];

		snprintf(why, sizeof(why), "%s", ftc_strerror());
		return ftc_error(ENOENT, "no tracepoint '%s:%s' (%s); 'ftc list' shows events",
				 sys, event, why);
	}
	id = strtoull(buf, NULL, 10);
	free(buf);
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	attr->sample_period = 1;
	return 0;
}

static int apply_modifiers(const char *mods, struct perf_event_attr *attr)
{
	bool u = false, k = false, h = false;

	for (const char *m = mods; *m; m++) {
		switch (*m) {
		case 'u': u = true; break;
		case 'k': k = true; break;
		case 'h': h = true; break;
		case 'p': if (attr->precise_ip < 3) attr->precise_ip++; break;
		default:
			return ftc_error(EINVAL, "unknown event modifier '%c' in ':%s' (use u, k, h or p)",
					 *m, mods);
		}
	}
	/* As perf: naming some privilege levels excludes the others. */
	if (u || k || h) {
		attr->exclude_user = !u;
		attr->exclude_kernel = !k;
		attr->exclude_hv = !h;
	}
	return 0;
}

static bool is_modifier_list(const char *s)
{
	return *s && strspn(s, "ukhp") == strlen(s);
}

static int resolve_symbolic(const char *name, struct perf_event_attr *attr,
			    enum ftc_perf_kind *kind)
{
	for (const struct named_event *e = symbolic; e->name; e++) {
		if (strcmp(e->name, name))
			continue;
		attr->type = e->type;
		attr->config = e->config;
		*kind = e->type == PERF_TYPE_HARDWARE ? FTC_PERF_HARDWARE : FTC_PERF_SOFTWARE;
		return 0;
	}
	if (!resolve_cache(name, attr)) {
		*kind = FTC_PERF_CACHE;
		return 0;
	}
	if (!resolve_raw(name, attr)) {
		*kind = FTC_PERF_RAW;
		return 0;
	}
	return -1;
}

int ftc_perf_event_resolve(const char *name, struct perf_event_attr *attr,
			   enum ftc_perf_kind *kind)
{
	char *copy = strdup(name), *colon, *mods = "";
	enum ftc_perf_kind k = FTC_PERF_SOFTWARE;
	int ret = -1;

	if (!copy)
		return ftc_error(ENOMEM, "out of memory");
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	colon = strchr(copy, ':');
	/* "cycles:x" is a bad modifier, not a tracepoint of system "cycles". */
	if (colon && !is_modifier_list(colon + 1)) {
		struct perf_event_attr probe;

		*colon = '\0';
		if (!resolve_symbolic(copy, &probe, &k)) {
			apply_modifiers(colon + 1, attr);
			goto out;
		}
		*colon = ':';
	}
	if (colon && is_modifier_list(colon + 1)) {
		*colon = '\0';
		mods = colon + 1;
		colon = NULL;
	}
	if (!colon) {
		if (resolve_symbolic(copy, attr, &k) < 0) {
			ftc_error(EINVAL, "unknown event '%s'; 'ftc stat --list' or perf list shows names",
				  name);
			goto out;
		}
	} else {
		char *event = colon + 1, *m = strchr(event, ':');

		*colon = '\0';
		if (m) {
			*m = '\0';
			mods = m + 1;
		}
		if (resolve_tracepoint(copy, event, attr) < 0)
			goto out;
		k = FTC_PERF_TRACEPOINT;
	}
	if (apply_modifiers(mods, attr) < 0)
		goto out;
	if (kind)
		*kind = k;
	ret = 0;
out:
	free(copy);
	return ret;
}

const char *ftc_perf_event_name(const struct ftc_perf_event *e)
{
	return e->name;
}

enum ftc_perf_kind ftc_perf_event_kind(const struct ftc_perf_event *e)
{
	return e->kind;
}

const struct perf_event_attr *ftc_perf_event_attr(const struct ftc_perf_event *e)
{
	return &e->attr;
}

int ftc_perf_event_leader(const struct ftc_perf_event *e)
{
	return e->leader;
}

int ftc_perf_event_open_errno(const struct ftc_perf_event *e)
{
	return e->open_errno;
}

bool ftc_perf_event_is(const struct ftc_perf_event *e, uint32_t type, uint64_t config)
{
	return e->attr.type == type && e->attr.config == config;
}

bool ftc_perf_event_is_clock(const struct ftc_perf_event *e)
{
	return ftc_perf_event_is(e, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK) ||
	       ftc_perf_event_is(e, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

/* For `ftc stat --list`: the symbolic names, one a line. */
void ftc_perf_list_symbolic(FILE *f)
{
	for (const struct named_event *e = symbolic; e->name; e++)
		fprintf(f, "%-28s %s\n", e->name,
			e->type == PERF_TYPE_HARDWARE ? "[hardware]" : "[software]");
	for (size_t c = 0; c < sizeof(cache_names) / sizeof(cache_names[0]); c++)
		for (size_t op = 0; op < 3; op++)
			for (int miss = 0; miss < 2; miss++)
				fprintf(f, "%s-%-*s [cache]\n", cache_names[c],
					(int)(27 - strlen(cache_names[c])), cache_ops[op][miss]);
	fprintf(f, "%-28s %s\n", "rNNN", "[raw PMU event, hex]");
	fprintf(f, "%-28s %s\n", "system:event", "[tracepoint, globs allowed]");
}
