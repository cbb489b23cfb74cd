// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc funclatency --trees: the call tree of each slow call. A thread's
 * function_graph records from the entry of a selected function to its exit
 * at the same depth are copied aside; at the exit, a call as long as --min
 * is printed in the kernel's graph layout, any other dropped. Memory holds
 * the open calls' records only, at most TREE_MAX per call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fnmatch.h>

#include <traceevent/event-parse.h>

#include "funclat-trees.h"
#include "output.h"
#include "ftc.h"

#define TREE_MAX 65536		/* records kept of one call; the rest are counted */
#define NAME_CACHE 256

struct copy {
	uint64_t ts;
	int cpu, buffer, size;
	void *data;
};

struct tree {
	int pid, depth;
	uint64_t func;
	size_t n, cap, dropped;
	struct copy *v;
};

struct name_slot {
	uint64_t addr;
	bool known, match;
};

struct fl_trees {
	struct ftc_reader *r;
	struct tep_handle *tep;
	const char *glob;
	uint64_t min_ns;
	unsigned int max, printed, skipped;
	int entry_id, exit_id;
	struct tep_format_field *en_func, *en_depth, *ex_func, *ex_depth, *ex_call, *ex_ret;
	struct ftc_format *fmt;
	struct tree *open;	/* one per thread in a selected call */
	size_t nopen;
	struct name_slot names[NAME_CACHE];
};

static struct tep_format_field *field(struct tep_event *e, const char *name)
{
	return e ? tep_find_field(e, name) : NULL;
}

struct fl_trees *fl_trees_new(struct ftc_reader *r, const char *glob, uint64_t min_ns,
			      unsigned int max)
{
	struct fl_trees *t = calloc(1, sizeof(*t));
	struct tep_event *en = ftc_reader_find_event(r, "ftrace", "funcgraph_entry");
	struct tep_event *ex = ftc_reader_find_event(r, "ftrace", "funcgraph_exit");

	if (!t)
		return NULL;
	t->r = r;
	t->tep = ftc_reader_tep(r);
	t->glob = glob;
	t->min_ns = min_ns;
	t->max = max;
	t->entry_id = en ? en->id : -1;
	t->exit_id = ex ? ex->id : -1;
	t->en_func = field(en, "func");
	t->en_depth = field(en, "depth");
	t->ex_func = field(ex, "func");
	t->ex_depth = field(ex, "depth");
	t->ex_call = field(ex, "calltime");
	t->ex_ret = field(ex, "rettime");
	t->fmt = ftc_format_new(r, stdout, FTC_FMT_GRAPH_KERNEL | FTC_FMT_GRAPH_PROC |
				FTC_FMT_GRAPH_ABSTIME);
	if (!t->fmt) {
		free(t);
		return NULL;
	}
	return t;
}

static void tree_clear(struct tree *tr)
{
	for (size_t i = 0; i < tr->n; i++)
		free(tr->v[i].data);
	free(tr->v);
	tr->v = NULL;
	tr->n = tr->cap = tr->dropped = 0;
}

void fl_trees_free(struct fl_trees *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nopen; i++)
		tree_clear(&t->open[i]);
	free(t->open);
	ftc_format_free(t->fmt);
	free(t);
}

