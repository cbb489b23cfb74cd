// SPDX-License-Identifier: LGPL-2.1-or-later
/* The private instance the write probes use, made on first use. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-control.h"
#include "probe.h"
#include "tracefs-layer.h"

void ftc_probe_scratch_remove(struct ftc_probe *p)
{
	if (p->scratch_state != 1)
		return;
	p->scratch_state = 0;
	if (p->st) {
		ftc_state_restore(p->st);
		return;
	}
	ftc_tracefs_rmdir(p->scratch);
}

void ftc_probe_journal(struct ftc_probe *p, struct ftc_state *st)
{
	if (p)
		p->st = st;
}

static int scratch_make(struct ftc_probe *p)
{
	int ret;

	if (p->st) {
		ret = ftc_instance_create(p->st, p->scratch);
		return ret > 0 ? 0 : ret == 0 ? -EEXIST : -(errno ? errno : EIO);
	}
	return ftc_tracefs_mkdir(p->scratch);
}

/* The instance's buffer_size_kb says "7 (expanded: 1408)" until the flag is set. */
static bool scratch_unexpanded(const char *scratch)
{
	char *val = NULL;
	bool ret;

	if (ftc_probe_file_read(scratch, "buffer_size_kb", 256, &val) < 0)
		return false;
	ret = strstr(val, "expanded:") != NULL;
	free(val);
	return ret;
}

const char *ftc_probe_scratch(struct ftc_probe *p)
{
	int ret;

	if (p->scratch_state)
		return p->scratch_state > 0 ? p->scratch : NULL;
	p->scratch_state = -1;
	if (!ftc_tracefs_dir()) {
		p->scratch_err = ENODEV;
		return NULL;
	}
	snprintf(p->scratch, sizeof(p->scratch), "ftc-probe-%d", (int)getpid());
	ret = scratch_make(p);
	if (ret < 0) {
		p->scratch_err = -ret;
	} else {
		p->scratch_state = 1;
		p->unexpanded = scratch_unexpanded(p->scratch);
	}
	return p->scratch_state > 0 ? p->scratch : NULL;
}
