// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The dumps of a log: "Dumping ftrace buffer:" (or "Dumping ftrace
 * instance NAME buffer:"), a line of dashes, the records, a line of
 * dashes. Inside a dump, a line whose printk caller id or log level is
 * not the "Dumping" line's is another CPU's message that interleaved
 * the dump: counted, not parsed. Without caller ids or levels such a line
 * cannot be told from a damaged one and counts as unparsable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "import.h"

static const char dump_tag[] = "Dumping ftrace ";

static bool dump_start(const struct imp_line *l)
{
	const char *s = l->s;
	size_t n = l->len;

	while (n && *s == ' ')
		s++, n--;
	if (n < sizeof(dump_tag) - 1 || memcmp(s, dump_tag, sizeof(dump_tag) - 1))
		return false;
	return n >= 7 && !memcmp(s + n - 7, "buffer:", 7);
}

/*
 * The closing (and opening) line: 33 dashes from the first column. The
 * task banner of function_graph is 42, after a blank: a log that lost
 * leading blanks still does not end the dump there.
 */
static bool dump_rule(const struct imp_line *l)
{
	size_t n = l->len, i = 0;

	while (n && (l->s[n - 1] == ' ' || l->s[n - 1] == '\t'))
		n--;
	while (i < n && l->s[i] == '-')
		i++;
	return i == n && n >= 20 && n <= 40;
}

static struct imp_dump *new_dump(struct ftc_import *im, const struct imp_line *l,
				 unsigned long line)
{
	struct imp_dump *d;

	if (im->ndumps == im->capdumps) {
		int cap = im->capdumps ? im->capdumps * 2 : 4;

		d = realloc(im->dumps, (size_t)cap * sizeof(*d));
		if (!d)
			return NULL;
		im->dumps = d;
		im->capdumps = cap;
	}
	d = &im->dumps[im->ndumps++];
	memset(d, 0, sizeof(*d));
	d->first = line;
	d->level = l->level;
	memcpy(d->caller, l->caller, sizeof(d->caller));
	return d;
}

static bool foreign(const struct imp_dump *d, const struct imp_line *l)
{
	if (d->caller[0] && l->caller[0] && strcmp(d->caller, l->caller))
		return true;
	return d->level >= 0 && l->level >= 0 && d->level != l->level;
}

static int in_dump(struct imp_dump *d, const struct imp_line *l, unsigned long line)
{
	int ret;

	if (foreign(d, l)) {
		d->foreign++;
		return 0;
	}
	if (dump_rule(l)) {
		if (d->in) {
			d->end = line;
			return 1;	/* the dump ends */
		}
		d->in = true;
		return 0;
	}
	d->in = true;
	ret = ftc_imp_parse_line(d, l->s, l->len, line);
	if (ret == 0)
		ret = ftc_imp_add_bad(d, l->s, l->len, line);
	return ret < 0 ? -1 : 0;
}

static int parse_log(struct ftc_import *im, const char *log, size_t len)
{
	struct imp_dump *d = NULL;
	unsigned long line = 0;
	const char *p = log, *e = log + len;

	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *end = nl ? nl : e;
		struct imp_line l;
		int ret;

		line++;
		ftc_imp_strip(p, (size_t)(end - p), &l);
		p = nl ? nl + 1 : e;
		if (dump_start(&l)) {
			if (d && ftc_imp_header(d) < 0)
				return -1;
			d = new_dump(im, &l, line);
			if (!d)
				return ftc_error(ENOMEM, "out of memory");
			continue;
		}
		if (!d)
			continue;
		ret = in_dump(d, &l, line);
		if (ret < 0)
			return ret;
		if (ret > 0) {
			if (ftc_imp_header(d) < 0)
				return -1;
			d = NULL;
		}
	}
	return d ? ftc_imp_header(d) : 0;
}

struct ftc_import *ftc_import_parse(const char *log, size_t len)
{
	struct ftc_import *im = calloc(1, sizeof(*im));

	if (!im) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	if (parse_log(im, log, len) < 0) {
		ftc_import_free(im);
		return NULL;
	}
	return im;
}

void ftc_imp_free_dump(struct imp_dump *d)
{
	for (size_t i = 0; i < d->nrecs; i++) {
		free(d->recs[i].name);
		free(d->recs[i].parent);
		free(d->recs[i].text);
	}
	free(d->recs);
	free(d->bad);
	free(d->hash_lines);
	free(d->header);
	for (int i = 0; i < d->ngcpus; i++)
		free(d->gcpus[i].stack);
	free(d->gcpus);
	free(d->tasks);
}

