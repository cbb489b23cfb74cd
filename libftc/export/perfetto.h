/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Perfetto exporter's parts (perfetto.c: bundles, system info, tasks;
 * perfetto-events.c: one record as an ftrace event; perfetto-perf.c: perf
 * samples with their interned stacks, counters; perfetto-core.c: what they
 * share, interned strings, packets, the task table), and the field
 * numbers they write, from Perfetto's documented protos (trace_packet,
 * ftrace_event_bundle, ftrace_event and the per-event messages,
 * process_tree, system_info, profile_common, profile_packet). The schema
 * the suite decodes with, Documentation/perfetto-subset.proto, declares
 * the same numbers.
 */
#ifndef FTC_PERFETTO_INT_H
#define FTC_PERFETTO_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ftc-perfetto.h"
#include "keytab.h"
#include "pb.h"

struct tep_event;
struct tep_format_field;

enum {
	TRACE_PACKET = 1,		/* Trace.packet */

	PKT_FTRACE_EVENTS = 1,		/* TracePacket */
	PKT_PROCESS_TREE = 2,
	PKT_TIMESTAMP = 8,
	PKT_SEQUENCE_ID = 10,
	PKT_TRACK_EVENT = 11,
	PKT_INTERNED_DATA = 12,
	PKT_SEQUENCE_FLAGS = 13,
	PKT_FTRACE_STATS = 34,
	PKT_SYSTEM_INFO = 45,
	PKT_PERF_SAMPLE = 66,
	PKT_TRACK_DESCRIPTOR = 60,

	TD_UUID = 1,			/* TrackDescriptor */
	TD_NAME = 2,
	TD_COUNTER = 8,
	CD_UNIT_NAME = 6,		/* CounterDescriptor */
	TE_TYPE = 9,			/* TrackEvent */
	TE_TRACK_UUID = 11,
	TE_DOUBLE_COUNTER_VALUE = 44,
	TE_TYPE_COUNTER = 4,

	SEQ_INCREMENTAL_STATE_CLEARED = 1,
	SEQ_NEEDS_INCREMENTAL_STATE = 2,

	BUNDLE_CPU = 1,			/* FtraceEventBundle */
	BUNDLE_EVENT = 2,
	BUNDLE_LOST_EVENTS = 3,
	BUNDLE_COMPACT_SCHED = 4,

	CS_SWITCH_TIMESTAMP = 1,	/* FtraceEventBundle.CompactSched */
	CS_SWITCH_PREV_STATE = 2,
	CS_SWITCH_NEXT_PID = 3,
	CS_SWITCH_NEXT_PRIO = 4,
	CS_INTERN_TABLE = 5,
	CS_SWITCH_NEXT_COMM_INDEX = 6,
	CS_WAKING_TIMESTAMP = 7,
	CS_WAKING_PID = 8,
	CS_WAKING_TARGET_CPU = 9,
	CS_WAKING_PRIO = 10,
	CS_WAKING_COMM_INDEX = 11,
	CS_WAKING_COMMON_FLAGS = 12,

	EV_TIMESTAMP = 1,		/* FtraceEvent */
	EV_PID = 2,
	EV_COMMON_FLAGS = 5,
	EV_GENERIC = 327,

	GEN_EVENT_NAME = 1,		/* GenericFtraceEvent */
	GEN_FIELD = 2,
	GEN_FIELD_NAME = 1,		/* GenericFtraceEvent.Field */
	GEN_FIELD_STR = 3,
	GEN_FIELD_INT = 4,
	GEN_FIELD_UINT = 5,

	INTERNED_FUNCTION_NAMES = 5,	/* InternedData */
	INTERNED_FRAMES = 6,
	INTERNED_CALLSTACKS = 7,
	INTERNED_MAPPING_PATHS = 17,
	INTERNED_MAPPINGS = 19,
	INTERNED_KERNEL_SYMBOLS = 26,
	ISTR_IID = 1,			/* InternedString */
	ISTR_STR = 2,

	PT_PROCESSES = 1,		/* ProcessTree */
	PT_THREADS = 2,
	PT_PROC_PID = 1,		/* ProcessTree.Process */
	PT_PROC_CMDLINE = 3,
	PT_PROC_CMDLINE_IS_COMM = 9,
	PT_THREAD_TID = 1,		/* ProcessTree.Thread */
	PT_THREAD_NAME = 2,
	PT_THREAD_TGID = 3,

	SI_UTSNAME = 1,			/* SystemInfo */
	SI_PAGE_SIZE = 6,
	SI_NUM_CPUS = 8,
	UTS_SYSNAME = 1,		/* Utsname */
	UTS_VERSION = 2,
	UTS_RELEASE = 3,
	UTS_MACHINE = 4,

	FS_PHASE = 1,			/* FtraceStats */
	FS_CPU_STATS = 2,
	FS_END_OF_TRACE = 2,
	FCS_CPU = 1,			/* FtraceCpuStats */
	FCS_ENTRIES = 2,
	FCS_OVERRUN = 3,
	FCS_COMMIT_OVERRUN = 4,
	FCS_DROPPED_EVENTS = 8,
	FCS_READ_EVENTS = 9,

