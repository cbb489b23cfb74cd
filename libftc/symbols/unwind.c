// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * DWARF unwinding of sampled user stacks (--call-graph dwarf). Code built
 * without frame pointers leaves the kernel's frame-pointer walk with
 * nothing to follow; its callers are found the way a debugger finds them,
 * from the call frame information (.eh_frame, .debug_frame) of the files
 * mapped in the process. libdwfl does the walk: the process is described
 * by its code mappings (from the MMAP2 records, so it may be gone by now),
 * its thread by the registers the sample carried, and its memory by the
 * stack bytes the kernel copied, with the read-only parts of the mapped
 * files for the rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "ftc.h"
#include "unwind.h"

/*
 * The registers unwinding starts from, in DWARF's numbering (the index)
 * as perf numbers them (the value); and perf's numbers of the stack
 * pointer and the pc.
 */
#if defined(__x86_64__)
#include <asm/perf_regs.h>
static const int dwarf_regs[] = {
	PERF_REG_X86_AX, PERF_REG_X86_DX, PERF_REG_X86_CX, PERF_REG_X86_BX,
	PERF_REG_X86_SI, PERF_REG_X86_DI, PERF_REG_X86_BP, PERF_REG_X86_SP,
	PERF_REG_X86_R8, PERF_REG_X86_R9, PERF_REG_X86_R10, PERF_REG_X86_R11,
	PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14, PERF_REG_X86_R15,
	PERF_REG_X86_IP,	/* DWARF 16: the return address column */
};
#define REG_SP PERF_REG_X86_SP
#define REG_PC PERF_REG_X86_IP
#elif defined(__aarch64__)
#include <asm/perf_regs.h>
static const int dwarf_regs[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
	20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, PERF_REG_ARM64_SP,
};
#define REG_SP PERF_REG_ARM64_SP
#define REG_PC PERF_REG_ARM64_PC
#else
/* No unwinder for this architecture: --call-graph dwarf is refused. */
static const int dwarf_regs[] = { 0 };
#define REG_SP 0
#define REG_PC 0
#define NO_UNWINDER
#endif
#define NREGS (sizeof(dwarf_regs) / sizeof(dwarf_regs[0]))

#define NPROCS 32	/* sessions kept: the CFI of a process's files is read once */

struct module {
	uint64_t lo, hi;	/* where its image lies in the process */
	char *file;
};

struct proc {
	uint32_t pid;
	size_t nmaps;		/* the mappings the session was told of */
	Dwfl *dwfl;		/* NULL when none could be made */
	struct module *mods;	/* the images reported to it */
	size_t nmods;
	uint64_t used;		/* when last used; 0: a free slot */
};

struct ftc_unwinder {
	struct proc procs[NPROCS];
	uint64_t clock;
	/* The sample being walked, for libdwfl's callbacks. */
	const struct ftc_unwind_stack *st;
	uint64_t sp;
	uint64_t *pcs;
	int n, max;
};

uint64_t ftc_unwind_regs_mask(void)
{
	uint64_t mask = 1ULL << REG_PC;

#ifdef NO_UNWINDER
	return 0;
#endif
	for (size_t i = 0; i < NREGS; i++)
		mask |= 1ULL << dwarf_regs[i];
	return mask;
}

static bool perf_reg(const struct ftc_unwind_stack *st, int reg, uint64_t *v)
{
	uint64_t bit = 1ULL << reg;

	if (!(st->mask & bit))
		return false;
	*v = st->regs[__builtin_popcountll(st->mask & (bit - 1))];
	return true;
}

static void proc_clear(struct proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
	for (size_t i = 0; i < p->nmods; i++)
		free(p->mods[i].file);
	free(p->mods);
	p->mods = NULL;
	p->nmods = 0;
}

struct ftc_unwinder *ftc_unwinder_new(void)
{
	struct ftc_unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		ftc_error(ENOMEM, "out of memory");
	return u;
}

void ftc_unwinder_free(struct ftc_unwinder *u)
{
	if (!u)
		return;
	for (int i = 0; i < NPROCS; i++)
		proc_clear(&u->procs[i]);
	free(u);
}

/* ---- libdwfl's view of the sampled thread ---- */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct ftc_unwinder *u = arg;

	if (*thread_argp)
		return 0;	/* one thread: the sampled one */
	*thread_argp = u;
	return (pid_t)u->st->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	struct ftc_unwinder *u = arg;

	*thread_argp = u;
	return tid == (pid_t)u->st->tid;
}

