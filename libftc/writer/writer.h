/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the trace.dat writer: shared by writer*.c (not installed). */
#ifndef FTC_WRITER_INTERNAL_H
#define FTC_WRITER_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftc-writer.h"
#include "ringbuf.h"
#include "tracedat-format.h"

/* A growing byte buffer for building payloads in file byte order (host). */
struct ftc_dbuf {
	char *p;
	size_t len, cap;
	int oom;
};

void ftc_dbuf_add(struct ftc_dbuf *b, const void *p, size_t n);
void ftc_dbuf_u16(struct ftc_dbuf *b, uint16_t v);
void ftc_dbuf_u32(struct ftc_dbuf *b, uint32_t v);
void ftc_dbuf_u64(struct ftc_dbuf *b, uint64_t v);
void ftc_dbuf_str(struct ftc_dbuf *b, const char *s);	/* with its NUL */
void ftc_dbuf_free(struct ftc_dbuf *b);

/* Metadata payloads, byte for byte what both file versions carry. */
struct ftc_wmeta {
	struct ftc_dbuf header_info;	/* "header_page" ... "header_event" ... */
	struct ftc_dbuf ftrace_events;	/* u32 count, (u64 size, format)... */
	struct ftc_dbuf event_formats;	/* u32 systems, (name, u32 n, (u64, fmt)...)... */
	struct ftc_dbuf kallsyms;	/* u32 size, text */
	struct ftc_dbuf printk;		/* u32 size, text */
	struct ftc_dbuf cmdlines;	/* u64 size, text */
	char *uname;
	char *trace_clock;		/* the trace_clock file of the first buffer */
};

struct ftc_meta;
/* Lays out the payloads of m (meta.h), which it does not keep. */
int ftc_wmeta_build(struct ftc_wmeta *wm, const struct ftc_meta *m);
void ftc_wmeta_free(struct ftc_wmeta *m);
/*
 * The sub-buffer layout a header_info payload ("header_page", u64 size,
 * text, ...: what ftc_wmeta_build builds and a v7 HEADER_INFO section
 * holds) describes; l keeps what it holds when the payload says nothing.
 */
void ftc_wmeta_subbuf(struct ftc_subbuf_layout *l, const char *payload, size_t len);

/* Compression of one block (a metadata section or a chunk of pages). */
struct ftc_zctx;
struct ftc_zctx *ftc_zctx_new(enum ftc_compression c, int level);
void ftc_zctx_free(struct ftc_zctx *z);
size_t ftc_zctx_bound(enum ftc_compression c, size_t in);
/* Returns the compressed size, or -1 with the error set. */
long ftc_zctx_compress(struct ftc_zctx *z, void *out, size_t cap,
		       const void *in, size_t len);

#define TAIL_RESERVE	(256u << 10)	/* blocks kept for the tail on a full disk */
#define V6_CPUSTAT_SIZE	512		/* fixed so the v6 index can be rewritten */
#define MAX_APPARENT	(8ULL << 40)	/* below ext4's 16 TiB file size limit */
#define VFAT_MAX_FILE	((4ULL << 30) - (1ULL << 20))	/* vfat: files below 4 GB */
#define NOHOLE_SLOT	(256ULL << 20)	/* a CPU's region where holes cost blocks */
#define MSDOS_MAGIC	0x4d44		/* statfs f_type: vfat */
#define EXFAT_MAGIC	0x2011BAB0

struct wcpu {
	int cpu;
	uint64_t start;		/* slot offset in the file */
	uint64_t size;		/* committed bytes (after the count when compressed) */
	uint32_t chunks;
	int cur;		/* with a size limit: the half being written */
	bool wrapped;		/* the other half holds older data */
	uint64_t old_size;
	uint32_t old_chunks;
	char *pending;		/* pages waiting to fill a chunk */
	size_t pending_len;
	char *zout;
	size_t zcap;
	struct ftc_zctx *z;
	char *stat;		/* its per_cpu stats at the end (ftc_writer_set_cpustat) */
	struct ftc_dbuf lost;	/* (u64 page ts, u64 count)... (ftc_writer_add_lost), under lock */
};

