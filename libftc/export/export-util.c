// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading a record's fields for the exporters (see export-util.h): at
 * their offsets, never formatted.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc-reader.h"
#include "export-util.h"
#include "reader.h"

int64_t ftc_export_num(const struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	if (!f || (unsigned int)f->offset + (unsigned int)f->size > (unsigned int)rec->size ||
	    tep_read_number_field((struct tep_format_field *)f, rec->data, &v) < 0)
		return 0;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size > 0 && f->size < 8) {
		unsigned int shift = 64 - 8 * (unsigned int)f->size;

		return (int64_t)(v << shift) >> shift;
	}
	return (int64_t)v;
}

const char *ftc_export_bytes(const struct tep_format_field *f, const struct tep_record *rec,
			     size_t *len)
{
	unsigned int size = (unsigned int)rec->size, off, n;
	uint32_t loc;

	if (!f)
		return NULL;
	off = (unsigned int)f->offset;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (off + 4 > size)
			return NULL;
		memcpy(&loc, (const char *)rec->data + off, 4);
		n = loc >> 16;
		off = (loc & 0xffff) + ((f->flags & TEP_FIELD_IS_RELATIVE) ? off + 4 : 0);
	} else {
		n = f->size ? (unsigned int)f->size : (off < size ? size - off : 0);
	}
	if (off > size || n > size - off)
		return NULL;
	*len = n;
	return (const char *)rec->data + off;
}

const char *ftc_export_str(const struct tep_format_field *f, const struct tep_record *rec,
			   size_t *len)
{
	const char *s = ftc_export_bytes(f, rec, len);

	if (s)
		*len = strnlen(s, *len);
	return s;
}

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
