// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --call-graph MODE: fp takes the chains the kernel walks by frame
 * pointers; dwarf copies each sample's user registers and SIZE bytes of
 * its stack and unwinds them with the files' call frame information, for
 * code built without frame pointers (perf record's modes, same syntax).
 */
#include <string.h>

#include "call-graph.h"
#include "options.h"

#define STACK_MAX 65528		/* the kernel's bound: a sample record is at most 64 KiB */

int cmd_parse_call_graph(const char *mode, unsigned int *dwarf_stack)
{
	unsigned long long v;

	if (!strcmp(mode, "fp")) {
		*dwarf_stack = 0;
		return 0;
	}
	if (!strcmp(mode, "dwarf")) {
		*dwarf_stack = CALL_GRAPH_DWARF_STACK;
		return 0;
	}
	if (strncmp(mode, "dwarf,", 6))
		return cmd_bad_value("not a call-graph mode: give fp, dwarf or dwarf,SIZE");
	if (cmd_parse_u64(mode + 6, &v) < 0 || !v || v % 8 || v > STACK_MAX)
		return cmd_bad_value("not a stack size after 'dwarf,': give the bytes of user "
				     "stack per sample, a multiple of 8 from 8 to %d (default %d)",
				     STACK_MAX, CALL_GRAPH_DWARF_STACK);
	*dwarf_stack = (unsigned int)v;
	return 0;
}
