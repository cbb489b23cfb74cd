// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc convert --to perfetto: the records of every buffer, in timestamp
 * order, through libftc's Perfetto pass into OUT ("-": standard output).
 * A failure leaves no file; a damaged input leaves what preceded the
 * damage, with the reader's account of it, and exit 1, as for trace.dat.
 */
#include <stdio.h>
#include <string.h>

#include "convert-to.h"
#include "output.h"
#include "ftc.h"
#include "ftc-merge.h"
#include "ftc-perfetto.h"
#include "ftc-reader.h"
#include "ftc-writer.h"

static int pass(struct ftc_reader *r, FILE *out, bool no_compact)
{
	struct ftc_perfetto_opts o = FTC_OPTS_INIT(ftc_perfetto_opts,
		.no_compact_sched = no_compact);
	struct ftc_perfetto *p = ftc_perfetto_new(r, out, &o);
	struct ftc_merge *m = p ? ftc_merge_open(r, NULL) : NULL;
	struct ftc_merge_record mr;
	int ret = -1;

	if (!m)
		goto out;
	while ((ret = ftc_merge_next(m, &mr)) == 1)
		if (ftc_perfetto_add(p, &mr) < 0) {
			ret = -1;
			break;
		}
	if (ret == 0)
		ret = ftc_perfetto_finish(p);
out:
	ftc_merge_close(m);
	ftc_perfetto_free(p);
	return ret;
}

int convert_to_perfetto(const struct command *cmd, const char *input, const char *output,
			bool no_compact)
{
	struct ftc_reader *r = ftc_reader_open(input, 0);
	bool to_stdout = !strcmp(output, "-");
	const char *warn;
	FILE *out;
	int ret;

	if (!r) {
		cmd_error(cmd, "%s", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	if (!to_stdout && cmd_output_not_input(cmd, output, input) < 0) {
		ftc_reader_close(r);
		return FTC_EXIT_FAIL;
	}
	out = cmd_output_open(cmd, output);
	if (!out) {
		ftc_reader_close(r);
		return FTC_EXIT_FAIL;
	}
	ret = pass(r, out, no_compact);
	if (ret < 0 && out != stdout && ferror(out)) {
		/* the pass said why (ENOSPC): one message, naming the file */
		cmd_error(cmd, "%s: %s", output, ftc_strerror());
		fclose(out);
	} else {
		if (ret < 0)
			cmd_error(cmd, "%s", ftc_strerror());
		if (cmd_output_close(cmd, out, output) < 0)
			ret = -1;
	}
	if (ret < 0 && !to_stdout)
		ftc_writer_unlink(output);	/* a regular file only: never /dev/null */
	warn = ftc_reader_warnings(r);
	if (warn && ret == 0)
		fprintf(stderr, "ftc %s: %s is damaged; %s holds what precedes the damage:\n%s",
			cmd->name, input, output, warn);
	ftc_reader_close(r);
	return ret < 0 || warn ? FTC_EXIT_FAIL : FTC_EXIT_OK;
}
