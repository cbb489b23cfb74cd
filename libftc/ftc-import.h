/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ftrace_dump output back into a capture: the kernel prints its trace
 * buffers on the console on an oops (ftrace_dump_on_oops) or sysrq-z, and
 * a console log, dmesg, journalctl -k or pstore file holding such a dump
 * becomes a trace.dat that ftc report and trace-cmd read. Each dump of a
 * log ("Dumping ftrace buffer:" to the closing dashes) is parsed on its
 * own; lines that other messages interleaved and lines that cannot be
 * parsed are counted and kept by line number, never dropped silently.
 */
#ifndef FTC_IMPORT_H
#define FTC_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "ftc-api.h"
#include "ftc-writer.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftc_import;

/*
 * Finds and parses every dump in len bytes of log text (any bytes: NULs
 * and binary noise are lines that do not parse). Returns the handle, also
 * for a log without a dump (ftc_import_ndumps() is then 0); NULL on ENOMEM.
 */
FTC_API struct ftc_import *ftc_import_parse(const char *log, size_t len);
FTC_API void ftc_import_free(struct ftc_import *im);

/* How many dumps the log holds, numbered 0 ... n-1 in log order. */
FTC_API int ftc_import_ndumps(const struct ftc_import *im);

/*
 * What dump d holds: its first and last log lines (1-based; end 0 when
 * the log ends before the closing line), its records, the lines of other
 * messages that interleaved it (told apart by their printk caller id or
 * log level, when the log has them) and its unparsable lines.
 */
FTC_API unsigned long ftc_import_first_line(const struct ftc_import *im, int d);
FTC_API unsigned long ftc_import_end_line(const struct ftc_import *im, int d);
FTC_API size_t ftc_import_records(const struct ftc_import *im, int d);
FTC_API size_t ftc_import_foreign(const struct ftc_import *im, int d);
FTC_API size_t ftc_import_nbad(const struct ftc_import *im, int d);
/* The i-th unparsable line: its number, and its text (cut to 80 bytes) in *text. */
FTC_API unsigned long ftc_import_bad_line(const struct ftc_import *im, int d, size_t i,
					  const char **text);
/*
 * The dump's header as the file's metadata keeps it: "tracer: NAME",
 * "layout: latency|trace|function_graph", "timestamps: ...", and any
 * "# ..." lines the dump printed. Owned by im.
 */
FTC_API const char *ftc_import_header(const struct ftc_import *im, int d);

/*
 * Symbols for function and function_graph lines: /proc/kallsyms or
 * System.map text ("ADDR TYPE NAME [MODULE]" lines). Returns the number of
 * symbols read, or -1 with the error set (no line of that shape). The text
 * is also stored in the files written afterwards.
 */
FTC_API int ftc_import_set_kallsyms(struct ftc_import *im, const char *text, size_t len);

/*
 * Writes dump d as a trace.dat at path (version 7 with comp, or 6 with
 * FTC_COMPRESS_NONE). Returns 0 or -1 with the error set. Afterwards
 * ftc_import_unresolved() tells how many function lines stayed text
 * records because a name was not among the symbols (all of them when no
 * kallsyms were set).
 */
FTC_API int ftc_import_write(struct ftc_import *im, int d, const char *path, int version,
			     enum ftc_compression comp);
FTC_API size_t ftc_import_unresolved(const struct ftc_import *im);

#ifdef __cplusplus
}
#endif

#endif