static uint64_t num(struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

static bool selected(struct fl_trees *t, uint64_t addr)
{
	struct name_slot *s = &t->names[(addr >> 4) % NAME_CACHE];
	const char *name;

	if (!s->known || s->addr != addr) {
		name = tep_find_function(t->tep, addr);
		s->addr = addr;
		s->known = true;
		s->match = name && (!t->glob || !fnmatch(t->glob, name, 0));
	}
	return s->match;
}

static struct tree *tree_of(struct fl_trees *t, int pid)
{
	for (size_t i = 0; i < t->nopen; i++)
		if (t->open[i].pid == pid)
			return &t->open[i];
	return NULL;
}

static int keep(struct tree *tr, const struct ftc_merge_record *mr)
{
	struct copy *c;

	if (tr->n == TREE_MAX) {
		tr->dropped++;
		return 0;
	}
	if (tr->n == tr->cap) {
		size_t cap = tr->cap ? tr->cap * 2 : 64;
		struct copy *v = realloc(tr->v, cap * sizeof(*v));

		if (!v)
			return -1;
		tr->v = v;
		tr->cap = cap;
	}
	c = &tr->v[tr->n];
	c->data = malloc((size_t)mr->rec->size);
	if (!c->data)
		return -1;
	memcpy(c->data, mr->rec->data, (size_t)mr->rec->size);
	c->ts = mr->rec->ts;
	c->cpu = mr->cpu;
	c->buffer = mr->buffer;
	c->size = mr->rec->size;
	tr->n++;
	return 0;
}

static int open_tree(struct fl_trees *t, const struct ftc_merge_record *mr, int pid)
{
	struct tree *v = realloc(t->open, (t->nopen + 1) * sizeof(*v));

	if (!v)
		return -1;
	t->open = v;
	v = &t->open[t->nopen++];
	memset(v, 0, sizeof(*v));
	v->pid = pid;
	v->func = num(t->en_func, mr->rec);
	v->depth = (int)num(t->en_depth, mr->rec);
	return keep(v, mr);
}

static void print_tree(struct fl_trees *t, struct tree *tr, uint64_t ns)
{
	const char *comm = tep_data_comm_from_pid(t->tep, tr->pid);

	printf("# %s in %s-%d: %.3f us, from %.6f%s\n", tep_find_function(t->tep, tr->func),
	       comm ? comm : "<...>", tr->pid, (double)ns / 1e3, (double)tr->v[0].ts / 1e9,
	       tr->dropped ? " (cut: too many records)" : "");
	for (size_t i = 0; i < tr->n && !cmd_output_failed(); i++) {
		struct tep_record rec = { .ts = tr->v[i].ts, .size = tr->v[i].size,
					  .data = tr->v[i].data, .cpu = tr->v[i].cpu };
		struct ftc_merge_record mr = { .rec = &rec, .buffer = tr->v[i].buffer,
					       .cpu = tr->v[i].cpu };

		ftc_format_record(t->fmt, &mr);
	}
	ftc_format_flush(t->fmt);
	fflush(stdout);
	printf("\n");
}

/* The exit that closes tr: printed when slow enough, then dropped. */
static void close_tree(struct fl_trees *t, struct tree *tr, const struct tep_record *rec)
{
	uint64_t t0 = num(t->ex_call, rec), t1 = num(t->ex_ret, rec);
	uint64_t ns = t1 > t0 ? t1 - t0 : 0;

	if (ns >= t->min_ns) {
		if (t->printed < t->max) {
			t->printed++;
			print_tree(t, tr, ns);
		} else {
			t->skipped++;
		}
	}
	tree_clear(tr);
	*tr = t->open[--t->nopen];
}

int fl_trees_add(struct fl_trees *t, const struct ftc_merge_record *mr)
{
	int type = tep_data_type(t->tep, mr->rec), pid;
	struct tree *tr;

	if (type < 0 || (type != t->entry_id && type != t->exit_id))
		return 0;
	pid = tep_data_pid(t->tep, mr->rec);
	tr = tree_of(t, pid);
	if (!tr) {
		if (type == t->entry_id && selected(t, num(t->en_func, mr->rec)))
			return open_tree(t, mr, pid);
		return 0;
	}
	if (keep(tr, mr) < 0)
		return -1;
	if (type == t->exit_id && num(t->ex_func, mr->rec) == tr->func &&
	    (int)num(t->ex_depth, mr->rec) == tr->depth)
		close_tree(t, tr, mr->rec);
	return 0;
}

unsigned int fl_trees_printed(const struct fl_trees *t)
{
	return t->printed;
}

unsigned int fl_trees_skipped(const struct fl_trees *t)
{
	return t->skipped;
}
