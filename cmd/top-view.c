// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc top's views: each turns one table of counts into rows with its
 * columns, sorted by the chosen column, and formats them as text lines of
 * a given width; the screen and --batch print the same lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ftc-symbols.h"
#include "top.h"

const char *const top_view_names[TOP_NVIEWS] = {
	"event", "task", "cpu", "syscall", "func", "ipc",
};

static const struct top_col event_cols[] = {
	{ "EVENT", 24, TOP_TEXT }, { "COUNT", 12, TOP_NUM }, { "RATE/s", 10, TOP_NUM },
	{ "%", 7, TOP_CENTI },
};
static const struct top_col task_cols[] = {
	{ "PID", 7, TOP_NUM }, { "COMM", 16, TOP_TEXT }, { "EVENTS", 11, TOP_NUM },
	{ "RATE/s", 10, TOP_NUM }, { "SYSCALLS", 11, TOP_NUM }, { "SWITCHES", 9, TOP_NUM },
	{ "RUN-ms", 9, TOP_NUM },
};
static const struct top_col cpu_cols[] = {
	{ "CPU", 4, TOP_NUM }, { "EVENTS", 11, TOP_NUM }, { "RATE/s", 10, TOP_NUM },
	{ "SYSCALLS", 11, TOP_NUM }, { "IRQS", 9, TOP_NUM }, { "SWITCHES", 9, TOP_NUM },
	{ "LOST", 9, TOP_NUM },
};
static const struct top_col syscall_cols[] = {
	{ "NR", 4, TOP_NUM }, { "SYSCALL", 20, TOP_TEXT }, { "COUNT", 12, TOP_NUM },
	{ "RATE/s", 10, TOP_NUM },
};
static const struct top_col func_cols[] = {
	{ "FUNCTION", 32, TOP_TEXT }, { "COUNT", 12, TOP_NUM }, { "RATE/s", 10, TOP_NUM },
};
static const struct top_col perf_cols[] = {
	{ "PID", 7, TOP_NUM }, { "COMM", 16, TOP_TEXT }, { "CYCLES", 15, TOP_NUM },
	{ "INSTRUCTIONS", 15, TOP_NUM }, { "IPC", 15, TOP_CENTI },
};

static const struct {
	const struct top_col *cols;
	int n;
} views[TOP_NVIEWS] = {
	{ event_cols, 4 }, { task_cols, 7 }, { cpu_cols, 7 },
	{ syscall_cols, 4 }, { func_cols, 3 }, { perf_cols, 5 },
};

int top_view_parse(const char *name)
{
	int v;

	for (v = 0; v < TOP_NVIEWS; v++)
		if (!strcasecmp(name, top_view_names[v]))
			return v;
	return -1;
}

int top_view_ncols(enum top_view v)
{
	return views[v].n;
}

int top_view_col(enum top_view v, const char *name)
{
	int c;

	for (c = 0; c < views[v].n; c++)
		if (!strcasecmp(name, views[v].cols[c].title))
			return c;
	return -1;
}

static const char *keep(struct top_table *t, char *s)
{
	char **o = realloc(t->owned, (t->nowned + 1) * sizeof(*o));

	if (!o || !s) {
		free(s);
		if (o)
			t->owned = o;
		return "?";
	}
	t->owned = o;
	o[t->nowned++] = s;
	return s;
}

static const char *func_name(struct top_table *t, struct top_model *m, uint64_t ip)
{
	uint64_t off = 0;
	const char *name = NULL;
	char *s;

	if (!m->syms && (m->syms = ftc_symbols_new()) != NULL)
		ftc_symbols_load_kallsyms(m->syms, "/proc/kallsyms");
	if (m->syms)
		name = ftc_symbols_kernel(m->syms, ip, &off);
	/*
	 * The function tracer's ip is its call to __fentry__, 4 bytes into the
	 * function where the kernel has IBT (ENDBR first: 6.12's vfs_read+0x4):
	 * named without the offset, as the kernel's %ps and trace-cmd name it.
	 */
	if (name)
		return name;
	if (asprintf(&s, "0x%llx", (unsigned long long)ip) >= 0)
		return keep(t, s);
	return "?";
}

static const char *syscall_name(struct top_table *t, uint64_t nr)
{
	const char *name = ftc_syscall_host_name((long)nr);
	char *s;

	if (name)
		return name;
	return asprintf(&s, "sys_%llu", (unsigned long long)nr) < 0 ? "?" : keep(t, s);
}

