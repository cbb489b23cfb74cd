// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.dat reader: the common start of the file, and the accessors (the
 * bounded reads all parts use: reader-core.c). Version-specific metadata is
 * in reader-v6.c and reader-v7.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "opts.h"
#include "reader.h"
#include "tracedat-format.h"

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

/* A reader that failed, closed: NULL, with the failure's errno kept. */
static struct ftc_reader *reader_fail(struct ftc_reader *r)
{
	int err = errno;

	cut_metadata(r);
	ftc_reader_close(r);
	errno = err;
	return NULL;
}

/* Everything after the bytes became readable; closes r on failure. */
static struct ftc_reader *reader_parse(struct ftc_reader *r)
{
	uint64_t pos = 0;

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
	return reader_fail(r);
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
	return reader_fail(r);
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
