/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc hist's parts: the trigger text built from the command line
 * (hist-spec.c, by libftc), the kernel's hist file read back
 * (hist-parse.c) and printed as tables (hist-table.c).
 */
#ifndef FTC_CMD_HIST_H
#define FTC_CMD_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define HIST_MAX_ITEMS 16	/* per list option; the kernel takes 3 keys, 2 sort keys */

/* The histogram as the command line asks for it. */
struct hist_spec {
	const char *system, *event;
	const char *keys[HIST_MAX_ITEMS];	/* FIELD[.TYPE], as typed */
	const char *vals[HIST_MAX_ITEMS];
	const char *sort[HIST_MAX_ITEMS];	/* NAME[.descending|.ascending] */
	int nkeys, nvals, nsort;
	unsigned long long size;		/* 0: the kernel's default */
	const char *filter;
};

/*
 * Splits a comma-separated option value into list (at most HIST_MAX_ITEMS
 * in all; the pieces point into value, which is modified). -1 with a
 * message through cmd_bad_value() when it is too long or has an empty item.
 */
int hist_spec_add(const char **list, int *n, char *value);

/*
 * Checks the names against the event's format and composes the trigger
 * (ftc_hist_compose): *start adds it, *pause pauses it. Returns 0, or -1
 * after printing why on stderr: 2 for a command-line mistake (a field the
 * event lacks, an unknown key type), 1 for any other failure, through
 * *status.
 */
int hist_spec_build(const struct hist_spec *s, char **start, char **pause, int *status);

/* One row of a histogram: the key texts, then the value texts. */
struct hist_row {
	char **keys;
	char **vals;
};

/* One "# event histogram" section of a hist file. */
struct hist_section {
	char *raw;		/* the section as the kernel printed it */
	char *info;		/* the trigger info: "hist:keys=...:size=2048 [active]" */
	char **key_names;	/* from keys=: "call_site.sym" */
	char **val_names;	/* from the entries: "hitcount", "bytes_req" */
	size_t nkeys, nvals;
	struct hist_row *rows;
	size_t nrows;
	unsigned long long hits, entries, dropped;
	bool totals;		/* the Totals lines were there */
	bool parsed;		/* the entries were understood; else only raw is set */
};

/* Splits a hist file into its sections and parses them (hist-parse.c). */
int hist_parse(const char *text, struct hist_section **out, size_t *n);
void hist_sections_free(struct hist_section *s, size_t n);

/* The trigger text without its " [active]"/" [paused]" state, in buf. */
void hist_info_stateless(const char *info, char *buf, size_t size);

/* Prints a section as a table with aligned columns, or raw when it could
 * not be parsed. title heads it ("# kmem:kmalloc"). (hist-table.c) */
void hist_print_table(FILE *f, const struct hist_section *s, const char *title);

/* The sum of the hitcount column; false when there is none. */
bool hist_hitcount_sum(const struct hist_section *s, unsigned long long *sum);

#endif
