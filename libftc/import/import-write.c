// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A parsed dump as a trace.dat, with metadata made here instead of read
 * from a kernel (meta.h): the 64-bit x86 header_page, ftrace's function
 * and funcgraph formats as 6.1 has them, and a system "ftrace_dump" with
 * one event per event name the dump holds plus "text" for other lines,
 * each a single string printed as is, so `trace-cmd report` shows
 * "sched_switch: prev_comm=..." as the dump did. Function lines whose names
 * the kallsyms resolve become function / funcgraph records with those
 * addresses (the kallsyms go into the file, so readers symbolize them).
 * The records are packed into pages by the perf pager (perf-ftrace.c),
 * one pager per CPU, and the dump's header becomes an option of the file
 * (FTC_IMPORT_OPTION) and its uname.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "import.h"
#include "meta.h"
#include "perf.h"
#include "writer.h"

#define SYSTEM		"ftrace_dump"
#define TEXT_ID		1000	/* "text"; the dump's event names follow */
#define MAX_NAMES	4000	/* more distinct names become text records */
#define ID_FUNCTION	1
#define ID_GRAPH_EXIT	10
#define ID_GRAPH_ENTRY	11
/* A trace.dat option id that trace-cmd 3.1 does not use: the dump's header. */
#define FTC_IMPORT_OPTION 0x4654

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

#define NUM(x)		#x
#define SAY(x)		NUM(x)	/* a macro's value as a string */
static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    " SAY(FTC_RB_TYPE_BITS) " bits\n"
	"\ttime_delta  :   " SAY(FTC_RB_DELTA_BITS) " bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == " SAY(FTC_RB_TYPE_PADDING) "\n"
	"\ttime_extend : type == " SAY(FTC_RB_TYPE_TIME_EXTEND) "\n"
	"\ttime_stamp : type == " SAY(FTC_RB_TYPE_TIME_STAMP) "\n"
	"\tdata max type_len  == " SAY(FTC_RB_TYPE_DATA_MAX) "\n";

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char fmt_function[] =
	"name: function\nID: 1\nformat:\n" COMMON
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

static const char fmt_exit[] =
	"name: funcgraph_exit\nID: 10\nformat:\n" COMMON
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, "
	"REC->depth, REC->calltime, REC->rettime, REC->depth\n";

static const char fmt_entry[] =
	"name: funcgraph_entry\nID: 11\nformat:\n" COMMON
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

struct names {
	const char **v;
	size_t n;
};

/* The id of an event name (TEXT_ID + 1 + its index), 0 when there are too many. */
static int name_id(struct names *nm, const char *name, bool add)
{
	for (size_t i = 0; i < nm->n; i++)
		if (!strcmp(nm->v[i], name))
			return TEXT_ID + 1 + (int)i;
	if (!add || nm->n >= MAX_NAMES)
		return 0;
	nm->v[nm->n++] = name;
	return TEXT_ID + (int)nm->n;
}

static char *text_format(const char *name, int id)
{
	char *s;

	if (asprintf(&s, "name: %s\nID: %d\nformat:\n" COMMON
		     "\tfield:__data_loc char[] text;\toffset:8;\tsize:4;\tsigned:1;\n\n"
		     "print fmt: \"%%s\", __get_str(text)\n", name, id) < 0)
		return NULL;
	return s;
}

struct wctx {
	struct ftc_import *im;
	struct imp_dump *d;
	struct ftc_writer *w;
	struct names names;
	int *cpus;
	int ncpus;
	struct ftc_perf_pager **pagers;
	int cur;		/* the CPU index the pager writes for */
};

static int sort_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int collect_cpus(struct wctx *c)
{
	int *v = malloc((c->d->nrecs + 1) * sizeof(*v));
	int n = 0;

	if (!v)
		return ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < c->d->nrecs; i++)
		v[n++] = c->d->recs[i].cpu;
	if (!n)
		v[n++] = 0;	/* an empty dump still makes a readable file */
	qsort(v, (size_t)n, sizeof(*v), sort_int);
	c->ncpus = 0;
	for (int i = 0; i < n; i++)
		if (!c->ncpus || v[c->ncpus - 1] != v[i])
			v[c->ncpus++] = v[i];
	c->cpus = v;
	return 0;
}

static int cpu_index(const struct wctx *c, int cpu)
{
	int *p = bsearch(&cpu, c->cpus, (size_t)c->ncpus, sizeof(int), sort_int);

	return p ? (int)(p - c->cpus) : 0;
}

/* "pid comm" lines: the saved_cmdlines readers take task names from. */
static char *cmdlines(const struct imp_dump *d, size_t *len)
{
	size_t cap = d->ntasks * (IMP_COMM_LEN + 14) + 1, n = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	for (size_t i = 0; i < d->ntasks; i++)
		n += (size_t)snprintf(s + n, cap - n, "%d %s\n", d->tasks[i].pid,
				      d->tasks[i].comm);
	s[n] = '\0';
	*len = n;
	return s;
}

