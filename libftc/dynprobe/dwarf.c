// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * DWARF for uprobes: a function's probe point past its prologue (where
 * -O0 code has stored its parameters), FILE:LINE to an address, and
 * variables to fetchargs: a register, memory at a register plus an offset
 * (the frame base through the CFA from the call-frame information), with
 * the kernel type of their DWARF type.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdw.h>

#include "ftc.h"
#include "dynprobe.h"

/* The x86-64 DWARF register numbers, in the kernel's fetcharg names. */
static const char *const x86_64_regs[] = {
	"ax", "dx", "cx", "bx", "si", "di", "bp", "sp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};
#define NREGS (sizeof(x86_64_regs) / sizeof(x86_64_regs[0]))

/* ELF vaddr <-> DWARF address (the debug file may be laid out apart). */
static Dwarf_Addr to_dw(const struct ubin *b, GElf_Addr a)
{
	return a + b->elf_bias - b->dw_bias;
}

static int no_dwarf(const struct ubin *b)
{
	return ftc_error(ENOENT, "%s: no DWARF (build it with -g, or install its debug "
			 "file under /usr/lib/debug)", b->path);
}

struct func_find {
	const char *name;
	Dwarf_Addr addr;	/* 0: by name */
	Dwarf_Die die;
	bool found;
};

static int func_cb(Dwarf_Die *die, void *arg)
{
	struct func_find *f = arg;
	Dwarf_Addr low;
	const char *name;

	if (dwarf_lowpc(die, &low) != 0)
		return DWARF_CB_OK;
	name = dwarf_diename(die);
	if (f->addr ? low == f->addr : (name && !strcmp(name, f->name))) {
		f->die = *die;
		f->found = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* The function's DIE, by its symbol's address (aliases such as malloc of
 * __libc_malloc), else by name. */
static int func_die(struct ubin *b, const char *name, GElf_Addr sym, Dwarf_Die *die)
{
	struct func_find f = { .name = name, .addr = sym ? to_dw(b, sym) : 0 };
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (!b->dw)
		return no_dwarf(b);
	if (f.addr) {
		Dwarf_Die cu;

		if (dwarf_addrdie(b->dw, f.addr, &cu))
			dwarf_getfuncs(&cu, func_cb, &f, 0);
	}
	for (f.addr = 0; !f.found && !dwarf_nextcu(b->dw, off, &next, &hsize, NULL, NULL, NULL);
	     off = next) {
		Dwarf_Die cu;

		if (dwarf_offdie(b->dw, off + hsize, &cu))
			dwarf_getfuncs(&cu, func_cb, &f, 0);
	}
	if (!f.found)
		return ftc_error(ENOENT, "%s: no DWARF for function '%s'", b->path, name);
	*die = f.die;
	return 0;
}

static bool file_match(const char *have, const char *want)
{
	size_t lh = strlen(have), lw = strlen(want);

	if (!strcmp(have, want))
		return true;
	return lh > lw && have[lh - lw - 1] == '/' && !strcmp(have + lh - lw, want);
}

/* Calls fn for each line row of the binary; stops on nonzero. */
static int each_line(struct ubin *b, int (*fn)(Dwarf_Line *l, void *ctx), void *ctx)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	for (; !dwarf_nextcu(b->dw, off, &next, &hsize, NULL, NULL, NULL); off = next) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t n;

		if (!dwarf_offdie(b->dw, off + hsize, &cu) || dwarf_getsrclines(&cu, &lines, &n))
			continue;
		for (size_t i = 0; i < n; i++) {
			int r = fn(dwarf_onesrcline(lines, i), ctx);

			if (r)
				return r;
		}
	}
	return 0;
}

struct first_after {
	Dwarf_Addr low, high, best;
};

static int first_after_cb(Dwarf_Line *l, void *ctx)
{
	struct first_after *f = ctx;
	Dwarf_Addr a;

	if (!dwarf_lineaddr(l, &a) && a > f->low && a < f->high && (!f->best || a < f->best))
		f->best = a;
	return 0;
}

/* Unoptimized code keeps its variables in stack homes (one expression
 * for the whole function, frame-based) that the prologue fills in;
 * optimized code describes them with location lists valid from the entry. */
static bool has_stack_homes(Dwarf_Die *func)
{
	Dwarf_Die child;
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;

	if (dwarf_child(func, &child))
		return false;
	do {
		if (dwarf_tag(&child) != DW_TAG_formal_parameter &&
		    dwarf_tag(&child) != DW_TAG_variable)
			continue;
		if (!dwarf_attr(&child, DW_AT_location, &attr) ||
		    dwarf_whatform(&attr) != DW_FORM_exprloc)
			continue;
		if (dwarf_getlocation(&attr, &ops, &n) == 0 && n >= 1 &&
		    ops[0].atom == DW_OP_fbreg)
			return true;
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

int ftc_udw_func_point(struct ubin *b, const char *func, GElf_Addr sym, bool skip_prologue,
		       GElf_Addr *addr)
{
	struct first_after f = { 0 };
	Dwarf_Die die;

	*addr = sym;
	if (!skip_prologue || !b->dw || func_die(b, func, sym, &die) < 0 || !has_stack_homes(&die))
		return 0;
	if (dwarf_lowpc(&die, &f.low) || dwarf_highpc(&die, &f.high))
		return 0;
	/* the second line row: the first statement, past the prologue */
	each_line(b, first_after_cb, &f);
	if (f.best)
		*addr = f.best - b->elf_bias + b->dw_bias;
	return 0;
}

struct line_find {
	const char *file;
	unsigned long line;
	Dwarf_Addr best;
	bool found, file_seen;
	unsigned long below, above;	/* the nearest lines that have code */
	const char *near_file;
	size_t near_dist;
};

static int line_cb(Dwarf_Line *l, void *ctx)
{
	struct line_find *f = ctx;
	const char *src = dwarf_linesrc(l, NULL, NULL);
	Dwarf_Addr a;
	int no;
	bool stmt = false;

	if (!src || dwarf_lineno(l, &no) || dwarf_lineaddr(l, &a))
		return 0;
	if (!file_match(src, f->file)) {
		const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
		size_t d = ftc_edit_distance(f->file, base);

		if (!f->near_file || d < f->near_dist) {
			f->near_file = src;
			f->near_dist = d;
		}
		return 0;
	}
	f->file_seen = true;
	dwarf_linebeginstatement(l, &stmt);
	if ((unsigned long)no == f->line && stmt && (!f->found || a < f->best)) {
		f->best = a;
		f->found = true;
	}
	if ((unsigned long)no < f->line && (unsigned long)no > f->below)
		f->below = no;
	if ((unsigned long)no > f->line && (!f->above || (unsigned long)no < f->above))
		f->above = no;
	return 0;
}

int ftc_udw_line_addr(struct ubin *b, const char *file, unsigned long line, GElf_Addr *addr)
{
	struct line_find f = { .file = file, .line = line };
	char near[128] = "";

	if (!b->dw)
		return no_dwarf(b);
	each_line(b, line_cb, &f);
	if (f.found) {
		*addr = f.best - b->elf_bias + b->dw_bias;
		return 0;
	}
	if (!f.file_seen)
		return ftc_error(ENOENT, "%s: no source file '%s' in its DWARF%s%s%s", b->path,
				 file, f.near_file ? " (nearest: " : "",
				 f.near_file ? f.near_file : "", f.near_file ? ")" : "");
	if (f.below)
		snprintf(near, sizeof(near), "%lu", f.below);
	if (f.above)
		snprintf(near + strlen(near), sizeof(near) - strlen(near), "%s%lu",
			 f.below ? " and " : "", f.above);
	return ftc_error(ENOENT, "%s: %s:%lu has no code%s%s%s", b->path, file, line,
			 *near ? " (nearest lines with code: " : "", near, *near ? ")" : "");
}

/* typedefs and qualifiers stripped */
static bool type_die(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, type))
		return false;
	return dwarf_peel_type(type, type) == 0;
}

/* The kernel's name for a DWARF type; NULL for what it cannot fetch. */
static const char *kernel_type(Dwarf_Die *die, bool *pointer, bool *array)
{
	static const char *const s[] = { "s8", "s16", NULL, "s32", NULL, NULL, NULL, "s64" };
	static const char *const u[] = { "u8", "u16", NULL, "u32", NULL, NULL, NULL, "u64" };
	Dwarf_Die t;
	Dwarf_Word size = 0, enc = 0;
	Dwarf_Attribute attr;

	*pointer = *array = false;
	if (!type_die(die, &t))
		return NULL;
	if (dwarf_tag(&t) == DW_TAG_pointer_type) {
		*pointer = true;
		return "x64";
	}
	if (dwarf_tag(&t) == DW_TAG_array_type) {
		*array = true;
		return NULL;
	}
	size = dwarf_bytesize(&t);
	if (size < 1 || size > 8 || (dwarf_tag(&t) != DW_TAG_base_type &&
				     dwarf_tag(&t) != DW_TAG_enumeration_type))
		return NULL;
	if (dwarf_attr(&t, DW_AT_encoding, &attr))
		dwarf_formudata(&attr, &enc);
	if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
		return s[size - 1];
	return u[size - 1];
}

/* One location op to "%reg" (value in a register) or "+OFF(%reg)" as an
 * address (mem true: the value is in memory there). */
static int reg_name(Dwarf_Word r, const char **name)
{
	if (r >= NREGS)
		return ftc_error(ENOTSUP, "DWARF register %llu has no fetcharg name here",
				 (unsigned long long)r);
	*name = x86_64_regs[r];
	return 0;
}

/* The CFA at pc as register + offset, from .eh_frame or .debug_frame. */
static int cfa_at(struct ubin *b, Dwarf_Addr pc, const char **reg, Dwarf_Sword *off)
{
	/* the .eh_frame reader is ours to end; .debug_frame's belongs to b->dw */
	Dwarf_CFI *cfis[2] = { dwarf_getcfi_elf(b->elf), b->dw ? dwarf_getcfi(b->dw) : NULL };
	int ret = 1;

	for (int i = 0; i < 2 && ret > 0; i++) {
		Dwarf_Frame *frame;
		Dwarf_Op *ops, op;
		size_t n;
		Dwarf_Addr at = i ? pc : pc + b->dw_bias - b->elf_bias;

		if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], at, &frame))
			continue;
		if (dwarf_frame_cfa(frame, &ops, &n) || n != 1) {
			free(frame);
			continue;
		}
		/* ops live in frame: read them before it goes */
		op = ops[0];
		free(frame);
		if (op.atom == DW_OP_bregx) {
			*off = (Dwarf_Sword)op.number2;
			ret = reg_name(op.number, reg);
		} else if (op.atom >= DW_OP_breg0 && op.atom <= DW_OP_breg31) {
			*off = (Dwarf_Sword)op.number;
			ret = reg_name(op.atom - DW_OP_breg0, reg);
		}
	}
	if (cfis[0])
		dwarf_cfi_end(cfis[0]);
	if (ret <= 0)
		return ret;
	return ftc_error(ENOTSUP, "%s: no call-frame information for 0x%llx", b->path,
			 (unsigned long long)pc);
}

