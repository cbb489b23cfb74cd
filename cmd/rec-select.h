/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which records to print, as ftc report selects them: CPUs, pids, comms,
 * events and a libtraceevent filter. Used by ftc stream; report's own
 * copy works the same way (cmd/report.c).
 */
#ifndef FTC_CMD_REC_SELECT_H
#define FTC_CMD_REC_SELECT_H

#include <stdbool.h>
#include <stdint.h>

struct ftc_reader;
struct ftc_merge_record;
struct tep_event_filter;

struct rec_select {
	uint64_t cpu_mask[16];
	bool have_cpus;
	int *pids, npids;
	char **comms, **events, **filters;
	int ncomms, nevents, nfilters;
	struct tep_event_filter *filter;
};

/* Stores one value of --cpu (CPUS), --pid (PIDS), --comm, --event or a
 * filter; -1 after cmd_bad_value() or out of memory. */
int rec_select_cpus(struct rec_select *s, const char *arg);
int rec_select_pids(struct rec_select *s, const char *arg);
int rec_select_push(char ***list, int *n, const char *arg);
/* Compiles the filters and checks the events against r's formats; -1 with
 * the message printed (prefixed by who). */
int rec_select_setup(struct rec_select *s, struct ftc_reader *r, const char *who);
bool rec_select_any(const struct rec_select *s);
bool rec_select_match(struct rec_select *s, struct ftc_reader *r,
		      const struct ftc_merge_record *mr);
void rec_select_free(struct rec_select *s);

#endif
