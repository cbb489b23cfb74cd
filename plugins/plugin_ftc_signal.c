// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The signal events with names where their formats print numbers:
 *   signal_generate  sig=SIGUSR1 errno=0 code=SI_TKILL comm=sh pid=42 grp=0 res=delivered
 *   signal_deliver   sig=SIGUSR1 errno=0 code=SI_TKILL sa_handler=SIG_IGN sa_flags=SA_RESTORER|SA_RESTART
 * Signal numbers are asm-generic's (x86_64 and arm64 share them); codes
 * are named when any signal can have them (SI_*) and for SIGCHLD and
 * SIGSEGV (CLD_*, SEGV_*); other codes and unknown results print as numbers.
 */
#include <stdlib.h>
#include <string.h>

#include "ftc-plugin.h"
#include "sc-decode.h"

/* include/uapi/asm-generic/siginfo.h: the codes any signal can have. */
static const struct {
	int code;
	const char *name;
} si_codes[] = {
	{ 0, "SI_USER" }, { 0x80, "SI_KERNEL" }, { -1, "SI_QUEUE" }, { -2, "SI_TIMER" },
	{ -3, "SI_MESGQ" }, { -4, "SI_ASYNCIO" }, { -5, "SI_SIGIO" }, { -6, "SI_TKILL" },
	{ -7, "SI_DETHREAD" }, { -8, "SI_ASYNCNL" },
};

/* The per-signal codes read most: a child's end, a segfault's cause. */
static const char *const cld_codes[] = { NULL, "CLD_EXITED", "CLD_KILLED", "CLD_DUMPED",
					 "CLD_TRAPPED", "CLD_STOPPED", "CLD_CONTINUED" };
static const char *const segv_codes[] = { NULL, "SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR",
					  "SEGV_PKUERR", "SEGV_ACCADI", "SEGV_ADIDERR",
					  "SEGV_ADIPERR", "SEGV_MTEAERR", "SEGV_MTESERR",
					  "SEGV_CPERR" };
#define SIGSEGV_NR	11	/* asm-generic/signal.h */
#define SIGCHLD_NR	17

/* include/trace/events/signal.h, enum trace_signal_deliver. */
static const char *const results[] = { "delivered", "ignored", "already_pending",
				       "overflow_fail", "lose_info" };

/* include/uapi/asm-generic/signal-defs.h; SA_RESTORER is x86_64's and arm64's. */
static const struct {
	unsigned long bits;
	const char *name;
} sa_flags[] = {
	{ 0x00000001, "SA_NOCLDSTOP" }, { 0x00000002, "SA_NOCLDWAIT" },
	{ 0x00000004, "SA_SIGINFO" }, { 0x00000400, "SA_UNSUPPORTED" },
	{ 0x00000800, "SA_EXPOSE_TAGBITS" }, { 0x04000000, "SA_RESTORER" },
	{ 0x08000000, "SA_ONSTACK" }, { 0x10000000, "SA_RESTART" },
	{ 0x40000000, "SA_NODEFER" }, { 0x80000000, "SA_RESETHAND" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static long long field(struct tep_event *ev, struct tep_record *rec, const char *name, bool *ok)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v;

	if (!f || tep_read_number_field(f, rec->data, &v)) {
		*ok = false;
		return 0;
	}
	if (f->size == 4 && (f->flags & TEP_FIELD_IS_SIGNED))
		return (int)v;
	return (long long)v;
}

static void put_code(struct trace_seq *s, long long sig, long long code)
{
	if (sig == SIGCHLD_NR && code > 0 && code < (long long)N(cld_codes)) {
		trace_seq_puts(s, cld_codes[code]);
		return;
	}
	if (sig == SIGSEGV_NR && code > 0 && code < (long long)N(segv_codes)) {
		trace_seq_puts(s, segv_codes[code]);
		return;
	}
	for (size_t i = 0; i < N(si_codes); i++)
		if (si_codes[i].code == code) {
			trace_seq_puts(s, si_codes[i].name);
			return;
		}
	trace_seq_printf(s, "%lld", code);
}

static void put_sa_flags(struct trace_seq *s, unsigned long v)
{
	const char *sep = "";

	for (size_t i = 0; i < N(sa_flags); i++)
		if (v & sa_flags[i].bits) {
			trace_seq_printf(s, "%s%s", sep, sa_flags[i].name);
			v &= ~sa_flags[i].bits;
			sep = "|";
		}
	if (v || !*sep)
		trace_seq_printf(s, "%s%lx", sep, v);
}

/* sig=, errno=, code=: the start both events share. */
static void put_head(struct trace_seq *s, long long sig, long long err, long long code)
{
	trace_seq_puts(s, "sig=");
	sc_put_arg(s, -1, K_SIG, (unsigned long long)sig);
	trace_seq_printf(s, " errno=%lld code=", err);
	put_code(s, sig, code);
}

static int on_generate(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
		       void *ctx)
{
	struct tep_format_field *comm = tep_find_field(ev, "comm");
	bool ok = true;
	long long sig = field(ev, rec, "sig", &ok), err = field(ev, rec, "errno", &ok);
	long long code = field(ev, rec, "code", &ok), pid = field(ev, rec, "pid", &ok);
	long long grp = field(ev, rec, "group", &ok), res = field(ev, rec, "result", &ok);

	if (!ok || !comm || comm->offset + comm->size > rec->size)
		return 1;
	put_head(s, sig, err, code);
	trace_seq_printf(s, " comm=%.*s pid=%lld grp=%lld res=",
			 (int)strnlen((char *)rec->data + comm->offset, comm->size),
			 (char *)rec->data + comm->offset, pid, grp);
	if (res >= 0 && res < (long long)N(results))
		trace_seq_puts(s, results[res]);
	else
		trace_seq_printf(s, "%lld", res);
	return 0;
}

static int on_deliver(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
		      void *ctx)
{
	bool ok = true;
	long long sig = field(ev, rec, "sig", &ok), err = field(ev, rec, "errno", &ok);
	long long code = field(ev, rec, "code", &ok);
	unsigned long handler = (unsigned long)field(ev, rec, "sa_handler", &ok);
	unsigned long flags = (unsigned long)field(ev, rec, "sa_flags", &ok);

	if (!ok)
		return 1;
	put_head(s, sig, err, code);
	trace_seq_puts(s, " sa_handler=");
	if (handler <= 1)
		trace_seq_puts(s, handler ? "SIG_IGN" : "SIG_DFL");
	else
		trace_seq_printf(s, "%lx", handler);
	trace_seq_puts(s, " sa_flags=");
	put_sa_flags(s, flags);
	return 0;
}

FTC_PLUGIN_EXPORT int FTC_PLUGIN_LOAD(signal)(struct tep_handle *tep)
{
	tep_register_event_handler(tep, -1, "signal", "signal_generate", on_generate, NULL);
	tep_register_event_handler(tep, -1, "signal", "signal_deliver", on_deliver, NULL);
	return 0;
}

FTC_PLUGIN_EXPORT bool FTC_PLUGIN_PURE(signal)(void *handler)
{
	return handler == (void *)on_generate || handler == (void *)on_deliver;
}

FTC_PLUGIN_EXPORT int FTC_PLUGIN_UNLOAD(signal)(struct tep_handle *tep)
{
	tep_unregister_event_handler(tep, -1, "signal", "signal_generate", on_generate, NULL);
	tep_unregister_event_handler(tep, -1, "signal", "signal_deliver", on_deliver, NULL);
	return 0;
}
