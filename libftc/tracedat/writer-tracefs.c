// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public writer calls that take what they store from this kernel:
 * each reads through the tracefs layer (tracefs-meta.c) and hands the
 * result to the writer proper (writer.c), which reads nothing. A program
 * that has its metadata already (a test, another machine's capture) uses
 * ftc_writer_set_meta() and ftc_writer_add_buffer_clock() (meta.h)
 * instead, and then nothing here reads the kernel either.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ftc.h"
#include "meta.h"
#include "writer.h"

int ftc_writer_add_buffer(struct ftc_writer *w, const char *instance,
			  int ncpus, const int *cpus)
{
	char *clock;
	int ret;

	if (ftc_wbuf_check(w, instance, ncpus) < 0)
		return -1;
	clock = ftc_tracefs_clock(instance);
	if (!clock)
		return -1;
	ret = ftc_writer_add_buffer_clock(w, instance, clock, ncpus, cpus);
	free(clock);
	return ret;
}

int ftc_writer_start(struct ftc_writer *w)
{
	struct ftc_meta m;
	int ret;

	if (!w->nbufs)
		return ftc_error(EINVAL, "%s: no buffer to write", w->path);
	if (!w->have_meta && !w->started) {
		if (ftc_meta_collect(&m, w->bufs[0].name) < 0)
			return -1;
		ret = ftc_writer_set_meta(w, &m);
		ftc_meta_free(&m);
		if (ret < 0)
			return -1;
		w->kernel_meta = true;
	}
	return ftc_wstart(w);
}

/*
 * The end of a capture from this kernel: the final saved_cmdlines (v7
 * stores them again at the end) and each CPU's stats. A CPU whose stats
 * cannot be read (a synthetic buffer's) gets none, as before.
 */
static int collect_end(struct ftc_writer *w)
{
	struct ftc_blob cmd = { 0 };
	int ret = 0;

	for (int b = 0; b < w->nbufs; b++)
		for (int c = 0; c < w->bufs[b].ncpus; c++) {
			char *st = ftc_meta_cpustat(w->bufs[b].name, w->bufs[b].cpus[c].cpu);

			if (st)
				ftc_writer_set_cpustat(w, b, c, st);
			free(st);
		}
	if (w->version >= 7) {
		ret = ftc_meta_cmdlines(&cmd);
		if (ret == 0)
			ret = ftc_writer_set_cmdlines(w, cmd.data, cmd.len);
		free(cmd.data);
	}
	return ret;
}

int ftc_writer_finish(struct ftc_writer *w)
{
	if (w->started && w->kernel_meta && collect_end(w) < 0) {
		/* The file is still finished, without the final cmdlines. */
		int err = errno;
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", ftc_strerror());
		ftc_wfinish(w);
		return ftc_error(err, "%s", msg);
	}
	return ftc_wfinish(w);
}
