// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What every part of the reader reads with, below them all: numbers in
 * the file's byte order, bounded reads of the file (ftc_pread_all) and
 * cursors over a block (ftc_cur_*), the warnings a damaged file gives,
 * and the options' text.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <byteswap.h>

#include "ftc.h"
#include "reader.h"

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

uint16_t ftc_rd16(struct ftc_reader *r, const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return r->big_endian != host_big_endian() ? bswap_16(v) : v;
}

uint32_t ftc_rd32(struct ftc_reader *r, const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return r->big_endian != host_big_endian() ? bswap_32(v) : v;
}

uint64_t ftc_rd64(struct ftc_reader *r, const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return r->big_endian != host_big_endian() ? bswap_64(v) : v;
}

void ftc_reader_warn(struct ftc_reader *r, const char *fmt, ...)
{
	char line[512];
	size_t n;
	char *w;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = strlen(line);
	/* A damaged file could warn per page: keep the first few kilobytes. */
	if (r->warnings_len + n + 2 > 16384)
		return;
	w = realloc(r->warnings, r->warnings_len + n + 2);
	if (!w)
		return;
	memcpy(w + r->warnings_len, line, n);
	w[r->warnings_len + n] = '\n';
	w[r->warnings_len + n + 1] = '\0';
	r->warnings = w;
	r->warnings_len += n + 1;
}

int ftc_pread_all(struct ftc_reader *r, void *dst, size_t n, uint64_t off, const char *what)
{
	size_t done = 0;

	if (off > r->file_size || n > r->file_size - off) {
		r->short_read = true;
		return ftc_error(EINVAL, "%s: %s at offset %llu: needs %zu bytes but the file "
				 "ends at %llu (truncated file?)", r->path, what,
				 (unsigned long long)off, n, (unsigned long long)r->file_size);
	}
	if (r->mem) {
		memcpy(dst, r->mem + off, n);
		return 0;
	}
	while (done < n) {
		ssize_t got = pread(r->fd, (char *)dst + done, n - done, (off_t)(off + done));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return ftc_error(got ? errno : EIO, "%s: reading %s at offset %llu: %s",
					 r->path, what, (unsigned long long)(off + done),
					 got ? strerror(errno) : "unexpected end of file");
		done += (size_t)got;
	}
	return 0;
}

#define CACHE_SIZE (64 * 1024)

static int cached_read(struct ftc_reader *r, void *dst, size_t n, uint64_t off,
		       const char *what)
{
	size_t len;

	if (n > CACHE_SIZE / 2)
		return ftc_pread_all(r, dst, n, off, what);
	if (!r->cache || off < r->cache_off || off + n > r->cache_off + r->cache_len) {
		if (!r->cache && !(r->cache = malloc(CACHE_SIZE)))
			return ftc_pread_all(r, dst, n, off, what);
		len = off < r->file_size ? (size_t)(r->file_size - off) : 0;
		if (len > CACHE_SIZE)
			len = CACHE_SIZE;
		if (len < n)	/* past the end: let pread_all word the error */
			return ftc_pread_all(r, dst, n, off, what);
		if (ftc_pread_all(r, r->cache, len, off, what) < 0) {
			r->cache_len = 0;
			return -1;
		}
		r->cache_off = off;
		r->cache_len = len;
	}
	memcpy(dst, r->cache + (off - r->cache_off), n);
	return 0;
}

int ftc_cur_err(struct ftc_cur *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->mem)
		return ftc_error(EINVAL, "%s: %s section at file offset %llu, byte %llu of its "
				 "data: %s", c->r->path, c->what, (unsigned long long)c->base,
				 (unsigned long long)c->pos, msg);
	return ftc_error(EINVAL, "%s: %s at offset %llu: %s", c->r->path, c->what,
			 (unsigned long long)c->pos, msg);
}

int ftc_cur_read(struct ftc_cur *c, void *dst, size_t n)
{
	if (c->pos > c->end || n > c->end - c->pos) {
		c->r->short_read |= !c->mem;
		return ftc_cur_err(c, "needs %zu bytes, only %llu left (truncated or corrupt)",
				   n, (unsigned long long)(c->end > c->pos ? c->end - c->pos : 0));
	}
	if (c->mem)
		memcpy(dst, c->mem + c->pos, n);
	else if (cached_read(c->r, dst, n, c->pos, c->what) < 0)
		return -1;
	c->pos += n;
	return 0;
}

int ftc_cur_u16(struct ftc_cur *c, uint16_t *v)
{
	unsigned char b[2];

	if (ftc_cur_read(c, b, 2) < 0)
		return -1;
	*v = ftc_rd16(c->r, b);
	return 0;
}

int ftc_cur_u32(struct ftc_cur *c, uint32_t *v)
{
	unsigned char b[4];

	if (ftc_cur_read(c, b, 4) < 0)
		return -1;
	*v = ftc_rd32(c->r, b);
	return 0;
}

int ftc_cur_u64(struct ftc_cur *c, uint64_t *v)
{
	unsigned char b[8];

	if (ftc_cur_read(c, b, 8) < 0)
		return -1;
	*v = ftc_rd64(c->r, b);
	return 0;
}

int ftc_cur_str(struct ftc_cur *c, char **out, size_t max)
{
	char *s = malloc(max + 1);
	size_t n = 0;

	if (!s)
		return ftc_error(ENOMEM, "out of memory");
	for (;;) {
		if (n == max) {
			free(s);
			return ftc_cur_err(c, "string longer than %zu bytes or without its NUL", max);
		}
		if (ftc_cur_read(c, &s[n], 1) < 0) {
			free(s);
			return -1;
		}
		if (!s[n])
			break;
		n++;
	}
	*out = s;
	return 0;
}

int ftc_cur_blob(struct ftc_cur *c, uint64_t n, char **out)
{
	char *b;

	if (n > FTC_MAX_META_SIZE || c->pos > c->end || n > c->end - c->pos) {
		/* a size that could be past the end of the file: most likely cut there */
		c->r->short_read |= !c->mem && n <= FTC_MAX_META_SIZE;
		return ftc_cur_err(c, "a size of %llu bytes does not fit (%llu left)",
				   (unsigned long long)n,
				   (unsigned long long)(c->end > c->pos ? c->end - c->pos : 0));
	}
	b = malloc(n + 1);
	if (!b)
		return ftc_error(ENOMEM, "%s: out of memory for %llu bytes of %s", c->r->path,
				 (unsigned long long)n, c->what);
	if (ftc_cur_read(c, b, n) < 0) {
		free(b);
		return -1;
	}
	b[n] = '\0';
	*out = b;
	return 0;
}

const char *ftc_reader_option_text(struct ftc_reader *r, unsigned int id)
{
	for (int i = 0; i < r->noptions; i++)
		if (r->options[i].id == id)
			return (const char *)r->options[i].data;
	return NULL;
}

const char *ftc_reader_clock(struct ftc_reader *r)
{
	return r->clock ? r->clock : "local";
}