struct wbuf {
	char *name;		/* "" for the top-level buffer */
	char *clock;
	int ncpus;
	struct wcpu *cpus;
	uint64_t sec;		/* the buffer's block: v7 section header */
	uint64_t end;		/* end of its last slot */
	int slot0;		/* index of its first CPU among all slots */
	int desc;
	bool synthetic;		/* made by ftc, not read from tracefs */
};

struct ftc_writer {
	char *path;
	int fd;
	int version;
	enum ftc_compression comp;
	unsigned int page;
	uint64_t align;
	struct wbuf *bufs;
	int nbufs;
	int cpucount;
	uint64_t stride;
	long fs_type;		/* statfs f_type of the output */
	uint64_t free_at_start;
	uint64_t half;		/* -m: bytes per half of a CPU's region, 0 = no limit */
	uint64_t hstride;	/* distance between the two halves */
	uint64_t groups;	/* offset of the first buffer block */
	uint64_t tail;
	uint64_t opt1_done;	/* v7: where the DONE link of options 1 lives */
	uint64_t v6_index;	/* v6: where the rewritable options start */
	struct ftc_dbuf strings;
	struct ftc_wmeta meta;
	bool have_meta;		/* ftc_writer_set_meta() was called */
	bool kernel_meta;	/* ... by ftc_writer_start(), from this kernel */
	struct ftc_dbuf end_cmdlines;	/* v7: u64 size, text (ftc_writer_set_cmdlines) */
	bool have_end_cmdlines;
	struct ftc_dbuf end_kallsyms;	/* v7: u32 size, text (ftc_wset_end_kallsyms) */
	char *start_modules;	/* /proc/modules when the capture started */
	struct ftc_subbuf_layout subbuf;	/* the kernel's, from meta's header_page */
	struct ftc_zctx *meta_z;
	uint64_t trace_id;
	uint64_t sec_off[FTC_OPT_CMDLINES + 1];
	pthread_mutex_t lock;
	bool remote;		/* fd is a stream to ftc listen (writer-stream.c) */
	pthread_mutex_t send_lock;
	uint64_t data_bytes;
	bool started;
	struct ftc_dbuf extra_formats;	/* ftc_writer_add_system(): (name, n, formats) */
	uint32_t extra_systems;
	struct ftc_dbuf extra_options;	/* ftc_writer_copy_from(): (u16 id, u32 size, data)... */
	struct ftc_dbuf tail_options;	/* restore: the old tail's options, BUFFER's aside */
	bool sync_index;		/* restore in place: data on disk before the link to its index */
	bool hold_link;
	bool restoring;			/* ... and its indexes say so until the last */
	bool resumed;			/* restore: the file says one was cut short */			/* ... and the index written, not linked (held_link) */
	uint64_t held_link;
	uint64_t drop_from;		/* restore: an index appended, cut short, never linked */
	bool tail_kept;			/* ... which replace the writer's CPU stats */
};

static inline bool compressed(const struct ftc_writer *w)
{
	return w->version >= 7 && w->comp != FTC_COMPRESS_NONE;
}

