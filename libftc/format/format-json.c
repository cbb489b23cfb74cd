// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One JSON object per record, schema in Documentation/report-json.md.
 * Field values are typed from the event format; every read is checked
 * against the record size (a field past the end is null).
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "format.h"

/* Bytes >= 0x80 become \u00XX so the output is valid JSON whatever the data. */
void ftc_json_str(struct trace_seq *s, const char *p, size_t max)
{
	trace_seq_putc(s, '"');
	for (size_t i = 0; i < max && p[i]; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '"' || c == '\\')
			trace_seq_printf(s, "\\%c", c);
		else if (c == '\n')
			trace_seq_puts(s, "\\n");
		else if (c == '\t')
			trace_seq_puts(s, "\\t");
		else if (c < 0x20 || c >= 0x7f)
			trace_seq_printf(s, "\\u%04x", c);
		else
			trace_seq_putc(s, (char)c);
	}
	trace_seq_putc(s, '"');
}

static void json_num(struct trace_seq *s, struct tep_handle *tep, const char *p, int size,
		     bool is_signed)
{
	unsigned long long v = tep_read_number(tep, p, size);

	if (!is_signed) {
		trace_seq_printf(s, "%llu", v);
		return;
	}
	switch (size) {
	case 1: trace_seq_printf(s, "%d", (int8_t)v); break;
	case 2: trace_seq_printf(s, "%d", (int16_t)v); break;
	case 4: trace_seq_printf(s, "%d", (int32_t)v); break;
	default: trace_seq_printf(s, "%lld", (long long)v); break;
	}
}

static void json_array(struct trace_seq *s, struct tep_handle *tep, const char *p, int len,
		       int elem, bool is_signed)
{
	trace_seq_putc(s, '[');
	for (int i = 0; elem > 0 && i + elem <= len; i += elem) {
		if (i)
			trace_seq_putc(s, ',');
		json_num(s, tep, p + i, elem, is_signed);
	}
	trace_seq_putc(s, ']');
}

static void json_field(struct ftc_format *f, struct tep_format_field *fd,
		       struct tep_record *rec)
{
	struct tep_handle *tep = f->r->tep;
	const char *data = rec->data;
	int off = fd->offset, len = fd->size;
	bool sgn = fd->flags & TEP_FIELD_IS_SIGNED;
	int elem = fd->elementsize > 0 && fd->elementsize <= 8 ? (int)fd->elementsize : 1;

	if (off < 0 || len < 0 || off + len > rec->size) {
		trace_seq_puts(&f->seq, "null");
		return;
	}
	/* A flexible array ("char buf[]", size 0) runs to the end of the record. */
	if (!len && (fd->flags & TEP_FIELD_IS_ARRAY) && !(fd->flags & TEP_FIELD_IS_DYNAMIC))
		len = rec->size - off;
	if (fd->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned int loc = (unsigned int)tep_read_number(tep, data + off, len < 4 ? len : 4);

		off = (int)(loc & 0xffff);
		len = (int)(loc >> 16);
		if (fd->flags & TEP_FIELD_IS_RELATIVE)
			off += fd->offset + fd->size;
		if (off + len > rec->size) {
			trace_seq_puts(&f->seq, "null");
			return;
		}
	}
	if (fd->flags & TEP_FIELD_IS_STRING)
		ftc_json_str(&f->seq, data + off, (size_t)len);
	else if (fd->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC))
		json_array(&f->seq, tep, data + off, len, elem, sgn);
	else if (len == 1 || len == 2 || len == 4 || len == 8)
		json_num(&f->seq, tep, data + off, len, sgn);
	else
		json_array(&f->seq, tep, data + off, len, 1, false);
}

static void json_head(struct ftc_format *f, const char *type,
		      const struct ftc_merge_record *mr, unsigned long long ts)
{
	trace_seq_printf(&f->seq, "{\"type\":\"%s\",\"ts\":%llu,\"cpu\":%d,\"instance\":", type,
			 ts, mr->cpu);
	ftc_json_str(&f->seq, f->r->buffers[mr->buffer].name, 4096);
}

void ftc_format_json_lost(struct ftc_format *f, const struct ftc_merge_record *mr)
{
	json_head(f, "lost", mr, mr->rec->ts);
	if (mr->missed > 0)
		trace_seq_printf(&f->seq, ",\"count\":%lld}\n", mr->missed);
	else
		trace_seq_puts(&f->seq, ",\"count\":null}\n");
}

void ftc_format_json_damaged(struct ftc_format *f, const struct ftc_merge_record *mr,
			     struct tep_event *ev, const char *why)
{
	json_head(f, "damaged", mr, mr->rec->ts);
	trace_seq_printf(&f->seq, ",\"offset\":%llu,\"system\":", mr->rec->offset);
	ftc_json_str(&f->seq, ev->system, 256);
	trace_seq_puts(&f->seq, ",\"event\":");
	ftc_json_str(&f->seq, ev->name, 256);
	trace_seq_puts(&f->seq, ",\"reason\":");
	ftc_json_str(&f->seq, why, 256);
	trace_seq_puts(&f->seq, "}\n");
}

int ftc_format_json(struct ftc_format *f, const struct ftc_merge_record *mr,
		    struct tep_record *rec, struct tep_event *ev)
{
	struct tep_handle *tep = f->r->tep;
	int pid = ftc_format_pid(f, rec, ev);
	const char *info;
	int len;

	json_head(f, "event", mr, rec->ts);
	trace_seq_printf(&f->seq, ",\"pid\":%d,\"comm\":", pid);
	ftc_json_str(&f->seq, ftc_format_comm(f, pid), 256);
	if (!ev) {
		trace_seq_printf(&f->seq, ",\"event\":null,\"id\":%d}\n", tep_data_type(tep, rec));
		return 0;
	}
	trace_seq_puts(&f->seq, ",\"system\":");
	ftc_json_str(&f->seq, ev->system, 256);
	trace_seq_puts(&f->seq, ",\"event\":");
	ftc_json_str(&f->seq, ev->name, 256);
	trace_seq_puts(&f->seq, ",\"flags\":");
	ftc_json_str(&f->seq, ftc_format_latency(f, rec, ev), 64);
	trace_seq_puts(&f->seq, ",\"fields\":{");
	for (struct tep_format_field *fd = ev->format.fields; fd; fd = fd->next) {
		if (fd != ev->format.fields)
			trace_seq_putc(&f->seq, ',');
		ftc_json_str(&f->seq, fd->name, 256);
		trace_seq_putc(&f->seq, ':');
		json_field(f, fd, rec);
	}
	/* Through the memo the text layout fills (the fuzzer's walks share it). */
	info = ftc_format_info_in(f, &f->tmp, false, rec, ev, &len);
	while (len && info[len - 1] == '\n')
		len--;
	trace_seq_puts(&f->seq, "},\"info\":");
	ftc_json_str(&f->seq, info, (size_t)len);
	trace_seq_puts(&f->seq, "}\n");
	return 0;
}