static int frame_base(struct ubin *b, Dwarf_Die *func, Dwarf_Addr pc, const char **reg,
		      Dwarf_Sword *off)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;

	if (!dwarf_attr(func, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation_addr(&attr, pc, &ops, &n, 1) != 1 || n != 1)
		return ftc_error(ENOTSUP, "no frame base at 0x%llx", (unsigned long long)pc);
	if (ops[0].atom == DW_OP_call_frame_cfa)
		return cfa_at(b, pc, reg, off);
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*off = (Dwarf_Sword)ops[0].number;
		return reg_name(ops[0].atom - DW_OP_breg0, reg);
	}
	return ftc_error(ENOTSUP, "a frame base this simple reader does not follow (op 0x%x)",
			 ops[0].atom);
}

/* The variable's value as a fetcharg; *addr_form: the address where it
 * lives instead (for arrays read as strings). */
static int var_fetch(struct ubin *b, Dwarf_Die *func, Dwarf_Die *var, Dwarf_Addr pc,
		     char *val, size_t vsize, char *where, size_t wsize)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;
	const char *reg = NULL;
	Dwarf_Sword off = 0;
	int r;

	if (!dwarf_attr(var, DW_AT_location, &attr))
		return ftc_error(ENOENT, "optimized out (no location)");
	r = dwarf_getlocation_addr(&attr, pc, &ops, &n, 1);
	if (r <= 0 || n == 0)
		return ftc_error(ENOENT, "not live at 0x%llx", (unsigned long long)pc);
	if (n != 1)
		return ftc_error(ENOTSUP, "its location is an expression of %zu steps", n);
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
		if (reg_name(ops[0].atom - DW_OP_reg0, &reg) < 0)
			return -1;
		snprintf(val, vsize, "%%%s", reg);
		*where = '\0';
		return 0;
	}
	if (ops[0].atom == DW_OP_fbreg) {
		Dwarf_Sword fb = 0;

		if (frame_base(b, func, pc, &reg, &fb) < 0)
			return -1;
		off = fb + (Dwarf_Sword)ops[0].number;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		if (reg_name(ops[0].atom - DW_OP_breg0, &reg) < 0)
			return -1;
		off = (Dwarf_Sword)ops[0].number;
	} else {
		return ftc_error(ENOTSUP, "its location (op 0x%x) is not a register or the stack",
				 ops[0].atom);
	}
	snprintf(val, vsize, "%+lld(%%%s)", (long long)off, reg);
	snprintf(where, wsize, "%+lld(%%%s)", (long long)off, reg);
	return 0;
}

