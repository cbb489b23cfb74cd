/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Options are declared once per command, in a table that both drives
 * getopt_long and prints --help, so the two can never disagree. The same
 * table feeds bash completion (`ftc CMD --list-opts`).
 */
#ifndef FTC_CMD_OPTIONS_H
#define FTC_CMD_OPTIONS_H

#include <stdbool.h>

/* Exit codes, documented in ftc(1). */
enum {
	FTC_EXIT_OK = 0,
	FTC_EXIT_FAIL = 1,	/* the operation failed (I/O, kernel error, bad file) */
	FTC_EXIT_USAGE = 2,	/* bad command line */
	FTC_EXIT_REFUSED = 3,	/* the kernel refused or lacks a feature that was asked for */
	FTC_EXIT_INTERRUPTED = 130,
};

struct cmd_option {
	int short_name;		/* 0 when the option has only a long name */
	const char *long_name;	/* NULL when it has only a short name */
	/* The argument's name in --help, NULL for a flag. It is also the
	 * value's type, checked before the handler sees it (arg_types[] in
	 * options.c): KB, N, PID, CPUS, SECS, NAME, EVENT, FILE, FILTER... */
	const char *arg;
	const char *help;
	int id;			/* passed to the command's handler; defaults to short_name */
};

#define CMD_MODE(n) (1u << (n))
#define CMD_MODE_DEFAULT CMD_MODE(0)

/*
 * Which options go together, for commands with several outputs (report's
 * text, --json, --stat...): one row per option that does not go with
 * every output, by its id. An output other than the default is chosen by
 * a mode option: `mode` is its bit (CMD_MODE(n), n from 1). `modes` is
 * the set of outputs the option applies to (CMD_MODE_DEFAULT for the
 * default one); for a mode option, the outputs it may be given with
 * besides its own. cmd_options_parse refuses an option that applies to
 * none of the chosen outputs and two mode options that do not combine
 * (exit 2, naming both); --help and --list-opts read the same table.
 */
struct cmd_mode_rule {
	int id;
	unsigned int mode;
	unsigned int modes;
};

struct command {
	const char *name;
	const char *summary;
	const char *synopsis;	/* what follows "ftc NAME" in --help */
	const struct cmd_option *options;	/* ends with an all-zero entry */
	/* A second table shared by several commands (the control options of
	 * start and record); may be NULL. Also ends with an all-zero entry. */
	const struct cmd_option *shared_options;
	int (*run)(int argc, char **argv);
	/* Options end at the first operand, which starts a command line to
	 * run (record, stat, profile) or free text (marker). Elsewhere options
	 * may follow operands, as in `ftc report t.dat --stat`. */
	bool stop_at_operand;
	/* Which options go together (ends with an all-zero entry), and what
	 * the output chosen by no mode option is called ("text"). */
	const struct cmd_mode_rule *mode_rules;
	const char *default_mode;
};

typedef int (*cmd_option_fn)(int id, const char *arg, void *ctx);

/*
 * Parses argv[1..] against cmd->options, calling fn for each option, and
 * returns the index of the first operand: with cmd->stop_at_operand the
 * first non-option (so `COMMAND args` survive), otherwise options and
 * operands may be mixed and the operands are moved to the end; `--`
 * ends the options either way. On a bad option it prints the error and returns -1; --help
 * prints usage and returns -2 (the caller exits 0).
 */
int cmd_options_parse(const struct command *cmd, int argc, char **argv,
		      cmd_option_fn fn, void *ctx);
void cmd_usage(const struct command *cmd, bool to_stderr);
/* Prints the options for completion: one word per line, or with table
 * "SHORT<TAB>LONG<TAB>ARG" rows ("-" where there is none). The words of
 * the command line typed so far (nwords of them, may be 0) choose the
 * outputs: an option that applies to none of them is left out. */
void cmd_options_list(const struct command *cmd, bool table, int nwords, char **words);

/* Maps cmd_options_parse's -1/-2 to an exit status; other values to -1. */
int cmd_options_exit(int ret);

/* Prints "ftc NAME: message" on stderr. */
void cmd_error(const struct command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * From an option's handler: prints "ftc NAME: -b 'VALUE': message" about
 * the option being parsed (named as it was typed, its value quoted, cut
 * short and with bytes that are not printable UTF-8 escaped) and returns
 * -1, which makes cmd_options_parse fail (exit 2).
 */
int cmd_bad_value(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Writes VALUE into buf as cmd_bad_value quotes it (without the quotes). */
void cmd_quote(char *buf, size_t size, const char *value);

/* Parses an unsigned number with an optional K/M/G suffix; -1 on error,
 * including a value (or a suffix's product) beyond 64 bits. */
int cmd_parse_u64(const char *s, unsigned long long *out);

/*
 * Parses SECONDS[.FRACTION] (a TIMESTAMP column's value) into ns, in integers:
 * a double would round the nanoseconds away. -1 on error.
 */
int cmd_parse_time(const char *s, unsigned long long *ns);

/* ftc's plugins directory (FTC_PLUGIN_DIR, else plugins/ beside the binary)
 * written into dir, or NULL when there is none (cmd/plugin-dir.c). */
const char *cmd_plugin_dir(char *dir, size_t size);

#define FTC_HELP_OPTION { 'h', "help", NULL, "show this help and exit", 'h' }

#endif
