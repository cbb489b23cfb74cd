// SPDX-License-Identifier: GPL-2.0-or-later
/* Option values several commands share (opt-values.h). */
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-live.h"
#include "options.h"
#include "opt-values.h"

int cmd_opt_duration(const char *arg, double *out)
{
	char *end;

	*out = strtod(arg, &end);
	if (end == arg || *end || !(*out > 0))
		return cmd_bad_value("not a duration (seconds above 0, e.g. 10 or 0.5)");
	return 0;
}

int cmd_opt_compression(const char *arg, int *out)
{
	*out = ftc_compression_parse(arg);
	if (*out < 0)
		return cmd_bad_value("not a compression (zstd, zlib or none)");
	return 0;
}

int cmd_opt_rt_priority(const char *arg, int *out)
{
	unsigned long long v;

	if (cmd_parse_u64(arg, &v) < 0 || v > 99)
		return cmd_bad_value("not a priority (0 for none, 1 to 99 for SCHED_FIFO)");
	*out = (int)v;
	return 0;
}

int cmd_opt_live_rt_priority(const char *arg, int *out)
{
	if (cmd_opt_rt_priority(arg, out) < 0)
		return -1;
	if (!*out)
		*out = FTC_LIVE_NO_RT;
	return 0;
}

int cmd_opt_file_version(const char *arg, int *out)
{
	if (strcmp(arg, "6") && strcmp(arg, "7"))
		return cmd_bad_value("not a trace.dat version (6 or 7)");
	*out = atoi(arg);
	return 0;
}
