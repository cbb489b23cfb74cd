/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to libftc: DWARF unwinding of a sampled user stack (unwind.c),
 * for the perf samples of --call-graph dwarf.
 */
#ifndef FTC_UNWIND_H
#define FTC_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "ftc-perf.h"

/* What a sample copied of its thread: perf's PERF_SAMPLE_REGS_USER and _STACK_USER. */
struct ftc_unwind_stack {
	uint32_t pid, tid;
	const uint64_t *regs;	/* one value per bit of mask, lowest bit first */
	uint64_t mask;		/* perf's register numbers (asm/perf_regs.h) */
	const unsigned char *stack;	/* the bytes from the sampled stack pointer up */
	uint64_t size;
};

/*
 * The user registers to ask perf for (sample_regs_user) on this machine:
 * those DWARF unwinding starts from. 0 when this architecture has no
 * unwinder here.
 */
uint64_t ftc_unwind_regs_mask(void);

/* Keeps a libdwfl session per recent process (the CFI of its files, read once). */
struct ftc_unwinder;
struct ftc_unwinder *ftc_unwinder_new(void);
void ftc_unwinder_free(struct ftc_unwinder *u);

/*
 * Walks st's stack through the code mappings maps[0..nmaps) of process
 * st->pid (later ones win where they overlap). pcs gets the sampled pc,
 * then the return address of each caller, at most max of them. Returns
 * how many: 0 when the registers lack the pc; 1 when no caller could be
 * found.
 */
int ftc_unwind(struct ftc_unwinder *u, const struct ftc_unwind_stack *st,
	       const struct ftc_perf_map *maps, size_t nmaps, uint64_t *pcs, int max);

#endif
