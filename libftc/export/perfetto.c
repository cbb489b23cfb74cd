// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Perfetto exporter's driver: a bundle per CPU filled as records come
 * and written as one TracePacket when it holds bundle_bytes (or a loss
 * comes, which the next bundle is marked with) with the kernel symbols
 * interned since the packet before, and at the end the file's uname and
 * CPU statistics and the tasks met, named by the file's saved command
 * lines.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-merge.h"
#include "ftc-reader.h"
#include "opts.h"
#include "export-perf.h"
#include "export-util.h"
#include "perfetto.h"
#include "reader.h"

#define DEFAULT_BUNDLE_BYTES	(64 * 1024)

static int flush_cpu(struct ftc_perfetto *p, int cpu)
{
	struct pf_cpu *c = &p->cpus[cpu];
	struct ftc_pb *pkt = &p->pkt;
	size_t m;
	int ret;

	if (!c->n && !c->compact.n && !c->lost)
		return 0;
	ftc_pb_reset(pkt);
	ftc_pf_sequence(p, pkt, SEQ_FTRACE);
	if (p->ksyms.emitted < p->ksyms.n) {
		m = ftc_pb_open(pkt, PKT_INTERNED_DATA);
		ftc_pf_strings_emit(&p->ksyms, pkt, INTERNED_KERNEL_SYMBOLS);
		ftc_pb_close(pkt, m);
	}
	m = ftc_pb_open(pkt, PKT_FTRACE_EVENTS);
	ftc_pb_uint(pkt, BUNDLE_CPU, (uint64_t)cpu);
	if (c->lost)
		ftc_pb_uint(pkt, BUNDLE_LOST_EVENTS, 1);
	ftc_pb_raw(pkt, c->events.buf, c->events.len);
	if (c->events.failed)
		pkt->failed = true;
	if (c->compact.n)
		ftc_pf_compact_write(&c->compact, pkt);
	ftc_pb_close(pkt, m);
	ret = ftc_pf_write_packet(p, pkt);
	ftc_pb_reset(&c->events);
	ftc_pf_compact_reset(&c->compact);
	c->n = 0;
	c->lost = false;
	return ret;
}

static size_t bundle_size(const struct pf_cpu *c)
{
	const struct pf_compact *cs = &c->compact;

	return c->events.len + cs->sw_ts.len + cs->sw_state.len + cs->sw_pid.len +
	       cs->sw_prio.len + cs->sw_comm.len + cs->wk_ts.len + cs->wk_pid.len +
	       cs->wk_cpu.len + cs->wk_prio.len + cs->wk_comm.len + cs->wk_flags.len;
}

int ftc_perfetto_add(struct ftc_perfetto *p, const struct ftc_merge_record *mr)
{
	struct pf_cpu *c, *grown;

	if (p->write_failed)
		return -1;
	p->st.records++;
	if (mr->rec->ts > p->last_ts)
		p->last_ts = mr->rec->ts;
	if (mr->buffer == p->perf_buffer)
		return ftc_pf_perf_record(p, mr);
	if (mr->cpu < 0 || mr->cpu >= FTC_MAX_CPUS) {
		p->st.unknown++;	/* a damaged file's CPU number: no bundle for it */
		return 0;
	}
	grown = ftc_export_grow(p->cpus, &p->ncpus, mr->cpu, sizeof(*p->cpus));
	if (!grown)
		return -1;
	p->cpus = grown;
	c = &p->cpus[mr->cpu];
	if (mr->missed) {
		/* the loss is marked on the bundle that follows it */
		if (flush_cpu(p, mr->cpu) < 0)
			return -1;
		c->lost = true;
		p->st.lost_marks++;
	}
	if (ftc_pf_event(p, c, mr) < 0)
		return -1;
	if (bundle_size(c) >= p->o.bundle_bytes)
		return flush_cpu(p, mr->cpu);
	return 0;
}

/*
 * "Linux NODE RELEASE VERSION... MACHINE", as trace-cmd and ftc store
 * uname; another text (ftc import's) says nothing of the kernel, and a
 * wrong release would make Perfetto decode prev_state wrongly.
 */
