// SPDX-License-Identifier: LGPL-2.1-or-later
/* The names of the softirq vectors (include/linux/interrupt.h's order). */
#include <stddef.h>

#include "softirq-names.h"

const char *ftc_softirq_name(uint64_t vec)
{
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
		"HRTIMER", "RCU",
	};

	return vec < sizeof(names) / sizeof(names[0]) ? names[vec] : NULL;
}