static int set_meta(struct wctx *c, char **formats, int nformats)
{
	struct ftc_blob ftrace_fmts[3] = {
		{ (char *)fmt_function, sizeof(fmt_function) - 1 },
		{ (char *)fmt_exit, sizeof(fmt_exit) - 1 },
		{ (char *)fmt_entry, sizeof(fmt_entry) - 1 },
	};
	struct ftc_blob *dump_fmts = calloc((size_t)nformats, sizeof(*dump_fmts));
	struct ftc_meta_system sys = { SYSTEM, dump_fmts, nformats };
	struct ftc_meta m = {
		.header_page = { (char *)header_page, sizeof(header_page) - 1 },
		.header_event = { (char *)header_event, sizeof(header_event) - 1 },
		.ftrace = { "ftrace", ftrace_fmts, 3 },
		.systems = &sys,
		.nsystems = 1,
		.kallsyms = { c->im->ksyms_text ? c->im->ksyms_text : "", c->im->ksyms_len },
		.printk = { "", 0 },
		.uname = "ftrace_dump (imported by ftc from a console log)",
		.trace_clock = c->d->non_ns ? "local global [counter]" : "[local] global counter",
	};
	int ret;

	if (!dump_fmts)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < nformats; i++) {
		dump_fmts[i].data = formats[i];
		dump_fmts[i].len = strlen(formats[i]);
	}
	m.cmdlines.data = cmdlines(c->d, &m.cmdlines.len);
	ret = m.cmdlines.data ? ftc_writer_set_meta(c->w, &m) :
	      ftc_error(ENOMEM, "out of memory");
	free(m.cmdlines.data);
	free(dump_fmts);
	return ret;
}

/* The formats of "text" and of each event name, in id order. */
static int event_formats(struct wctx *c, char ***out, int *n)
{
	char **f;

	c->names.v = malloc(MAX_NAMES * sizeof(*c->names.v));
	if (!c->names.v)
		return ftc_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < c->d->nrecs; i++)
		if (c->d->recs[i].kind == IMP_EVENT)
			name_id(&c->names, c->d->recs[i].name, true);
	f = calloc(c->names.n + 1, sizeof(*f));
	if (!f)
		return ftc_error(ENOMEM, "out of memory");
	f[0] = text_format("text", TEXT_ID);
	for (size_t i = 0; i < c->names.n; i++)
		f[i + 1] = text_format(c->names.v[i], TEXT_ID + 1 + (int)i);
	*out = f;
	*n = (int)c->names.n + 1;
	for (int i = 0; i < *n; i++)
		if (!f[i])
			return ftc_error(ENOMEM, "out of memory");
	return 0;
}

static int to_writer(const void *page, size_t size, void *ctx)
{
	struct wctx *c = ctx;

	return ftc_writer_add_pages(c->w, 0, c->cur, page, size);
}

static void common(unsigned char *buf, uint16_t type, const struct imp_rec *r)
{
	int32_t pid = r->pid;

	memcpy(buf, &type, 2);
	buf[2] = r->flags;
	buf[3] = r->preempt;
	memcpy(buf + 4, &pid, 4);
}

static int put_text(struct wctx *c, struct ftc_perf_pager *p, const struct imp_rec *r, int id,
		    uint64_t ts)
{
	size_t n = strlen(r->text) + 1;
	unsigned char buf[12 + IMP_TEXT_MAX + 1];
	uint32_t loc = 12u | (uint32_t)n << 16;

	(void)c;
	common(buf, (uint16_t)id, r);
	memcpy(buf + 8, &loc, 4);
	memcpy(buf + 12, r->text, n);
	return ftc_perf_pager_add_raw(p, ts, buf, 12 + n);
}

/* name, or "name+0xOFF/0xSIZE", to an address; 0 when not a known symbol. */
static uint64_t resolve(struct wctx *c, const char *name)
{
	const struct imp_sym *s;
	const char *plus = strchr(name, '+');
	char buf[256];
	uint64_t off = 0;

	if (!name || !c->im->nsyms)
		return 0;
	if (plus) {
		if ((size_t)(plus - name) >= sizeof(buf))
			return 0;
		memcpy(buf, name, (size_t)(plus - name));
		buf[plus - name] = '\0';
		off = strtoull(plus + 1, NULL, 16);
		name = buf;
	}
	s = ftc_imp_sym(c->im, name);
	return s ? s->addr + off : 0;
}

static int put_entry(struct ftc_perf_pager *p, const struct imp_rec *r, uint64_t func,
		     uint64_t ts)
{
	unsigned char buf[24] = { 0 };
	int32_t depth = r->depth;

	common(buf, ID_GRAPH_ENTRY, r);
	memcpy(buf + 8, &func, 8);
	memcpy(buf + 16, &depth, 4);
	return ftc_perf_pager_add_raw(p, ts, buf, sizeof(buf));
}

