// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A kernel address's function and a table by CPU for the exporters (see export-util.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-reader.h"
#include "export-util.h"
#include "reader.h"

const char *ftc_export_ksym(struct ftc_reader *r, uint64_t addr, char *hex)
{
	const char *name;

	if (r->kallsyms_state == 0)
		ftc_load_kallsyms(r);
	name = tep_find_function(r->tep, addr);
	if (name)
		return name;
	snprintf(hex, 24, "0x%" PRIx64, addr);
	return hex;
}

void *ftc_export_grow(void *table, int *n, int index, size_t size)
{
	char *t;

	if (index < *n)
		return table;
	t = realloc(table, (size_t)(index + 1) * size);
	if (!t) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	memset(t + (size_t)*n * size, 0, (size_t)(index + 1 - *n) * size);
	*n = index + 1;
	return t;
}
