// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ring buffer's own descriptions: the sub-buffer header layout from
 * events/header_page, and the per-CPU stats counters. See ringbuf.h.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ringbuf.h"

/* The length in commit keeps 27 bits, as readers do. */
#define COMMIT_MASK	((1ULL << 27) - 1)
#define MAX_HDR		64	/* a header larger than this is not one */

void ftc_subbuf_layout_long(struct ftc_subbuf_layout *l, unsigned int long_size,
			    bool big_endian)
{
	l->commit_off = 8;
	l->commit_size = long_size == 4 ? 4 : 8;
	l->data_off = 8 + l->commit_size;
	l->big_endian = big_endian;
}

void ftc_subbuf_layout_ours(struct ftc_subbuf_layout *l)
{
	ftc_subbuf_layout_long(l, sizeof(long), __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

/* "offset:" or "size:" in a line; -1 when absent. */
static long line_number(const char *line, const char *key)
{
	const char *p = strstr(line, key);
	char *end;
	long v;

	if (!p)
		return -1;
	v = strtol(p + strlen(key), &end, 10);
	return end == p + strlen(key) || v < 0 ? -1 : v;
}

/* The name declared by "field: TYPE NAME;" ("data" for "char data[]"). */
static bool line_names(const char *line, const char *name)
{
	const char *f = strstr(line, "field:"), *semi, *e, *b;
	size_t n = strlen(name);

	if (!f || !(semi = strchr(f, ';')))
		return false;
	e = semi;
	if (e > f && e[-1] == ']')
		while (e > f && *e != '[')
			e--;
	while (e > f && isspace((unsigned char)e[-1]))
		e--;
	b = e;
	while (b > f && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
		b--;
	return (size_t)(e - b) == n && !memcmp(b, name, n);
}

/* Offset and size of the named field, or -1. */
static int find_field(const char *text, size_t len, const char *name, long *off, long *size)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		char line[256];

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl ? nl + 1 : end;
		if (!line_names(line, name))
			continue;
		*off = line_number(line, "offset:");
		*size = line_number(line, "size:");
		return *off < 0 || *size < 0 ? -1 : 0;
	}
	return -1;
}

int ftc_subbuf_layout_parse(struct ftc_subbuf_layout *l, const char *text, size_t len)
{
	long ts_off, ts_size, c_off, c_size, d_off, d_size;

	if (!text || find_field(text, len, "timestamp", &ts_off, &ts_size) < 0 ||
	    find_field(text, len, "commit", &c_off, &c_size) < 0 ||
	    find_field(text, len, "data", &d_off, &d_size) < 0)
		return -1;
	/* What the decoder relies on: u64 stamp first, commit before the data. */
	if (ts_off != 0 || ts_size != 8 || (c_size != 4 && c_size != 8) || c_off < 8 ||
	    c_off + c_size > d_off || d_off > MAX_HDR)
		return -1;
	l->commit_off = (unsigned int)c_off;
	l->commit_size = (unsigned int)c_size;
	l->data_off = (unsigned int)d_off;
	return 0;
}

static uint64_t rd_uint(const unsigned char *p, unsigned int size, bool big_endian)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < size; i++)
		v |= (uint64_t)p[big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

int ftc_subbuf_decode(const struct ftc_subbuf_layout *l, const void *page, size_t size,
		      struct ftc_subbuf *sb)
{
	const unsigned char *p = page;
	uint64_t commit, need;

	memset(sb, 0, sizeof(*sb));
	if (size < l->data_off || l->commit_off + l->commit_size > l->data_off)
		return 0;
	sb->ts = rd_uint(p, 8, l->big_endian);
	commit = rd_uint(p + l->commit_off, l->commit_size, l->big_endian);
	sb->len = commit & COMMIT_MASK;
	sb->lost = commit & FTC_RB_MISSED_EVENTS;
	sb->lost_stored = commit & FTC_RB_MISSED_STORED;
	/* The kernel stores the count (an unsigned long) only where it fits. */
	need = l->data_off + sb->len + (sb->lost_stored ? l->commit_size : 0);
	if (need > size)
		return 0;
	if (sb->lost_stored)
		sb->missed = rd_uint(p + l->data_off + sb->len, l->commit_size, l->big_endian);
	return 1;
}

static void wr_uint(unsigned char *p, uint64_t v, unsigned int size, bool big_endian)
{
	for (unsigned int i = 0; i < size; i++)
		p[big_endian ? size - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

void ftc_subbuf_encode(const struct ftc_subbuf_layout *l, void *page,
		       const struct ftc_subbuf *sb)
{
	unsigned char *p = page;
	uint64_t commit = sb->len | (sb->lost ? FTC_RB_MISSED_EVENTS : 0) |
			  (sb->lost_stored ? FTC_RB_MISSED_STORED : 0);

	wr_uint(p, sb->ts, 8, l->big_endian);
	wr_uint(p + l->commit_off, commit, l->commit_size, l->big_endian);
	if (sb->lost_stored)
		wr_uint(p + l->data_off + sb->len, sb->missed, l->commit_size, l->big_endian);
}

static uint64_t stat_field(const char *text, const char *name)
{
	const char *p = strstr(text, name);

	return p ? strtoull(p + strlen(name), NULL, 10) : 0;
}

void ftc_cpu_counters_parse(struct ftc_cpu_counters *c, const char *stats)
{
	/* "entries" comes first, so every field we want follows a newline. */
	c->read = stat_field(stats, "\nread events: ");
	c->overrun = stat_field(stats, "\noverrun: ");
	c->dropped = stat_field(stats, "\ndropped events: ");
	c->ok = true;
}

static uint64_t grown(const struct ftc_cpu_counters *start, const struct ftc_cpu_counters *now,
		      uint64_t s, uint64_t n)
{
	return now->ok && start->ok && n >= s ? n - s : 0;
}

void ftc_cpu_counters_delta(const struct ftc_cpu_counters *start,
			    const struct ftc_cpu_counters *now,
			    uint64_t *events, uint64_t *lost)
{
	*events = grown(start, now, start->read, now->read);
	*lost = grown(start, now, start->overrun, now->overrun) +
		grown(start, now, start->dropped, now->dropped);
}
