// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc report --sample-profile, --folded, --flamegraph: the samples that ftc
 * record --sample stored (ftc_perf events) become the same profile that
 * ftc profile builds live, and print through the same functions. Kernel
 * frames take their names from the kallsyms stored in the file, user
 * frames from the stored mmap events and the binaries on this machine.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "options.h"
#include "output.h"
#include "ftc.h"
#include "ftc-perf.h"
#include "report-profile.h"

#define EVENT_NAME FTC_PERF_FTRACE_SYSTEM ":sample"

extern const struct command cmd_report;

int report_profile_opt(struct report_profile *o, int id, const char *arg)
{
	struct stat st;

	switch (id) {
	case OPT_RP_PROFILE: o->table = true; break;
	case OPT_RP_TC_PROFILE: o->sched = true; break;
	case OPT_RP_FOLDED: o->folded = true; break;
	case OPT_RP_FLAME: o->flame = arg; break;
	case OPT_RP_SYMFS:
		if (stat(arg, &st) < 0 || !S_ISDIR(st.st_mode))
			return cmd_bad_value("not a directory (give the copy of the recording "
					     "machine's root, e.g. a board's rootfs)");
		o->symfs = arg;
		break;
	case OPT_RP_LIMIT:
		if (cmd_parse_u64(arg, &o->limit) < 0)
			return cmd_bad_value("not a number of rows");
		break;
	}
	return 0;
}

bool report_profile_wanted(const struct report_profile *o)
{
	return o->table || o->folded || o->flame;
}

static int print(const struct report_profile *o, struct ftc_perf_agg *a, bool chain,
		 uint64_t lost)
{
	if (o->flame && cmd_output_flame(&cmd_report, o->flame, a, EVENT_NAME) < 0)
		return -1;
	if (o->folded)
		ftc_perf_agg_folded(stdout, a);
	if (o->table)
		ftc_perf_agg_table(stdout, a, chain, o->limit, EVENT_NAME, lost);
	/* the reason of a failed write, while errno still holds it */
	cmd_output_failed();
	return 0;
}

int report_profile_run(struct ftc_reader *r, const struct report_profile *o, const char *path,
		       ftc_profile_keep_fn keep, void *keep_ctx)
{
	struct ftc_perf_profile *p = ftc_perf_profile_new(0);
	struct ftc_perf_agg *a = ftc_perf_agg_new();
	struct ftc_symbols *syms = ftc_symbols_new();
	int status = FTC_EXIT_FAIL;
	bool chain = false;

	if (!p || !syms || !a || ftc_symbols_set_root(syms, o->symfs) < 0 ||
	    ftc_reader_profile_select(r, p, &chain, keep, keep_ctx) < 0)
		goto fail;
	if (!ftc_perf_profile_nsamples(p)) {
		if (keep)
			cmd_error(&cmd_report, "no sample of %s matches the selection "
				  "(--cpu, --pid, --comm, -F, time window)", path);
		else
			cmd_error(&cmd_report, "%s holds no samples (no %s events): "
				  "record them with 'ftc record --sample cpu-clock "
				  "[--call-graph] ...'", path, EVENT_NAME);
		goto out;
	}
	ftc_reader_profile_symbols(r, syms);
	if (ftc_perf_agg_build(a, p, syms) < 0)
		goto fail;
	if (ftc_perf_profile_lost(p))
		fprintf(stderr, "ftc report: the kernel lost %llu samples during the capture\n",
			(unsigned long long)ftc_perf_profile_lost(p));
	if (print(o, a, chain, ftc_perf_profile_lost(p)) < 0)
		goto out;	/* said why */
	status = FTC_EXIT_OK;
	goto out;
fail:
	cmd_error(&cmd_report, "%s", ftc_strerror());
out:
	ftc_perf_agg_free(a);
	ftc_perf_profile_free(p);
	ftc_symbols_free(syms);
	return status;
}
