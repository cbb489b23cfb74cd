// SPDX-License-Identifier: GPL-2.0-or-later
/* Record selection of ftc report and ftc stream (rec-select.h). */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "format-env.h"
#include "ftc.h"
#include "ftc-filter.h"
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

static int mask_cpus(unsigned long first, unsigned long last, void *ctx)
{
	struct rec_select *s = ctx;

	for (unsigned long c = first; c <= last; c++)
		s->cpu_mask[c / 64] |= 1ULL << (c % 64);
	return 0;
}

int rec_select_cpus(struct rec_select *s, const char *arg)
{
	if (ftc_list_parse(arg, 1023, FTC_LIST_MANY | FTC_LIST_RANGES, mask_cpus, s) < 0)
		return cmd_bad_value("not a CPU list of CPUs 0 to 1023 (e.g. 0-1,3)");
	s->have_cpus = true;
	return 0;
}

static int push_pid(unsigned long pid, unsigned long last, void *ctx)
{
	struct rec_select *s = ctx;
	int *n = realloc(s->pids, (size_t)(s->npids + 1) * sizeof(*n));

	if (!n)
		return -1;
	s->pids = n;
	s->pids[s->npids++] = (int)pid;
	return 0;
}

int rec_select_pids(struct rec_select *s, const char *arg)
{
	if (ftc_list_parse(arg, INT_MAX, FTC_LIST_MANY, push_pid, s) < 0)
		return errno == EINVAL ? cmd_bad_value("not a pid list (e.g. 1,42)") : -1;
	return 0;
}

void rec_filter_caret(const char *text, size_t pos)
{
	size_t len = strlen(text);

	fputs("  ", stderr);
	for (size_t i = 0; i < len; i++)
		fputc(isprint((unsigned char)text[i]) || text[i] == '\t' ? text[i] : '?', stderr);
	fputs("\n  ", stderr);
	for (size_t i = 0; i < pos && i < len; i++)
		fputc(text[i] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
}

/* Before the file is open, any field may be there, of any type. */
static enum ftc_filter_type any_field(void *ctx, const char *name)
{
	return FTC_FILTER_SYM;
}

int rec_filter_kernel(const char *arg)
{
	struct ftc_filter_error err = { 0 };

	if (!ftc_filter_check_kernel(arg, &err))
		return 0;
	cmd_bad_value("%s", err.msg);
	rec_filter_caret(arg, err.pos);
	return -1;
}

int rec_select_filter(struct rec_select *s, const char *arg)
{
	struct ftc_filter_head h;
	struct ftc_filter_error err = { 0 };
	bool bad = ftc_filter_split(arg, &h, &err) < 0 ||
		   ftc_filter_check(arg, &h, any_field, NULL, &err) < 0;

	ftc_filter_head_free(&h);
	if (bad) {
		cmd_bad_value("%s", err.msg);
		rec_filter_caret(arg, err.pos);
		return -1;
	}
	return rec_select_push(&s->filters, &s->nfilters, arg);
}

/* The events one filter names, as libtraceevent matches them. */
struct filter_events {
	struct tep_event **ev;
	int n;
};

static bool name_matches(const char *re_text, const char *name)
{
	regex_t re;
	char *anch;
	bool ok;

	if (asprintf(&anch, "^%s$", re_text) < 0)
		return false;
	ok = !regcomp(&re, anch, REG_ICASE | REG_NOSUB);
	free(anch);
	if (!ok)
		return false;
	ok = !regexec(&re, name, 0, NULL, 0);
	regfree(&re);
	return ok;
}

static bool event_matches(const struct ftc_filter_event *fe, const struct tep_event *ev)
{
	if (fe->sys)
		return name_matches(fe->sys, ev->system) && name_matches(fe->name, ev->name);
	return name_matches(fe->name, ev->system) || name_matches(fe->name, ev->name);
}

static enum ftc_filter_type field_type(const struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_STRING)
		return FTC_FILTER_STR;
	if (f->flags & (TEP_FIELD_IS_POINTER | TEP_FIELD_IS_LONG))
		return FTC_FILTER_SYM;
	return FTC_FILTER_NUM;
}

/* As libtraceevent: a field of any selected event, else COMM or CPU. */
static enum ftc_filter_type lookup_field(void *ctx, const char *name)
{
	struct filter_events *fe = ctx;

	for (int i = 0; i < fe->n; i++) {
		struct tep_format_field *f = tep_find_any_field(fe->ev[i], name);

		if (f)
			return field_type(f);
	}
	if (!strcmp(name, "COMM"))
		return FTC_FILTER_STR;
	return strcmp(name, "CPU") ? FTC_FILTER_UNKNOWN : FTC_FILTER_NUM;
}

