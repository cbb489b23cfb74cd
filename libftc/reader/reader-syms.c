// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel symbols for libtraceevent's %ps/%pS and the function tracers,
 * through tep_set_function_resolver(): kallsyms is streamed from the file
 * (decompressed a block at a time) and only text symbols are kept, in one
 * sorted array and one string arena. tep_parse_kallsyms() would hold the
 * whole text plus a malloc per symbol: several times the memory.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "reader.h"
#include "tracedat-format.h"
#include "ksym-line.h"

#define IN_BLOCK	(64 * 1024)
#define MAX_LINE	1024

struct sym {
	unsigned long long addr;
	uint32_t name;			/* offset in the arena */
	uint32_t mod;			/* offset of "[module]" name, 0 for none */
};

struct ftc_syms {
	struct sym *v;
	size_t n, cap;
	char *arena;
	size_t alen, acap;
	char line[MAX_LINE];
	size_t llen;
	size_t skip;			/* leading bytes that are not text */
};

static int arena_add(struct ftc_syms *s, const char *str, size_t len, uint32_t *off)
{
	if (s->alen + len + 1 > s->acap) {
		size_t cap = s->acap ? s->acap * 2 : 256 * 1024;
		char *a;

		while (cap < s->alen + len + 1)
			cap *= 2;
		if (cap > UINT32_MAX || !(a = realloc(s->arena, cap)))
			return -1;
		s->arena = a;
		s->acap = cap;
	}
	memcpy(s->arena + s->alen, str, len);
	s->arena[s->alen + len] = '\0';
	*off = (uint32_t)s->alen;
	s->alen += len + 1;
	return 0;
}

/* A text symbol's line into the array; other lines are skipped. */
static int add_line(struct ftc_syms *s, const char *l, size_t len)
{
	struct ftc_ksym_line k;
	struct sym *e;

	if (!ftc_ksym_line_parse(l, l + len, &k) || !ftc_ksym_is_text(k.type))
		return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16384;

		e = realloc(s->v, cap * sizeof(*e));
		if (!e)
			return -1;
		s->v = e;
		s->cap = cap;
	}
	e = &s->v[s->n];
	e->addr = k.addr;
	e->mod = 0;
	if (arena_add(s, k.name, k.name_len, &e->name) < 0)
		return -1;
	if (k.mod && arena_add(s, k.mod, k.mod_len, &e->mod) < 0)
		return -1;
	s->n++;
	return 0;
}

/* Feeds text split anywhere; lines are gathered across calls. */
static int feed(struct ftc_syms *s, const char *p, size_t n)
{
	size_t i = 0;

	for (; i < n && s->skip; i++)
		s->skip--;
	for (; i < n; i++) {
		if (p[i] != '\n') {
			if (s->llen < MAX_LINE - 1)
				s->line[s->llen++] = p[i];
			continue;
		}
		if (add_line(s, s->line, s->llen) < 0)
			return -1;
		s->llen = 0;
	}
	return 0;
}

/* Plain bytes at off (v6, or an uncompressed v7 section). */
static int stream_plain(struct ftc_reader *r, struct ftc_syms *s, uint64_t off, uint64_t len)
{
	char *buf = malloc(IN_BLOCK);
	int ret = 0;

	if (!buf)
		return -1;
	while (len && !ret) {
		size_t n = len > IN_BLOCK ? IN_BLOCK : (size_t)len;

		ret = ftc_pread_all(r, buf, n, off, "kallsyms");
		if (!ret)
			ret = feed(s, buf, n);
		off += n;
		len -= n;
	}
	free(buf);
	return ret;
}

