/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc report --sample-profile / --folded / --flamegraph: the profile of the
 * samples that ftc record --sample stored, printed as ftc profile prints.
 */
#ifndef FTC_REPORT_PROFILE_H
#define FTC_REPORT_PROFILE_H

#include <stdbool.h>

#include "ftc-reader.h"

enum { OPT_RP_PROFILE = 3000, OPT_RP_FOLDED, OPT_RP_FLAME, OPT_RP_LIMIT, OPT_RP_TC_PROFILE,
       OPT_RP_SYMFS };

#define REPORT_PROFILE_OPTIONS \
	{ 0, "sample-profile", NULL, "print the stored samples' profile (self/children by " \
	  "symbol)", OPT_RP_PROFILE }, \
	{ 0, "folded", NULL, "print the stored samples as folded stacks", OPT_RP_FOLDED }, \
	{ 0, "flamegraph", "FILE.svg", "draw the stored samples as an SVG flame graph", \
	  OPT_RP_FLAME }, \
	{ 0, "limit", "N", "with --sample-profile, print at most N rows", OPT_RP_LIMIT }, \
	{ 0, "profile", NULL, "trace-cmd's profile of the sched events (switch, wakeup times)", \
	  OPT_RP_TC_PROFILE }, \
	{ 0, "symfs", "DIR", "the samples' user binaries are under DIR (a board's files)", OPT_RP_SYMFS }

struct report_profile {
	bool table, folded;
	bool sched;		/* --profile: trace-cmd's (report-sched.c) */
	const char *flame;
	unsigned long long limit;
	const char *symfs;	/* --symfs: the recording machine's files */
};

/* One of the options above: 0, or -1 on a bad value. */
int report_profile_opt(struct report_profile *o, int id, const char *arg);
bool report_profile_wanted(const struct report_profile *o);
/* Prints the profile of r's samples (those keep() takes, when given, as
 * report's selection options choose them); returns an exit status. */
int report_profile_run(struct ftc_reader *r, const struct report_profile *o, const char *path,
		       ftc_profile_keep_fn keep, void *keep_ctx);

#endif
