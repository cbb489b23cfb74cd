/* SPDX-License-Identifier: GPL-2.0-or-later */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ftclab

#if !defined(FTCLAB_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define FTCLAB_TRACE_H

#include <linux/tracepoint.h>
#include <linux/version.h>

/* 6.10 dropped __assign_str's source: it copies what __string() named. */
#ifndef FTCLAB_ASSIGN_STR
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define FTCLAB_ASSIGN_STR(field, src)	__assign_str(field)
#else
#define FTCLAB_ASSIGN_STR(field, src)	__assign_str(field, src)
#endif
#endif

#define FTCLAB_NVALS	4
#define FTCLAB_F_ROOT	0x1
#define FTCLAB_F_ODD	0x2
#define FTCLAB_F_LEAF	0x4
#define FTCLAB_K_RUN	0
#define FTCLAB_K_STEP_A	1
#define FTCLAB_K_STEP_B	2

TRACE_EVENT(ftclab_step,
	TP_PROTO(const char *name, unsigned int iter, const unsigned int *vals,
		 unsigned long flags, int kind),
	TP_ARGS(name, iter, vals, flags, kind),
	TP_STRUCT__entry(
		__string(name, name)
		__field(unsigned int, iter)
		__array(unsigned int, vals, FTCLAB_NVALS)
		__field(unsigned long, flags)
		__field(int, kind)
	),
	TP_fast_assign(
		FTCLAB_ASSIGN_STR(name, name);
		__entry->iter = iter;
		memcpy(__entry->vals, vals, sizeof(__entry->vals));
		__entry->flags = flags;
		__entry->kind = kind;
	),
	TP_printk("name=%s iter=%u vals=%s flags=%s kind=%s", __get_str(name), __entry->iter,
		  /* sizeof(u32) would stop trace-cmd (libtraceevent 1.7 knows only C's names) */
		  __print_array(__entry->vals, FTCLAB_NVALS, sizeof(unsigned int)),
		  __print_flags(__entry->flags, "|",
				{ FTCLAB_F_ROOT, "ROOT" }, { FTCLAB_F_ODD, "ODD" },
				{ FTCLAB_F_LEAF, "LEAF" }),
		  __print_symbolic(__entry->kind,
				   { FTCLAB_K_RUN, "RUN" }, { FTCLAB_K_STEP_A, "STEP_A" },
				   { FTCLAB_K_STEP_B, "STEP_B" }))
);

TRACE_EVENT(ftclab_done,
	TP_PROTO(unsigned int iter, u32 result),
	TP_ARGS(iter, result),
	TP_STRUCT__entry(
		__field(unsigned int, iter)
		__field(u32, result)
	),
	TP_fast_assign(
		__entry->iter = iter;
		__entry->result = result;
	),
	TP_printk("iter=%u result=%u", __entry->iter, __entry->result)
);

#endif /* FTCLAB_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ftclab_trace
#include <trace/define_trace.h>