static int match_events(struct tep_handle *tep, const struct ftc_filter_head *h,
			struct filter_events *fe, struct ftc_filter_error *err, bool live)
{
	const char *where = live ? "of this kernel" : "in the file";
	const char *hint = live ? " (ftc list -e lists them)" : " (ftc report --stat counts its events)";

	int count = tep_get_events_count(tep);

	fe->ev = calloc((size_t)count + 1, sizeof(*fe->ev));
	if (!fe->ev) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -1;
	}
	for (size_t k = 0; k < h->nevents; k++) {
		int before = fe->n;

		for (int i = 0; i < count; i++) {
			struct tep_event *ev = tep_get_event(tep, i);
			bool dup = false;

			if (!ev || !event_matches(&h->events[k], ev))
				continue;
			for (int j = 0; j < fe->n && !dup; j++)
				dup = fe->ev[j] == ev;
			if (!dup)
				fe->ev[fe->n++] = ev;
		}
		if (fe->n == before) {
			err->pos = h->events[k].pos;
			err->status = FTC_EXIT_REFUSED;
			snprintf(err->msg, sizeof(err->msg), "no event %s matches '%s%s%s'%s", where,
				 h->events[k].sys ? h->events[k].sys : "", h->events[k].sys ? ":" : "",
				 h->events[k].name, hint);
			return 1;
		}
	}
	return 0;
}

/* The fields an unknown field could have been, on one line. */
static void list_fields(const struct filter_events *fe)
{
	struct tep_event *ev = fe->ev[0];
	struct tep_format_field **f = tep_event_fields(ev);

	fprintf(stderr, "  fields of %s:%s:", ev->system, ev->name);
	for (int i = 0; f && f[i]; i++)
		fprintf(stderr, " %s", f[i]->name);
	fprintf(stderr, "%s; and common_pid, common_type, common_flags, common_preempt_count, COMM, CPU\n",
		fe->n > 1 ? " (one of the events selected)" : "");
	free(f);
}

/* Checks one filter and adds it; 0 or an exit status. */
static int add_filter(struct rec_select *s, struct tep_handle *tep, const struct command *cmd,
		      const char *opt, const char *text)
{
	struct ftc_filter_head h;
	struct ftc_filter_error err = { 0 };
	struct filter_events fe = { 0 };
	char q[200], tep_err[256], *tep_text = NULL;
	int status = 0;

	if (ftc_filter_split(text, &h, &err) < 0 || match_events(tep, &h, &fe, &err, !strcmp(cmd->name, "stream")) ||
	    ftc_filter_check(text, &h, lookup_field, &fe, &err) < 0) {
		if (!err.status)
			err.status = FTC_EXIT_FAIL;
		cmd_quote(q, sizeof(q), text);
		cmd_error(cmd, "%s '%s': %s", opt, q, err.msg);
		rec_filter_caret(text, err.pos);
		if (err.status == FTC_EXIT_REFUSED && fe.n && strstr(err.msg, "field"))
			list_fields(&fe);
		status = err.status;
		goto out;
	}
	tep_text = ftc_filter_tep_text(text, &h);
	if (!tep_text) {
		status = FTC_EXIT_FAIL;
		goto out;
	}
	if (tep_filter_add_filter_str(s->filter, tep_text) < 0) {
		/* what the check let through libtraceevent should take */
		tep_filter_strerror(s->filter, 0, tep_err, sizeof(tep_err));
		cmd_quote(q, sizeof(q), text);
		cmd_error(cmd, "%s '%s': libtraceevent refused it: %s", opt, q, tep_err);
		status = FTC_EXIT_USAGE;
	}
out:
	free(tep_text);
	free(fe.ev);
	ftc_filter_head_free(&h);
	return status;
}

int rec_select_setup(struct rec_select *s, struct ftc_reader *r, const struct command *cmd,
		     const char *opt)
{
	struct tep_handle *tep = ftc_reader_tep(r);
	int status;

	if (!s->nfilters)
		return 0;
	if (ftc_reader_parse_all_events(r) < 0)
		return FTC_EXIT_FAIL;
	s->filter = tep_filter_alloc(tep);
	if (!s->filter)
		return FTC_EXIT_FAIL;
	for (int i = 0; i < s->nfilters; i++) {
		status = add_filter(s, tep, cmd, opt, s->filters[i]);
		if (status)
			return status;
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
	unsigned int fl = format_env_flags();

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
