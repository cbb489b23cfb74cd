// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A profile's presentation, shared by ftc profile (live samples) and
 * ftc report --profile (samples stored in a trace.dat): the aggregation
 * by symbol (self and children) and by stack, the table, the folded
 * stacks and the flame graph.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"

#define MAX_FRAMES 256

struct ftc_perf_agg *ftc_perf_agg_new(void)
{
	struct ftc_perf_agg *a = calloc(1, sizeof(*a));

	if (a) {
		a->table = ftc_perf_tally_new();
		a->folded = ftc_perf_tally_new();
	}
	if (!a || !a->table || !a->folded) {
		ftc_perf_agg_free(a);
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	return a;
}

void ftc_perf_agg_free(struct ftc_perf_agg *a)
{
	if (!a)
		return;
	ftc_perf_tally_free(a->table);
	ftc_perf_tally_free(a->folded);
	free(a);
}

uint64_t ftc_perf_agg_samples(const struct ftc_perf_agg *a)
{
	return a->samples;
}

static void frame_key(char *buf, size_t size, const char *comm, const struct ftc_perf_frame *f)
{
	snprintf(buf, size, "%s\t%s\t%c\t%s", comm, f->dso, f->kernel ? 'k' : '.', f->sym);
}

static int add_children(struct ftc_perf_agg *a, const char *comm,
			const struct ftc_perf_frame *fr, int n)
{
	char key[512], other[512];

	/* Each symbol counts once per sample, however deep it recurses. */
	for (int i = 0; i < n; i++) {
		bool seen = false;

		frame_key(key, sizeof(key), comm, &fr[i]);
		for (int j = 0; j < i && !seen; j++) {
			frame_key(other, sizeof(other), comm, &fr[j]);
			seen = !strcmp(key, other);
		}
		if (!seen && ftc_perf_tally_add(a->table, key, i == 0, 1) < 0)
			return -1;
		if (seen && i == 0 && ftc_perf_tally_add(a->table, key, 1, 0) < 0)
			return -1;
	}
	return 0;
}

static int add_folded(struct ftc_perf_agg *a, const char *comm, const struct ftc_perf_frame *fr,
		      int n)
{
	size_t cap = 4096, len;
	char *s = malloc(cap);
	int ret;

	if (!s)
		return ftc_error(ENOMEM, "out of memory");
	len = (size_t)snprintf(s, cap, "%s", comm);
	for (int i = n - 1; i >= 0; i--) {
		size_t need = len + strlen(fr[i].sym) + 8;

		if (need > cap) {
			char *ns = realloc(s, need * 2);

			if (!ns) {
				free(s);
				return ftc_error(ENOMEM, "out of memory");
			}
			s = ns;
			cap = need * 2;
		}
		/* Folded stacks have no room for spaces inside a frame. */
		len += (size_t)snprintf(s + len, cap - len, ";%s%s", fr[i].sym,
					fr[i].kernel ? "_[k]" : "");
	}
	for (char *p = s; *p; p++)
		if (*p == ' ')
			*p = '_';
	ret = ftc_perf_tally_add(a->folded, s, 1, 0);
	free(s);
	return ret;
}

int ftc_perf_agg_build(struct ftc_perf_agg *a, struct ftc_perf_profile *p,
		       struct ftc_symbols *syms)
{
	struct ftc_perf_frame *fr = calloc(MAX_FRAMES, sizeof(*fr));

	if (!fr)
		return ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < p->nsamples; i++) {
		const char *comm = ftc_perf_profile_comm(p, p->samples[i].pid);
		int n = ftc_perf_profile_frames(p, syms, i, fr, MAX_FRAMES);

		/* the table counts a symbol once a sample: one [unknown] or several, alike */
		n = ftc_perf_frames_one_unknown(fr, n);
		if (n <= 0)
			continue;
		if (add_children(a, comm, fr, n) < 0 || add_folded(a, comm, fr, n) < 0) {
			free(fr);
			return -1;
		}
		a->samples++;
	}
	free(fr);
	return 0;
}

void ftc_perf_agg_table(FILE *f, struct ftc_perf_agg *a, bool children, uint64_t limit,
			const char *event, uint64_t lost)
{
	size_t n = 0;
	struct ftc_perf_tally_entry **v = ftc_perf_tally_sorted(a->table, children ?
		FTC_PERF_BY_CHILDREN : FTC_PERF_BY_SELF, &n);
	double total = a->samples ? (double)a->samples : 1;

	if (!v)
		return;
	fprintf(f, "# Samples: %llu of event '%s', lost: %llu\n#\n",
		(unsigned long long)a->samples, event, (unsigned long long)lost);
	if (children)
		fprintf(f, "# %8s %9s  %-16s %-24s %s\n", "Children", "Self", "Command",
			"Shared Object", "Symbol");
	else
		fprintf(f, "# %8s  %-16s %-24s %s\n", "Overhead", "Command", "Shared Object",
			"Symbol");
	for (size_t i = 0; i < n && (!limit || i < limit); i++) {
		/* key: comm TAB dso TAB mark TAB symbol */
		const char *comm = v[i]->key, *dso, *mark, *sym;

		if (!children && !v[i]->self)
			continue;
		dso = strchr(comm, '\t') + 1;
		mark = strchr(dso, '\t') + 1;
		sym = strchr(mark, '\t') + 1;
		if (children)
			fprintf(f, "  %7.2f%%  %7.2f%%", 100.0 * (double)v[i]->children / total,
				100.0 * (double)v[i]->self / total);
		else
			fprintf(f, "  %7.2f%%", 100.0 * (double)v[i]->self / total);
		fprintf(f, "  %-16.*s %-24.*s [%c] %s\n", (int)(dso - comm - 1), comm,
			(int)(mark - dso - 1), dso, *mark, sym);
	}
	free(v);
}

void ftc_perf_agg_folded(FILE *f, struct ftc_perf_agg *a)
{
	size_t n = 0;
	struct ftc_perf_tally_entry **v = ftc_perf_tally_sorted(a->folded, FTC_PERF_BY_KEY, &n);

	for (size_t i = 0; v && i < n; i++)
		fprintf(f, "%s %llu\n", v[i]->key, (unsigned long long)v[i]->self);
	free(v);
}

int ftc_perf_agg_flame(FILE *f, struct ftc_perf_agg *a, const char *event)
{
	char title[128];

	snprintf(title, sizeof(title), "Flame graph: %llu samples of %s",
		 (unsigned long long)a->samples, event);
	return ftc_perf_flame_svg(f, a->folded, title);
}