static int stream_zstd(struct ftc_reader *r, struct ftc_syms *s, uint64_t off, uint64_t clen)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	char *in = malloc(IN_BLOCK), *out = malloc(IN_BLOCK);
	int ret = -1;

	if (!z || !in || !out)
		goto out;
	ZSTD_initDStream(z);
	while (clen) {
		size_t n = clen > IN_BLOCK ? IN_BLOCK : (size_t)clen;
		ZSTD_inBuffer ib = { in, n, 0 };

		if (ftc_pread_all(r, in, n, off, "kallsyms") < 0)
			goto out;
		while (ib.pos < ib.size) {
			ZSTD_outBuffer ob = { out, IN_BLOCK, 0 };
			size_t z_ret = ZSTD_decompressStream(z, &ob, &ib);

			if (ZSTD_isError(z_ret)) {
				ftc_error(EINVAL, "%s: cannot decompress kallsyms at offset %llu: %s",
					  r->path, (unsigned long long)off, ZSTD_getErrorName(z_ret));
				goto out;
			}
			if (feed(s, out, ob.pos) < 0)
				goto out;
		}
		off += n;
		clen -= n;
	}
	ret = 0;
out:
	ZSTD_freeDStream(z);
	free(in);
	free(out);
	return ret;
}

static int stream_zlib(struct ftc_reader *r, struct ftc_syms *s, uint64_t off, uint64_t clen)
{
	z_stream z = { 0 };
	char *in = malloc(IN_BLOCK), *out = malloc(IN_BLOCK);
	int ret = -1, zr = Z_OK;

	if (!in || !out || inflateInit(&z) != Z_OK)
		goto out_free;
	while (clen && zr != Z_STREAM_END) {
		size_t n = clen > IN_BLOCK ? IN_BLOCK : (size_t)clen;

		if (ftc_pread_all(r, in, n, off, "kallsyms") < 0)
			goto out;
		z.next_in = (Bytef *)in;
		z.avail_in = (uInt)n;
		do {
			z.next_out = (Bytef *)out;
			z.avail_out = IN_BLOCK;
			zr = inflate(&z, Z_NO_FLUSH);
			if (zr != Z_OK && zr != Z_STREAM_END) {
				ftc_error(EINVAL, "%s: cannot decompress kallsyms at offset %llu: %s",
					  r->path, (unsigned long long)off, zError(zr));
				goto out;
			}
			if (feed(s, out, IN_BLOCK - z.avail_out) < 0)
				goto out;
		} while (z.avail_in && zr != Z_STREAM_END);
		off += n;
		clen -= n;
	}
	ret = 0;
out:
	inflateEnd(&z);
out_free:
	free(in);
	free(out);
	return ret;
}

/* Where kallsyms text is: file offset, stored length, compressed or not. */
static int locate(struct ftc_reader *r, uint64_t *off, uint64_t *len, bool *comp)
{
	unsigned char h[16];
	uint32_t size;

	*comp = false;
	if (r->version == 6) {
		if (ftc_pread_all(r, h, 4, r->kallsyms_off, "kallsyms") < 0)
			return -1;
		size = ftc_rd32(r, h);
		*off = r->kallsyms_off + 4;
		*len = size;
		return 0;
	}
	if (ftc_pread_all(r, h, 16, r->kallsyms_off, "kallsyms section header") < 0)
		return -1;
	if (ftc_rd16(r, h) != FTC_OPT_KALLSYMS)
		return ftc_error(EINVAL, "%s: no kallsyms section at offset %llu", r->path,
				 (unsigned long long)r->kallsyms_off);
	*off = r->kallsyms_off + 16;
	*len = ftc_rd64(r, h + 8);
	if (ftc_rd16(r, h + 2) & FTC_SEC_COMPRESSED) {
		/* u32 compressed size, u32 size, then the blob. */
		if (*len < 8 || ftc_pread_all(r, h, 8, *off, "kallsyms") < 0)
			return ftc_error(EINVAL, "%s: kallsyms section at offset %llu is cut short",
					 r->path, (unsigned long long)r->kallsyms_off);
		*comp = true;
		*len = ftc_rd32(r, h);
		*off += 8;
		return 0;
	}
	/* Uncompressed: the payload is u32 size + text, as in v6. */
	if (ftc_pread_all(r, h, 4, *off, "kallsyms") < 0)
		return -1;
	*len = ftc_rd32(r, h);
	*off += 4;
	return 0;
}

