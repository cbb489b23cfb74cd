// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The snapshot buffer: "1" allocates it if needed and swaps it with the
 * live buffer, "2" clears it, "0" frees it (for all CPUs only). Allocating
 * an empty one is a take followed by a clear.
 */
#include <errno.h>
#include <stdio.h>

#include "ftc.h"
#include "ftc-control.h"
#include "control.h"

int ftc_snapshot(const char *instance, int cpu, enum ftc_snapshot_op op)
{
	char file[64] = "snapshot";

	if (cpu >= 0)
		snprintf(file, sizeof(file), "per_cpu/cpu%d/snapshot", cpu);
	if (!ftc_knob_exists(instance, "snapshot"))
		return ftc_error(ENOENT, "snapshot: absent: this kernel has no snapshot buffer (CONFIG_TRACER_SNAPSHOT is off); run `ftc check`");
	if (cpu >= 0 && !ftc_knob_exists(instance, file))
		return ftc_error(ENOENT, "%s: absent: no such CPU, or no per-CPU snapshots here", file);
	if (op == FTC_SNAPSHOT_FREE && cpu >= 0)
		return ftc_error(EINVAL, "%s: a snapshot buffer can only be freed for all CPUs (drop --cpu)",
				 file);
	switch (op) {
	case FTC_SNAPSHOT_FREE:
		return ftc_knob_set(instance, file, "0", false);
	case FTC_SNAPSHOT_TAKE:
		return ftc_knob_set(instance, file, "1", false);
	case FTC_SNAPSHOT_CLEAR:
		return ftc_knob_set(instance, file, "2", false);
	case FTC_SNAPSHOT_ALLOC:
		if (ftc_knob_set(instance, file, "1", false) < 0)
			return -1;
		return ftc_knob_set(instance, file, "2", false);
	}
	return ftc_error(EINVAL, "snapshot: unknown operation %d", (int)op);
}
