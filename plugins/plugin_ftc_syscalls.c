// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Syscalls by name, with their arguments decoded:
 *   raw_syscalls:sys_enter  openat(AT_FDCWD, 0x7f.., O_RDONLY|O_CLOEXEC)
 *   raw_syscalls:sys_exit   openat = -2 ENOENT
 *   syscalls:sys_enter_*    dfd: AT_FDCWD, filename: 0x7f.., flags: O_RDONLY, mode: 0
 *   syscalls:sys_exit_*     -2 ENOENT
 * A raw syscall number is named from the table of the traced machine's
 * architecture: the plugin option ftc_syscalls:arch (ftc report sets it
 * from the uname the file records; trace-cmd report -O sets it by hand),
 * else guessed from the file's event formats (only x86_64 has a
 * sys_enter_open), else the architecture this plugin was built for.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc-plugin.h"
#include "sc-decode.h"
#include "syscall-table.h"

#define PLUGIN_NAME	"ftc_syscalls"
#define ARCH_UNKNOWN	(-2)

/* A .so exports its options for libtraceevent to set as it loads it. */
#ifdef FTC_PLUGIN_STATIC
#define plugin_options syscalls_options
static
#else
#define plugin_options TEP_PLUGIN_OPTIONS
FTC_PLUGIN_EXPORT
#endif
struct tep_plugin_option plugin_options[] = {
	{
		.name = "arch",
		.plugin_alias = PLUGIN_NAME,
		.description = "architecture of the traced machine (x86_64, aarch64); "
			       "empty: from the trace",
		.value = "",
	},
	{ .name = NULL }
};

/* One per tep: its guessed architecture. */
struct ctx {
	struct tep_handle *tep;
	int refs;		/* loaded from two directories, or twice from one */
	int guessed;
	struct ev_ctx *evs;	/* the syscalls:* events' contexts */
	/* raw_syscalls:sys_enter and sys_exit's fields, found once: id, args or ret. */
	struct tep_event *raw_ev[2];
	struct tep_format_field *raw_id[2], *raw_val[2];
	size_t nevs;
	struct ctx *next;
};

/* One per syscalls:sys_enter_NAME or sys_exit_NAME event. */
struct ev_ctx {
	struct ctx *c;
	const struct sc_sig *sig;	/* NULL: not decoded */
	const char *name;
	bool enter;
};

static struct ctx *ctxs;
/* Signatures by syscall number, per architecture: built once. */
static const struct sc_sig **by_nr[FTC_SC_NARCH];

static int arch_of(struct ctx *c)
{
	const char *v = plugin_options[0].value;
	int a = v && *v ? ftc_syscall_arch(v) : -1;

	if (a >= 0)
		return a;
	if (c->guessed == ARCH_UNKNOWN) {
		if (tep_find_event_by_name(c->tep, "syscalls", "sys_enter_open"))
			c->guessed = FTC_SC_X86_64;
		else if (tep_find_event_by_name(c->tep, "syscalls", "sys_enter_openat"))
			c->guessed = FTC_SC_ARM64;
		else
			c->guessed = ftc_syscall_host_arch();
	}
	return c->guessed;
}

static const struct sc_sig *sig_of(int arch, long long nr)
{
	if (arch < 0 || nr < 0 || !by_nr[arch] ||
	    (unsigned long long)nr >= ftc_syscall_tables[arch].count)
		return NULL;
	return by_nr[arch][nr];
}

/* The id field and args (enter) or ret (exit) of a raw_syscalls event. */
static bool raw_fields(struct ctx *c, struct tep_event *ev, bool enter,
		       struct tep_format_field **id, struct tep_format_field **val)
{
	int i = enter ? 0 : 1;

	if (c->raw_ev[i] != ev) {
		c->raw_id[i] = tep_find_field(ev, "id");
		c->raw_val[i] = tep_find_field(ev, enter ? "args" : "ret");
		c->raw_ev[i] = ev;
	}
	*id = c->raw_id[i];
	*val = c->raw_val[i];
	return *id && *val;
}

static long long signed_value(struct tep_format_field *f, unsigned long long v)
{
	if (f->size == 4)
		return (int)v;
	if (f->size == 2)
		return (short)v;
	return (long long)v;
}

