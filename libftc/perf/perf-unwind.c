// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * --call-graph dwarf: each sample copies its thread's user registers and
 * the top of its user stack, and the kernel's callchain stops at the
 * kernel (exclude_callchain_user). The user part is unwound here, as the
 * samples are drained (symbols/unwind.c), so that what a profile keeps and
 * what ftc record stores is one chain, as a frame-pointer sample gives it:
 * the kernel's frames, PERF_CONTEXT_USER, the user's frames. The stack
 * copies themselves are never kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"
#include "unwind.h"

#define MAX_USER_FRAMES 256

int ftc_perf_dwarf_check(unsigned int dwarf_stack)
{
	if (!ftc_unwind_regs_mask())
		return ftc_error(EINVAL, "DWARF unwinding is not supported on this machine "
				 "(x86_64 and arm64 only): use frame pointers (fp)");
	if (!dwarf_stack || dwarf_stack % 8 || dwarf_stack > FTC_PERF_DWARF_STACK_MAX)
		return ftc_error(EINVAL, "a user stack of %u bytes per sample: give a multiple "
				 "of 8 from 8 to %d", dwarf_stack, FTC_PERF_DWARF_STACK_MAX);
	return 0;
}

/* The kernel's part of the chain: everything before a user mark. */
static uint64_t kernel_part(const struct ftc_perf_sample *s, uint64_t *out)
{
	uint64_t n = 0;

	while (n < s->nr && s->ips[n] != (uint64_t)PERF_CONTEXT_USER) {
		out[n] = s->ips[n];
		n++;
	}
	return n;
}

static int user_part(struct ftc_perf_profile *p, const struct ftc_perf_sample *s,
		     const struct ftc_perf_user *u, uint64_t *out)
{
	const struct ftc_perf_proc *pr = ftc_perf_proc_find(p, s->pid);
	struct ftc_unwind_stack st = {
		.pid = s->pid, .tid = s->tid, .regs = u->regs, .mask = p->regs_user,
		.stack = u->stack, .size = u->size,
	};
	int n;

	/* A kernel thread has no user registers; a 32-bit task other ones. */
	if (u->abi != PERF_SAMPLE_REGS_ABI_64 || !u->regs)
		return 0;
	if (!p->unwinder && !(p->unwinder = ftc_unwinder_new()))
		return -1;
	n = ftc_unwind(p->unwinder, &st, pr ? pr->maps : NULL, pr ? pr->nmaps : 0, out,
		       MAX_USER_FRAMES);
	if (n > 1)
		p->unwound++;
	return n;
}

int ftc_perf_profile_unwind(struct ftc_perf_profile *p, const struct perf_event_header *h,
			    struct ftc_perf_sample *s)
{
	struct ftc_perf_user u;
	uint64_t *chain, nk;
	int nu;

	if (!(p->sample_type & PERF_SAMPLE_STACK_USER))
		return ftc_perf_sample_parse(h, p->sample_type, s);
	if (ftc_perf_sample_parse_user(h, p->sample_type, p->regs_user, s, &u) < 0)
		return -1;
	/* A record is at most 64 KiB: its chain fits in that many words too. */
	chain = p->chain ? p->chain : (p->chain = malloc((8192 + 1 + MAX_USER_FRAMES) * 8));
	if (!chain)
		return ftc_error(ENOMEM, "out of memory");
	nk = kernel_part(s, chain);
	nu = user_part(p, s, &u, chain + nk + 1);
	if (nu < 0)
		return -1;
	if (nu) {
		chain[nk] = (uint64_t)PERF_CONTEXT_USER;
		nk += 1 + (uint64_t)nu;
	} else if (!nk) {
		chain[nk++] = s->ip;	/* no stack to walk: the sampled address */
	}
	s->ips = chain;
	s->nr = nk;
	return 0;
}
