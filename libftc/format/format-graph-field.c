// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What both function_graph layouts print with (format-graph.c after the
 * events prefix, format-graph-kernel.c in the trace file's columns): a
 * field read within the record, a function's name, the duration column.
 */
#include <stdio.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "format.h"

bool ftc_graph_read_field(struct tep_format_field *fd, struct tep_record *rec,
			  unsigned long long *v)
{
	if (!fd || fd->offset + fd->size > rec->size)
		return false;
	return tep_read_number_field(fd, rec->data, v) == 0;
}

void ftc_graph_func(struct ftc_format *f, unsigned long long addr)
{
	const char *name = tep_find_function(f->r->tep, addr);

	if (name)
		trace_seq_puts(&f->seq, name);
	else
		trace_seq_printf(&f->seq, "0x%llx", addr);
}

/* The kernel's duration column: a mark for long calls, then "N.NNN us". */
void ftc_graph_duration(struct trace_seq *s, unsigned long long ns)
{
	static const struct { unsigned long long min; char mark; } marks[] = {
		{ 1000000000ULL, '$' }, { 100000000ULL, '@' }, { 10000000ULL, '*' },
		{ 1000000ULL, '#' }, { 100000ULL, '!' }, { 10000ULL, '+' },
	};
	char num[32];
	char mark = ' ';
	int len;

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].min) {
			mark = marks[i].mark;
			break;
		}
	len = snprintf(num, sizeof(num), "%llu", ns / 1000);
	/* At most 7 digits in all, as the kernel prints it. */
	if (len < 7) {
		char frac[4];
		int keep = 7 - len > 3 ? 3 : 7 - len;

		snprintf(frac, sizeof(frac), "%03llu", ns % 1000);
		len += snprintf(num + len, sizeof(num) - (size_t)len, ".%.*s", keep, frac);
	}
	trace_seq_printf(s, "%c %s us ", mark, num);
	for (int i = len; i < 8; i++)
		trace_seq_putc(s, ' ');
}