/* A linker's mark of a section ("__sched_text_start", "_stext"), not a function. */
static bool is_mark(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "_stext") || !strcmp(name, "_text") ||
	       (name[0] == '_' && ((n > 6 && !strcmp(name + n - 6, "_start")) ||
				   (n > 4 && !strcmp(name + n - 4, "_end"))));
}

/*
 * By address; at one address a mark before the function it shares it
 * with, so that the lookup (the last at or below) names the function:
 * io_schedule_timeout, not __sched_text_start. Of a function's aliases
 * the one listed first is named, as libtraceevent names it (trace-cmd
 * report): __do_sys_vfork, not __x64_sys_vfork. Names sit in the arena in
 * the file's order, so a later name sorts first.
 */
static int by_addr(const void *a, const void *b, void *arena)
{
	const struct sym *x = a, *y = b;
	int marks;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	marks = (int)!is_mark((char *)arena + x->name) - (int)!is_mark((char *)arena + y->name);
	if (marks)
		return marks;
	return x->name == y->name ? 0 : x->name > y->name ? -1 : 1;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct ftc_syms *s = priv;
	size_t lo = 0, hi = s->n;

	/* The last symbol at or below the address. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->v[mid].addr <= *addrp)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	*addrp = s->v[lo - 1].addr;
	if (modp)
		*modp = s->v[lo - 1].mod ? s->arena + s->v[lo - 1].mod : NULL;
	return s->arena + s->v[lo - 1].name;
}

const char *ftc_syms_module(const struct ftc_syms *s, uint64_t addr)
{
	unsigned long long a = addr;
	char *mod = NULL;

	if (!s || !resolve((void *)s, &a, &mod))
		return NULL;
	return mod;
}

void ftc_syms_free(struct ftc_syms *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->arena);
	free(s);
}

/*
 * A previous boot's records (LAST_BOOT_INFO) hold that boot's addresses,
 * and the file's kallsyms are of the boot that extracted them: the
 * kernel's text moved by "text delta" (this boot's less the previous),
 * so the core kernel's symbols move back by it. Modules loaded in another
 * boot are elsewhere anyway: their symbols are left as they are.
 */
static void undo_text_delta(struct ftc_reader *r, struct ftc_syms *s)
{
	const char *info = ftc_reader_option_text(r, FTC_OPT_LAST_BOOT_INFO);
	const char *d = info ? strstr(info, "text delta:") : NULL;
	long long delta;

	if (!d || sscanf(d, "text delta: %lld", &delta) != 1 || !delta)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (!s->v[i].mod)
			s->v[i].addr -= (unsigned long long)delta;
}

int ftc_load_kallsyms(struct ftc_reader *r)
{
	struct ftc_syms *s;
	uint64_t off = 0, len = 0;
	bool comp = false;
	int ret;

	if (r->kallsyms_state)
		return 0;
	r->kallsyms_state = -1;
	if (!r->kallsyms_off || !r->tep || (r->flags & FTC_READER_NO_SYMS))
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s || locate(r, &off, &len, &comp) < 0)
		goto fail;
	/* A compressed payload starts with the u32 size, as a plain one does. */
	s->skip = comp ? 4 : 0;
	if (!comp)
		ret = stream_plain(r, s, off, len);
	else if (r->comp == 2)
		ret = stream_zstd(r, s, off, len);
	else if (r->comp == 1)
		ret = stream_zlib(r, s, off, len);
	else
		ret = ftc_error(EINVAL, "%s: kallsyms is compressed but the file names no "
				"compression", r->path);
	if (ret < 0)
		goto fail;
	undo_text_delta(r, s);
	if (s->n)
		qsort_r(s->v, s->n, sizeof(*s->v), by_addr, s->arena);
	if (tep_set_function_resolver(r->tep, resolve, s) < 0)
		goto fail;
	r->syms = s;
	r->kallsyms_state = 1;
	return 0;
fail:
	ftc_syms_free(s);
	ftc_reader_warn(r, "%s (function names print as addresses)", ftc_strerror());
	return -1;
}
