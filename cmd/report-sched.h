/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ftc report --profile (report-sched.c): trace-cmd's profile of the sched events. */
#ifndef FTC_REPORT_SCHED_H
#define FTC_REPORT_SCHED_H

struct ftc_reader;

/* Prints it for instance's buffer (NULL: the first with sched events): an exit status. */
int report_sched_profile(struct ftc_reader *r, const char *path, const char *instance);

#endif