static int put_exit(struct ftc_perf_pager *p, const struct imp_rec *r, uint64_t func)
{
	unsigned char buf[40] = { 0 };
	int32_t depth = r->depth;

	common(buf, ID_GRAPH_EXIT, r);
	memcpy(buf + 8, &func, 8);
	memcpy(buf + 16, &depth, 4);
	memcpy(buf + 24, &r->calltime, 8);
	memcpy(buf + 32, &r->ts, 8);
	return ftc_perf_pager_add_raw(p, r->ts, buf, sizeof(buf));
}

static int put_rec(struct wctx *c, struct ftc_perf_pager *p, const struct imp_rec *r)
{
	uint64_t a, b;
	unsigned char buf[24];
	int id;

	switch (r->kind) {
	case IMP_EVENT:
		id = name_id(&c->names, r->name, false);
		return put_text(c, p, r, id ? id : TEXT_ID, r->ts);
	case IMP_FUNC:
		a = resolve(c, r->name);
		b = resolve(c, r->parent);
		if (!a || !b)
			break;
		common(buf, ID_FUNCTION, r);
		memcpy(buf + 8, &a, 8);
		memcpy(buf + 16, &b, 8);
		return ftc_perf_pager_add_raw(p, r->ts, buf, sizeof(buf));
	case IMP_GRAPH_ENTRY:
		a = resolve(c, r->name);
		if (!a)
			break;
		return put_entry(p, r, a, r->ts);
	case IMP_GRAPH_LEAF:
		a = resolve(c, r->name);
		if (!a)
			break;
		if (put_entry(p, r, a, r->calltime) < 0)
			return -1;
		return put_exit(p, r, a);
	case IMP_GRAPH_EXIT:
		a = resolve(c, r->name);
		if (!a)
			break;
		return put_exit(p, r, a);
	default:
		return put_text(c, p, r, TEXT_ID, r->ts);
	}
	c->im->unresolved++;
	return put_text(c, p, r, TEXT_ID, r->ts);
}

static int write_records(struct wctx *c)
{
	unsigned int page = ftc_writer_page_size(c->w);
	struct ftc_subbuf_layout l;
	int ret = 0;

	/* The pages have the header the file's header_page says, whatever kernel runs this. */
	ftc_subbuf_layout_ours(&l);
	ftc_subbuf_layout_parse(&l, header_page, sizeof(header_page) - 1);
	c->pagers = calloc((size_t)c->ncpus, sizeof(*c->pagers));
	if (!c->pagers)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < c->ncpus; i++)
		if (!(c->pagers[i] = ftc_perf_pager_new_layout(page, &l, TEXT_ID, to_writer, c)))
			return -1;
	for (size_t i = 0; i < c->d->nrecs && ret == 0; i++) {
		const struct imp_rec *r = &c->d->recs[i];

		c->cur = cpu_index(c, r->cpu);
		ret = put_rec(c, c->pagers[c->cur], r);
	}
	for (int i = 0; i < c->ncpus && ret == 0; i++) {
		c->cur = i;
		ret = ftc_perf_pager_flush(c->pagers[i]);
	}
	return ret;
}

static void wctx_free(struct wctx *c)
{
	if (c->pagers)
		for (int i = 0; i < c->ncpus; i++)
			ftc_perf_pager_free(c->pagers[i]);
	free(c->pagers);
	free(c->cpus);
	free(c->names.v);
}

int ftc_import_write(struct ftc_import *im, int d, const char *path, int version,
		     enum ftc_compression comp)
{
	struct wctx c = { .im = im };
	char **formats = NULL;
	int nformats = 0, ret = -1;
	const char *hdr;

	if (!im || d < 0 || d >= im->ndumps)
		return ftc_error(EINVAL, "the log has no dump %d", d + 1);
	c.d = &im->dumps[d];
	im->unresolved = 0;
	hdr = c.d->header ? c.d->header : "";
	c.w = ftc_writer_create(path, version, comp);
	if (!c.w)
		return -1;
	if (collect_cpus(&c) < 0 || event_formats(&c, &formats, &nformats) < 0 ||
	    set_meta(&c, formats, nformats) < 0 ||
	    ftc_writer_add_buffer_clock(c.w, NULL, c.d->non_ns ? "local global [counter]" :
					"[local] global counter", c.ncpus, c.cpus) < 0 ||
	    ftc_writer_add_option(c.w, FTC_IMPORT_OPTION, hdr, (uint32_t)strlen(hdr) + 1) < 0 ||
	    ftc_writer_start(c.w) < 0 || write_records(&c) < 0)
		goto out;
	ret = ftc_writer_finish(c.w);
out:
	if (ret < 0) {
		int err = errno;
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", ftc_strerror());
		ftc_writer_free(c.w);
		ftc_writer_unlink(path);
		ftc_error(err, "%s", msg);
	} else {
		ftc_writer_free(c.w);
	}
	for (int i = 0; i < nformats; i++)
		free(formats[i]);
	free(formats);
	wctx_free(&c);
	return ret;
}