/* Where a variable that is not visible at pc is, for the message. */
struct where_ctx {
	const char *name;
	char out[256];
};

static void find_elsewhere(Dwarf_Die *scope, struct where_ctx *w, int depth)
{
	Dwarf_Die child;

	if (depth > 32 || dwarf_child(scope, &child))
		return;
	do {
		int tag = dwarf_tag(&child);
		const char *n = dwarf_diename(&child);

		if ((tag == DW_TAG_variable || tag == DW_TAG_formal_parameter) && n &&
		    !strcmp(n, w->name) && !*w->out) {
			int line = 0;

			dwarf_decl_line(&child, &line);
			snprintf(w->out, sizeof(w->out), "declared at line %d, %s", line,
				 dwarf_tag(scope) == DW_TAG_lexical_block ?
				 "in an inner block: probe a line inside that block" :
				 "but not live here");
		}
		if (tag == DW_TAG_lexical_block)
			find_elsewhere(&child, w, depth + 1);
	} while (!dwarf_siblingof(&child, &child));
}

static int scope_func(Dwarf_Die *scopes, int n)
{
	for (int i = 0; i < n; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			return i;
	return -1;
}

/* "nearest: a, b" among the variables visible in the scopes. */
static void nearest_visible(Dwarf_Die *scopes, int n, const char *name, char *out, size_t size)
{
	static const char lead[] = "nearest: ";
	struct near_names near = { 0 };

	for (int i = 0; i < n; i++) {
		Dwarf_Die child;

		if (dwarf_child(&scopes[i], &child))
			continue;
		do {
			const char *v = dwarf_diename(&child);
			int tag = dwarf_tag(&child);

			if (!v || (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter))
				continue;
			ftc_near_consider(&near, name, v);
		} while (!dwarf_siblingof(&child, &child));
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
	}
	if (near.count && size > sizeof(lead)) {
		strcpy(out, lead);
		ftc_near_format(&near, out + strlen(lead), size - strlen(lead));
	}
}

static int var_missing(struct ubin *b, Dwarf_Die *scopes, int n, int fi, const char *name,
		       Dwarf_Addr pc)
{
	struct where_ctx w = { .name = name };
	Dwarf_Die cu;
	Dwarf_Line *l;
	int line = 0;

	if (dwarf_addrdie(b->dw, pc, &cu) && (l = dwarf_getsrc_die(&cu, pc)))
		dwarf_lineno(l, &line);
	if (fi >= 0)
		find_elsewhere(&scopes[fi], &w, 0);
	if (!*w.out)
		nearest_visible(scopes, n, name, w.out, sizeof(w.out));
	return ftc_error(ENOENT, "%s: variable '%s' is not visible at line %d (0x%llx)%s%s",
			 b->path, name, line, (unsigned long long)pc, *w.out ? ": " : "", w.out);
}

static int scopes_at(struct ubin *b, Dwarf_Addr pc, Dwarf_Die **scopes)
{
	Dwarf_Die cu;
	int n;

	if (!b->dw)
		return no_dwarf(b);
	if (!dwarf_addrdie(b->dw, pc, &cu) || (n = dwarf_getscopes(&cu, pc, scopes)) <= 0)
		return ftc_error(ENOENT, "%s: no DWARF scope at 0x%llx", b->path,
				 (unsigned long long)pc);
	return n;
}

static int one_var(struct ubin *b, const struct ftc_probe_arg *a, Dwarf_Die *scopes, int n,
		   Dwarf_Addr pc, char **def)
{
	Dwarf_Die var;
	int fi = scope_func(scopes, n);
	char val[96], where[96];
	const char *kt;
	bool ptr, arr, str = a->type && !strcmp(a->type, "string");
	const char *name = a->name ? a->name : a->fetch;

	if (dwarf_getscopevar(scopes, n, a->fetch, 0, NULL, 0, 0, &var) < 0)
		return var_missing(b, scopes, n, fi, a->fetch, pc);
	if (var_fetch(b, fi >= 0 ? &scopes[fi] : &scopes[0], &var, pc, val, sizeof(val), where,
		      sizeof(where)) < 0)
		return ftc_error(errno, "%s: variable '%s': %s", b->path, a->fetch,
				 ftc_strerror());
	kt = kernel_type(&var, &ptr, &arr);
	if (str && arr && *where)
		return ftc_str_addf(def, " %s=%s:string", name, where);
	if (str && ptr)
		return ftc_str_addf(def, " %s=+0(%s):string", name, val);
	if (str)
		return ftc_error(EINVAL, "%s: variable '%s' is not a char pointer or array: "
				 "drop ':string'", b->path, a->fetch);
	if (!kt && !a->type)
		return ftc_error(ENOTSUP, "%s: variable '%s' is not a number or a pointer "
				 "(structs are not fetched whole)", b->path, a->fetch);
	return ftc_str_addf(def, " %s=%s:%s", name, val, a->type ? a->type : kt);
}

static int retval_arg(struct ubin *b, const struct ftc_probe_spec *ps,
		      const struct ftc_probe_arg *a, GElf_Addr sym, char **def)
{
	const char *name = a->name ? a->name : "retval";
	const char *kt = NULL;
	bool ptr = false, arr;
	Dwarf_Die die;

	if (b->dw && func_die(b, ps->func, sym, &die) == 0)
		kt = kernel_type(&die, &ptr, &arr);
	if (a->type && !strcmp(a->type, "string"))
		return ftc_str_addf(def, " %s=+0($retval):string", name);
	if (a->type || kt)
		return ftc_str_addf(def, " %s=$retval:%s", name, a->type ? a->type : kt);
	return ftc_str_addf(def, " %s=$retval", name);
}

int ftc_udw_args(struct ubin *b, const struct ftc_probe_spec *ps, GElf_Addr addr, char **def)
{
	Dwarf_Die *scopes = NULL;
	int n = 0, ret = 0;
	Dwarf_Addr pc = to_dw(b, addr);

	for (size_t i = 0; i < ps->nargs && !ret; i++) {
		const struct ftc_probe_arg *a = &ps->args[i];

		if (a->raw && !strcmp(a->fetch, "$retval")) {
			ret = retval_arg(b, ps, a, addr, def);
			continue;
		}
		if (a->raw) {
			ret = ftc_str_addf(def, " %s%s%s%s%s", a->name ? a->name : "",
					   a->name ? "=" : "", a->fetch, a->type ? ":" : "",
					   a->type ? a->type : "");
			continue;
		}
		if (ps->ret) {
			ret = ftc_error(EINVAL, "%s: a return probe sees no variables: use "
					"$retval", b->path);
			continue;
		}
		if (!scopes && (n = scopes_at(b, pc, &scopes)) < 0)
			return -1;
		ret = one_var(b, a, scopes, n, pc, def);
	}
	free(scopes);
	return ret;
}

struct func_lines {
	Dwarf_Addr low, high;
	const char *file;
	bool has[4096];		/* relative to the first line */
	int first, last;
};

static int func_lines_cb(Dwarf_Line *l, void *ctx)
{
	struct func_lines *f = ctx;
	const char *src = dwarf_linesrc(l, NULL, NULL);
	Dwarf_Addr a;
	int no;

	/* the entry is the function's own line, 0, as perf counts */
	if (!src || dwarf_lineno(l, &no) || dwarf_lineaddr(l, &a) || a <= f->low || a >= f->high)
		return 0;
	if (!file_match(src, f->file) || no < f->first || no - f->first >= 4096)
		return 0;
	f->has[no - f->first] = true;
	if (no > f->last)
		f->last = no;
	return 0;
}

static int func_by_name(struct ubin *b, const char *func, GElf_Addr *sym, Dwarf_Die *die)
{
	if (ftc_ubin_func_addr(b, func, sym) < 0)
		return -1;
	return func_die(b, func, *sym, die);
}

/* A relative source name joined to its unit's compile directory. */
static void full_path(Dwarf_Die *die, const char *file, char *buf, size_t size)
{
	Dwarf_Die cu;
	Dwarf_Attribute attr;
	const char *dir = NULL;

	if (*file != '/' && dwarf_diecu(die, &cu, NULL, NULL) &&
	    dwarf_attr(&cu, DW_AT_comp_dir, &attr))
		dir = dwarf_formstring(&attr);
	if (dir)
		snprintf(buf, size, "%s/%s", dir, file);
	else
		snprintf(buf, size, "%s", file);
}

/* As perf probe -L: "<func@FILE:0>", then each line of the function
 * numbered from its first when it has code, the source text beside. */
int ftc_udw_list_lines(struct ubin *b, const char *func, FILE *out)
{
	struct func_lines *f;
	Dwarf_Die die;
	GElf_Addr sym;
	FILE *src;
	char text[1024], path[1024];
	int line = 0;

	if (func_by_name(b, func, &sym, &die) < 0)
		return -1;
	f = calloc(1, sizeof(*f));
	if (!f)
		return ftc_error(ENOMEM, "out of memory");
	f->file = dwarf_decl_file(&die);
	dwarf_decl_line(&die, &f->first);
	if (!f->file || dwarf_lowpc(&die, &f->low) || dwarf_highpc(&die, &f->high)) {
		free(f);
		return ftc_error(ENOENT, "%s: '%s' has no source lines in its DWARF", b->path, func);
	}
	f->last = f->first;
	f->has[0] = true;
	each_line(b, func_lines_cb, f);
	full_path(&die, f->file, path, sizeof(path));
	fprintf(out, "<%s@%s:0>\n", func, path);
	src = fopen(path, "r");
	for (int no = f->first; no <= f->last; no++) {
		*text = '\0';
		while (src && line < no && fgets(text, sizeof(text), src))
			line++;
		text[strcspn(text, "\n")] = '\0';
		if (f->has[no - f->first])
			fprintf(out, "%7d  %s\n", no - f->first, text);
		else
			fprintf(out, "         %s\n", text);
	}
	if (src)
		fclose(src);
	free(f);
	return 0;
}

static void type_name(Dwarf_Die *var, char *buf, size_t size)
{
	Dwarf_Attribute attr;
	Dwarf_Die t;
	int stars = 0;
	const char *name = NULL, *kind = "";

	if (!dwarf_attr_integrate(var, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &t)) {
		snprintf(buf, size, "void");
		return;
	}
	for (int i = 0; i < 16; i++) {
		int tag = dwarf_tag(&t);

		if (tag == DW_TAG_pointer_type)
			stars++;
		/* an array reads as a pointer to its elements, as perf prints it */
		if (tag == DW_TAG_array_type)
			stars++;
		if (tag != DW_TAG_pointer_type && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_array_type) {
			name = dwarf_diename(&t);
			kind = tag == DW_TAG_structure_type ? "struct " :
			       tag == DW_TAG_union_type ? "union " :
			       tag == DW_TAG_enumeration_type ? "enum " : "";
			break;
		}
		if (!dwarf_attr_integrate(&t, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &t)) {
			name = "void";
			break;
		}
	}
	snprintf(buf, size, "%s%s%.*s", kind, name ? name : "?", stars, "****************");
}

/* A location that covers pc (an optimized variable may live elsewhere). */
static bool live_at(Dwarf_Die *var, Dwarf_Addr pc)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;

	return dwarf_attr(var, DW_AT_location, &attr) &&
	       dwarf_getlocation_addr(&attr, pc, &ops, &n, 1) > 0 && n > 0;
}

