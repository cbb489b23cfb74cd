// SPDX-License-Identifier: LGPL-2.1-or-later
/* The analysis passes' shared steps (pass-util.h). */
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc-merge.h"
#include "ftc-reader.h"
#include "pass-util.h"

bool ftc_pass_buffer(struct ftc_reader *r, const char *instance, bool ours,
		     const struct ftc_merge_record *mr, int *chosen, uint64_t *lost)
{
	const struct ftc_dat_buffer *b;

	if (*chosen < 0) {
		b = ftc_reader_buffer(r, mr->buffer);
		if (instance ? !b || strcmp(b->name, instance) : !ours)
			return false;
		*chosen = mr->buffer;
	}
	if (mr->buffer != *chosen)
		return false;
	if (mr->missed > 0)
		*lost += (uint64_t)mr->missed;
	return true;
}

uint64_t ftc_pass_field(const struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field((struct tep_format_field *)f, rec->data, &v);
	return v;
}

char ftc_pass_state_letter(long long state)
{
	long long s = state & 0xff;	/* above: the preemption mark (TASK_REPORT_MAX) */

	if (!s)
		return 'R';
	if (s & 0x02)
		return 'D';
	if (s & (0x01 | 0x80))	/* S, and I (idle kernel threads) */
		return 'S';
	return s & 0x04 ? 'T' : s & 0x08 ? 't' : s & 0x10 ? 'X' : s & 0x20 ? 'Z' : 'P';
}