static int raw_enter(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
		     void *vctx)
{
	struct tep_format_field *fid, *fargs;
	int arch = arch_of(vctx);
	unsigned long long id, a[SC_MAXARGS] = { 0 };
	const struct sc_sig *sig;
	const char *name;
	int esize;

	if (!raw_fields(vctx, ev, true, &fid, &fargs) ||
	    tep_read_number_field(fid, rec->data, &id))
		return 1;
	esize = fargs->elementsize ? (int)fargs->elementsize : tep_get_long_size(ev->tep);
	if (esize <= 0 || (int)fargs->offset + SC_MAXARGS * esize > rec->size)
		return 1;
	for (int i = 0; i < SC_MAXARGS; i++)
		a[i] = tep_read_number(ev->tep, (char *)rec->data + fargs->offset + i * esize,
				       esize);
	name = ftc_syscall_name(arch, (long)signed_value(fid, id));
	sig = sig_of(arch, signed_value(fid, id));
	if (!name) {
		trace_seq_printf(s, "NR %lld (", signed_value(fid, id));
		for (int i = 0; i < SC_MAXARGS; i++)
			trace_seq_printf(s, "%s%llx", i ? ", " : "", a[i]);
		trace_seq_putc(s, ')');
		return 0;
	}
	trace_seq_puts(s, name);
	trace_seq_putc(s, '(');
	for (int i = 0; i < (sig ? sig->nargs : SC_MAXARGS); i++) {
		enum sc_kind k = sig ? sig->kind[i] : K_HEX;

		if (k == K_OMODE && (i == 0 || !sc_oflags_take_mode(arch, a[i - 1])))
			break;
		if (i)
			trace_seq_puts(s, ", ");
		sc_put_arg(s, arch, k, a[i]);
	}
	trace_seq_putc(s, ')');
	return 0;
}

static int raw_exit(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
		    void *vctx)
{
	struct tep_format_field *fid, *fret;
	int arch = arch_of(vctx);
	unsigned long long id, ret;
	const struct sc_sig *sig;
	const char *name;

	if (!raw_fields(vctx, ev, false, &fid, &fret) ||
	    tep_read_number_field(fid, rec->data, &id) ||
	    tep_read_number_field(fret, rec->data, &ret))
		return 1;
	name = ftc_syscall_name(arch, (long)signed_value(fid, id));
	sig = sig_of(arch, signed_value(fid, id));
	if (name) {
		trace_seq_puts(s, name);
		trace_seq_puts(s, " = ");
	} else
		trace_seq_printf(s, "NR %lld = ", signed_value(fid, id));
	sc_put_ret(s, sig ? sig->ret : R_DEC, signed_value(fret, ret));
	return 0;
}

/* syscalls:sys_enter_NAME: each field as the kernel names it, decoded. */
static int one_enter(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
		     void *vctx)
{
	struct ev_ctx *e = vctx;
	struct tep_format_field *f;
	int arch = arch_of(e->c), n = 0, i = 0;

	for (f = ev->format.fields; f; f = f->next)
		n += strcmp(f->name, "__syscall_nr") != 0;
	for (f = ev->format.fields; f; f = f->next) {
		unsigned long long v;
		enum sc_kind k;

		if (!strcmp(f->name, "__syscall_nr"))
			continue;
		if (tep_read_number_field(f, rec->data, &v))
			return 1;
		k = e->sig && e->sig->nargs == n ? e->sig->kind[i] : K_HEX;
		if (i)
			trace_seq_puts(s, ", ");
		trace_seq_puts(s, f->name);
		trace_seq_puts(s, ": ");
		sc_put_arg(s, arch, k == K_OMODE ? K_MODE : k, v);
		i++;
	}
	return 0;
}

/* syscalls:sys_exit_NAME: the return value with its errno name. */
static int one_exit(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
		    void *vctx)
{
	struct ev_ctx *e = vctx;
	struct tep_format_field *f = tep_find_field(ev, "ret");
	unsigned long long v;

	if (!f || tep_read_number_field(f, rec->data, &v))
		return 1;
	sc_put_ret(s, e->sig ? e->sig->ret : R_DEC, signed_value(f, v));
	return 0;
}

static int build_by_nr(void)
{
	for (int a = 0; a < FTC_SC_NARCH; a++) {
		const struct ftc_syscall_table *t = &ftc_syscall_tables[a];

		if (by_nr[a])
			continue;
		by_nr[a] = calloc(t->count ? t->count : 1, sizeof(*by_nr[a]));
		if (!by_nr[a])
			return -1;
		for (unsigned int i = 0; i < t->count; i++)
			by_nr[a][i] = t->names[i] ? sc_sig_find(t->names[i]) : NULL;
	}
	return 0;
}

