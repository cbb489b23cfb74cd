// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>

#include "record-self.h"

static char **tids_to_strings(const pid_t *tids, size_t n)
{
	char **v = calloc(n + 1, sizeof(*v));

	for (size_t i = 0; v && i < n; i++) {
		if (asprintf(&v[i], "%d", (int)tids[i]) < 0) {
			v[i] = NULL;
			self_tids_free(v, i);
			return NULL;
		}
	}
	return v;
}

char **self_tids(const struct tid_source *src, size_t nsrc, size_t *n)
{
	size_t most = 0, got = 0;
	pid_t *tids;
	char **v;

	for (size_t i = 0; i < nsrc; i++)
		most += src[i].most > 0 ? (size_t)src[i].most : 0;
	tids = calloc(most + 1, sizeof(*tids));
	if (!tids)
		return NULL;
	for (size_t i = 0; i < nsrc; i++)
		if (src[i].most > 0)
			got += (size_t)src[i].get(src[i].ctx, tids + got, src[i].most);
	v = tids_to_strings(tids, got);
	free(tids);
	*n = got;
	return v;
}

void self_tids_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}
