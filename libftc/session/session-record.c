// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A session recorded: configured with tracing off, the file's head written,
 * a reader per CPU and buffer (and perf) started, the recorder kept out of
 * its own trace, then tracing on and the command released; at the end
 * tracing off, the readers drained and the file finished.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"
#include "opts.h"
#include "ftc.h"
#include "ftc-stream.h"

/* The CPUs of every section, before the file is laid out. */
static int sections_cpus(struct ftc_session *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct ftc_session_section *sec = s->secs[i];

		free(sec->cpus);
		sec->cpus = NULL;
		sec->ncpus = ftc_capture_cpus(sec->instance, &sec->cpus);
		if (sec->ncpus < 0)
			return -1;
		if (sec->ncpus == 0)
			return ftc_error(EINVAL, "tracing_cpumask%s%s selects no CPU: nothing to record",
					 sec->instance ? " of instance " : "",
					 sec->instance ? sec->instance : "");
	}
	return 0;
}

static int open_writer(struct ftc_session *s, const struct ftc_session_record_opts *o)
{
	int version = o->version ? o->version : 7;

	if (o->fd > 0)
		s->w = ftc_writer_create_stream(o->fd, o->output, version, o->compression);
	else
		s->w = ftc_writer_create(o->output, version, o->compression);
	if (!s->w)
		return -1;
	if (o->max_bytes && ftc_writer_set_max(s->w, o->max_bytes) < 0)
		return -1;
	/* buffer i of the file is section i: the names are the instances' */
	for (size_t i = 0; i < s->n; i++)
		if (ftc_writer_add_buffer(s->w, s->secs[i]->instance, s->secs[i]->ncpus,
					  s->secs[i]->cpus) != (int)i ||
		    ftc_writer_add_enabled(s->w, s->secs[i]->instance) < 0)
			return -1;
	return 0;
}

/* perf takes the first section's clock, so that both stamp alike, and its CPUs. */
static int open_perf(struct ftc_session *s, const struct ftc_session_record_opts *o)
{
	struct ftc_session_section *first = s->secs[0];
	struct ftc_capture_perf_opts po;
	char *clock;

	if (FTC_OPTS_COPY(&po, o->perf, ftc_capture_perf_opts, dwarf_stack) < 0)
		return -1;
	clock = ftc_tracefs_clock(first->instance);
	if (!clock)
		return -1;
	po.size = sizeof(po);
	po.instance = first->instance;
	po.pid = ftc_workload_pid(s->command);
	s->perf = ftc_capture_perf_new(s->w, &po, clock, first->ncpus, first->cpus);
	free(clock);
	return s->perf ? 0 : -1;
}

static int start_capture(struct ftc_session *s, const struct ftc_session_record_opts *o)
{
	if (ftc_writer_start(s->w) < 0)
		return -1;
	s->cap = ftc_capture_new(s->w, o->wake_usecs);
	if (!s->cap)
		return -1;
	if (o->rt_priority)
		ftc_capture_set_rt_priority(s->cap, o->rt_priority == FTC_CAPTURE_NO_RT ? 0 :
					    o->rt_priority);
	if (o->mmap)
		ftc_capture_use_mmap(s->cap);
	for (size_t i = 0; i < s->n; i++) {
		struct ftc_session_section *sec = s->secs[i];

		sec->first_slot = ftc_capture_nslots(s->cap);
		if (ftc_capture_add(s->cap, (int)i, sec->instance, sec->ncpus, sec->cpus) < 0)
			return -1;
		sec->nslots = ftc_capture_nslots(s->cap) - sec->first_slot;
	}
	if (ftc_capture_start(s->cap) < 0)
		return -1;
	return s->perf ? ftc_capture_perf_start(s->perf) : 0;
}

/*
 * The recorder's own threads (their syscalls, their scheduling) would fill
 * the trace with its activity. Best effort: a failure costs a noisier
 * trace, not the capture, and stays in ftc_strerror() for the caller.
 */
static void exclude_self(struct ftc_session *s)
{
	int most = ftc_capture_nslots(s->cap) + 1;
	pid_t *tids = calloc((size_t)most, sizeof(*tids));
	int n;

	if (!tids)
		return;
	n = ftc_capture_tids(s->cap, tids, most - 1);
	if (s->perf)
		tids[n++] = ftc_capture_perf_tid(s->perf);
	for (size_t i = 0; i < s->n; i++)
		ftc_exclude_self(s->st, s->secs[i]->instance, tids, (size_t)n);
	free(tids);
}

static int fail_at(struct ftc_session *s, enum ftc_session_stage stage)
{
	s->stage = stage;
	return -1;
}

