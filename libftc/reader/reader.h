/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the trace.dat reader: shared by reader*.c and merge.c. */
#ifndef FTC_READER_INTERNAL_H
#define FTC_READER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-reader.h"
#include "ringbuf.h"

/* Upper bounds that keep a corrupt size from turning into a huge allocation. */
#define FTC_MAX_META_SIZE	(512ULL << 20)
#define FTC_MAX_CHUNK_SIZE	(64U << 20)
#define FTC_MAX_CPUS		1024
#define FTC_MAX_SECTIONS	4096
#define FTC_MAX_OPTIONS		65536

/*
 * Inside the library only: open stops after the file header (magic,
 * version, byte order, sizes), for a caller that must know the version of
 * a file whose later parts may be cut off (restore).
 */
#define FTC_READER_HEADER_ONLY	(1U << 30)

/* An indexed event format, parsed into tep on first use. */
struct ftc_fmt_index {
	int id;
	const char *system;		/* points into the reader's format text */
	const char *text;
	size_t len;
	bool parsed;
	bool needs_syms;
	bool uses_common;		/* its print format reads REC->common_* */
	signed char pure_handler;	/* its plugin handler prints from the payload: 1, 0 unknown, -1 no */
};

/* A plugin's answer to: is this handler's text a function of the payload? */
typedef bool (*ftc_pure_fn)(void *handler);
#define FTC_MAX_PURE_PLUGINS	8

/* Reads bounded bytes from the file or from a decompressed section. */
struct ftc_cur {
	struct ftc_reader *r;
	const char *mem;		/* NULL: read the file with pread */
	uint64_t pos, end;		/* in the file or in mem */
	uint64_t base;			/* file offset of the section (for messages) */
	const char *what;		/* section name for messages */
};

struct ftc_reader {
	char *path;
	int fd;
	const unsigned char *mem;	/* ftc_reader_open_mem: the caller's bytes */
	uint64_t file_size;
	unsigned int flags;
	int version;
	bool big_endian;
	int long_size;
	uint32_t page_size;
	int header_commit_size;		/* from header_page; 0 when it did not say */
	char *comp_name, *comp_version;
	int comp;			/* 0 none, 1 zlib, 2 zstd */
	void *zstd_dctx;		/* reader-decomp.c */
	int ncpus;

	struct ftc_dat_section *sections;
	int nsections;
	char *strings;			/* concatenated STRINGS sections */
	size_t strings_len;
	struct ftc_dat_opt *options;
	int noptions;
	struct ftc_dat_buffer *buffers;
	int nbuffers;
	char *clock;
	/* v7, for ftc restore, which rewrites the index (writer-restore*.c). */
	uint64_t opts_link;		/* the first options section's link to the next */
	uint64_t opts_last;		/* the last options section linked, 0 when none */
	/* A cut v7 file: the size its sections and links claim (> file_size), else 0. */
	uint64_t cut_want;
	uint64_t cut_section;		/* v7: where the section the file is cut in starts */
	bool cut_said;			/* ... and a warning said so */
	bool short_read;		/* a read of the metadata ran past the end */

	struct tep_handle *tep;
	void *plugins;
	bool static_plugins;		/* ftc_static_plugins_load() ran on tep */
	/* plugins exporting ftc_plugin_pure (reader-tep.c), with their dlopen refs */
	ftc_pure_fn pure[FTC_MAX_PURE_PLUGINS];
	void *pure_dl[FTC_MAX_PURE_PLUGINS];
	int npure;
	/* libtraceevent's own plugins whose handlers only print (reader-tep.c) */
	void *print_only_base[FTC_MAX_PURE_PLUGINS];
	void *print_only_dl[FTC_MAX_PURE_PLUGINS];
	int nprint_only;
	char *plugin_dir;		/* more plugins, after the system's; NULL: none */
	int (*parse_guard)(int (*parse)(void *arg), void *arg, void *guard_ctx);
	void *guard_ctx;
	char *formats;			/* kept for lazy parsing */
	char *ftrace_formats;
	struct ftc_fmt_index *fmts;
	int nfmts;
	int *fmt_by_id;			/* id -> index + 1, 0 none */
	struct tep_event **ev_by_id;	/* parsed events by id (tep bsearches) */
	int max_id;
	int type_u16;			/* common_type a host-order u16 at 0: 1 yes, -1 no, 0 unknown */
	uint64_t kallsyms_off;		/* where kallsyms is, for a lazy load */
	struct ftc_syms *syms;		/* reader-syms.c */
	struct ftc_reader_perf *perf;	/* reader-perf.c: ftc_perf sample printing */
	/*
	 * format.c parks the last format freed here for reuse, with what
	 * frees it for good: the reader itself never calls into format.c.
	 */
	struct ftc_format *spare_format;
	void (*spare_destroy)(struct ftc_format *f);
	int kallsyms_state;		/* 0 not loaded, 1 loaded, -1 absent */
	long long ts_offset;		/* OFFSET option */
	uint32_t tsc_mult, tsc_shift;	/* TSC2NSEC option, mult 0 = none */
	long long tsc_offset;

