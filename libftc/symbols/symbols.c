// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Symbolization of sampled addresses: kernel addresses through kallsyms,
 * user addresses through libdwfl, which finds the symbol table in the file
 * itself or in its separate debug file (build-id, .gnu_debuglink,
 * /usr/lib/debug) and falls back to .dynsym. Callers turn a miss into
 * dso+offset, so a stripped binary still says where its time went.
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "tracefs-layer.h"
#include "ksym-line.h"

struct ksym {
	uint64_t addr;
	char *name;
	const char *dso;	/* "[module]" (interned), NULL in the kernel image */
};

struct load_seg {
	uint64_t offset, vaddr, filesz;
};

/*
 * libdwfl looks a symbol up by scanning the whole symbol table, and a
 * profile asks for the same few addresses again and again (the leaf and
 * every return address of every chain): the answers are kept, the latest
 * per slot of a direct-mapped table.
 */
#define HITS 4096

struct hit {
	uint64_t off;		/* the file offset asked for, plus one (0: empty) */
	const char *name;	/* NULL: no symbol there */
	uint64_t sym_off;
};

struct dso {
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;	/* NULL when the file could not be read */
	GElf_Addr bias;
	struct load_seg *segs;
	size_t nsegs;
	struct hit *hits;	/* HITS of them, made at the first lookup */
};

struct ftc_symbols {
	struct ksym *ksyms;
	size_t nksyms;
	struct dso *dsos;
	size_t ndsos;
	ftc_symbols_kernel_fn kfn;	/* names when no kallsyms was loaded */
	void *kctx;
	ftc_symbols_module_fn mfn;	/* modules likewise */
	void *mctx;
	char **mods;			/* interned "[module]" names */
	size_t nmods;
	char *root;			/* user binaries are read under it */
};

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct ftc_symbols *ftc_symbols_new(void)
{
	struct ftc_symbols *s = calloc(1, sizeof(*s));

	if (!s)
		ftc_error(ENOMEM, "out of memory");
	return s;
}

void ftc_symbols_free(struct ftc_symbols *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nksyms; i++)
		free(s->ksyms[i].name);
	for (size_t i = 0; i < s->ndsos; i++) {
		if (s->dsos[i].dwfl)
			dwfl_end(s->dsos[i].dwfl);
		free(s->dsos[i].path);
		free(s->dsos[i].segs);
		free(s->dsos[i].hits);
	}
	free(s->ksyms);
	for (size_t i = 0; i < s->nmods; i++)
		free(s->mods[i]);
	free(s->mods);
	free(s->dsos);
	free(s->root);
	free(s);
}

int ftc_symbols_set_root(struct ftc_symbols *s, const char *dir)
{
	char *root = NULL;

	if (dir && *dir && !(root = strdup(dir)))
		return ftc_error(ENOMEM, "out of memory");
	free(s->root);
	s->root = root;
	return 0;
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* "[MOD]", once per module: frames point at it as their DSO. */
static const char *intern_mod(struct ftc_symbols *s, const char *mod, size_t len)
{
	char **grown, *dso;

	for (size_t i = 0; i < s->nmods; i++)
		if (strlen(s->mods[i]) == len + 2 && !strncmp(s->mods[i] + 1, mod, len))
			return s->mods[i];
	grown = realloc(s->mods, (s->nmods + 1) * sizeof(*grown));
	if (!grown || asprintf(&dso, "[%.*s]", (int)len, mod) < 0) {
		if (grown)
			s->mods = grown;
		return NULL;
	}
	s->mods = grown;
	s->mods[s->nmods++] = dso;
	return dso;
}

static int push_ksym(struct ftc_symbols *s, size_t *cap, const struct ftc_ksym_line *l)
{
	if (s->nksyms == *cap) {
		size_t ncap = *cap ? *cap * 2 : 65536;
		struct ksym *k = realloc(s->ksyms, ncap * sizeof(*k));

		if (!k)
			return ftc_error(ENOMEM, "out of memory");
		s->ksyms = k;
		*cap = ncap;
	}
	s->ksyms[s->nksyms].addr = l->addr;
	s->ksyms[s->nksyms].name = strndup(l->name, l->name_len);
	s->ksyms[s->nksyms].dso = l->mod ? intern_mod(s, l->mod, l->mod_len) : NULL;
	if (!s->ksyms[s->nksyms].name || (l->mod && !s->ksyms[s->nksyms].dso))
		return ftc_error(ENOMEM, "out of memory");
	s->nksyms++;
	return 0;
}

int ftc_symbols_load_kallsyms(struct ftc_symbols *s, const char *path)
{
	char *text, *line, *save = NULL;
	size_t cap = s->nksyms;
	int ret = 0;

	path = path ? path : "/proc/kallsyms";
	if (ftc_path_read(path, &text, NULL) < 0)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct ftc_ksym_line l;

		if (!ftc_ksym_line_parse(line, line + strlen(line), &l))
			continue;
		/* Only code: samples land in text, and data symbols would split functions. */
		if (!l.addr || !ftc_ksym_is_text(l.type))
			continue;
		ret = push_ksym(s, &cap, &l);
		if (ret < 0)
			break;
	}
	free(text);
	if (ret < 0)
		return -1;
	if (!s->nksyms)
		return ftc_error(EPERM, "%s shows no addresses (kptr_restrict?): run as root", path);
	qsort(s->ksyms, s->nksyms, sizeof(*s->ksyms), ksym_cmp);
	return (int)s->nksyms;
}

