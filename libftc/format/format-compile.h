/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Compiled print formats (format-compile.c builds them, format-compile-run.c
 * runs them): the steps and expressions both files share.
 */
#ifndef FTC_FORMAT_COMPILE_H
#define FTC_FORMAT_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "format.h"

#define MAX_DEPTH	32	/* print args nest this deep in no real format */
#define MAX_TRIES	4	/* compiles of an event waiting for libtraceevent's symbol lookup */
#define STR_MAX		(FTC_SCRATCH_SLACK / 2)	/* a longer __get_str(): libtraceevent prints it */

enum xop { X_CONST, X_FIELD, X_MASK, X_BIN, X_COND };

/* A numeric expression: what eval_num_arg() computes, without lookups. */
struct xnode {
	enum xop op;
	char bop[3];
	int off, size;			/* X_FIELD */
	unsigned long long k;		/* X_CONST value, X_MASK mask */
	struct xnode *a, *b, *c;
};

enum sop { S_ATOM, S_ARRAY, S_DYN, S_FLAGS, S_SYMBOL, S_COND };

struct symbol {
	long long value;
	const char *str;
	size_t len;
};

/* A string argument: what print_str_arg() prints. */
struct snode {
	enum sop op;
	const char *str;		/* S_ATOM; S_FLAGS: the delimiter */
	size_t len;
	int off, size;			/* S_ARRAY (size 0: the rest), S_DYN: the data loc */
	bool relative;
	struct xnode *x;		/* S_FLAGS, S_SYMBOL, S_COND */
	int nsym;
	struct symbol *sym;
	struct snode *t, *f;		/* S_COND */
};

enum step_kind { K_LIT, K_NUM, K_STR, K_PTR, K_FUNC, K_CALL_SITE };

struct step {
	enum step_kind kind;
	const char *lit;		/* K_LIT */
	size_t len;
	struct xnode *x;		/* K_NUM, K_PTR */
	struct snode *s;		/* K_STR */
	int width;
	bool left, zero, is_signed;
	int bits, base;
	bool upper;
	bool func_offset;		/* K_FUNC: %pS/%pF (name+0x...), not %ps/%pf */
};

struct ftc_cprog {
	struct tep_event *ev;
	char *name;			/* system:event, for the statistics (tep may be gone) */
	int nsteps;
	struct step *steps;
	int min_size;			/* every fixed field read ends within this */
	const char *why;		/* not compiled: why (steps NULL) */
	bool symbol_atom;		/* a name libtraceevent has not turned into a number yet */
	bool handler;			/* a pure plugin handler prints first (ftc's own plugins) */
	int tries;			/* compiles of this event */
	unsigned long long compiled, fallback;
	/* Everything the program points at, freed together. */
	void **owned;
	int nowned, owned_cap;
};

#define FUNC_SLOTS	4096	/* kernel addresses named, direct-mapped */

struct func_slot {
	unsigned long long addr, start;
	const char *name;		/* NULL: not a function */
	size_t len;
	bool used;
};

struct ftc_compiler {
	struct tep_handle *tep;
	struct trace_seq hseq;		/* what a plugin handler printed */
	struct func_slot *funcs;
	struct ftc_cprog **by_id;
	int nids;
	char *buf;
	size_t cap;
};

/* The program for ev (steps NULL and why set when it cannot be compiled). */
struct ftc_cprog *ftc_cprog_compile(struct tep_event *ev, bool host_order, bool pure);
void ftc_cprog_free(struct ftc_cprog *p);

#endif