/* Read-only bytes of the file mapped at addr: what the process has there too. */
static bool read_file(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *out)
{
	Dwfl_Module *m = dwfl_addrmodule(dwfl, addr);
	GElf_Addr bias = 0;
	Elf *elf = m ? dwfl_module_getelf(m, &bias) : NULL;
	size_t n = 0, size = 0;
	char *raw = elf ? elf_rawfile(elf, &size) : NULL;

	if (!raw || elf_getphdrnum(elf, &n) < 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t v = addr - bias;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || (ph.p_flags & PF_W))
			continue;
		if (v < ph.p_vaddr || v - ph.p_vaddr + 8 > ph.p_filesz ||
		    ph.p_offset + (v - ph.p_vaddr) + 8 > size)
			continue;
		memcpy(out, raw + ph.p_offset + (v - ph.p_vaddr), 8);
		return true;
	}
	return false;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *out, void *arg)
{
	struct ftc_unwinder *u = arg;

	if (addr >= u->sp && addr - u->sp + 8 <= u->st->size) {
		memcpy(out, u->st->stack + (addr - u->sp), 8);
		return true;
	}
	return read_file(dwfl, addr, out);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct ftc_unwinder *u = arg;
	Dwarf_Word regs[NREGS];
	uint64_t pc;

	for (size_t i = 0; i < NREGS; i++)
		if (!perf_reg(u->st, dwarf_regs[i], &regs[i]))
			return false;
	if (!perf_reg(u->st, REG_PC, &pc) || !dwfl_thread_state_registers(thread, 0, NREGS, regs))
		return false;
	/* x86_64 takes it from its return address column too; arm64 only so. */
	dwfl_thread_state_register_pc(thread, pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static char *debuginfo_path;

/*
 * Separate debug files are not looked for: unwinding needs the CFI that
 * the code's own files carry (.eh_frame), and the search (the CRC of every
 * candidate file) stalled the drain for up to 100 ms per new process, long
 * enough for the rings to overflow. Symbols still come from debug files
 * (symbols.c).
 */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	return -1;
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

/* ---- a session per process, from its code mappings ---- */

/*
 * Where the file's link-time addresses landed: the mapping's start holds
 * file offset pgoff, which its PT_LOAD puts at p_vaddr + (pgoff - p_offset).
 * lo and hi bound the whole image.
 */
static bool load_range(Elf *elf, const struct ftc_perf_map *m, GElf_Addr *bias, uint64_t *lo,
		       uint64_t *hi)
{
	size_t n = 0;
	bool found = false;

	if (elf_getphdrnum(elf, &n) < 0)
		return false;
	*lo = UINT64_MAX;
	*hi = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (!found && m->pgoff >= (ph.p_offset & ~(uint64_t)0xfff) &&
		    m->pgoff < ph.p_offset + ph.p_filesz) {
			*bias = m->start - ph.p_vaddr + ph.p_offset - m->pgoff;
			found = true;
		}
		if (ph.p_vaddr < *lo)
			*lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > *hi)
			*hi = ph.p_vaddr + ph.p_memsz;
	}
	*lo += *bias;
	*hi += *bias;
	return found;
}

/* The module of p that m's range overlaps, or NULL. */
static const struct module *overlap(const struct proc *p, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < p->nmods; i++)
		if (lo < p->mods[i].hi && p->mods[i].lo < hi)
			return &p->mods[i];
	return NULL;
}

/*
 * Reports the file of m to p's session: 1 when it did, 0 when there was
 * nothing to report (no file, or the image is there already), -1 when m
 * lies over an image that the session has (only a new session can tell
 * the newer one).
 */
