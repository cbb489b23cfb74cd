// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc sched VIEW -- COMMAND, and -a: the views live. What they read is
 * recorded first (ftc sched record, into an instance of its own so that
 * the top-level buffer stays the user's) into a scratch folder, while the
 * command runs or, with -a alone, until Ctrl-C or --duration; the view
 * then reads that file, and the folder goes.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "sched-print.h"
#include "ftc.h"

extern const struct command cmd_sched, cmd_sched_record;

#define MAX_ARGS 16

static int make_folder(char *dir, size_t size)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, size, "%s/ftc-sched-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		cmd_error(&cmd_sched, "cannot make a scratch folder %s: %m (set TMPDIR to a "
			  "writable folder)", dir);
		return -1;
	}
	return 0;
}

/* "sched record -q -o PATH -B NAME [--duration S] [-- COMMAND...]" */
static char **record_args(const struct sched_print *p, const char *path, char *inst,
			  size_t inst_size, int *n)
{
	int cmd_len = 0, k = 0;
	char **v;

	while (p->live_argv && p->live_argv[cmd_len])
		cmd_len++;
	v = calloc((size_t)(MAX_ARGS + cmd_len + 1), sizeof(*v));
	if (!v)
		return NULL;
	snprintf(inst, inst_size, "ftc_sched_%d", (int)getpid());
	v[k++] = (char *)"sched record";
	v[k++] = (char *)"-q";
	v[k++] = (char *)"-o";
	v[k++] = (char *)path;
	v[k++] = (char *)"-B";
	v[k++] = inst;
	if (p->duration) {
		v[k++] = (char *)"--duration";
		v[k++] = (char *)p->duration;
	}
	if (cmd_len) {
		v[k++] = (char *)"--";
		memcpy(v + k, p->live_argv, (size_t)cmd_len * sizeof(*v));
		k += cmd_len;
	}
	*n = k;
	return v;
}

/* The command's name as the kernel keeps it: the default selection. */
static void command_comm(struct sched_print *p)
{
	const char *base = strrchr(p->live_argv[0], '/');

	base = base ? base + 1 : p->live_argv[0];
	snprintf(p->live_comm, sizeof(p->live_comm), "%.15s", base);
	p->comm = p->live_comm;
	fprintf(stderr, "ftc sched: the tasks named '%s' (the command; -a: every task)\n",
		p->live_comm);
}

int sched_live_record(struct sched_print *p)
{
	char inst[32], **argv;
	int n = 0, status;

	if (make_folder(p->live_dir, sizeof(p->live_dir)) < 0)
		return FTC_EXIT_FAIL;
	snprintf(p->live_path, sizeof(p->live_path), "%s/trace.dat", p->live_dir);
	argv = record_args(p, p->live_path, inst, sizeof(inst), &n);
	if (!argv) {
		cmd_error(&cmd_sched, "out of memory");
		return FTC_EXIT_FAIL;
	}
	if (!p->live_argv)
		fprintf(stderr, "ftc sched: recording every task until Ctrl-C%s\n",
			p->duration ? " or --duration" : "");
	status = cmd_sched_record.run(n, argv);
	free(argv);
	if (access(p->live_path, R_OK) < 0)
		return status ? status : FTC_EXIT_FAIL;
	if (p->live_argv && !p->all && !p->pid && !p->comm)
		command_comm(p);
	p->input = p->live_path;
	p->live_status = status;
	return FTC_EXIT_OK;
}

void sched_live_clean(struct sched_print *p)
{
	if (!*p->live_dir)
		return;
	unlink(p->live_path);
	rmdir(p->live_dir);
}
