/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel's softirq vectors by name, as /proc/softirqs shows them. */
#ifndef FTC_SOFTIRQ_NAMES_H
#define FTC_SOFTIRQ_NAMES_H

#include <stdint.h>

/* "HI", "TIMER", ... "RCU"; NULL past the last vector. */
const char *ftc_softirq_name(uint64_t vec);

#endif
