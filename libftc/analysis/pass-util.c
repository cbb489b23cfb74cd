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

bool ftc_pass_holds(const struct tep_format_field *f, const struct tep_record *rec)
{
	return f && f->offset >= 0 && f->size > 0 && rec->size >= 0 &&
	       (long long)f->offset + f->size <= rec->size;
}

uint64_t ftc_pass_field(const struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	if (ftc_pass_holds(f, rec))
		tep_read_number_field((struct tep_format_field *)f, rec->data, &v);
	return v;
}

int64_t ftc_pass_num(const struct tep_format_field *f, const struct tep_record *rec)
{
	uint64_t v = ftc_pass_field(f, rec);

	if (f && (f->flags & TEP_FIELD_IS_SIGNED) && f->size > 0 && f->size < 8) {
		unsigned int shift = 64 - 8 * (unsigned int)f->size;

		return (int64_t)(v << shift) >> shift;
	}
	return (int64_t)v;
}

long long ftc_pass_int(const struct tep_format_field *f, const struct tep_record *rec)
{
	uint64_t v = ftc_pass_field(f, rec);

	return f && f->size == 4 ? (int)(uint32_t)v : (long long)v;
}

bool ftc_pass_comm(const struct tep_format_field *f, const struct tep_record *rec, char *buf)
{
	size_t n;

	if (!ftc_pass_holds(f, rec))
		return false;
	n = f->size < 16 ? (size_t)f->size : 16;
	memcpy(buf, (const char *)rec->data + f->offset, n);
	buf[n] = '\0';
	return true;
}

const char *ftc_pass_bytes(const struct tep_format_field *f, const struct tep_record *rec,
			   size_t *len)
{
	unsigned int size = (unsigned int)rec->size, off, n;
	uint64_t loc;

	if (!f || f->offset < 0 || rec->size < 0)
		return NULL;
	off = (unsigned int)f->offset;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		/* a u32: the length above, the offset below (__rel_loc: from the field's end) */
		if (f->size != 4 || !ftc_pass_holds(f, rec))
			return NULL;
		loc = ftc_pass_field(f, rec);
		n = (unsigned int)(loc >> 16 & 0xffff);
		off = (unsigned int)(loc & 0xffff) + ((f->flags & TEP_FIELD_IS_RELATIVE) ? off + 4 : 0);
	} else {
		n = f->size ? (unsigned int)f->size : (off < size ? size - off : 0);
	}
	if (off > size || n > size - off)
		return NULL;
	*len = n;
	return (const char *)rec->data + off;
}

const char *ftc_pass_str(const struct tep_format_field *f, const struct tep_record *rec,
			 size_t *len)
{
	const char *s = ftc_pass_bytes(f, rec, len);

	if (s)
		*len = strnlen(s, *len);
	return s;
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