/* Every syscall name of every table once (arm64's that x86_64 lacks after its own). */
static size_t all_names(const char **out)
{
	size_t n = 0;

	for (int a = 0; a < FTC_SC_NARCH; a++) {
		const struct ftc_syscall_table *t = &ftc_syscall_tables[a];

		for (unsigned int i = 0; i < t->count; i++) {
			bool seen = false;

			if (!t->names[i])
				continue;
			for (int b = 0; b < a && !seen; b++)
				seen = ftc_syscall_nr(b, t->names[i]) >= 0;
			if (!seen) {
				if (out)
					out[n] = t->names[i];
				n++;
			}
		}
	}
	return n;
}

static void each_event(struct ctx *c, bool reg)
{
	char name[96];

	for (size_t i = 0; i < c->nevs; i++) {
		struct ev_ctx *e = &c->evs[i];
		tep_event_handler_func fn = e->enter ? one_enter : one_exit;

		snprintf(name, sizeof(name), "sys_%s_%s", e->enter ? "enter" : "exit", e->name);
		if (reg)
			tep_register_event_handler(c->tep, -1, "syscalls", name, fn, e);
		else
			tep_unregister_event_handler(c->tep, -1, "syscalls", name, fn, e);
	}
}

static int make_events(struct ctx *c)
{
	size_t nnames = all_names(NULL), nsigs = 0;
	const char **names = calloc(nnames ? nnames : 1, sizeof(*names));

	while (sc_sig_at((unsigned int)nsigs))
		nsigs++;
	c->evs = calloc(nnames + nsigs, sizeof(*c->evs));
	if (!names || !c->evs) {
		free(names);
		return -1;
	}
	all_names(names);
	for (size_t i = 0; i < nsigs; i++)
		c->evs[c->nevs++] = (struct ev_ctx){ c, sc_sig_at((unsigned int)i),
						     sc_sig_at((unsigned int)i)->name, true };
	for (size_t i = 0; i < nnames; i++)
		c->evs[c->nevs++] = (struct ev_ctx){ c, sc_sig_find(names[i]), names[i], false };
	free(names);
	return 0;
}

static struct ctx **find_ctx(struct tep_handle *tep)
{
	struct ctx **p = &ctxs;

	while (*p && (*p)->tep != tep)
		p = &(*p)->next;
	return p;
}

FTC_PLUGIN_EXPORT int FTC_PLUGIN_LOAD(syscalls)(struct tep_handle *tep)
{
	struct ctx *c = *find_ctx(tep);

	if (c) {
		c->refs++;
		return 0;
	}
	c = calloc(1, sizeof(*c));
	if (!c || build_by_nr() < 0 || make_events(c) < 0) {
		free(c);
		return -1;
	}
	c->tep = tep;
	c->refs = 1;
	c->guessed = ARCH_UNKNOWN;
	c->next = ctxs;
	ctxs = c;
	tep_plugin_add_options(PLUGIN_NAME, plugin_options);
	tep_register_event_handler(tep, -1, "raw_syscalls", "sys_enter", raw_enter, c);
	tep_register_event_handler(tep, -1, "raw_syscalls", "sys_exit", raw_exit, c);
	each_event(c, true);
	return 0;
}

FTC_PLUGIN_EXPORT bool FTC_PLUGIN_PURE(syscalls)(void *handler)
{
	return handler == (void *)raw_enter || handler == (void *)raw_exit ||
	       handler == (void *)one_enter || handler == (void *)one_exit;
}

FTC_PLUGIN_EXPORT int FTC_PLUGIN_UNLOAD(syscalls)(struct tep_handle *tep)
{
	struct ctx **p = find_ctx(tep), *c = *p;

	if (!c || --c->refs > 0)
		return 0;
	*p = c->next;
	tep_unregister_event_handler(tep, -1, "raw_syscalls", "sys_enter", raw_enter, c);
	tep_unregister_event_handler(tep, -1, "raw_syscalls", "sys_exit", raw_exit, c);
	each_event(c, false);
	tep_plugin_remove_options(plugin_options);
	free(c->evs);
	free(c);
	if (!ctxs)
		for (int a = 0; a < FTC_SC_NARCH; a++) {
			free(by_nr[a]);
			by_nr[a] = NULL;
		}
	return 0;
}