static void write_utsname(struct ftc_pb *pkt, const char *uname)
{
	const char *sp1 = strchr(uname, ' '), *sp2, *sp3, *last;
	size_t m;

	if (strncmp(uname, "Linux ", 6) || !(sp2 = strchr(sp1 + 1, ' ')) ||
	    !(sp3 = strchr(sp2 + 1, ' ')))
		return;
	last = strrchr(uname, ' ');
	m = ftc_pb_open(pkt, SI_UTSNAME);
	ftc_pb_bytes(pkt, UTS_SYSNAME, uname, (size_t)(sp1 - uname));
	ftc_pb_bytes(pkt, UTS_RELEASE, sp2 + 1, (size_t)(sp3 - sp2 - 1));
	if (last > sp3)
		ftc_pb_bytes(pkt, UTS_VERSION, sp3 + 1, (size_t)(last - sp3 - 1));
	ftc_pb_str(pkt, UTS_MACHINE, last + 1);
	ftc_pb_close(pkt, m);
}

static int write_system_info(struct ftc_perfetto *p)
{
	const char *uname = ftc_reader_option_text(p->r, FTC_OPT_UNAME);
	struct ftc_pb *pkt = &p->pkt;
	size_t m;

	ftc_pb_reset(pkt);
	m = ftc_pb_open(pkt, PKT_SYSTEM_INFO);
	if (uname)
		write_utsname(pkt, uname);
	ftc_pb_uint(pkt, SI_PAGE_SIZE, ftc_reader_page_size(p->r));
	ftc_pb_uint(pkt, SI_NUM_CPUS, (uint64_t)ftc_reader_ncpus(p->r));
	ftc_pb_close(pkt, m);
	return ftc_pf_write_packet(p, pkt);
}

static void cpu_stats(struct ftc_pb *pkt, const struct ftc_dat_cpu *c)
{
	size_t m = ftc_pb_open(pkt, FS_CPU_STATS);

	ftc_pb_uint(pkt, FCS_CPU, (uint64_t)c->cpu);
	if (c->entries >= 0)
		ftc_pb_uint(pkt, FCS_ENTRIES, (uint64_t)c->entries);
	if (c->overrun >= 0)
		ftc_pb_uint(pkt, FCS_OVERRUN, (uint64_t)c->overrun);
	if (c->commit_overrun >= 0)
		ftc_pb_uint(pkt, FCS_COMMIT_OVERRUN, (uint64_t)c->commit_overrun);
	if (c->dropped >= 0)
		ftc_pb_uint(pkt, FCS_DROPPED_EVENTS, (uint64_t)c->dropped);
	if (c->read_events >= 0)
		ftc_pb_uint(pkt, FCS_READ_EVENTS, (uint64_t)c->read_events);
	ftc_pb_close(pkt, m);
}

/* The kernel's counts of what it overwrote or dropped, per CPU of the traced buffers. */
static int write_ftrace_stats(struct ftc_perfetto *p)
{
	struct ftc_pb *pkt = &p->pkt;
	size_t m;
	bool any = false;

	ftc_pb_reset(pkt);
	ftc_pb_uint(pkt, PKT_TIMESTAMP, p->last_ts);
	m = ftc_pb_open(pkt, PKT_FTRACE_STATS);
	ftc_pb_uint(pkt, FS_PHASE, FS_END_OF_TRACE);
	for (int b = 0; b < ftc_reader_nbuffers(p->r); b++) {
		const struct ftc_dat_buffer *buf = ftc_reader_buffer(p->r, b);

		if (b == p->perf_buffer)
			continue;
		for (int i = 0; i < buf->ncpus; i++) {
			if (buf->cpus[i].entries < 0)
				continue;
			cpu_stats(pkt, &buf->cpus[i]);
			any = true;
		}
		if (any)
			break;	/* Perfetto keeps one set per CPU: the first traced buffer's */
	}
	ftc_pb_close(pkt, m);
	return any ? ftc_pf_write_packet(p, pkt) : 0;
}

static void thread(struct ftc_perfetto *p, struct ftc_pb *pkt, int pid, int tgid)
{
	const char *name = tep_data_comm_from_pid(p->tep, pid);
	size_t m = ftc_pb_open(pkt, PT_THREADS);

	ftc_pb_int(pkt, PT_THREAD_TID, pid);
	if (name && strcmp(name, "<...>"))
		ftc_pb_str(pkt, PT_THREAD_NAME, name);
	if (tgid > 0)
		ftc_pb_int(pkt, PT_THREAD_TGID, tgid);
	ftc_pb_close(pkt, m);
}

