/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftc dynamic probes: uprobes, kprobes and event probes in ftc's own
 * event group ("ftc"), written through the state journal so that restoring
 * it (or the guardian, or `ftc reset --journal`) removes them again.
 *
 * A SPEC is a location followed by arguments, separated by blanks:
 *   uprobe:    BINARY:FUNC[+OFF][%return] ARG...   BINARY:FILE:LINE ARG...
 *              (with a binary given apart: FUNC..., FILE:LINE)
 *   kprobe:    FUNC[+OFF][%return] ARG...          MODULE:FUNC[+OFF][%return] ARG...
 *   eprobe:    e:SYSTEM:EVENT ARG...
 *   fprobe:    f:FUNC[%return] ARG...  (function entry or exit over ftrace's
 *              call sites, 6.7+; ARG names the function's parameters by BTF)
 * An ARG is NAME[:TYPE] (a variable, resolved from DWARF for uprobes,
 * from BTF by the kernel for kprobes), or a fetcharg the kernel reads as
 * it is ($retval, $argN, %REG, +OFF(...), @ADDR, $comm), optionally named
 * NAME=FETCHARG[:TYPE].
 */
#ifndef FTC_DYNPROBE_H
#define FTC_DYNPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FTC_PROBE_GROUP "ftc"
#define FTC_SYNTH_GROUP "synthetic"	/* fixed by the kernel */
/* A synthetic event cannot have a group of ftc's own: ftc's are the ones
 * whose name begins with this (list and del touch no others). */
#define FTC_SYNTH_PREFIX "ftc_"

enum ftc_probe_kind {
	FTC_PROBE_KPROBE,
	FTC_PROBE_UPROBE,
	FTC_PROBE_EPROBE,
	FTC_PROBE_SYNTH,	/* s:NAME TYPE FIELD; ...: func = NAME, args = fields */
	FTC_PROBE_FPROBE,	/* f:FUNC[%return] */
};

struct ftc_probe_arg {
	char *name;		/* NULL: derived from the fetcharg */
	char *fetch;		/* a variable name, or a raw fetcharg */
	char *type;		/* NULL: from DWARF, or the kernel's default */
	bool raw;		/* fetch goes to the kernel as it is */
};

struct ftc_probe_spec {
	enum ftc_probe_kind kind;
	char *binary;		/* uprobe */
	char *module;		/* kprobe MODULE:FUNC */
	char *func;		/* function, or eprobe's SYSTEM:EVENT */
	char *file;		/* uprobe FILE:LINE */
	unsigned long line;
	unsigned long long off;
	bool ret;		/* %return */
	struct ftc_probe_arg *args;
	size_t nargs;
};

/* Parses SPEC (binary: -x BINARY, or NULL). Reads nothing. -1 with the
 * error naming the part that is wrong. */
FTC_API int ftc_probe_spec_parse(const char *spec, const char *binary,
				 struct ftc_probe_spec **out);
FTC_API void ftc_probe_spec_free(struct ftc_probe_spec *ps);

/* The event name the spec derives ("func", "func__return", "file_c_12"),
 * without the suffix that keeps it unique. Free it. */
FTC_API char *ftc_probe_spec_event(const struct ftc_probe_spec *ps);

/* The line for uprobe_events / kprobe_events / dynamic_events, with the
 * binary, lines and variables resolved (ELF and DWARF); event is the name
 * to give it. Validation errors name the nearest functions, lines or where
 * a variable lives. *file is the tracefs file to write it to. */
FTC_API int ftc_probe_definition(const struct ftc_probe_spec *ps, const char *event,
				 char **def, const char **file);

struct ftc_state;
/* Resolves and writes the probe through the journal (restore removes it).
 * The event gets a name of its own in the group; *event receives
 * "ftc:NAME", or "synthetic:ftc_NAME" as given (free it). Kernel
 * refusals carry the error_log entry. */
FTC_API int ftc_probe_add(struct ftc_state *st, const char *spec, const char *binary,
			  char **event);
/* Removes the group's events and ftc's synthetic events (ftc_*) matching
 * the glob (NAME, ftc:NAME or synthetic:NAME); returns the number removed.
 * Not journaled: these are probes `add` kept. */
FTC_API int ftc_probe_del(const char *glob);
/* Prints the group's probes and ftc's synthetic events, "GROUP:NAME\tDEF"
 * a line. */
FTC_API int ftc_probe_list(FILE *out);
/* Like perf probe -L and -V: the lines of FUNC that have an address, and
 * the variables visible at its probe point. */
FTC_API int ftc_probe_lines(const char *binary, const char *func, FILE *out);
FTC_API int ftc_probe_vars(const char *binary, const char *func, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
