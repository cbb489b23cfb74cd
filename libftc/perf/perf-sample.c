// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Sampling: one event opened on every CPU (for a task and its children,
 * or for every task), one mmap ring per CPU, drained into a profile.
 * A hardware event the PMU refuses falls back to cpu-clock, with a note.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "opts.h"
#include "perf.h"
#include "unwind.h"

bool ftc_perf_refused_by_pmu(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == EINVAL;
}

void ftc_perf_sampling_attr(struct perf_event_attr *a, unsigned long long freq,
			    unsigned long long period, bool callchain, unsigned int dwarf_stack)
{
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (callchain || dwarf_stack)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (dwarf_stack) {
		/* The kernel's frames from the kernel, the user's unwound from these. */
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = ftc_unwind_regs_mask();
		a->sample_stack_user = dwarf_stack;
		a->exclude_callchain_user = 1;
	}
	if (period) {
		a->freq = 0;
		a->sample_period = period;
	} else {
		a->freq = 1;
		a->sample_freq = freq ? freq : 4000;
	}
	/* Side-band records to symbolize with: names and code mappings. */
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->watermark = 1;
	a->wakeup_watermark = 16384;
}

/* ftc profile also follows forks, to name the children's samples. */
static void set_sampling(struct perf_event_attr *a, const struct ftc_perf_sample_opts *o)
{
	ftc_perf_sampling_attr(a, o->freq, o->period, o->callchain, o->dwarf_stack);
	a->task = 1;
}

static int open_one(struct ftc_perf_sampler *s, const char *event,
		    const struct ftc_perf_sample_opts *o, const pid_t *pids, int npids,
		    const int *cpus, int ncpus)
{
	ftc_perf_evlist_free(s->l);
	s->l = ftc_perf_evlist_new();
	if (!s->l || ftc_perf_evlist_add(s->l, event) < 0)
		return -1;
	if (s->l->n != 1)
		return ftc_error(EINVAL, "sample one event at a time, not '%s'", event);
	set_sampling(&s->l->ev[0].attr, o);
	if (ftc_perf_evlist_target(s->l, pids, npids, cpus, ncpus) < 0)
		return -1;
	return ftc_perf_evlist_open(s->l, o->flags);
}

static int map_rings(struct ftc_perf_sampler *s, size_t pages)
{
	struct ftc_perf_event *e = &s->l->ev[0];

	s->nrings = s->l->ncpus * s->l->npids;
	s->rings = calloc((size_t)s->nrings, sizeof(*s->rings));
	if (!s->rings)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < s->nrings; i++)
		if (!(s->rings[i] = ftc_perf_ring_map(e->fds[i], pages)))
			return -1;
	return 0;
}

static int open_sampler(struct ftc_perf_sampler *s, const char *event,
			const struct ftc_perf_sample_opts *o, const pid_t *pids, int npids,
			const int *cpus, int ncpus)
{
	const char *name = event ? event : "cpu-clock";
	int ret;

	ret = open_one(s, name, o, pids, npids, cpus, ncpus);
	if (ret < 0)
		return -1;
	if (ret == 0) {
		struct ftc_perf_event *e = &s->l->ev[0];
		int err = e->open_errno;

		if (e->kind == FTC_PERF_TRACEPOINT || e->kind == FTC_PERF_SOFTWARE ||
		    !ftc_perf_refused_by_pmu(err))
			return ftc_error(err, "cannot sample '%s': %s", name, strerror(err));
		snprintf(s->note, sizeof(s->note),
			 "'%s' cannot be sampled here (%s): sampling cpu-clock instead",
			 name, strerror(err));
		if (open_one(s, "cpu-clock", o, pids, npids, cpus, ncpus) <= 0) {
			err = s->l && s->l->n ? s->l->ev[0].open_errno : EINVAL;
			return ftc_error(err, "cannot sample cpu-clock either: %s", strerror(err));
		}
	}
	s->profile = ftc_perf_profile_new(s->l->ev[0].attr.sample_type);
	if (!s->profile)
		return -1;
	s->profile->regs_user = s->l->ev[0].attr.sample_regs_user;
	/* A DWARF sample is 8 KiB or more: rings of 64 pages hold 30 of them. */
	return map_rings(s, o->pages ? o->pages : o->dwarf_stack ? 256 : 64);
}

struct ftc_perf_sampler *ftc_perf_sampler_open(const char *event,
					       const struct ftc_perf_sample_opts *user,
					       const pid_t *pids, int npids,
					       const int *cpus, int ncpus)
{
	struct ftc_perf_sample_opts o;
	struct ftc_perf_sampler *s;
	int err;

	if (FTC_OPTS_COPY(&o, user, ftc_perf_sample_opts, dwarf_stack) < 0 ||
	    (o.dwarf_stack && ftc_perf_dwarf_check(o.dwarf_stack) < 0))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	if (open_sampler(s, event, &o, pids, npids, cpus, ncpus) < 0) {
		/* the caller tells a bad event (EINVAL, ENOENT) from a refusal */
		err = errno;
		ftc_perf_sampler_close(s);
		errno = err;
		return NULL;
	}
	return s;
}

const char *ftc_perf_sampler_event(const struct ftc_perf_sampler *s)
{
	return s->l && s->l->n ? s->l->ev[0].name : "";
}

const char *ftc_perf_sampler_note(const struct ftc_perf_sampler *s)
{
	return s->note;
}

int ftc_perf_sampler_enable(struct ftc_perf_sampler *s, bool on)
{
	return ftc_perf_evlist_enable(s->l, on);
}

struct ftc_perf_profile *ftc_perf_sampler_profile(struct ftc_perf_sampler *s)
{
	return s->profile;
}

int ftc_perf_sampler_drain(struct ftc_perf_sampler *s)
{
	int total = 0;

	for (int i = 0; i < s->nrings; i++) {
		int n = ftc_perf_ring_drain(s->rings[i], ftc_perf_profile_add, s->profile);

		if (n < 0)
			return -1;
		total += n;
	}
	return total;
}

int ftc_perf_sampler_poll(struct ftc_perf_sampler *s, int extra_fd, int timeout_ms)
{
	struct pollfd *pfd = calloc((size_t)s->nrings + 1, sizeof(*pfd));
	int ret;

	if (!pfd)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < s->nrings; i++)
		pfd[i] = (struct pollfd){ .fd = s->rings[i]->fd, .events = POLLIN };
	pfd[s->nrings] = (struct pollfd){ .fd = extra_fd, .events = POLLIN };
	ret = poll(pfd, (nfds_t)s->nrings + 1, timeout_ms);
	if (ret < 0 && errno != EINTR) {
		free(pfd);
		return ftc_error(errno, "poll: %s", strerror(errno));
	}
	ret = extra_fd >= 0 && (pfd[s->nrings].revents & (POLLIN | POLLHUP)) ? 1 : 0;
	free(pfd);
	if (ftc_perf_sampler_drain(s) < 0)
		return -1;
	return ret;
}

void ftc_perf_sampler_close(struct ftc_perf_sampler *s)
{
	if (!s)
		return;
	for (int i = 0; s->rings && i < s->nrings; i++)
		ftc_perf_ring_unmap(s->rings[i]);
	free(s->rings);
	ftc_perf_evlist_free(s->l);
	ftc_perf_profile_free(s->profile);
	free(s);
}
