/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat constants shared by the writer and the reader: magic, option
 * and section ids. The layout itself is described in
 * Documentation/design.md; numbers match trace-cmd 3.1 so its readers
 * and ours agree.
 */
#ifndef FTC_TRACEDAT_FORMAT_H
#define FTC_TRACEDAT_FORMAT_H

/* The magic and the option ids are public: ftc-reader.h. */
#include "ftc-reader.h"

/* v7 section header flags. */
#define FTC_SEC_COMPRESSED	0x1

/* A v7 compressed buffer holds chunks of this many pages (trace-cmd's PAGES_IN_CHUNK). */
#define FTC_PAGES_IN_CHUNK	10

#define FTC_V6_OPTIONS_TAG	"options  "	/* 10 bytes with the NUL */
#define FTC_V6_FLYRECORD_TAG	"flyrecord"
#define FTC_V6_LATENCY_TAG	"latency  "

#endif
