// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.dat reader: the common start of the file, bounded reads, and the
 * accessors. Version-specific metadata is in reader-v6.c and reader-v7.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <byteswap.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "opts.h"
#include "reader.h"
#include "tracedat-format.h"

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

	if (n > FTC_MAX_META_SIZE || c->pos > c->end || n > c->end - c->pos)
		return ftc_cur_err(c, "a size of %llu bytes does not fit (%llu left)",
				   (unsigned long long)n,
				   (unsigned long long)(c->end > c->pos ? c->end - c->pos : 0));
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

static int read_start(struct ftc_reader *r, uint64_t *pos)
{
	struct ftc_cur c = { .r = r, .end = r->file_size, .what = "file header" };
	char magic[FTC_DAT_MAGIC_LEN], *ver = NULL;
	unsigned char b[2];
	uint32_t psize;
	char *end;

	/* A short file that does not even start like one is not a cut trace.dat. */
	if (r->file_size < sizeof(magic) && (!r->file_size ||
	    (ftc_pread_all(r, magic, (size_t)r->file_size, 0, "file header") == 0 &&
	     memcmp(magic, FTC_DAT_MAGIC, (size_t)r->file_size))))
		return ftc_error(EINVAL, "%s: not a trace.dat file (%llu bytes, no trace.dat "
				 "magic)", r->path, (unsigned long long)r->file_size);
	if (ftc_cur_read(&c, magic, sizeof(magic)) < 0)
		return -1;
	if (memcmp(magic, FTC_DAT_MAGIC, FTC_DAT_MAGIC_LEN))
		return ftc_error(EINVAL, "%s: not a trace.dat file (bad magic at offset 0)",
				 r->path);
	if (ftc_cur_str(&c, &ver, 16) < 0)
		return -1;
	r->version = (int)strtol(ver, &end, 10);
	if (*end || (r->version != 6 && r->version != 7)) {
		ftc_error(EINVAL, "%s: trace.dat version '%s' at offset 10 is not supported "
			  "(ftc reads 6 and 7)", r->path, ver);
		free(ver);
		return -1;
	}
	free(ver);
	if (ftc_cur_read(&c, b, 2) < 0 || ftc_cur_read(&c, &psize, 4) < 0)
		return -1;
	r->big_endian = b[0] != 0;
	r->long_size = b[1];
	r->page_size = ftc_rd32(r, &psize);
	if (b[0] > 1 || (r->long_size != 4 && r->long_size != 8))
		return ftc_cur_err(&c, "endianness %u / long size %u are invalid", b[0], b[1]);
	if (r->page_size < 64 || r->page_size > (1U << 24) || (r->page_size & (r->page_size - 1)))
		return ftc_cur_err(&c, "page size %u is invalid", r->page_size);
	*pos = c.pos;
	return 0;
}

static struct ftc_reader *reader_new(const char *name, const struct ftc_reader_opts *user)
{
	struct ftc_reader_opts opts;
	struct ftc_reader *r;

	if (FTC_OPTS_COPY(&opts, user, ftc_reader_opts, name) < 0)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	r->fd = -1;
	r->flags = opts.flags;
	r->parse_guard = opts.parse_guard;
	r->guard_ctx = opts.guard_ctx;
	r->path = strdup(opts.name ? opts.name : name);
	if (!r->path || (opts.plugin_dir && !(r->plugin_dir = strdup(opts.plugin_dir)))) {
		ftc_error(ENOMEM, "out of memory");
		ftc_reader_close(r);
		return NULL;
	}
	return r;
}

/* A file whose metadata runs past its end: most likely cut there. */
static void cut_metadata(struct ftc_reader *r)
{
	char why[1024];

	if (!r->short_read && r->cut_want <= r->file_size)
		return;
	if (strstr(ftc_strerror(), "cut at "))
		return;
	snprintf(why, sizeof(why), "%s", ftc_strerror());
	ftc_error(EINVAL, "%s: cut at %llu bytes, inside its metadata (or a size there is "
		  "damaged): no record can be read (%s)", r->path,
		  (unsigned long long)r->file_size, why);
}

/* Everything after the bytes became readable; closes r on failure. */
static struct ftc_reader *reader_parse(struct ftc_reader *r)
{
	uint64_t pos = 0;
	int err;

	if (read_start(r, &pos) < 0)
		goto fail;
	if (r->flags & FTC_READER_HEADER_ONLY)
		return r;
	if (!(r->flags & FTC_READER_METADATA) && ftc_tep_init(r) < 0)
		goto fail;
	if ((r->version == 7 ? ftc_read_v7(r, pos) : ftc_read_v6(r, pos)) < 0)
		goto fail;
	if (ftc_apply_options(r) < 0)
		goto fail;
	ftc_tep_plugin_options(r);
	if ((r->flags & FTC_READER_ALL_EVENTS) && r->tep && ftc_reader_parse_all_events(r) < 0)
		goto fail;
	return r;
fail:
	err = errno;
	cut_metadata(r);
	ftc_reader_close(r);
	errno = err;
	return NULL;
}

