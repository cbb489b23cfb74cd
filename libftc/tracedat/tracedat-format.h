/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat constants shared by the writer and the reader: magic, option
 * and section ids. The layout itself is described in
 * Documentation/design.md; numbers match trace-cmd 3.1 so its readers
 * and ours agree.
 */
#ifndef FTC_TRACEDAT_FORMAT_H
#define FTC_TRACEDAT_FORMAT_H

#define FTC_DAT_MAGIC		"\x17\x08\x44" "tracing"
#define FTC_DAT_MAGIC_LEN	10

/* Option ids, also the v7 section ids. */
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
	 * ftc's own: the events lost before a page whose header flags a loss
	 * without a count (NUL buffer name, u32 cpu, u32 n, n x (u64 page
	 * timestamp, u64 count; 0: counted at a later page)). trace-cmd
	 * skips an id it does not know; 0x4654 is ftc import's.
	 */
	FTC_OPT_FTC_LOST	= 0x4655,
	/*
	 * A section of ftc's own that only spans bytes: restore in place
	 * leaves one between the final index and the old one until it cuts
	 * the file there (writer-restore-place.c).
	 */
	FTC_SEC_PAD		= 0x4656,
};

/* v7 section header flags. */
#define FTC_SEC_COMPRESSED	0x1

/* A v7 compressed buffer holds chunks of this many pages (trace-cmd's PAGES_IN_CHUNK). */
#define FTC_PAGES_IN_CHUNK	10

#define FTC_V6_OPTIONS_TAG	"options  "	/* 10 bytes with the NUL */
#define FTC_V6_FLYRECORD_TAG	"flyrecord"
#define FTC_V6_LATENCY_TAG	"latency  "

#endif