static int report_map(struct proc *p, const struct ftc_perf_map *m)
{
	const struct module *o = overlap(p, m->start, m->start + m->len);
	int fd, ret = 0;
	Elf *elf;
	const char *name = strrchr(m->file, '/');
	GElf_Addr bias = 0;
	uint64_t lo, hi;
	struct module *mods;

	if (m->file[0] != '/')
		return 0;	/* [vdso], anonymous code: no file to read */
	if (o)
		return strcmp(o->file, m->file) ? -1 : 0;
	fd = open(m->file, O_RDONLY | O_CLOEXEC);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	if (elf && elf_kind(elf) == ELF_K_ELF && load_range(elf, m, &bias, &lo, &hi))
		ret = overlap(p, lo, hi) ? -1 : 1;
	if (elf)
		elf_end(elf);
	mods = ret > 0 ? realloc(p->mods, (p->nmods + 1) * sizeof(*mods)) : NULL;
	if (mods)
		p->mods = mods;
	/* For ET_EXEC libdwfl ignores the bias: the file says where it goes. */
	if (mods && (mods[p->nmods].file = strdup(m->file)) &&
	    dwfl_report_elf(p->dwfl, name ? name + 1 : m->file, m->file, fd, bias, true)) {
		mods[p->nmods].lo = lo;
		mods[p->nmods].hi = hi;
		p->nmods++;
		return 1;	/* the fd is libdwfl's now */
	}
	if (mods)
		free(mods[p->nmods].file);
	if (fd >= 0)
		close(fd);
	return ret < 0 ? -1 : 0;
}

/* A session of maps, newest first: after an exec its image wins over the old one's. */
static void new_session(struct ftc_unwinder *u, struct proc *p, const struct ftc_perf_map *maps,
			size_t nmaps)
{
	proc_clear(p);
	p->dwfl = dwfl_begin(&callbacks);
	if (!p->dwfl)
		return;
	dwfl_report_begin(p->dwfl);
	for (size_t i = nmaps; i-- > 0;)
		report_map(p, &maps[i]);
	if (dwfl_report_end(p->dwfl, NULL, NULL) != 0 || !p->nmods ||
	    !dwfl_attach_state(p->dwfl, NULL, (pid_t)p->pid, &thread_callbacks, u))
		proc_clear(p);
}

/*
 * The mappings since maps[from] added to the session: a process starting
 * maps its libraries one by one, and a session made again for each would
 * read every file again. false when one lies over an image already there.
 */
static bool add_maps(struct proc *p, const struct ftc_perf_map *maps, size_t from, size_t nmaps)
{
	bool ok = true;

	dwfl_report_begin_add(p->dwfl);
	for (size_t i = from; i < nmaps && ok; i++)
		ok = report_map(p, &maps[i]) >= 0;
	return dwfl_report_end(p->dwfl, NULL, NULL) == 0 && ok;
}

/* The process's slot, or the least recently used one (used 0: free). */
static struct proc *slot(struct ftc_unwinder *u, uint32_t pid)
{
	struct proc *lru = &u->procs[0];

	for (int i = 0; i < NPROCS; i++) {
		struct proc *p = &u->procs[i];

		if (p->used && p->pid == pid)
			return p;
		if (p->used < lru->used)
			lru = p;
	}
	return lru;
}

/*
 * The process's session, brought up to date with its mappings (which only
 * grow). A session that could not be made stays NULL until they change:
 * no retry per sample.
 */
static Dwfl *session(struct ftc_unwinder *u, uint32_t pid, const struct ftc_perf_map *maps,
		     size_t nmaps)
{
	struct proc *p = slot(u, pid);

	if (!p->used || p->pid != pid || nmaps < p->nmaps) {
		proc_clear(p);
		p->pid = pid;
		p->nmaps = 0;
	}
	if (nmaps != p->nmaps && (!p->dwfl || !add_maps(p, maps, p->nmaps, nmaps)))
		new_session(u, p, maps, nmaps);
	p->nmaps = nmaps;
	p->used = ++u->clock;
	return p->dwfl;
}

static int on_frame(Dwfl_Frame *frame, void *arg)
{
	struct ftc_unwinder *u = arg;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(frame, &pc, NULL) || !pc)
		return DWARF_CB_ABORT;
	u->pcs[u->n++] = pc;
	return u->n < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int ftc_unwind(struct ftc_unwinder *u, const struct ftc_unwind_stack *st,
	       const struct ftc_perf_map *maps, size_t nmaps, uint64_t *pcs, int max)
{
	uint64_t pc;
	Dwfl *dwfl;

	if (max < 1 || !ftc_unwind_regs_mask() || !perf_reg(st, REG_PC, &pc))
		return 0;
	pcs[0] = pc;
	dwfl = session(u, st->pid, maps, nmaps);
	if (!dwfl || !perf_reg(st, REG_SP, &u->sp))
		return 1;
	u->st = st;
	u->pcs = pcs;
	u->n = 0;
	u->max = max;
	/* An error ends the walk: what was found before it stands. */
	dwfl_getthread_frames(dwfl, (pid_t)st->tid, on_frame, u);
	u->st = NULL;
	return u->n ? u->n : 1;
}
