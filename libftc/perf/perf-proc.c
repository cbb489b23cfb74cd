// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A profile's table of processes (perf.h): what perf-profile.c learns
 * from COMM, MMAP2 and FORK records, and what perf-unwind.c looks up to
 * unwind a sample's user stack through its mappings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf.h"

static struct ftc_perf_proc *find_proc(struct ftc_perf_profile *p, uint32_t pid, bool create)
{
	struct ftc_perf_proc *np;

	for (size_t i = 0; i < p->nprocs; i++)
		if (p->procs[i].pid == pid)
			return &p->procs[i];
	if (!create)
		return NULL;
	np = realloc(p->procs, (p->nprocs + 1) * sizeof(*np));
	if (!np)
		return NULL;
	p->procs = np;
	np = &p->procs[p->nprocs++];
	memset(np, 0, sizeof(*np));
	np->pid = pid;
	snprintf(np->comm, sizeof(np->comm), "%u", pid);
	return np;
}

struct ftc_perf_proc *ftc_perf_proc_find(struct ftc_perf_profile *p, uint32_t pid)
{
	return find_proc(p, pid, false);
}

struct ftc_perf_proc *ftc_perf_proc_add(struct ftc_perf_profile *p, uint32_t pid)
{
	return find_proc(p, pid, true);
}