static inline uint64_t roundup_u64(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* Where the index says a CPU's data starts: the half being written. */
static inline uint64_t cur_off(const struct ftc_writer *w, const struct wcpu *wc)
{
	return wc->start + (uint64_t)wc->cur * w->hstride;
}

struct ftc_writer *ftc_writer_new(const char *path, int version, enum ftc_compression comp);
/* writer-core.c, below the rest: ftc_wpwrite and ftc_wtruncate on the file,
 * or as messages to ftc listen (w->remote); ftc_wbuf_add (below). */
int ftc_wtruncate(struct ftc_writer *w, uint64_t size);
/* writer-stream.c: the file's operations as messages to ftc listen. */
int ftc_wsend_write(struct ftc_writer *w, const void *p, size_t len, uint64_t off);
int ftc_wsend_trunc(struct ftc_writer *w, uint64_t size);
int ftc_wsend_move(struct ftc_writer *w, uint64_t from, uint64_t to, uint64_t len);
int ftc_wsend_end(struct ftc_writer *w, bool ok, const char *text);
/* The stream's first message (its magic and version), on w->fd. */
int ftc_wsend_hello(struct ftc_writer *w);
int ftc_wpwrite(struct ftc_writer *w, const void *p, size_t len, uint64_t off);
int ftc_wstring(struct ftc_writer *w, const char *s);
int ftc_whead_v7(struct ftc_writer *w, struct ftc_dbuf *h);
int ftc_whead_v6(struct ftc_writer *w, struct ftc_dbuf *h);
int ftc_wgroups(struct ftc_writer *w);
int ftc_windex(struct ftc_writer *w, const struct ftc_dbuf *cmdlines, bool final,
	       bool cut);
/* Removes the holes and rewrites the index; a failure half-way still
 * leaves an index of where the data is. */
int ftc_wcompact(struct ftc_writer *w, const struct ftc_dbuf *cmdlines, bool final);
int ftc_wpatch_sections(struct ftc_writer *w);
/* One block (a buffer's section head or a CPU's region) and where it goes. */
struct ftc_wmove {
	uint64_t from, to, len;
};
struct ftc_wmove *ftc_wplan_moves(struct ftc_writer *w, int *count, uint64_t *new_tail);
void ftc_wlayout(struct ftc_writer *w, const struct ftc_wmove *m, int moved, uint64_t tail);
/* The length ftc_windex() would write at w->tail, without writing it. */
int ftc_windex_len(struct ftc_writer *w, const struct ftc_dbuf *cmdlines, bool final,
		   uint64_t *len);
int ftc_wsync(struct ftc_writer *w, bool data_only);
int ftc_wmeta_z_open(struct ftc_writer *w);
int ftc_wcopy_range(struct ftc_writer *w, int src, uint64_t from, uint64_t to, uint64_t len,
		    char *buf, size_t cap);
/* writer-restore-place.c: restore where the disk has no room for a copy. */
int ftc_wrestore_in_place(struct ftc_writer *w);
/*
 * writer-join.c: -m joins a wrapped CPU's halves in place, oldest first,
 * moving the data through buf (cap bytes), whatever the halves' size.
 */
#define JOIN_BUF	(1u << 20)
int ftc_wjoin_halves(struct ftc_writer *w, struct wcpu *wc, char *buf, size_t cap);
/* writer-synthetic.c: appends ftc's own event systems to the formats. */
/* ... and an option of the caller's to the file's options (ftc import). */
int ftc_writer_add_option(struct ftc_writer *w, uint16_t id, const void *data, uint32_t size);
int ftc_wsynthetic_formats(struct ftc_writer *w);
/* writer-lost.c: the FTC_OPT_FTC_LOST options of every CPU that has some. */
void ftc_wlost_options(struct ftc_writer *w, struct ftc_dbuf *o);

/*
 * writer-copy.c: a writer made from another trace.dat instead of the
 * kernel (ftc convert, ftc split): before start, takes r's page size, its
 * metadata, the options that describe the capture (uname, clock, trace id,
 * time offsets, ...) and the CPU stats, and declares r's buffers whose
 * keep[i] is true (keep NULL: all that have CPUs). wbuf[i] gets reader
 * buffer i's index in the writer, or -1. Refuses a file whose byte order
 * or long size is not this machine's: the writer writes only its own.
 */
struct ftc_reader;
int ftc_writer_copy_from(struct ftc_writer *w, struct ftc_reader *r, const bool *keep,
			 int *wbuf);

/* Adds a buffer (takes clock, which may be NULL after a failed read). */
int ftc_wbuf_add(struct ftc_writer *w, const char *name, char *clock,
		 int ncpus, const int *cpus);
/* Whether a buffer may still be added: 0, or -1 saying why not. */
int ftc_wbuf_check(struct ftc_writer *w, const char *instance, int ncpus);
/*
 * writer.c's start and finish, which read nothing: the public calls
 * (writer-tracefs.c) first hand over what the tracefs layer reads.
 */
int ftc_wstart(struct ftc_writer *w);
int ftc_wfinish(struct ftc_writer *w);
/*
 * v7: kallsyms again in the tail (its KALLSYMS option supersedes the head's,
 * for ftc and trace-cmd alike): a module loaded during the capture.
 */
int ftc_wset_end_kallsyms(struct ftc_writer *w, const char *text, size_t len);

#endif
