/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading trace.dat (v6 and v7, uncompressed, zlib or zstd) with bounded
 * memory: metadata is parsed on open, event data is read one small window
 * per CPU at a time and merged across CPUs and instances by timestamp.
 *
 * Every length and offset is validated; errors name the file, the section
 * and the file offset. Damage in one CPU's data stops that CPU only, after
 * the records before the damage were delivered.
 */
#ifndef FTC_READER_H
#define FTC_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The first bytes of every trace.dat, and the option ids (also the v7
 * section ids) that ftc_reader_option() and ftc_reader_section() report;
 * the numbers are trace-cmd 3.1's (its readers and ours agree).
 */
#define FTC_DAT_MAGIC		"\x17\x08\x44" "tracing"
#define FTC_DAT_MAGIC_LEN	10

enum ftc_dat_option {
	FTC_OPT_DONE		= 0,
	FTC_OPT_DATE		= 1,
	FTC_OPT_CPUSTAT		= 2,
	FTC_OPT_BUFFER		= 3,
	FTC_OPT_TRACECLOCK	= 4,
	FTC_OPT_UNAME		= 5,
	FTC_OPT_HOOK		= 6,
	FTC_OPT_OFFSET		= 7,
	FTC_OPT_CPUCOUNT	= 8,
	FTC_OPT_VERSION		= 9,
	FTC_OPT_PROCMAPS	= 10,
	FTC_OPT_TRACEID		= 11,
	FTC_OPT_TIME_SHIFT	= 12,
	FTC_OPT_GUEST		= 13,
	FTC_OPT_TSC2NSEC	= 14,
	FTC_OPT_STRINGS		= 15,
	FTC_OPT_HEADER_INFO	= 16,
	FTC_OPT_FTRACE_EVENTS	= 17,
	FTC_OPT_EVENT_FORMATS	= 18,
	FTC_OPT_KALLSYMS	= 19,
	FTC_OPT_PRINTK		= 20,
	FTC_OPT_CMDLINES	= 21,
	FTC_OPT_BUFFER_TEXT	= 22,
	/*
	 * trace-cmd 3.4's: "INSTANCE:" then what the persistent instance's
	 * last_boot_info said ("text delta: N" and, from 6.15, module lines):
	 * the records are the previous boot's, its kernel N bytes off this
	 * one's kallsyms. NUL-terminated.
	 */
	FTC_OPT_LAST_BOOT_INFO	= 24,
	/*
	 * ftc's own: the events lost before a page whose header flags a loss
	 * without a count (NUL buffer name, u32 cpu, u32 n, n x (u64 page
	 * timestamp, u64 count; 0: counted at a later page)). trace-cmd
	 * skips an id it does not know; 0x4654 is ftc import's.
	 */
	FTC_OPT_FTC_LOST	= 0x4655,
	/*
	 * A section of ftc's own that only spans bytes: restore in place
	 * leaves one between the final index and the old one until it cuts
	 * the file there (ftc restore).
	 */
	FTC_SEC_PAD		= 0x4656,
	/*
	 * An option of the indexes a restore in place links while it moves
	 * the data: the sizes are final, and what follows a CPU's data may
	 * be another block's copy, so a restore taken up later recovers
	 * nothing past them. Never in a finished file.
	 */
	FTC_OPT_FTC_RESTORING	= 0x4657,
	/*
	 * What a buffer recorded, as tracefs said when the capture began:
	 * the buffer's name, then a line per event enabled in it
	 * ("SYSTEM:EVENT"), each followed by its triggers, one per line
	 * after a tab. One per buffer; absent from files of other writers.
	 */
	FTC_OPT_FTC_ENABLED	= 0x4658,
};


struct tep_handle;
struct tep_record;
struct tep_event;
struct ftc_reader;

/* One v7 section (v6 files list their metadata blocks the same way). */
struct ftc_dat_section {
	uint16_t id;
	uint16_t flags;
	const char *description;	/* "" when none */
	uint64_t offset;		/* of the 16-byte header (v6: of the block) */
	uint64_t size;			/* bytes after the header, as stored */
	uint64_t usize;			/* uncompressed size, 0 when unknown */
};

struct ftc_dat_opt {
	uint16_t id;
	uint32_t size;
	uint64_t offset;		/* file offset of the data */
	const unsigned char *data;	/* a copy, size bytes plus a NUL */
};

struct ftc_dat_cpu {
	int cpu;
	uint64_t offset;		/* v7 compressed: of the chunk count */
	uint64_t size;
	/* Statistics from CPUSTAT, -1 when absent. */
	long long entries, overrun, commit_overrun, dropped, read_events;
};

struct ftc_dat_buffer {
	char *name;			/* "" for the top-level buffer */
	char *clock;
	uint32_t page_size;
	int ncpus;
	struct ftc_dat_cpu *cpus;
	uint64_t section_offset;
	bool compressed;
};

enum ftc_reader_flags {
	FTC_READER_NO_PLUGINS	= 1 << 0,	/* do not load libtraceevent plugins */
	FTC_READER_ALL_EVENTS	= 1 << 1,	/* parse every event format on open */
	FTC_READER_METADATA	= 1 << 2,	/* metadata only: no tep (ftc dump) */
	FTC_READER_NO_SYMS	= 1 << 3,	/* kernel addresses print as numbers (no kallsyms) */
};

FTC_API struct ftc_reader *ftc_reader_open(const char *path, unsigned int flags);

