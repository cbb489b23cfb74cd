/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc funclatency --trees (funclat-trees.c): the function_graph call tree
 * of each call of the selected functions that took at least a minimum,
 * printed in the kernel's graph layout as its exit is read.
 */
#ifndef FTC_CMD_FUNCLAT_TREES_H
#define FTC_CMD_FUNCLAT_TREES_H

#include <stdint.h>

struct ftc_reader;
struct ftc_merge_record;
struct fl_trees;

/* glob: the functions (NULL: any outermost call); at most max trees printed. NULL: no memory. */
struct fl_trees *fl_trees_new(struct ftc_reader *r, const char *glob, uint64_t min_ns,
			      unsigned int max);
void fl_trees_free(struct fl_trees *t);
/* Every record in timestamp order; -1 when out of memory. */
int fl_trees_add(struct fl_trees *t, const struct ftc_merge_record *mr);
/* Trees printed, and slow calls past the maximum not printed. */
unsigned int fl_trees_printed(const struct fl_trees *t);
unsigned int fl_trees_skipped(const struct fl_trees *t);

#endif