/* Fills row r from entry e for view v. */
static void fill(struct top_table *t, struct top_model *m, enum top_view v,
		 const struct top_entry *e, struct top_row *r, const struct top_perf *perf)
{
	uint64_t cyc, ins;

	switch (v) {
	case TOP_VIEW_EVENT:
		r->text[0] = e->name ? e->name : "?";
		r->num[1] = e->count;
		r->num[2] = e->rate;
		r->num[3] = m->total ? e->count * 10000 / m->total : 0;
		break;
	case TOP_VIEW_TASK:
	case TOP_VIEW_PERF:
		r->num[0] = e->key;
		r->text[1] = top_model_comm(m, e->key);
		if (v == TOP_VIEW_PERF) {
			bool none = !perf || top_perf_get(perf, e->key, &cyc, &ins) < 0;

			r->num[2] = none ? 0 : cyc;
			r->num[3] = none ? 0 : ins;
			r->num[4] = none || !cyc ? 0 : ins * 100 / cyc;
			r->unsupported[2] = r->unsupported[3] = r->unsupported[4] =
				!perf || !top_perf_supported(perf);
			break;
		}
		r->num[2] = e->count;
		r->num[3] = e->rate;
		r->num[4] = e->v[0];
		r->num[5] = e->v[1];
		r->num[6] = e->v[2] / 1000000;
		break;
	case TOP_VIEW_CPU:
		r->num[0] = e->key;
		r->num[1] = e->count;
		r->num[2] = e->rate;
		r->num[3] = e->v[0];
		r->num[4] = e->v[1];
		r->num[5] = e->v[2];
		r->num[6] = e->v[3];
		break;
	case TOP_VIEW_SYSCALL:
		r->num[0] = e->key;
		r->text[1] = syscall_name(t, e->key);
		r->num[2] = e->count;
		r->num[3] = e->rate;
		break;
	case TOP_VIEW_FUNC:
		r->text[0] = func_name(t, m, e->key);
		r->num[1] = e->count;
		r->num[2] = e->rate;
		break;
	default:
		break;
	}
}

static int sort_col;
static bool sort_asc;
static const struct top_col *sort_cols;

static int row_cmp(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;
	int c = sort_col, r;

	if (sort_cols[c].fmt == TOP_TEXT)
		r = strcmp(x->text[c] ? x->text[c] : "", y->text[c] ? y->text[c] : "");
	else
		r = x->num[c] < y->num[c] ? -1 : x->num[c] > y->num[c];
	if (!r)	/* ties in a stable order, so rows do not jump between refreshes */
		r = x->num[TOP_MAX_COLS - 1] < y->num[TOP_MAX_COLS - 1] ? -1 : 1;
	return sort_asc ? r : -r;
}

/* The task view's rows for the perf view: the busiest tasks. */
static enum top_view source_map(enum top_view v)
{
	return v == TOP_VIEW_PERF ? TOP_VIEW_TASK : v;
}

int top_table_build(struct top_table *t, struct top_model *m, const struct top_ui *ui,
		    const struct top_perf *perf)
{
	enum top_view v = ui->view;
	const struct top_map *map = &m->map[source_map(v)];
	size_t i, n = 0;

	memset(t, 0, sizeof(*t));
	t->cols = views[v].cols;
	t->ncols = views[v].n;
	t->rows = calloc(map->n ? map->n : 1, sizeof(*t->rows));
	if (!t->rows)
		return -1;
	for (i = 0; i < map->cap; i++) {
		struct top_row *r = &t->rows[n];

		if (!map->e[i].used)
			continue;
		fill(t, m, v, &map->e[i], r, perf);
		r->num[TOP_MAX_COLS - 1] = map->e[i].key;	/* the tie-breaker */
		n++;
	}
	t->nrows = n;
	sort_col = ui->sort_col[v] < t->ncols ? ui->sort_col[v] : 0;
	sort_asc = ui->sort_asc[v];
	sort_cols = t->cols;
	qsort(t->rows, n, sizeof(*t->rows), row_cmp);
	return 0;
}