	struct ftc_lost_tab *lost;	/* reader-lost.c: FTC_OPT_FTC_LOST, per CPU */
	int nlost;

	char *warnings;
	size_t warnings_len;
	/* Read-ahead for the v6 metadata walk, which reads many small fields. */
	char *cache;
	uint64_t cache_off;
	size_t cache_len;
};

/* reader-core.c, below every other reader file: byte order helpers (file
 * order to host), cursors over a block and bounded reads of the file. */
uint16_t ftc_rd16(struct ftc_reader *r, const void *p);
uint32_t ftc_rd32(struct ftc_reader *r, const void *p);
uint64_t ftc_rd64(struct ftc_reader *r, const void *p);

int ftc_cur_read(struct ftc_cur *c, void *dst, size_t n);
int ftc_cur_u16(struct ftc_cur *c, uint16_t *v);
int ftc_cur_u32(struct ftc_cur *c, uint32_t *v);
int ftc_cur_u64(struct ftc_cur *c, uint64_t *v);
/* A NUL-terminated string of at most max bytes, malloc'ed. */
int ftc_cur_str(struct ftc_cur *c, char **out, size_t max);
/* n bytes into a malloc'ed buffer with a NUL appended. */
int ftc_cur_blob(struct ftc_cur *c, uint64_t n, char **out);
int ftc_cur_err(struct ftc_cur *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int ftc_pread_all(struct ftc_reader *r, void *dst, size_t n, uint64_t off, const char *what);

/* Decompression (reader-decomp.c). Returns 0 or -1 with an error naming what. */
int ftc_decompress(struct ftc_reader *r, const void *src, size_t slen, void *dst,
		   size_t dlen, const char *what, uint64_t off);
/*
 * -1 when src cannot decompress to dlen bytes, told from its header: a
 * damaged size is refused before its buffer is made.
 */
int ftc_decompress_check(struct ftc_reader *r, const void *src, size_t slen, size_t dlen,
			 const char *what, uint64_t off);
void ftc_decompress_free(struct ftc_reader *r);
/*
 * Decompresses src, which must hold exactly dlen bytes, into *out (malloc'd,
 * NUL appended); the buffer grows with the output, never to a size the data
 * only claims.
 */
int ftc_decompress_alloc(struct ftc_reader *r, const void *src, size_t slen, size_t dlen,
			 const char *what, uint64_t off, char **out);

/*
 * A v7 data chunk: an 8-byte header (compressed size, uncompressed size)
 * and its data. ftc_chunk_head reads the header at off and checks it: the
 * data ends by limit, the uncompressed size is in range and, when page is
 * not 0, whole pages. 0, or -1 with why set and no message (the callers
 * word a cut their way). ftc_chunk_read reads the data into buf (csize
 * bytes) and refuses sizes its frame header belies, before the caller makes
 * room for usize bytes; ftc_chunk_unpack decompresses it into out. Both:
 * 0 or -1 with a message.
 */
struct ftc_chunk {
	uint32_t csize, usize;
};
int ftc_chunk_head(struct ftc_reader *r, uint64_t off, uint64_t limit, uint32_t page,
		   struct ftc_chunk *c, const char **why);
int ftc_chunk_read(struct ftc_reader *r, uint64_t off, const struct ftc_chunk *c, void *buf);
int ftc_chunk_unpack(struct ftc_reader *r, uint64_t off, const struct ftc_chunk *c,
		     const void *buf, void *out);

/* reader-section.c: a v7 section's 16-byte header, checked against the file. */
#define SEC_HDR 16

struct sec_hdr {
	uint16_t id, flags;
	int32_t desc;
	uint64_t size;
};
int ftc_v7_section_head(struct ftc_reader *r, uint64_t off, struct sec_hdr *h);
/* Loads a v7 section's payload, decompressed when flagged; NUL appended. */
int ftc_v7_section_load(struct ftc_reader *r, uint64_t off, uint16_t want_id,
			char **out, size_t *len);

/* v7 (reader-v7.c) and v6 (reader-v6.c) metadata. */
int ftc_read_v7(struct ftc_reader *r, uint64_t pos);
int ftc_read_v6(struct ftc_reader *r, uint64_t pos);
/*
 * reader-rescue.c: a v7 BUFFER section no option indexes (a cut file, a
 * damaged tail) made a buffer from the runs of whole chunks it holds.
 */
int ftc_v7_rescue(struct ftc_reader *r, const struct ftc_dat_section *s);
/* One warning for a cut file, unless the rescue said it already. */
void ftc_reader_say_cut(struct ftc_reader *r);

/* Options shared by both versions (reader-options.c); the lists they are
 * read into (reader-lists.c). */
int ftc_apply_options(struct ftc_reader *r);
int ftc_add_option(struct ftc_reader *r, uint16_t id, uint32_t size, uint64_t off,
		   const void *data);
int ftc_add_section(struct ftc_reader *r, uint16_t id, uint16_t flags, const char *desc,
		    uint64_t off, uint64_t size, uint64_t usize);
struct ftc_dat_buffer *ftc_add_buffer(struct ftc_reader *r, const char *name);

/*
 * reader-lost.c: the events ftc record counted as lost before the page of
 * buffer b, CPU index c whose header timestamp is page_ts (raw); -1 when
 * it did not count them (or the file does not say).
 */
struct ftc_lost_tab {
	int buffer, cpu_index;
	uint32_t n;
	uint64_t *ts_count;	/* n x (raw page timestamp, count), by timestamp */
};
int ftc_lost_options(struct ftc_reader *r);
long long ftc_reader_lost_count(const struct ftc_reader *r, int b, int c, uint64_t page_ts);
void ftc_lost_free(struct ftc_reader *r);

/* tep setup from the metadata payloads (reader-tep.c). */
int ftc_tep_init(struct ftc_reader *r);
void ftc_tep_plugin_options(struct ftc_reader *r);
void ftc_tep_unload_plugins(struct ftc_reader *r);
int ftc_tep_header(struct ftc_reader *r, char *buf, size_t len);
int ftc_tep_ftrace_events(struct ftc_reader *r, char *buf, size_t len);
int ftc_tep_event_formats(struct ftc_reader *r, char *buf, size_t len);
int ftc_tep_printk(struct ftc_reader *r, char *buf, size_t len);
int ftc_tep_cmdlines(struct ftc_reader *r, char *buf, size_t len);
int ftc_load_kallsyms(struct ftc_reader *r);
/*
 * False, with the reason in *why, when an event format's print arguments
 * have a shape that crashes libtraceevent 1.7's parser (reader-fmt-check.c).
 */
bool ftc_fmt_text_parsable(const char *text, size_t len, const char **why);
bool ftc_fmt_args_closed(const char *text, size_t len);
/*
 * The format with each sizeof() of a known type as its size, malloc'ed, or
 * NULL when it has none (reader-fmt-sizeof.c).
 */
char *ftc_fmt_fold_sizeof(const char *text, size_t len, int long_size, size_t *out_len);
/*
 * The sub-buffer layout the file's header_page describes, read on demand
 * (a metadata-only reader has not read it). l keeps what it holds (the
 * caller's fallback) when the file does not say; -1 when it cannot be read.
 */
int ftc_reader_subbuf_layout(struct ftc_reader *r, struct ftc_subbuf_layout *l);
/* Parses the event tep learns the common fields from, if none is parsed yet. */
struct tep_record;
void ftc_reader_learn_common(struct ftc_reader *r, struct tep_record *rec);
/* reader-perf.c: symbolized printing of ftc_perf:sample events. */
int ftc_reader_perf_init(struct ftc_reader *r);
void ftc_reader_perf_free(struct ftc_reader *r);
void ftc_reader_perf_parsed(struct ftc_reader *r, const char *system);
void ftc_syms_free(struct ftc_syms *s);
/* The module kallsyms tags addr's symbol with, NULL for the kernel image. */
const char *ftc_syms_module(const struct ftc_syms *s, uint64_t addr);

void ftc_reader_warn(struct ftc_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* True when the file's numbers can be read in place (its byte order is ours). */
static inline bool ftc_reader_host_order(const struct ftc_reader *r)
{
	return r->big_endian == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

/* True when libtraceevent prints ev's fields from its payload alone. */
bool ftc_reader_print_is_pure(struct ftc_reader *r, struct tep_event *ev);
/* ev has a plugin handler that prints from the payload alone (and registers no comm). */
bool ftc_reader_handler_is_pure(struct ftc_reader *r, struct tep_event *ev);

#endif