/* ftc_reader_open with more to say: an options structure (FTC_OPTS_INIT). */
struct ftc_reader_opts {
	size_t size;			/* sizeof(struct ftc_reader_opts) */
	unsigned int flags;		/* enum ftc_reader_flags */
	/*
	 * A directory of libtraceevent plugins, loaded after the system's so
	 * that its handlers win (NULL: none). libftc reads no environment
	 * variable for it (ftc report takes FTC_PLUGIN_DIR); libtraceevent
	 * itself still reads TRACEEVENT_PLUGIN_DIR and ~/.local/lib/traceevent.
	 */
	const char *plugin_dir;
	/*
	 * libtraceevent's event-format parser (1.7) can crash on a damaged
	 * format: a divide by zero, a NULL dereference. The reader installs
	 * no signal handler (a library must not change the process's signal
	 * dispositions). A program that must survive any damaged file passes
	 * a guard: the reader then calls each parse as parse_guard(parse,
	 * arg, guard_ctx), and the guard returns parse(arg), or -1 when it
	 * abandoned the parse (say, when it jumped out of a SIGFPE or SIGSEGV
	 * handler: libtraceevent adds an event only once it is parsed whole,
	 * so it stays usable; the abandoned event's memory is lost). The
	 * format is then skipped: its records print as unknown. NULL: the
	 * reader refuses the format shapes known to crash the parser and
	 * parses the others directly (a damaged format of another shape can
	 * still crash it).
	 */
	int (*parse_guard)(int (*parse)(void *arg), void *arg, void *guard_ctx);
	void *guard_ctx;
	/*
	 * What messages call the file (NULL: the path): "standard input"
	 * for a copy of it that the caller opens by a /proc/self/fd path.
	 */
	const char *name;
};
FTC_API struct ftc_reader *ftc_reader_open_opts(const char *path,
						const struct ftc_reader_opts *opts);
/*
 * The same from a capture already in memory (received from a board over a
 * socket or a serial line, or mapped by the caller); name stands for the
 * path in messages. The bytes are not copied: they must stay valid and
 * unchanged until ftc_reader_close().
 */
FTC_API struct ftc_reader *ftc_reader_open_mem(const void *data, size_t size, const char *name,
					       unsigned int flags);
FTC_API struct ftc_reader *ftc_reader_open_mem_opts(const void *data, size_t size,
						    const char *name,
						    const struct ftc_reader_opts *opts);
FTC_API void ftc_reader_close(struct ftc_reader *r);

/* Metadata. */
FTC_API struct tep_handle *ftc_reader_tep(struct ftc_reader *r);
FTC_API int ftc_reader_version(struct ftc_reader *r);
FTC_API const char *ftc_reader_compression(struct ftc_reader *r);	/* "none", "zstd", "zlib" */
FTC_API const char *ftc_reader_compression_version(struct ftc_reader *r);
FTC_API bool ftc_reader_big_endian(struct ftc_reader *r);
FTC_API int ftc_reader_long_size(struct ftc_reader *r);
FTC_API uint32_t ftc_reader_page_size(struct ftc_reader *r);
FTC_API uint64_t ftc_reader_file_size(struct ftc_reader *r);
FTC_API int ftc_reader_ncpus(struct ftc_reader *r);	/* CPUCOUNT, or the largest buffer */
FTC_API int ftc_reader_nbuffers(struct ftc_reader *r);
FTC_API const struct ftc_dat_buffer *ftc_reader_buffer(struct ftc_reader *r, int i);
FTC_API int ftc_reader_nsections(struct ftc_reader *r);
FTC_API const struct ftc_dat_section *ftc_reader_section(struct ftc_reader *r, int i);
FTC_API int ftc_reader_noptions(struct ftc_reader *r);
FTC_API const struct ftc_dat_opt *ftc_reader_option(struct ftc_reader *r, int i);
FTC_API const char *ftc_option_name(unsigned int id);
FTC_API const char *ftc_section_name(unsigned int id);
/* The selected clock ("local" when the file does not say). */
FTC_API const char *ftc_reader_clock(struct ftc_reader *r);
/* The text of an option, NULL when absent (first one of that id). */
FTC_API const char *ftc_reader_option_text(struct ftc_reader *r, unsigned int id);
/*
 * Whether the capture enabled SYSTEM:EVENT in buffer instance ("" for the
 * top level, NULL for any buffer), from its FTC_OPT_FTC_ENABLED options: 1
 * yes, 0 no, -1 the file does not say (another writer, an older ftc).
 */
FTC_API int ftc_reader_event_enabled(struct ftc_reader *r, const char *instance,
				     const char *system, const char *event);
/* Parses every event format (for filters on event names). */
FTC_API int ftc_reader_parse_all_events(struct ftc_reader *r);
/* The event system:name of the file's formats, parsing that one alone; NULL if absent. */
FTC_API struct tep_event *ftc_reader_find_event(struct ftc_reader *r, const char *system,
						const char *name);
/* The event of a record, parsing its format on first use; NULL if unknown. */
FTC_API struct tep_event *ftc_reader_event(struct ftc_reader *r, struct tep_record *rec);
/*
 * Warnings about damage met so far (truncation, corrupt pages), one per
 * line; NULL when none. Readers keep going past damage where they can.
 */
FTC_API const char *ftc_reader_warnings(struct ftc_reader *r);
/*
 * The printed perf samples' user symbols are read from DIR/PATH instead of
 * PATH (the recording machine's binaries, as perf --symfs); DIR must live
 * as long as r. Set it before the first record is printed.
 */
FTC_API int ftc_reader_set_symfs(struct ftc_reader *r, const char *dir);

#ifdef __cplusplus
}
#endif

#endif