struct ftc_reader *ftc_reader_open(const char *path, unsigned int flags)
{
	struct ftc_reader_opts opts = FTC_OPTS_INIT(ftc_reader_opts, .flags = flags);

	return ftc_reader_open_opts(path, &opts);
}

struct ftc_reader *ftc_reader_open_opts(const char *path, const struct ftc_reader_opts *opts)
{
	struct ftc_reader *r = reader_new(path, opts);
	struct stat st;
	int err;

	if (!r)
		return NULL;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		ftc_error(errno, "%s: cannot open: %s", r->path, strerror(errno));
		goto fail;
	}
	if (fstat(r->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		ftc_error(EINVAL, "%s: not a regular file", r->path);
		goto fail;
	}
	r->file_size = (uint64_t)st.st_size;
	return reader_parse(r);
fail:
	err = errno;
	cut_metadata(r);
	ftc_reader_close(r);
	errno = err;
	return NULL;
}

struct ftc_reader *ftc_reader_open_mem(const void *data, size_t size, const char *name,
				       unsigned int flags)
{
	struct ftc_reader_opts opts = FTC_OPTS_INIT(ftc_reader_opts, .flags = flags);

	return ftc_reader_open_mem_opts(data, size, name, &opts);
}

struct ftc_reader *ftc_reader_open_mem_opts(const void *data, size_t size, const char *name,
					    const struct ftc_reader_opts *opts)
{
	struct ftc_reader *r;

	if (!data && size) {
		ftc_error(EINVAL, "%s: no bytes given for %zu-byte capture", name, size);
		return NULL;
	}
	r = reader_new(name, opts);
	if (!r)
		return NULL;
	/* A zero-length capture still needs a non-NULL pointer to mark memory mode. */
	r->mem = data ? data : (const unsigned char *)"";
	r->file_size = size;
	return reader_parse(r);
}

void ftc_reader_close(struct ftc_reader *r)
{
	if (!r)
		return;
	if (r->tep) {
		ftc_tep_unload_plugins(r);
		tep_free(r->tep);
	}
	free(r->plugin_dir);
	if (r->spare_format)
		r->spare_destroy(r->spare_format);
	ftc_decompress_free(r);
	ftc_syms_free(r->syms);
	ftc_reader_perf_free(r);
	ftc_lost_free(r);
	for (int i = 0; i < r->noptions; i++)
		free((void *)r->options[i].data);
	for (int i = 0; i < r->nbuffers; i++) {
		free(r->buffers[i].name);
		free(r->buffers[i].clock);
		free(r->buffers[i].cpus);
	}
	if (r->fd >= 0)
		close(r->fd);
	free(r->buffers);
	free(r->options);
	free(r->sections);
	free(r->strings);
	free(r->formats);
	free(r->ftrace_formats);
	free(r->fmts);
	free(r->fmt_by_id);
	free(r->ev_by_id);
	free(r->comp_name);
	free(r->comp_version);
	free(r->clock);
	free(r->warnings);
	free(r->cache);
	free(r->path);
	free(r);
}

/* Callers read common fields (tep_data_pid) before any record was looked up. */
struct tep_handle *ftc_reader_tep(struct ftc_reader *r)
{
	ftc_reader_learn_common(r, NULL);
	return r->tep;
}

int ftc_reader_version(struct ftc_reader *r) { return r->version; }
bool ftc_reader_big_endian(struct ftc_reader *r) { return r->big_endian; }
int ftc_reader_long_size(struct ftc_reader *r) { return r->long_size; }
uint32_t ftc_reader_page_size(struct ftc_reader *r) { return r->page_size; }
uint64_t ftc_reader_file_size(struct ftc_reader *r) { return r->file_size; }
int ftc_reader_nbuffers(struct ftc_reader *r) { return r->nbuffers; }
int ftc_reader_nsections(struct ftc_reader *r) { return r->nsections; }
int ftc_reader_noptions(struct ftc_reader *r) { return r->noptions; }
const char *ftc_reader_warnings(struct ftc_reader *r) { return r->warnings; }

const char *ftc_reader_compression(struct ftc_reader *r)
{
	return r->comp_name ? r->comp_name : "none";
}

const char *ftc_reader_compression_version(struct ftc_reader *r)
{
	return r->comp_version ? r->comp_version : "";
}

int ftc_reader_ncpus(struct ftc_reader *r)
{
	int n = r->ncpus;

	for (int i = 0; i < r->nbuffers; i++)
		if (r->buffers[i].ncpus > n)
			n = r->buffers[i].ncpus;
	return n;
}

const struct ftc_dat_buffer *ftc_reader_buffer(struct ftc_reader *r, int i)
{
	return i >= 0 && i < r->nbuffers ? &r->buffers[i] : NULL;
}

const struct ftc_dat_section *ftc_reader_section(struct ftc_reader *r, int i)
{
	return i >= 0 && i < r->nsections ? &r->sections[i] : NULL;
}

const struct ftc_dat_opt *ftc_reader_option(struct ftc_reader *r, int i)
{
	return i >= 0 && i < r->noptions ? &r->options[i] : NULL;
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