	PS_CPU = 1,			/* PerfSample */
	PS_PID = 2,
	PS_TID = 3,
	PS_CALLSTACK_IID = 4,
	PS_CPU_MODE = 5,
	PS_TIMEBASE_COUNT = 6,
	MODE_KERNEL = 1,		/* Profiling.CpuMode */
	MODE_USER = 2,

	MAP_IID = 1,			/* Mapping */
	MAP_PATH_STRING_IDS = 7,
	FRAME_IID = 1,			/* Frame */
	FRAME_FUNCTION_NAME_ID = 2,
	FRAME_MAPPING_ID = 3,
	CALLSTACK_IID = 1,		/* Callstack */
	CALLSTACK_FRAME_IDS = 2,
};

/* The sequences: the ftrace bundles, the perf samples, the perf counters. */
enum { SEQ_FTRACE = 1, SEQ_PERF = 2, SEQ_COUNTERS = 3, NSEQ };

/* A set of interned strings, each given an id from 1 in the order met. */
struct pf_strings {
	char **s;
	size_t n, cap;
	size_t emitted;		/* the first ones already in a packet's interned data */
	struct ftc_hindex idx;
};

/* uint64 id (1-based) of s, added when new; 0 when out of memory. */
uint64_t ftc_pf_strings_id(struct pf_strings *t, const char *s, size_t len);
void ftc_pf_strings_free(struct pf_strings *t);
/* The strings not yet emitted, as field entries of an InternedData. */
void ftc_pf_strings_emit(struct pf_strings *t, struct ftc_pb *interned, unsigned int field);

/* One CPU's bundle being filled. */
struct pf_compact {
	struct ftc_pb sw_ts, sw_state, sw_pid, sw_prio, sw_comm;
	struct ftc_pb wk_ts, wk_pid, wk_cpu, wk_prio, wk_comm, wk_flags;
	uint64_t sw_last, wk_last;	/* the timestamps the deltas start from */
	uint64_t n;
	struct pf_strings comms;	/* the bundle's intern table (0-based indexes) */
};

struct pf_cpu {
	struct ftc_pb events;		/* FtraceEvent entries, tags included */
	struct pf_compact compact;
	uint64_t n;
	bool lost;			/* events were lost before this bundle */
};

#define PF_MAX_FIELDS 8

/* An event id's handling, found at its first record. */
struct pf_kind {
	struct tep_event *ev;		/* NULL: no format (the record is not written) */
	int typed;			/* index into the typed table; -1: generic */
	int compact;			/* PF_COMPACT_*: in the bundle's arrays */
	/* the typed fields' formats, in the table's order (NULL: absent) */
	struct tep_format_field *f[PF_MAX_FIELDS];
};

enum { PF_COMPACT_NONE, PF_COMPACT_SWITCH, PF_COMPACT_WAKING };

struct pf_perf;

struct ftc_perfetto {
	struct ftc_reader *r;
	struct tep_handle *tep;
	FILE *out;
	struct ftc_perfetto_opts o;
	struct ftc_perfetto_stats st;
	bool write_failed;
	struct pf_cpu *cpus;
	int ncpus;
	struct ftc_keytab kinds_by_id;
	struct pf_kind *kinds;
	struct ftc_keytab ksyms_by_addr;	/* kernel address -> ksyms id */
	uint64_t *ksym_ids;
	struct pf_strings ksyms;
	bool seq_started[NSEQ];
	struct ftc_keytab tasks;		/* pid -> tgid (0: not known) */
	int32_t *tgids;
	uint64_t last_ts;
	int perf_buffer;			/* the ftc_perf buffer's index, -1 */
	struct pf_perf *perf;
	struct ftc_pb pkt, tmp;
};

/* perfetto-core.c */
int ftc_pf_write_packet(struct ftc_perfetto *p, const struct ftc_pb *pkt);
void ftc_pf_sequence(struct ftc_perfetto *p, struct ftc_pb *pkt, int seq);
void ftc_pf_task(struct ftc_perfetto *p, int pid, int tgid);
uint64_t ftc_pf_ksym(struct ftc_perfetto *p, uint64_t addr);

/* perfetto-events.c: the record as an event of its CPU's bundle. */
int ftc_pf_event(struct ftc_perfetto *p, struct pf_cpu *c, const struct ftc_merge_record *mr);
void ftc_pf_kinds_free(struct ftc_perfetto *p);
void ftc_pf_compact_write(struct pf_compact *cs, struct ftc_pb *bundle);
void ftc_pf_compact_reset(struct pf_compact *cs);
void ftc_pf_compact_free(struct pf_compact *cs);

/* perfetto-perf.c */
int ftc_pf_perf_open(struct ftc_perfetto *p);
/* A record of the ftc_perf buffer: a sample, a counter reading, or one read before. */
int ftc_pf_perf_record(struct ftc_perfetto *p, const struct ftc_merge_record *mr);
void ftc_pf_perf_free(struct ftc_perfetto *p);

#endif
