// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A kernel address's function for the exporters (see export-util.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include <traceevent/event-parse.h>

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
