// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A profile in memory: the samples drained from the rings, and what the
 * kernel told about the processes (COMM, MMAP2, FORK) so the samples'
 * addresses can be symbolized after the processes are gone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"
#include "unwind.h"

struct rec_comm {
	uint32_t pid, tid;
	char comm[];
};

struct rec_mmap2 {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[];
};

struct rec_mmap {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	char filename[];
};

struct rec_fork {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct rec_lost {
	uint64_t id, lost;
};

static void clear_maps(struct ftc_perf_proc *pr)
{
	for (size_t i = 0; i < pr->nmaps; i++)
		free(pr->maps[i].file);
	free(pr->maps);
	pr->maps = NULL;
	pr->nmaps = 0;
}

static int add_map(struct ftc_perf_proc *pr, uint64_t start, uint64_t len, uint64_t pgoff,
		   const char *file)
{
	struct ftc_perf_map *m = realloc(pr->maps, (pr->nmaps + 1) * sizeof(*m));

	if (!m)
		return ftc_error(ENOMEM, "out of memory");
	pr->maps = m;
	m = &m[pr->nmaps];
	m->start = start;
	m->len = len;
	m->pgoff = pgoff;
	m->file = strdup(file);
	if (!m->file)
		return ftc_error(ENOMEM, "out of memory");
	pr->nmaps++;
	return 0;
}

/*
 * A forked child starts with its parent's mappings. They go first in its
 * list, so mappings of its own (even drained earlier from another CPU's
 * ring) still win the lookup, which prefers the latest.
 */
static int on_fork(struct ftc_perf_profile *p, const struct rec_fork *f)
{
	struct ftc_perf_proc *parent, *child;
	struct ftc_perf_map *own;
	size_t nown;

	if (f->pid == f->ppid)	/* a new thread shares its process's maps */
		return 0;
	if (!ftc_perf_proc_add(p, f->pid))
		return ftc_error(ENOMEM, "out of memory");
	parent = ftc_perf_proc_find(p, f->ppid);	/* after the realloc above */
	child = ftc_perf_proc_find(p, f->pid);
	if (!parent)
		return 0;
	memcpy(child->comm, parent->comm, sizeof(child->comm));
	own = child->maps;
	nown = child->nmaps;
	child->maps = NULL;
	child->nmaps = 0;
	for (size_t i = 0; i < parent->nmaps; i++) {
		const struct ftc_perf_map *m = &parent->maps[i];

		if (add_map(child, m->start, m->len, m->pgoff, m->file) < 0)
			goto fail;
	}
	for (size_t i = 0; i < nown; i++) {
		if (add_map(child, own[i].start, own[i].len, own[i].pgoff, own[i].file) < 0)
			goto fail;
		free(own[i].file);
		own[i].file = NULL;
	}
	free(own);
	return 0;
fail:
	for (size_t i = 0; i < nown; i++)
		free(own[i].file);
	free(own);
	return -1;
}

static int on_sample(struct ftc_perf_profile *p, const struct perf_event_header *h)
{
	struct ftc_perf_sample s;
	struct ftc_perf_profile_sample *ns;
	uint64_t n;

	if (ftc_perf_profile_unwind(p, h, &s) < 0)
		return -1;
	n = s.ips ? s.nr : 1;
	if (p->nsamples == p->cap_samples) {
		size_t cap = p->cap_samples ? p->cap_samples * 2 : 4096;

		ns = realloc(p->samples, cap * sizeof(*ns));
		if (!ns)
			return ftc_error(ENOMEM, "out of memory");
		p->samples = ns;
		p->cap_samples = cap;
	}
	while (p->nips + n > p->cap_ips) {
		size_t cap = p->cap_ips ? p->cap_ips * 2 : 65536;
		uint64_t *ni = realloc(p->ips, cap * sizeof(*ni));

		if (!ni)
			return ftc_error(ENOMEM, "out of memory");
		p->ips = ni;
		p->cap_ips = cap;
	}
	ns = &p->samples[p->nsamples++];
	*ns = (struct ftc_perf_profile_sample){
		.pid = s.pid, .tid = s.tid, .cpu = s.cpu, .time = s.time,
		.period = s.period, .misc = h->misc, .at = p->nips, .nr = (uint32_t)n,
	};
	if (s.ips)
		memcpy(p->ips + p->nips, s.ips, n * sizeof(*s.ips));
	else
		p->ips[p->nips] = s.ip;
	p->nips += n;
	return 0;
}

int ftc_perf_profile_add(const struct perf_event_header *h, void *ctx)
{
	struct ftc_perf_profile *p = ctx;
	struct ftc_perf_proc *pr;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		return on_sample(p, h);
	case PERF_RECORD_COMM: {
		const struct rec_comm *c = (const void *)(h + 1);

		pr = ftc_perf_proc_add(p, c->pid);
		if (!pr)
			return ftc_error(ENOMEM, "out of memory");
		if (c->pid != c->tid && !(h->misc & PERF_RECORD_MISC_COMM_EXEC))
			return 0;	/* a thread renamed itself; keep the process name */
		/* Maps are not cleared at exec: rings drain out of order, and
		 * the exec's own mappings win the lookups anyway. */
		snprintf(pr->comm, sizeof(pr->comm), "%s", c->comm);
		return 0;
	}
	case PERF_RECORD_MMAP2: {
		const struct rec_mmap2 *m = (const void *)(h + 1);

		/* Only code is sampled; data maps would only slow the lookups. */
		if (!(m->prot & PROT_EXEC))
			return 0;
		pr = ftc_perf_proc_add(p, m->pid);
		if (!pr)
			return ftc_error(ENOMEM, "out of memory");
		return add_map(pr, m->addr, m->len, m->pgoff, m->filename);
	}
	case PERF_RECORD_MMAP: {
		const struct rec_mmap *m = (const void *)(h + 1);

		pr = ftc_perf_proc_add(p, m->pid);
		if (!pr)
			return ftc_error(ENOMEM, "out of memory");
		return add_map(pr, m->addr, m->len, m->pgoff, m->filename);
	}
	case PERF_RECORD_FORK:
		return on_fork(p, (const void *)(h + 1));
	case PERF_RECORD_LOST:
		p->lost += ((const struct rec_lost *)(const void *)(h + 1))->lost;
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		p->lost += *(const uint64_t *)(const void *)(h + 1);
		return 0;
	default:
		return 0;
	}
}