/* As perf probe -V: the variables visible at the function's probe point. */
int ftc_udw_list_vars(struct ubin *b, const char *func, FILE *out)
{
	Dwarf_Die die, *scopes = NULL;
	GElf_Addr sym, at;
	Dwarf_Addr pc;
	int n;

	if (func_by_name(b, func, &sym, &die) < 0 ||
	    ftc_udw_func_point(b, func, sym, true, &at) < 0 ||
	    (n = scopes_at(b, to_dw(b, at), &scopes)) < 0)
		return -1;
	pc = to_dw(b, at);
	fprintf(out, "Available variables at %s\n        @<%s+%llu>\n", func,
		dwarf_diename(&die) ? dwarf_diename(&die) : func, (unsigned long long)(at - sym));
	for (int i = 0; i < n; i++) {
		Dwarf_Die child;

		if (dwarf_child(&scopes[i], &child))
			continue;
		do {
			int tag = dwarf_tag(&child);
			char type[128];

			if ((tag != DW_TAG_variable && tag != DW_TAG_formal_parameter) ||
			    !dwarf_diename(&child) || !live_at(&child, pc))
				continue;
			type_name(&child, type, sizeof(type));
			fprintf(out, "                %s\t%s\n", type, dwarf_diename(&child));
		} while (!dwarf_siblingof(&child, &child));
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
	}
	free(scopes);
	return 0;
}