static void process(struct ftc_perfetto *p, struct ftc_pb *pkt, int tgid)
{
	const char *name = tep_data_comm_from_pid(p->tep, tgid);
	size_t m = ftc_pb_open(pkt, PT_PROCESSES);

	ftc_pb_int(pkt, PT_PROC_PID, tgid);
	if (name && strcmp(name, "<...>")) {
		ftc_pb_str(pkt, PT_PROC_CMDLINE, name);
		ftc_pb_uint(pkt, PT_PROC_CMDLINE_IS_COMM, 1);
	}
	ftc_pb_close(pkt, m);
}

/*
 * Every task met, named by the file's saved command lines, under its
 * process where the trace told it (a perf record, a thread's newtask).
 */
static int write_tasks(struct ftc_perfetto *p)
{
	struct ftc_pb *pkt = &p->pkt;
	size_t m;

	if (!p->tasks.n)
		return 0;
	ftc_pb_reset(pkt);
	ftc_pb_uint(pkt, PKT_TIMESTAMP, p->last_ts);
	m = ftc_pb_open(pkt, PKT_PROCESS_TREE);
	for (size_t i = 0; i < p->tasks.n; i++) {
		int pid = (int)p->tasks.keys[i], tgid = p->tgids[i];

		if (tgid == pid)
			process(p, pkt, tgid);
		thread(p, pkt, pid, tgid);
	}
	ftc_pb_close(pkt, m);
	return ftc_pf_write_packet(p, pkt);
}

int ftc_perfetto_finish(struct ftc_perfetto *p)
{
	if (p->write_failed)
		return -1;
	for (int c = 0; c < p->ncpus; c++)
		if (flush_cpu(p, c) < 0)
			return -1;
	if (write_system_info(p) < 0 || write_ftrace_stats(p) < 0 || write_tasks(p) < 0)
		return -1;
	if (fflush(p->out) != 0) {
		p->write_failed = true;
		return ftc_error(errno, "cannot write the Perfetto trace: %s", strerror(errno));
	}
	return 0;
}

struct ftc_perfetto *ftc_perfetto_new(struct ftc_reader *r, FILE *out,
				      const struct ftc_perfetto_opts *o)
{
	struct ftc_perfetto *p = calloc(1, sizeof(*p));

	if (!p) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	p->r = r;
	p->tep = ftc_reader_tep(r);
	p->out = out;
	p->st.size = sizeof(p->st);
	if (o && FTC_OPTS_COPY(&p->o, o, ftc_perfetto_opts, bundle_bytes) < 0)
		goto fail;
	if (!p->o.bundle_bytes)
		p->o.bundle_bytes = DEFAULT_BUNDLE_BYTES;
	if (!p->tep) {
		ftc_error(EINVAL, "the reader was opened for metadata only");
		goto fail;
	}
	p->perf_buffer = ftc_xperf_buffer(r);
	if (p->perf_buffer >= 0 && ftc_pf_perf_open(p) < 0)
		goto fail;
	return p;
fail:
	ftc_perfetto_free(p);
	return NULL;
}

int ftc_perfetto_stats(const struct ftc_perfetto *p, struct ftc_perfetto_stats *st)
{
	return FTC_SIZED_FILL(st, &p->st, ftc_perfetto_stats);
}

void ftc_perfetto_free(struct ftc_perfetto *p)
{
	if (!p)
		return;
	for (int c = 0; c < p->ncpus; c++) {
		ftc_pb_free(&p->cpus[c].events);
		ftc_pf_compact_free(&p->cpus[c].compact);
	}
	free(p->cpus);
	ftc_pf_kinds_free(p);
	ftc_keytab_free(&p->ksyms_by_addr);
	free(p->ksym_ids);
	ftc_pf_strings_free(&p->ksyms);
	ftc_keytab_free(&p->tasks);
	free(p->tgids);
	ftc_pf_perf_free(p);
	ftc_pb_free(&p->pkt);
	ftc_pb_free(&p->tmp);
	free(p);
}