void top_table_free(struct top_table *t)
{
	size_t i;

	for (i = 0; i < t->nowned; i++)
		free(t->owned[i]);
	free(t->owned);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

/* The widths: every column its minimum, the first text column the rest. */
static void widths(const struct top_table *t, int width, int *w)
{
	int c, used = 0, text = -1;

	for (c = 0; c < t->ncols; c++) {
		w[c] = t->cols[c].width;
		used += w[c] + (c ? 1 : 0);
		if (text < 0 && t->cols[c].fmt == TOP_TEXT)
			text = c;
	}
	if (text >= 0 && width > used)
		w[text] += width - used;
}

static void cell(const struct top_table *t, const struct top_row *row, int c, char *buf,
		 size_t size)
{
	if (!row)
		snprintf(buf, size, "%s", t->cols[c].title);
	else if (row->unsupported[c])
		snprintf(buf, size, "<not supported>");
	else if (t->cols[c].fmt == TOP_TEXT)
		snprintf(buf, size, "%s", row->text[c] ? row->text[c] : "");
	else if (t->cols[c].fmt == TOP_CENTI)
		snprintf(buf, size, "%llu.%02llu", (unsigned long long)row->num[c] / 100,
			 (unsigned long long)row->num[c] % 100);
	else
		snprintf(buf, size, "%llu", (unsigned long long)row->num[c]);
}

void top_table_line(const struct top_table *t, const struct top_row *row, int width,
		    int sort_c, char *buf, size_t size)
{
	int w[TOP_MAX_COLS], c;
	size_t used = 0;

	widths(t, width, w);
	buf[0] = 0;
	for (c = 0; c < t->ncols && used + 1 < size; c++) {
		char txt[256], mark[260];
		int n;

		cell(t, row, c, txt, sizeof(txt));
		/* the sort column's title wears a star */
		snprintf(mark, sizeof(mark), "%s%s", txt, !row && c == sort_c ? "*" : "");
		if (t->cols[c].fmt == TOP_TEXT)
			n = snprintf(buf + used, size - used, "%s%-*.*s", c ? " " : "", w[c], w[c],
				     mark);
		else
			n = snprintf(buf + used, size - used, "%s%*s", c ? " " : "", w[c], mark);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	if (used >= size)
		used = size - 1;
	while (used && buf[used - 1] == ' ')	/* no trailing blanks */
		buf[--used] = 0;
	if (width > 0 && (size_t)width < used)
		buf[width] = 0;
}

static void fmt_count(char *buf, size_t size, uint64_t n)
{
	snprintf(buf, size, "%llu", (unsigned long long)n);
}

int top_header(const struct top_model *m, const struct top_ui *ui, const struct top_stats *s,
	       char lines[][256], int max)
{
	char total[32], rate[32], lost[32];
	int n = 0;

	fmt_count(total, sizeof(total), m->total);
	fmt_count(rate, sizeof(rate), m->total_rate);
	fmt_count(lost, sizeof(lost), m->lost);
	if (n < max)
		snprintf(lines[n++], 256,
			 "ftc top - %s%s  events: %s  rate: %s/s  lost: %s  ftc CPU: %.1f%%  "
			 "%.0fs", s->instance ? "instance " : "top level",
			 s->instance ? s->instance : "", total, rate, lost, s->cpu_pct,
			 s->elapsed);
	if (n < max)
		snprintf(lines[n++], 256, "view: %s (%s)  sort: %s %s  filter: %s%s  delay: %gs%s",
			 top_view_names[ui->view],
			 ui->source[ui->view] ? ui->source[ui->view] : "ring buffer",
			 views[ui->view].cols[ui->sort_col[ui->view]].title,
			 ui->sort_asc[ui->view] ? "ascending" : "descending",
			 m->filter.pid >= 0 ? "pid " : m->filter.comm[0] ? "comm " : "none",
			 m->filter.pid >= 0 ? (snprintf(rate, sizeof(rate), "%ld", m->filter.pid), rate)
					    : m->filter.comm,
			 ui->delay, ui->paused ? "  [paused]" : "");
	if (n < max && ui->why[ui->view][0])
		snprintf(lines[n++], 256, "%s", ui->why[ui->view]);
	if (n < max && ui->note[0])
		snprintf(lines[n++], 256, "%s", ui->note);
	return n;
}

void top_print_batch(FILE *f, struct top_model *m, const struct top_ui *ui,
		     const struct top_stats *s, const struct top_perf *perf, int width)
{
	char lines[4][256], buf[1024];
	struct top_table t;
	int n = top_header(m, ui, s, lines, 4), i;
	size_t r;

	for (i = 0; i < n; i++)
		fprintf(f, "%s\n", lines[i]);
	if (top_table_build(&t, m, ui, perf) < 0)
		return;
	fputc('\n', f);
	top_table_line(&t, NULL, width, ui->sort_col[ui->view], buf, sizeof(buf));
	fprintf(f, "%s\n", buf);
	for (r = 0; r < t.nrows && (!ui->entries || r < (size_t)ui->entries); r++) {
		top_table_line(&t, &t.rows[r], width, -1, buf, sizeof(buf));
		fprintf(f, "%s\n", buf);
	}
	fputc('\n', f);
	fflush(f);
	top_table_free(&t);
}
