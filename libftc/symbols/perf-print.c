// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Printing the perf samples that ftc record stores (system "ftc_perf"):
 * the sampled address gets its symbol, from the kallsyms stored in the
 * file for kernel addresses, and for user ones from the code mappings
 * that the ftc_perf:mmap events before it described (libdw through
 * symbols.c, by file and file offset). The callchain is a __data_loc
 * array inside the record: it is copied, never cast (payloads are only
 * 4-byte aligned). Only libtraceevent's API is used here, so that
 * plugins/plugin_ftc_perf.so prints the same for trace-cmd.
 */
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <linux/perf_event.h>

#include "ftc-symbols.h"
#include "perf-print.h"

#define CHAIN_SHOWN	4	/* callers printed after the sampled frame */

struct ftc_perf_pmap {
	uint32_t pid;
	uint64_t start, len, pgoff;
	char *file;
};

static unsigned long long field_u64(struct tep_event *ev, struct tep_record *rec,
				    const char *name)
{
	unsigned long long v = 0;
	struct tep_format_field *f = tep_find_field(ev, name);

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

static void put_frame(struct ftc_perf_print *p, struct trace_seq *s, uint32_t pid, uint64_t ip)
{
	const char *name;
	uint64_t off = 0;

	if (ip >> 63) {
		if (p->need_kallsyms)
			p->need_kallsyms(p->arg);
		name = tep_find_function(p->tep, ip);
		if (name) {
			off = ip - tep_find_function_address(p->tep, ip);
			trace_seq_printf(s, "%s+0x%llx [k]", name, (unsigned long long)off);
		} else {
			trace_seq_printf(s, "0x%llx [k]", (unsigned long long)ip);
		}
		return;
	}
	/* The newest mapping of the task that holds ip. */
	for (size_t i = p->nmaps; i-- > 0;) {
		const struct ftc_perf_pmap *m = &p->maps[i];
		const char *base;
		uint64_t foff;

		if (m->pid != pid || ip < m->start || ip - m->start >= m->len)
			continue;
		foff = ip - m->start + m->pgoff;
		base = strrchr(m->file, '/') ? strrchr(m->file, '/') + 1 : m->file;
		if (!p->syms && (p->syms = ftc_symbols_new()) != NULL && p->symfs)
			ftc_symbols_set_root(p->syms, p->symfs);
		name = p->syms && m->file[0] == '/' ?
			ftc_symbols_user(p->syms, m->file, foff, &off) : NULL;
		if (name)
			trace_seq_printf(s, "%s+0x%llx [%s]", name, (unsigned long long)off, base);
		else
			trace_seq_printf(s, "%s+0x%llx", base, (unsigned long long)foff);
		return;
	}
	trace_seq_printf(s, "0x%llx", (unsigned long long)ip);
}

int ftc_perf_print_sample(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
			  void *ctx)
{
	struct ftc_perf_print *p = ctx;
	struct tep_format_field *f = tep_find_field(ev, "callchain");
	uint32_t pid = (uint32_t)tep_data_pid(p->tep, rec);
	uint64_t ip = field_u64(ev, rec, "ip");
	unsigned int shown = 0, nr = 0, loc = 0;

	trace_seq_printf(s, "ip=0x%llx ", (unsigned long long)ip);
	put_frame(p, s, pid, ip);
	trace_seq_printf(s, " tid=%llu period=%llu", field_u64(ev, rec, "tid"),
			 field_u64(ev, rec, "period"));
	if (f && f->offset + 4 <= rec->size)
		memcpy(&loc, (const char *)rec->data + f->offset, 4);
	if ((loc & 0xffff) + (loc >> 16) <= (unsigned int)rec->size)
		nr = (loc >> 16) / 8;
	for (unsigned int i = 0; i < nr && shown < CHAIN_SHOWN; i++) {
		uint64_t a;

		memcpy(&a, (const char *)rec->data + (loc & 0xffff) + i * 8, 8);
		/* Context markers, and the sampled ip that the chain repeats first. */
		if (a >= (uint64_t)PERF_CONTEXT_MAX || (shown == 0 && a == ip && i < 2))
			continue;
		trace_seq_puts(s, shown ? " <- " : " <- ");
		put_frame(p, s, pid, a);
		shown++;
	}
	if (nr)
		trace_seq_printf(s, " (%u frames)", nr);
	return 0;
}

int ftc_perf_print_mmap(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
			void *ctx)
{
	struct ftc_perf_print *p = ctx;
	struct tep_format_field *f = tep_find_field(ev, "filename");
	unsigned int loc = 0;
	struct ftc_perf_pmap m = { 0 };

	m.pid = (uint32_t)tep_data_pid(p->tep, rec);
	m.start = field_u64(ev, rec, "start");
	m.len = field_u64(ev, rec, "len");
	m.pgoff = field_u64(ev, rec, "pgoff");
	if (f && f->offset + 4 <= rec->size)
		memcpy(&loc, (const char *)rec->data + f->offset, 4);
	if ((loc >> 16) && (loc & 0xffff) + (loc >> 16) <= (unsigned int)rec->size)
		m.file = strndup((const char *)rec->data + (loc & 0xffff), loc >> 16);
	trace_seq_printf(s, "start=0x%llx len=0x%llx pgoff=0x%llx %s",
			 (unsigned long long)m.start, (unsigned long long)m.len,
			 (unsigned long long)m.pgoff, m.file ? m.file : "");
	if (!m.file)
		return 0;
	if (p->nmaps == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		struct ftc_perf_pmap *n = realloc(p->maps, cap * sizeof(*n));

		if (!n) {
			free(m.file);
			return 0;
		}
		p->maps = n;
		p->cap = cap;
	}
	p->maps[p->nmaps++] = m;
	return 0;
}

void ftc_perf_print_release(struct ftc_perf_print *p)
{
	for (size_t i = 0; i < p->nmaps; i++)
		free(p->maps[i].file);
	free(p->maps);
	ftc_symbols_free(p->syms);
	p->maps = NULL;
	p->nmaps = p->cap = 0;
	p->syms = NULL;
}
