// SPDX-License-Identifier: GPL-2.0-or-later
/* Record selection of ftc report and ftc stream (rec-select.h). */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "options.h"
#include "rec-select.h"

int rec_select_push(char ***list, int *n, const char *s)
{
	char **l = realloc(*list, (size_t)(*n + 1) * sizeof(*l));

	if (!l)
		return -1;
	l[(*n)++] = (char *)s;
	*list = l;
	return 0;
}

int rec_select_cpus(struct rec_select *s, const char *arg)
{
	const char *p = arg;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0 || a >= 1024)
			goto bad;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a || b >= 1024)
				goto bad;
		}
		for (long c = a; c <= b; c++)
			s->cpu_mask[c / 64] |= 1ULL << (c % 64);
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	s->have_cpus = true;
	return 0;
bad:
	return cmd_bad_value("not a CPU list of CPUs 0 to 1023 (e.g. 0-1,3)");
}

int rec_select_pids(struct rec_select *s, const char *arg)
{
	const char *p = arg;

	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);
		int *n;

		if (end == p || v < 0 || v > INT_MAX || (*end && *end != ','))
			return cmd_bad_value("not a pid list (e.g. 1,42)");
		n = realloc(s->pids, (size_t)(s->npids + 1) * sizeof(*n));
		if (!n)
			return -1;
		s->pids = n;
		s->pids[s->npids++] = (int)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

int rec_select_setup(struct rec_select *s, struct ftc_reader *r, const struct command *cmd,
		     const char *opt)
{
	struct tep_handle *tep = ftc_reader_tep(r);
	char err[256];

	if (!s->nfilters)
		return 0;
	if (ftc_reader_parse_all_events(r) < 0)
		return -1;
	s->filter = tep_filter_alloc(tep);
	if (!s->filter)
		return -1;
	for (int i = 0; i < s->nfilters; i++) {
		enum tep_errno ret = tep_filter_add_filter_str(s->filter, s->filters[i]);

		if (ret < 0) {
			tep_filter_strerror(s->filter, ret, err, sizeof(err));
			cmd_error(cmd, "%s '%s': bad filter: %s", opt, s->filters[i], err);
			return -1;
		}
	}
	return 0;
}

bool rec_select_any(const struct rec_select *s)
{
	return s->have_cpus || s->npids || s->ncomms || s->nfilters;
}

bool rec_select_cpu(const struct rec_select *s, int cpu)
{
	return !s->have_cpus ||
	       (cpu >= 0 && cpu < 1024 && (s->cpu_mask[cpu / 64] & (1ULL << (cpu % 64))));
}

static bool pid_selected(const struct rec_select *s, int pid)
{
	int i;

	for (i = 0; i < s->npids && s->pids[i] != pid; i++)
		;
	return i < s->npids;
}

static bool comm_selected(const struct rec_select *s, const char *comm)
{
	int i;

	for (i = 0; i < s->ncomms && fnmatch(s->comms[i], comm, 0); i++)
		;
	return i < s->ncomms;
}

/* --pid, --comm and the filters. */
static bool task_selected(struct rec_select *s, struct tep_handle *tep, struct tep_record *rec)
{
	int pid;

	if (!s->npids && !s->ncomms && !s->filter)
		return true;
	pid = tep_data_pid(tep, rec);
	if (s->npids && !pid_selected(s, pid))
		return false;
	if (s->ncomms && !comm_selected(s, tep_data_comm_from_pid(tep, pid)))
		return false;
	return !s->filter || tep_filter_match(s->filter, rec) == TEP_ERRNO__FILTER_MATCH;
}

bool rec_select_match(struct rec_select *s, struct ftc_reader *r,
		      const struct ftc_merge_record *mr)
{
	return rec_select_cpu(s, mr->cpu) && task_selected(s, ftc_reader_tep(r), mr->rec);
}

unsigned int rec_output_flags(const struct rec_output *o, bool graph)
{
	unsigned int fl = 0;

	if (o->ns)
		fl |= FTC_FMT_NS;
	if (o->raw)
		fl |= FTC_FMT_RAW;
	if (o->json)
		fl |= FTC_FMT_JSON;
	if (o->no_graph)
		fl |= FTC_FMT_NO_GRAPH;
	if (graph && !o->raw && !o->json && !o->no_graph)
		fl |= FTC_FMT_GRAPH_KERNEL | (o->graph_proc ? FTC_FMT_GRAPH_PROC : 0) |
		      (o->graph_abstime ? FTC_FMT_GRAPH_ABSTIME : 0);
	return fl;
}

void rec_select_free(struct rec_select *s)
{
	if (s->filter)
		tep_filter_free(s->filter);
	free(s->comms);
	free(s->filters);
	free(s->pids);
}
