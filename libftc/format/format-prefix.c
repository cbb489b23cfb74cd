// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A record's line prefix, "[inst: ]COMM-PID [CPU] flags TIMESTAMP", and
 * the caches it is made from (comms, latency columns, common field
 * offsets): what every layout (format.c, format-graph*.c, format-json.c)
 * shares, below them.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "format.h"
#include "merge.h"

static unsigned long long rounded_usecs(unsigned long long ts)
{
	return (ts + 500) / 1000;
}

void ftc_format_time(struct ftc_format *f, unsigned long long ts)
{
	unsigned long long us = rounded_usecs(ts);

	if (f->flags & FTC_FMT_NS)
		trace_seq_printf(&f->seq, "%5llu.%09llu", ts / 1000000000ULL,
				 ts % 1000000000ULL);
	else
		trace_seq_printf(&f->seq, "%5llu.%06llu", us / 1000000ULL, us % 1000000ULL);
}

const char *ftc_format_comm(struct ftc_format *f, int pid)
{
	unsigned int k = (unsigned int)pid & 1023;

	/* tep looks comms up with a bsearch; a trace has few tasks. */
	if (f->comm_cache[k].comm && f->comm_cache[k].pid == pid &&
	    f->comm_cache[k].gen == f->comm_gen)
		return f->comm_cache[k].comm;
	f->comm_cache[k].pid = pid;
	f->comm_cache[k].gen = f->comm_gen;
	f->comm_cache[k].comm = tep_data_comm_from_pid(f->r->tep, pid);
	return f->comm_cache[k].comm;
}

static void find_common_offsets(struct ftc_format *f, struct tep_event *ev)
{
	struct tep_format_field *fl = tep_find_common_field(ev, "common_flags");
	struct tep_format_field *pc = tep_find_common_field(ev, "common_preempt_count");
	struct tep_format_field *pid = tep_find_common_field(ev, "common_pid");

	f->flags_off = fl && fl->size == 1 ? fl->offset : -2;
	f->preempt_off = pc && pc->size == 1 ? pc->offset : -2;
	f->pid_off = pid && pid->size == 4 && ftc_reader_host_order(f->r) ?
		     pid->offset : -2;
}

/* The record's pid, read in place when the file's byte order is ours. */
int ftc_format_pid(struct ftc_format *f, struct tep_record *rec, struct tep_event *ev)
{
	int32_t pid;

	if (f->pid_off == -1 && ev)
		find_common_offsets(f, ev);
	if (f->pid_off < 0 || f->pid_off + 4 > rec->size)
		return tep_data_pid(f->r->tep, rec);
	memcpy(&pid, (char *)rec->data + f->pid_off, sizeof(pid));
	return pid;
}

/* The latency columns depend only on the flags and preempt-count bytes. */
const char *ftc_format_latency(struct ftc_format *f, struct tep_record *rec,
			       struct tep_event *ev)
{
	const unsigned char *d = rec->data;
	unsigned int k;
	int key;

	if (f->flags_off == -1 && ev)
		find_common_offsets(f, ev);
	if (f->flags_off < 0 || f->preempt_off < 0 || rec->size < 8) {
		key = -1;
		k = 0;
	} else {
		key = d[f->flags_off] << 8 | d[f->preempt_off];
		k = (unsigned int)(key ^ (key >> 6)) & 1023;
		if (f->lat_cache[k].key == key + 1)
			return f->lat_cache[k].text;
	}
	trace_seq_reset(&f->tmp);
	tep_print_event(f->r->tep, &f->tmp, rec, "%s", TEP_PRINT_LATENCY);
	trace_seq_terminate(&f->tmp);
	snprintf(f->lat_cache[k].text, sizeof(f->lat_cache[k].text), "%s", f->tmp.buffer);
	f->lat_cache[k].key = key >= 0 ? key + 1 : 0;
	return f->lat_cache[k].text;
}

static char *put_uint(char *p, unsigned long long v, int width, char pad)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (; width > n; width--)
		*p++ = pad;
	while (n)
		*p++ = tmp[--n];
	return p;
}


/* "[inst: ]COMM-PID [CPU] flags TIMESTAMP" into dst (room: name + 128). */
size_t ftc_format_prefix_put(struct ftc_format *f, const struct ftc_merge_record *mr,
			     struct tep_record *rec, struct tep_event *ev, char *dst)
{
	const char *bname = f->r->buffers[mr->buffer].name;
	int pid = ftc_format_pid(f, rec, ev);
	const char *comm = ftc_format_comm(f, pid);
	const char *lat = ftc_format_latency(f, rec, ev);
	size_t clen = strlen(comm), llen = strlen(lat);
	char *p = dst, *start;

	if ((f->flags & FTC_FMT_INSTANCE) && *bname) {
		size_t n = strlen(bname);

		memcpy(p, bname, n);
		p += n;
		*p++ = ':';
		*p++ = ' ';
	}
	if (clen > 40)
		clen = 40;
	for (size_t i = clen; i < 16; i++)
		*p++ = ' ';
	memcpy(p, comm, clen);
	p += clen;
	*p++ = '-';
	if (pid < 0)
		*p++ = '-';
	start = p;
	/* A damaged record's pid can be INT_MIN, which -pid cannot hold. */
	p = put_uint(p, pid < 0 ? 0U - (unsigned int)pid : (unsigned int)pid, 0, ' ');
	while (p - start < 7)
		*p++ = ' ';
	memcpy(p, " [", 2);
	p = put_uint(p + 2, (unsigned int)mr->cpu, 3, '0');
	memcpy(p, "] ", 2);
	p += 2;
	if (llen > 11)
		llen = 11;
	memcpy(p, lat, llen);
	p += llen;
	*p++ = ' ';
	if (f->flags & FTC_FMT_NS) {
		p = put_uint(p, rec->ts / 1000000000ULL, 5, ' ');
		*p++ = '.';
		p = put_uint(p, rec->ts % 1000000000ULL, 9, '0');
	} else {
		unsigned long long us = rounded_usecs(rec->ts);

		p = put_uint(p, us / 1000000ULL, 5, ' ');
		*p++ = '.';
		p = put_uint(p, us % 1000000ULL, 6, '0');
	}
	return (size_t)(p - dst);
}

size_t ftc_format_prefix_room(struct ftc_format *f, const struct ftc_merge_record *mr)
{
	return strlen(f->r->buffers[mr->buffer].name) + 128;
}

void ftc_format_prefix(struct ftc_format *f, const struct ftc_merge_record *mr,
		       struct tep_record *rec, struct tep_event *ev)
{
	char *buf = malloc(ftc_format_prefix_room(f, mr));
	size_t n;

	if (!buf)
		return;
	n = ftc_format_prefix_put(f, mr, rec, ev, buf);
	buf[n] = '\0';
	trace_seq_puts(&f->seq, buf);
	free(buf);
}
