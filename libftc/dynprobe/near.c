// SPDX-License-Identifier: LGPL-2.1-or-later
/* "Did you mean": the names nearest a mistyped one, by edit distance. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynprobe.h"

size_t ftc_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row, best;

	if (la > 200 || lb > 200)
		return SIZE_MAX;
	row = malloc((lb + 1) * sizeof(*row));
	if (!row)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], v = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			diag = up;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

/* Copies the name: kallsyms' names live in a line buffer that is reused. */
void ftc_near_consider(struct near_names *n, const char *want, const char *name)
{
	size_t d = ftc_edit_distance(want, name);

	for (int i = 0; i < n->count; i++)
		if (!strcmp(n->name[i], name))
			return;
	for (int i = 0; i < NEAR_MAX; i++) {
		if (i < n->count && d >= n->dist[i])
			continue;
		memmove(&n->name[i + 1], &n->name[i], (NEAR_MAX - 1 - i) * sizeof(n->name[0]));
		memmove(&n->dist[i + 1], &n->dist[i], (NEAR_MAX - 1 - i) * sizeof(n->dist[0]));
		snprintf(n->name[i], sizeof(n->name[i]), "%s", name);
		n->dist[i] = d;
		if (n->count < NEAR_MAX)
			n->count++;
		return;
	}
}

void ftc_near_format(const struct near_names *n, char *out, size_t size)
{
	*out = '\0';
	for (int i = 0; i < n->count; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? ", " : "", n->name[i]);
}
