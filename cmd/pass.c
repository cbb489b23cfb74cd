// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One pass of an analysis over a file's merged records (pass.h).
 */
#include "ftc.h"
#include "ftc-merge.h"
#include "output.h"
#include "pass.h"

int cmd_pass(struct ftc_reader *r, int (*add)(void *pass, const struct ftc_merge_record *mr),
	     void *pass)
{
	struct ftc_merge *m = ftc_merge_open(r, NULL);
	struct ftc_merge_record mr;
	int ret;

	if (!m)
		return -1;
	while ((ret = ftc_merge_next(m, &mr)) == 1 && !cmd_output_failed())
		if (add(pass, &mr) < 0) {
			ret = -1;
			break;
		}
	ftc_merge_close(m);
	return ret < 0 ? -1 : 0;
}