void ftc_import_free(struct ftc_import *im)
{
	if (!im)
		return;
	for (int i = 0; i < im->ndumps; i++)
		ftc_imp_free_dump(&im->dumps[i]);
	free(im->dumps);
	for (size_t i = 0; i < im->nsyms; i++)
		free(im->syms[i].name);
	free(im->syms);
	free(im->ksyms_text);
	free(im);
}

static const char *tracer_of(const struct imp_dump *d)
{
	bool func = false;

	if (d->graph)
		return "function_graph";
	for (size_t i = 0; i < d->nrecs && !func; i++)
		func = d->recs[i].kind == IMP_FUNC;
	return func ? "function" : "nop";
}

/*
 * What the dump says about itself, for the file's metadata: the tracer
 * ("# tracer:" when the dump has it, else what its lines show), the
 * layout and what its timestamps are.
 */
int ftc_imp_header(struct imp_dump *d)
{
	const char *layout = d->graph ? (d->gproc && d->glat ? "function_graph (columns: CPU, "
					 "TASK-PID, latency flags, DURATION, FUNCTION)" :
					 d->gproc ? "function_graph (columns: CPU, TASK-PID, "
					 "DURATION, FUNCTION)" : d->glat ? "function_graph (columns: "
					 "CPU, latency flags, DURATION, FUNCTION)" :
					 "function_graph (columns: CPU, DURATION, FUNCTION)") :
			     d->latency ? "latency (COMM-PID CPU+FLAGS TIMEus : TEXT; flags: "
					  "irqs-off, need-resched, hardirq/softirq, preempt-depth, "
					  "migrate-disable)" :
			     d->trace_layout ? "trace (COMM-PID [CPU] FLAGS SECS: TEXT)" : "none";
	const char *ts = d->graph ? (d->abstime ? "the funcgraph-abstime column" :
				     "none in the dump: rebuilt from the durations, in order") :
			 d->latency ? (d->non_ns ? "the clock's counts (not ns), as printed" :
				       "microseconds since the buffer's start, as printed") :
			 "seconds, as printed";
	const char *hash = d->hash_lines ? d->hash_lines : "";
	const char *tr = tracer_of(d);
	char *t = NULL, name[64];

	if (d->hash_lines) {
		const char *p = strstr(d->hash_lines, "# tracer: ");

		if (p) {
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(p + 10, "\n"), p + 10);
			tr = name;
		}
	}
	free(d->header);
	d->header = NULL;
	if (asprintf(&t, "ftrace_dump imported by ftc\ntracer: %s\nlayout: %s\ntimestamps: %s\n"
		     "log lines: %lu-%lu%s\nrecords: %zu\ninterleaved lines of other messages: %zu\n"
		     "unparsable lines: %zu\n%s", tr, layout, ts, d->first, d->end,
		     d->end ? "" : " (no closing line: the log ends first)", d->nrecs, d->foreign,
		     d->nbad, hash) < 0)
		return ftc_error(ENOMEM, "out of memory");
	d->header = t;
	return 0;
}

static const struct imp_dump *dump(const struct ftc_import *im, int d)
{
	return im && d >= 0 && d < im->ndumps ? &im->dumps[d] : NULL;
}

int ftc_import_ndumps(const struct ftc_import *im)
{
	return im ? im->ndumps : 0;
}

unsigned long ftc_import_first_line(const struct ftc_import *im, int d)
{
	return dump(im, d) ? dump(im, d)->first : 0;
}

unsigned long ftc_import_end_line(const struct ftc_import *im, int d)
{
	return dump(im, d) ? dump(im, d)->end : 0;
}

size_t ftc_import_records(const struct ftc_import *im, int d)
{
	return dump(im, d) ? dump(im, d)->nrecs : 0;
}

size_t ftc_import_foreign(const struct ftc_import *im, int d)
{
	return dump(im, d) ? dump(im, d)->foreign : 0;
}

size_t ftc_import_nbad(const struct ftc_import *im, int d)
{
	return dump(im, d) ? dump(im, d)->nbad : 0;
}

unsigned long ftc_import_bad_line(const struct ftc_import *im, int d, size_t i,
				  const char **text)
{
	const struct imp_dump *dp = dump(im, d);

	if (!dp || i >= dp->nbad)
		return 0;
	if (text)
		*text = dp->bad[i].text;
	return dp->bad[i].line;
}

const char *ftc_import_header(const struct ftc_import *im, int d)
{
	return dump(im, d) ? dump(im, d)->header : NULL;
}

size_t ftc_import_unresolved(const struct ftc_import *im)
{
	return im ? im->unresolved : 0;
}
