/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option values several commands take alike (record, stream, extract,
 * hist, convert): parsed and refused in one place, with one message. Each
 * returns 0, or -1 after cmd_bad_value() (from an option handler).
 */
#ifndef FTC_CMD_OPT_VALUES_H
#define FTC_CMD_OPT_VALUES_H

/* --duration SECS: above 0, fractions allowed. */
int cmd_opt_duration(const char *arg, double *out);
/* --compression: zstd, zlib or none (enum ftc_compression). */
int cmd_opt_compression(const char *arg, int *out);
/* --file-version: 6 or 7. */
int cmd_opt_file_version(const char *arg, int *out);
/* -r, --rt-priority PRIO: 0 (not real-time) to 99. */
int cmd_opt_rt_priority(const char *arg, int *out);
/* The same for ftc_live_opts.rt_priority, where 0 is FTC_LIVE_NO_RT. */
int cmd_opt_live_rt_priority(const char *arg, int *out);

/* The readers' -r option of the commands that capture (record, stream, top). */
#define CMD_OPT_RT_PRIORITY(id) \
	{ 'r', "rt-priority", "PRIO", "the readers' real-time priority, 1-99 (default 1); " \
	  "0: not real-time", id }

#endif