void ftc_symbols_set_kernel_resolver(struct ftc_symbols *s, ftc_symbols_kernel_fn fn, void *ctx)
{
	s->kfn = fn;
	s->kctx = ctx;
}

void ftc_symbols_set_module_resolver(struct ftc_symbols *s, ftc_symbols_module_fn fn, void *ctx)
{
	s->mfn = fn;
	s->mctx = ctx;
}

/* The index of the last kallsyms symbol at or below addr, -1 for none. */
static long ksym_at(const struct ftc_symbols *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nksyms;

	if (!s->nksyms || addr < s->ksyms[0].addr)
		return -1;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return (long)lo;
}

const char *ftc_symbols_kernel_dso(struct ftc_symbols *s, uint64_t addr)
{
	const char *mod = NULL, *dso = NULL;
	long i;

	if (!s->nksyms && s->mfn) {
		mod = s->mfn(s->mctx, addr);
		dso = mod ? intern_mod(s, mod, strlen(mod)) : NULL;
	} else if ((i = ksym_at(s, addr)) >= 0) {
		dso = s->ksyms[i].dso;
	}
	return dso ? dso : "[kernel.kallsyms]";
}

const char *ftc_symbols_kernel(struct ftc_symbols *s, uint64_t addr, uint64_t *off)
{
	long i;

	if (!s->nksyms && s->kfn)
		return s->kfn(s->kctx, addr, off);
	i = ksym_at(s, addr);
	if (i < 0)
		return NULL;
	if (off)
		*off = addr - s->ksyms[i].addr;
	return s->ksyms[i].name;
}

static void load_segments(struct dso *d)
{
	Elf *elf = dwfl_module_getelf(d->mod, &d->bias);
	size_t n = 0;

	if (!elf || elf_getphdrnum(elf, &n) < 0)
		return;
	d->segs = calloc(n ? n : 1, sizeof(*d->segs));
	if (!d->segs)
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->segs[d->nsegs++] = (struct load_seg){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
}

/*
 * The recording machine's path, under the root when one is set (a board's
 * files copied to this host, as perf --symfs): never this host's own file
 * of the same name, which would give wrong names.
 */
static Dwfl_Module *report_file(struct ftc_symbols *s, Dwfl *dwfl, const char *path)
{
	Dwfl_Module *mod;
	char *full;

	if (!s->root)
		return dwfl_report_offline(dwfl, path, path, -1);
	if (asprintf(&full, "%s/%s", s->root, path + (path[0] == '/')) < 0)
		return NULL;
	mod = dwfl_report_offline(dwfl, path, full, -1);
	free(full);
	return mod;
}

static struct dso *find_dso(struct ftc_symbols *s, const char *path)
{
	struct dso *d;

	for (size_t i = 0; i < s->ndsos; i++)
		if (!strcmp(s->dsos[i].path, path))
			return &s->dsos[i];
	d = realloc(s->dsos, (s->ndsos + 1) * sizeof(*d));
	if (!d)
		return NULL;
	s->dsos = d;
	d = &s->dsos[s->ndsos];
	memset(d, 0, sizeof(*d));
	d->path = strdup(path);
	if (!d->path)
		return NULL;
	s->ndsos++;
	/* A file we cannot open stays in the table as a miss, not retried. */
	d->dwfl = dwfl_begin(&offline_callbacks);
	if (!d->dwfl)
		return d;
	dwfl_report_begin(d->dwfl);
	d->mod = report_file(s, d->dwfl, path);
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (d->mod)
		load_segments(d);
	return d;
}

/* A file offset to the link-time address, through the PT_LOAD holding it. */
static bool offset_to_vaddr(const struct dso *d, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < d->nsegs; i++) {
		const struct load_seg *g = &d->segs[i];

		if (off >= g->offset && off < g->offset + g->filesz) {
			*vaddr = off - g->offset + g->vaddr;
			return true;
		}
	}
	return false;
}

const char *ftc_symbols_user(struct ftc_symbols *s, const char *path, uint64_t file_off,
			     uint64_t *sym_off)
{
	struct dso *d = find_dso(s, path);
	GElf_Off offset = 0;
	GElf_Sym sym;
	uint64_t vaddr;
	const char *name;
	struct hit *h;

	if (!d || !d->mod || !offset_to_vaddr(d, file_off, &vaddr))
		return NULL;
	if (!d->hits)
		d->hits = calloc(HITS, sizeof(*d->hits));
	h = d->hits ? &d->hits[(file_off * 0x9e3779b97f4a7c15ULL) >> 52] : NULL;
	if (h && h->off == file_off + 1) {
		if (h->name && sym_off)
			*sym_off = h->sym_off;
		return h->name;
	}
	name = dwfl_module_addrinfo(d->mod, vaddr + d->bias, &offset, &sym, NULL, NULL, NULL);
	if (h)
		*h = (struct hit){ file_off + 1, name, offset };
	if (name && sym_off)
		*sym_off = offset;
	return name;
}
