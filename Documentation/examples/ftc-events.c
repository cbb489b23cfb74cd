// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc-events: how many of each event a trace.dat holds, read with libftc's
 * public API: the file opened by the reader (libftc-reader(3)), every CPU of
 * every buffer merged in timestamp order (libftc-merge(3)), one count per
 * event name (ftc_record_event_name(), libftc-format(3)), most frequent
 * first. <ftc.h> brings in those headers, and ftc_strerror(). It gives
 * the reader no parse guard (struct ftc_reader_opts), so a damaged event
 * format of a shape the reader does not know can still crash libtraceevent.
 *
 *	ftc-events trace.dat
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftc.h>

struct count {
	const char *name;	/* the reader's string: valid until it is closed */
	unsigned long long n;
};

static struct count *counts;
static size_t ncounts;

static int count_event(const char *name)
{
	struct count *c;

	for (size_t i = 0; i < ncounts; i++)
		if (!strcmp(counts[i].name, name)) {
			counts[i].n++;
			return 0;
		}
	c = realloc(counts, (ncounts + 1) * sizeof(*c));
	if (!c)
		return -1;
	counts = c;
	counts[ncounts++] = (struct count){ name, 1 };
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

int main(int argc, char **argv)
{
	struct ftc_merge_record mr;
	struct ftc_reader *r;
	struct ftc_merge *m = NULL;
	unsigned long long total = 0;
	const char *warnings;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	/* Event names need no libtraceevent plugins. */
	r = ftc_reader_open(argv[1], FTC_READER_NO_PLUGINS);
	if (r)
		m = ftc_merge_open(r, NULL);
	if (!m)
		goto fail;
	while ((ret = ftc_merge_next(m, &mr)) == 1) {
		if (count_event(ftc_record_event_name(r, mr.rec)) < 0) {
			ftc_error(ENOMEM, "out of memory");
			goto fail;
		}
		total++;
	}
	if (ret < 0)
		goto fail;
	qsort(counts, ncounts, sizeof(*counts), by_count);
	for (size_t i = 0; i < ncounts; i++)
		printf("%12llu  %s\n", counts[i].n, counts[i].name);
	printf("%12llu  total\n", total);
	warnings = ftc_reader_warnings(r);
	if (warnings)
		fprintf(stderr, "ftc-events: damaged file, counts are partial:\n%s", warnings);
	ret = warnings ? 1 : 0;
	goto out;
fail:
	fprintf(stderr, "ftc-events: %s\n", ftc_strerror());
	ret = 1;
out:
	free(counts);
	ftc_merge_close(m);
	ftc_reader_close(r);
	return ret;
}
