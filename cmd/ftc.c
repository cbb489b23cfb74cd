// SPDX-License-Identifier: GPL-2.0-or-later
/* ftc: the command. Dispatches through the table in commands.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "output.h"
#include "ftc.h"

#define FTC_CMD(n) extern const struct command cmd_##n;
#include "commands.h"
#undef FTC_CMD

static const struct command *const commands[] = {
#define FTC_CMD(n) &cmd_##n,
#include "commands.h"
#undef FTC_CMD
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void main_usage(FILE *f)
{
	fprintf(f, "usage: ftc [--version] [--help] COMMAND [ARGS]\n\n"
		"Drive ftrace through tracefs, capture trace.dat files, read them,\n"
		"and count or sample with perf_event_open.\n\ncommands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-12s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\n'ftc COMMAND --help' shows a command's options; ftc(1) lists exit codes.\n");
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

/*
 * Where the state journal goes: FTC_JOURNAL_DIR alone when set, else
 * /run/ftc, $XDG_RUNTIME_DIR/ftc, /tmp/ftc-UID. The environment is read
 * here because libftc reads none.
 */
static int set_journal_dirs(void)
{
	const char *env = getenv("FTC_JOURNAL_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char xdg_dir[PATH_MAX], tmp_dir[32];
	const char *dirs[3];
	int n = 0;

	if (env && *env)
		return ftc_journal_set_dirs(&env, 1);
	dirs[n++] = "/run/ftc";
	if (xdg && *xdg && snprintf(xdg_dir, sizeof(xdg_dir), "%s/ftc", xdg) < (int)sizeof(xdg_dir))
		dirs[n++] = xdg_dir;
	snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/ftc-%u", (unsigned)geteuid());
	dirs[n++] = tmp_dir;
	return ftc_journal_set_dirs(dirs, n);
}

/* A guardian that restored tracefs after its ftc died says so on stderr. */
static void guardian_report(const char *text, void *arg)
{
	(void)arg;
	fprintf(stderr, "ftc-guardian: %s\n", text);
}

static int run(int argc, char **argv, const struct command **cmdp)
{
	const struct command *cmd;

	if (argc < 2) {
		main_usage(stderr);
		return FTC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2) {
			cmd = find_command(argv[2]);
			if (!cmd) {
				fprintf(stderr, "ftc help: '%s' is not an ftc command; "
					"'ftc --help' lists them\n", argv[2]);
				return FTC_EXIT_USAGE;
			}
			cmd_usage(cmd, false);
			return FTC_EXIT_OK;
		}
		main_usage(stdout);
		return FTC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("ftc %s (libftc %s)\n", FTC_VERSION, ftc_version());
		return FTC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--list-cmds")) {	/* for bash completion */
		for (size_t i = 0; i < N_COMMANDS; i++)
			puts(commands[i]->name);
		return FTC_EXIT_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "ftc: '%s' is not an ftc command; 'ftc --help' lists them\n",
			argv[1]);
		return FTC_EXIT_USAGE;
	}
	if (argc > 2 && (!strcmp(argv[2], "--list-opts") || !strcmp(argv[2], "--list-opts=table"))) {
		*cmdp = cmd;
		cmd_options_list(cmd, argv[2][11] == '=', argc - 3, argv + 3);
		return FTC_EXIT_OK;
	}
	if (set_journal_dirs() < 0) {
		fprintf(stderr, "ftc: %s\n", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	ftc_journal_set_report(guardian_report, NULL);
	*cmdp = cmd;
	return cmd->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	const struct command *cmd = NULL;

	cmd_output_init();
	return cmd_output_finish(cmd, run(argc, argv, &cmd));
}
