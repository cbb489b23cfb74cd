/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --call-graph MODE, as perf record takes it, for ftc profile and ftc record --sample. */
#ifndef FTC_CMD_CALL_GRAPH_H
#define FTC_CMD_CALL_GRAPH_H

/* perf's default: bytes of user stack a DWARF sample copies. */
#define CALL_GRAPH_DWARF_STACK 8192

/*
 * Parses MODE from an option handler: "fp" sets *dwarf_stack to 0,
 * "dwarf" to 8192, "dwarf,SIZE" to SIZE (a multiple of 8 up to 65528).
 * Returns 0, or -1 after cmd_bad_value() named the option and the value.
 */
int cmd_parse_call_graph(const char *mode, unsigned int *dwarf_stack);

#endif