struct ftc_perf_profile *ftc_perf_profile_new(uint64_t sample_type)
{
	struct ftc_perf_profile *p = calloc(1, sizeof(*p));

	if (!p) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	p->sample_type = sample_type;
	return p;
}

void ftc_perf_profile_free(struct ftc_perf_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nprocs; i++)
		clear_maps(&p->procs[i]);
	free(p->procs);
	ftc_unwinder_free(p->unwinder);
	free(p->chain);
	free(p->samples);
	free(p->ips);
	free(p);
}

size_t ftc_perf_profile_nsamples(const struct ftc_perf_profile *p)
{
	return p->nsamples;
}

uint64_t ftc_perf_profile_lost(const struct ftc_perf_profile *p)
{
	return p->lost;
}

const char *ftc_perf_profile_comm(struct ftc_perf_profile *p, uint32_t pid)
{
	struct ftc_perf_proc *pr = ftc_perf_proc_find(p, pid);

	return pr ? pr->comm : "[unknown]";
}

static const struct ftc_perf_map *find_map(const struct ftc_perf_proc *pr, uint64_t ip)
{
	/* The latest mapping wins: a later mmap over the same range replaced it. */
	for (size_t i = pr ? pr->nmaps : 0; i-- > 0;)
		if (ip >= pr->maps[i].start && ip - pr->maps[i].start < pr->maps[i].len)
			return &pr->maps[i];
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

static void resolve_user(struct ftc_perf_profile *p, struct ftc_symbols *syms,
			 const struct ftc_perf_proc *pr, uint64_t ip, struct ftc_perf_frame *f)
{
	const struct ftc_perf_map *m = find_map(pr, ip);
	const char *name;
	uint64_t off;

	f->kernel = false;
	if (!m) {
		f->dso = "[unknown]";
		snprintf(f->sym, sizeof(f->sym), "[unknown]");
		return;
	}
	f->dso = base_name(m->file);
	off = ip - m->start + m->pgoff;
	name = m->file[0] == '/' ? ftc_symbols_user(syms, m->file, off, NULL) : NULL;
	if (name)
		snprintf(f->sym, sizeof(f->sym), "%s", name);
	else
		snprintf(f->sym, sizeof(f->sym), "%s+0x%" PRIx64, f->dso, off);
}

static void resolve_kernel(struct ftc_symbols *syms, uint64_t ip, struct ftc_perf_frame *f)
{
	const char *name = ftc_symbols_kernel(syms, ip, NULL);

	f->kernel = true;
	f->dso = ftc_symbols_kernel_dso(syms, ip);
	if (name)
		snprintf(f->sym, sizeof(f->sym), "%s", name);
	else
		snprintf(f->sym, sizeof(f->sym), "[kernel]+0x%" PRIx64, ip);
}

int ftc_perf_profile_resolve(struct ftc_perf_profile *p, struct ftc_symbols *syms, uint32_t pid,
			     bool kernel, const uint64_t *ips, size_t nr,
			     struct ftc_perf_frame *frames, int max)
{
	const struct ftc_perf_proc *pr = ftc_perf_proc_find(p, pid);
	bool first = true;
	int n = 0;

	for (size_t k = 0; k < nr && n < max; k++) {
		uint64_t ip = ips[k];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			/* A context marker says whose addresses follow. */
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		/* Past the first frame addresses are returns: look up the call. */
		if (!first && ip)
			ip--;
		first = false;
		if (kernel)
			resolve_kernel(syms, ip, &frames[n]);
		else
			resolve_user(p, syms, pr, ip, &frames[n]);
		n++;
	}
	return n;
}

int ftc_perf_frames_one_unknown(struct ftc_perf_frame *f, int n)
{
	int out = 0;

	for (int i = 0; i < n; i++) {
		if (i < n - 1 && !strcmp(f[i].sym, "[unknown]") && !strcmp(f[i + 1].sym, "[unknown]"))
			continue;
		if (out != i)
			f[out] = f[i];
		out++;
	}
	return out;
}

int ftc_perf_profile_frames(struct ftc_perf_profile *p, struct ftc_symbols *syms, size_t i,
			    struct ftc_perf_frame *frames, int max)
{
	const struct ftc_perf_profile_sample *s = &p->samples[i];
	unsigned int mode = s->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return ftc_perf_profile_resolve(p, syms, s->pid, mode == PERF_RECORD_MISC_KERNEL,
					p->ips + s->at, s->nr, frames, max);
}

static int synthesize_pid(struct ftc_perf_profile *p, uint32_t pid)
{
	char path[64], line[4096];
	struct ftc_perf_proc *pr;
	FILE *f;

	pr = ftc_perf_proc_add(p, pid);
	if (!pr)
		return ftc_error(ENOMEM, "out of memory");
	ftc_task_comm((pid_t)pid, pr->comm, sizeof(pr->comm));
	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;	/* gone already, or a kernel thread */
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8];
		int name_at = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &off,
			   &name_at) < 4 || perms[2] != 'x' || !name_at)
			continue;
		line[strcspn(line, "\n")] = '\0';
		/* Anonymous code (JITs) is named as the kernel names it in MMAP2. */
		if (add_map(pr, start, end - start, off,
			    line[name_at] ? line + name_at : "//anon") < 0) {
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

/* What perf synthesizes: the processes alive before sampling started
 * produced no COMM or MMAP records, so read their state from /proc. */
int ftc_perf_profile_synthesize(struct ftc_perf_profile *p)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	struct ftc_perf_proc *idle;

	if (!d)
		return ftc_error(errno, "/proc: %s", strerror(errno));
	while ((de = readdir(d))) {
		char *end;
		unsigned long pid = strtoul(de->d_name, &end, 10);

		if (*end || !pid)
			continue;
		if (synthesize_pid(p, (uint32_t)pid) < 0) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	idle = ftc_perf_proc_add(p, 0);
	if (!idle)
		return ftc_error(ENOMEM, "out of memory");
	snprintf(idle->comm, sizeof(idle->comm), "swapper");
	return 0;
}