/* The command never ran: leave a finished (empty) file. */
static int fail_started(struct ftc_session *s, enum ftc_session_stage stage)
{
	int err = errno;
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", ftc_strerror());
	ftc_capture_stop(s->cap);
	if (s->perf)
		ftc_capture_perf_stop(s->perf);
	ftc_writer_finish(s->w);
	s->recording = false;
	ftc_error(err, "%s", msg);
	return fail_at(s, stage);
}

int ftc_session_record_start(struct ftc_session *s, struct ftc_state *st,
			     const struct ftc_session_record_opts *opts)
{
	struct ftc_session_record_opts copy, *o = &copy;

	if (FTC_OPTS_COPY(&copy, opts, ftc_session_record_opts, mmap) < 0)
		return -1;
	if (!o->output)
		return ftc_error(EINVAL, "ftc_session_record_start: no output file named");
	if (s->w)
		return ftc_error(EBUSY, "the session has recorded already");
	s->st = st;
	s->stage = FTC_SESSION_STAGE_NONE;
	if (!s->configured && ftc_session_configure(s, st) < 0)
		return -1;
	if (sections_cpus(s) < 0 || open_writer(s, o) < 0)
		return fail_at(s, FTC_SESSION_STAGE_FILE);
	if (o->perf && open_perf(s, o) < 0)
		return fail_at(s, FTC_SESSION_STAGE_PERF);
	if (start_capture(s, o) < 0)
		return fail_at(s, FTC_SESSION_STAGE_FILE);
	s->recording = true;
	exclude_self(s);
	if (ftc_session_tracing_on(s, st) < 0)
		return fail_started(s, FTC_SESSION_STAGE_TRACING_ON);
	if (ftc_session_release(s) < 0)
		return fail_started(s, FTC_SESSION_STAGE_EXEC);
	if (s->command && s->perf)
		ftc_capture_perf_command_started(s->perf);
	return 0;
}

enum ftc_session_stage ftc_session_stage(const struct ftc_session *s)
{
	return s->stage;
}

int ftc_session_checkpoint(struct ftc_session *s)
{
	return s->cap ? ftc_capture_checkpoint(s->cap) : 0;
}

bool ftc_session_failed(const struct ftc_session *s)
{
	return s->cap && ftc_capture_failed(s->cap);
}

const char *ftc_session_error(const struct ftc_session *s)
{
	return ftc_session_failed(s) ? ftc_capture_error(s->cap) : ftc_strerror();
}

struct first_failure {
	int err;
	char msg[512];
};

/* Keeps the first failure's message and errno: the later steps still run. */
static int keep_first(int ret, int step, struct first_failure *f)
{
	if (step < 0 && !ret) {
		f->err = errno;
		snprintf(f->msg, sizeof(f->msg), "%s", ftc_strerror());
	}
	return step < 0 ? -1 : ret;
}

int ftc_session_record_stop(struct ftc_session *s)
{
	struct first_failure f = { 0, "" };
	int ret = 0;

	if (!s->recording)
		return 0;
	s->recording = false;
	/* quiet the buffers so that the last drain ends (the journal restores them) */
	for (size_t i = 0; i < s->n; i++)
		ret = keep_first(ret, ftc_knob_write(s->st, s->secs[i]->instance, "tracing_on", "0"),
				 &f);
	/* a reader's failure was reported while recording */
	if (ftc_capture_stop(s->cap) < 0 && !ftc_capture_failed(s->cap))
		ret = keep_first(ret, -1, &f);
	if (s->perf)
		ret = keep_first(ret, ftc_capture_perf_stop(s->perf), &f);
	ret = keep_first(ret, ftc_writer_finish(s->w), &f);
	if (ret < 0)
		ftc_error(f.err, "%s", f.msg);
	return ret;
}

struct ftc_writer *ftc_session_writer(const struct ftc_session *s)
{
	return s->w;
}

struct ftc_capture *ftc_session_capture(const struct ftc_session *s)
{
	return s->cap;
}

struct ftc_capture_perf *ftc_session_perf(const struct ftc_session *s)
{
	return s->perf;
}

int ftc_session_slots(const struct ftc_session *s, size_t i, int *first, int *n)
{
	if (i >= s->n || !s->cap)
		return ftc_error(EINVAL, "no section %zu is recording", i);
	*first = s->secs[i]->first_slot;
	*n = s->secs[i]->nslots;
	return 0;
}

void ftc_session_free(struct ftc_session *s)
{
	if (!s)
		return;
	ftc_session_record_stop(s);
	ftc_capture_free(s->cap);
	ftc_capture_perf_free(s->perf);
	ftc_writer_free(s->w);
	ftc_session_run_free(s);
	ftc_session_spec_free(s);
}
