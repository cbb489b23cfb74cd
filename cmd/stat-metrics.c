// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc stat's derived values: the ratio perf shows after each count (CPUs
 * utilized, GHz, insn per cycle, a miss percentage, a rate per second),
 * and the named metrics of -M, with the names and groups of perf's common
 * metrics, limited to the ones computable from events ftc counts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"
#include "ftc.h"
#include "stat.h"

/* Operands that are not events by name. */
#define CLOCK "clock"		/* task-clock, or cpu-clock when counting CPUs */
#define ELAPSED "elapsed"	/* the time counted over, in ns */

struct metric_def {
	const char *name;
	const char *group;	/* perf's metric group, NULL for none */
	const char *num, *num2;	/* with num2: the larger of the two */
	const char *den;
	double scale;
	const char *unit;	/* "" for a plain ratio */
};

static const struct metric_def defs[] = {
	{ "CPUs_utilized", "Default", CLOCK, NULL, ELAPSED, 1, "CPUs" },
	{ "cs_per_second", "Default", "context-switches", NULL, CLOCK, 1e9, "cs/sec" },
	{ "migrations_per_second", "Default", "cpu-migrations", NULL, CLOCK, 1e9,
	  "migrations/sec" },
	{ "page_faults_per_second", "Default", "page-faults", NULL, CLOCK, 1e9, "faults/sec" },
	{ "insn_per_cycle", "Default", "instructions", NULL, "cycles", 1, "instructions" },
	{ "stalled_cycles_per_instruction", "Default", "stalled-cycles-frontend",
	  "stalled-cycles-backend", "instructions", 1, "" },
	{ "frontend_cycles_idle", "Default", "stalled-cycles-frontend", NULL, "cycles", 1, "" },
	{ "backend_cycles_idle", "Default", "stalled-cycles-backend", NULL, "cycles", 1, "" },
	{ "cycles_frequency", "Default", "cycles", NULL, CLOCK, 1, "GHz" },
	{ "branch_frequency", "Default", "branches", NULL, CLOCK, 1e3, "M/sec" },
	{ "branch_miss_rate", "Default", "branch-misses", NULL, "branches", 100, "%" },
	{ "l1d_miss_rate", "Default2", "L1-dcache-load-misses", NULL, "L1-dcache-loads", 100, "%" },
	{ "llc_miss_rate", "Default2", "LLC-load-misses", NULL, "LLC-loads", 100, "%" },
	{ "l1i_miss_rate", "Default3", "L1-icache-load-misses", NULL, "L1-icache-loads", 100, "%" },
	{ "dtlb_miss_rate", "Default3", "dTLB-load-misses", NULL, "dTLB-loads", 100, "%" },
	{ "itlb_miss_rate", "Default3", "iTLB-load-misses", NULL, "iTLB-loads", 100, "%" },
	{ "l1_prefetch_miss_rate", "Default4", "L1-dcache-prefetch-misses", NULL,
	  "L1-dcache-prefetches", 100, "%" },
	/* The names Intel's metric tables give these two. */
	{ "IPC", NULL, "instructions", NULL, "cycles", 1, "" },
	{ "CPI", NULL, "cycles", NULL, "instructions", 1, "" },
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static const char *const groups[] = { "Default", "Default2", "Default3", "Default4" };
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

/* A metric of -M, with the indexes of the events it reads (-1: elapsed). */
struct resolved {
	const struct metric_def *d;
	int num, num2, den;
};

struct stat_metrics {
	struct resolved *m;
	int n;
};

static const struct metric_def *find_def(const char *name, size_t len)
{
	for (size_t i = 0; i < NDEFS; i++)
		if (strlen(defs[i].name) == len && !strncasecmp(defs[i].name, name, len))
			return &defs[i];
	return NULL;
}

static const char *find_group(const char *name, size_t len)
{
	for (size_t i = 0; i < NGROUPS; i++)
		if (strlen(groups[i]) == len && !strncasecmp(groups[i], name, len))
			return groups[i];
	return NULL;
}

static void known_names(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NDEFS && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s", i ? ", " : "", defs[i].name);
	for (size_t i = 0; i < NGROUPS && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s", i ? ", " : "; groups: ", groups[i]);
}

int stat_metrics_check(const char *list)
{
	char known[1024];

	for (const char *p = list; ; ) {
		size_t len = strcspn(p, ",");

		if (!len)
			return cmd_bad_value("empty metric name in the list (names are separated "
					     "by ',')");
		if (!find_def(p, len) && !find_group(p, len)) {
			known_names(known, sizeof(known));
			return cmd_bad_value("unknown metric or metric group '%.*s'; known: %s",
					     (int)len, p, known);
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void stat_metrics_list(FILE *f)
{
	for (size_t i = 0; i < NDEFS; i++) {
		const struct metric_def *d = &defs[i];

		if (d->num2)
			fprintf(f, "%-28s [metric] max(%s, %s) / %s\n", d->name, d->num, d->num2,
				d->den);
		else
			fprintf(f, "%-28s [metric] %s / %s\n", d->name, d->num, d->den);
	}
	for (size_t g = 0; g < NGROUPS; g++) {
		fprintf(f, "%-28s [metric group]", groups[g]);
		for (size_t i = 0; i < NDEFS; i++)
			if (defs[i].group && !strcmp(defs[i].group, groups[g]))
				fprintf(f, " %s", defs[i].name);
		fputc('\n', f);
	}
}

/* ---- -M: the metrics asked for, and the events they read ---- */

/* An event read by a metric: one counted in no cgroup, added when missing. */
static int event_index(struct stat_state *s, const char *name)
{
	struct perf_event_attr attr;
	const char *want = name;
	int n = ftc_perf_evlist_count(s->l);

	if (!strcmp(name, ELAPSED))
		return -1;
	if (!strcmp(name, CLOCK))
		want = s->o->all_cpus ? "cpu-clock" : "task-clock";
	if (ftc_perf_event_resolve(want, &attr, NULL) < 0)
		return -2;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			const struct ftc_perf_event *e = ftc_perf_evlist_event(s->l, i);

			if (ftc_perf_event_cgroup(e))
				continue;
			/* The other clock does too, when it is the one counted. */
			if (pass ? !strcmp(name, CLOCK) && ftc_perf_event_is_clock(e) :
			    ftc_perf_event_is(e, attr.type, attr.config))
				return i;
		}
	}
	if (ftc_perf_evlist_add(s->l, want) < 0)
		return -2;
	return n;
}

static int add_metric(struct stat_state *s, const struct metric_def *d)
{
	struct stat_metrics *m = s->metrics;
	struct resolved *r;

	for (int i = 0; i < m->n; i++)
		if (m->m[i].d == d)
			return 0;
	r = realloc(m->m, (size_t)(m->n + 1) * sizeof(*r));
	if (!r)
		return ftc_error(ENOMEM, "out of memory");
	m->m = r;
	r = &r[m->n];
	r->d = d;
	r->num = event_index(s, d->num);
	r->num2 = d->num2 ? event_index(s, d->num2) : -1;
	r->den = event_index(s, d->den);
	if (r->num < -1 || r->num2 < -1 || r->den < -1)
		return -1;
	m->n++;
	return 0;
}

static int add_name(struct stat_state *s, const char *name, size_t len)
{
	const struct metric_def *d = find_def(name, len);
	const char *g = d ? NULL : find_group(name, len);

	if (d)
		return add_metric(s, d);
	for (size_t i = 0; g && i < NDEFS; i++)
		if (defs[i].group && !strcmp(defs[i].group, g) && add_metric(s, &defs[i]) < 0)
			return -1;
	return 0;
}

int stat_metrics_setup(struct stat_state *s)
{
	const char *p = s->o->metrics;

	if (!p)
		return 0;
	s->metrics = calloc(1, sizeof(*s->metrics));
	if (!s->metrics)
		return ftc_error(ENOMEM, "out of memory");
	for (;;) {
		size_t len = strcspn(p, ",");

		if (add_name(s, p, len) < 0)
			return -1;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void stat_metrics_free(struct stat_metrics *m)
{
	if (!m)
		return;
	free(m->m);
	free(m);
}

static bool operand(const struct stat_counts *c, int i, double *v)
{
	if (i < 0) {
		*v = c->wall_ns;
		return true;
	}
	*v = c->v[i];
	return c->ok[i];
}

/* A metric is shown on the line of the first event it reads. */
static int anchor(const struct resolved *r)
{
	return r->num >= 0 ? r->num : r->den;
}

int stat_named_values(const struct stat_state *s, int i, const struct stat_counts *c,
		      struct stat_value *out, int max)
{
	int k = 0;

	for (int j = 0; s->metrics && j < s->metrics->n && k < max; j++) {
		const struct resolved *r = &s->metrics->m[j];
		double num, num2 = 0, den;

		if (anchor(r) != i || !operand(c, r->num, &num) || !operand(c, r->den, &den) ||
		    (r->num2 >= 0 && !operand(c, r->num2, &num2)) || den <= 0)
			continue;
		out[k].v = r->d->scale * (num2 > num ? num2 : num) / den;
		if (*r->d->unit)
			snprintf(out[k].unit, sizeof(out[k].unit), "%s  %s", r->d->unit, r->d->name);
		else
			snprintf(out[k].unit, sizeof(out[k].unit), "%s", r->d->name);
		out[k].has = true;
		k++;
	}
	return k;
}

/* ---- perf's ratio after each count ---- */

static bool same_cgroup(const struct ftc_perf_event *a, const struct ftc_perf_event *b)
{
	const char *x = ftc_perf_event_cgroup(a), *y = ftc_perf_event_cgroup(b);

	return x == y || (x && y && !strcmp(x, y));
}

/* The first counted event of this kind in event i's cgroup, -1 when none counted. */
static int first_ok(const struct stat_state *s, int i, const struct stat_counts *c,
		    uint32_t type, uint64_t config, bool any_clock)
{
	const struct ftc_perf_event *self = ftc_perf_evlist_event(s->l, i);

	for (int k = 0; k < ftc_perf_evlist_count(s->l); k++) {
		const struct ftc_perf_event *e = ftc_perf_evlist_event(s->l, k);

		if (!c->ok[k] || !same_cgroup(e, self))
			continue;
		if (any_clock ? ftc_perf_event_is_clock(e) : ftc_perf_event_is(e, type, config))
			return c->v[k] > 0 ? k : -1;
	}
	return -1;
}

static void set_value(struct stat_value *m, double v, const char *unit)
{
	m->v = v;
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->has = true;
}

static void rate_value(struct stat_value *m, double per_sec)
{
	static const char *const pfx[] = { "", "K", "M", "G" };
	int k = 0;

	while (per_sec >= 1000 && k < 3) {
		per_sec /= 1000;
		k++;
	}
	m->v = per_sec;
	snprintf(m->unit, sizeof(m->unit), "%s/sec", pfx[k]);
	m->has = true;
}

/* Hardware events shown as a part of another: "misses" of "references". */
static const struct {
	uint64_t part, whole;
	const char *unit;
} hw_parts[] = {
	{ PERF_COUNT_HW_BRANCH_MISSES, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "% of all branches" },
	{ PERF_COUNT_HW_CACHE_MISSES, PERF_COUNT_HW_CACHE_REFERENCES, "% of all cache refs" },
	{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, PERF_COUNT_HW_CPU_CYCLES,
	  "% frontend cycles idle" },
	{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND, PERF_COUNT_HW_CPU_CYCLES,
	  "% backend cycles idle" },
};

static const char *const cache_wholes[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache accesses",
	[PERF_COUNT_HW_CACHE_L1I] = "L1-icache accesses",
	[PERF_COUNT_HW_CACHE_LL] = "LL-cache accesses",
	[PERF_COUNT_HW_CACHE_DTLB] = "dTLB cache accesses",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB cache accesses",
};

/* A percentage of a whole counted beside it; false when there is none. */
static bool part_value(const struct stat_state *s, int i, const struct stat_counts *c,
		       struct stat_value *m)
{
	const struct perf_event_attr *a = ftc_perf_event_attr(ftc_perf_evlist_event(s->l, i));
	uint64_t cache = a->config & 0xff, op = (a->config >> 8) & 0xff;
	char unit[64];
	int w;

	if (a->type == PERF_TYPE_HARDWARE) {
		for (size_t k = 0; k < sizeof(hw_parts) / sizeof(hw_parts[0]); k++) {
			if (a->config != hw_parts[k].part)
				continue;
			w = first_ok(s, i, c, PERF_TYPE_HARDWARE, hw_parts[k].whole, false);
			if (w < 0)
				return false;
			set_value(m, 100.0 * c->v[i] / c->v[w], hw_parts[k].unit);
			return true;
		}
		return false;
	}
	if (a->type != PERF_TYPE_HW_CACHE || op != PERF_COUNT_HW_CACHE_OP_READ ||
	    (a->config >> 16) != PERF_COUNT_HW_CACHE_RESULT_MISS ||
	    cache >= sizeof(cache_wholes) / sizeof(cache_wholes[0]) || !cache_wholes[cache])
		return false;
	w = first_ok(s, i, c, PERF_TYPE_HW_CACHE, cache | op << 8 |
		     (uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16, false);
	if (w < 0)
		return false;
	snprintf(unit, sizeof(unit), "%% of all %s", cache_wholes[cache]);
	set_value(m, 100.0 * c->v[i] / c->v[w], unit);
	return true;
}

void stat_shadow_value(const struct stat_state *s, int i, const struct stat_counts *c,
		       struct stat_value *m)
{
	const struct ftc_perf_event *e = ftc_perf_evlist_event(s->l, i);
	int clk = first_ok(s, i, c, 0, 0, true);
	int cyc = first_ok(s, i, c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false);

	memset(m, 0, sizeof(*m));
	if (!c->ok[i] || ftc_perf_event_kind(e) == FTC_PERF_TRACEPOINT)
		return;
	if (ftc_perf_event_is_clock(e)) {
		if (c->wall_ns > 0)
			set_value(m, c->v[i] / c->wall_ns, "CPUs utilized");
	} else if (ftc_perf_event_is(e, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)) {
		if (clk >= 0)
			set_value(m, c->v[i] / c->v[clk], "GHz");
	} else if (ftc_perf_event_is(e, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS) &&
		   cyc >= 0) {
		set_value(m, c->v[i] / c->v[cyc], "insn per cycle");
	} else if (!part_value(s, i, c, m) && clk >= 0) {
		rate_value(m, c->v[i] / (c->v[clk] / 1e9));
	}
}
