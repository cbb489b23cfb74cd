// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event lists: "-e" specs with groups and tracepoint globs turned into
 * events, then opened per task or per CPU with perf_event_open.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <tracefs.h>
#include <unistd.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"

static int push_event(struct ftc_perf_evlist *l, const char *name, int leader)
{
	struct ftc_perf_event *ev, *e;

	ev = realloc(l->ev, (size_t)(l->n + 1) * sizeof(*ev));
	if (!ev)
		return ftc_error(ENOMEM, "out of memory");
	l->ev = ev;
	e = &ev[l->n];
	memset(e, 0, sizeof(*e));
	if (ftc_perf_event_resolve(name, &e->attr, &e->kind) < 0)
		return -1;
	e->name = strdup(name);
	if (!e->name)
		return ftc_error(ENOMEM, "out of memory");
	e->leader = leader < 0 ? l->n : leader;
	l->n++;
	return 0;
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Every "SYS/EVT/" whose names match the patterns, sorted as the paths
 * .../events/SYS/EVT/id sort (hence the trailing '/'). The count, or -1.
 */
static int match_tracepoints(const char *sys_pat, const char *evt_pat, char ***out)
{
	char **systems = tracefs_event_systems(NULL), **keys = NULL, **more;
	int n = 0;

	for (int i = 0; systems && systems[i]; i++) {
		char **events;

		if (fnmatch(sys_pat, systems[i], FNM_PERIOD))
			continue;
		events = tracefs_system_events(NULL, systems[i]);
		for (int j = 0; events && events[j]; j++) {
			char key[512];

			if (fnmatch(evt_pat, events[j], FNM_PERIOD))
				continue;
			snprintf(key, sizeof(key), "%s/%s/", systems[i], events[j]);
			more = tracefs_list_add(keys, key);
			if (!more) {
				n = -1;
				break;
			}
			keys = more;
			n++;
		}
		tracefs_list_free(events);
		if (n < 0)
			break;
	}
	tracefs_list_free(systems);
	if (n < 0) {
		tracefs_list_free(keys);
		return ftc_error(ENOMEM, "out of memory");
	}
	if (n)
		qsort(keys, (size_t)n, sizeof(*keys), cmp_str);
	*out = keys;
	return n;
}

/* "sys*:ev*[:mods]" -> every matching tracepoint, sorted by name. */
static int push_glob(struct ftc_perf_evlist *l, const char *name, int *leader)
{
	char *copy = strdup(name), *colon, *mods, **keys = NULL;
	const char *top = ftc_tracefs_dir();
	int ret = -1, n;

	if (!copy)
		return ftc_error(ENOMEM, "out of memory");
	colon = strchr(copy, ':');
	if (!colon || !top) {
		ftc_error(EINVAL, "'%s': globs match tracepoints only, as system:event", name);
		goto out;
	}
	*colon = '\0';
	mods = strchr(colon + 1, ':');
	if (mods)
		*mods++ = '\0';
	n = match_tracepoints(copy, colon + 1, &keys);
	if (n == 0)
		ftc_error(ENOENT, "no tracepoint matches '%s' (looked for %s/events/%s/%s/id)",
			  name, top, copy, colon + 1);
	if (n <= 0)
		goto out;
	for (int i = 0; i < n; i++) {
		char *evt = strchr(keys[i], '/'), full[512];

		*evt++ = '\0';
		evt[strlen(evt) - 1] = '\0';
		snprintf(full, sizeof(full), "%s:%s%s%s", keys[i], evt, mods ? ":" : "",
			 mods ? mods : "");
		if (push_event(l, full, *leader) < 0)
			goto out;
		if (*leader == -2)	/* the first member of a group leads it */
			*leader = l->n - 1;
	}
	ret = n;
out:
	tracefs_list_free(keys);
	free(copy);
	return ret;
}

static int push_name(struct ftc_perf_evlist *l, const char *name, int *leader)
{
	int lead = *leader == -2 ? -1 : *leader;

	if (!*name)
		return ftc_error(EINVAL, "empty event name in the event list");
	if (has_glob(name))
		return push_glob(l, name, leader);
	if (push_event(l, name, lead) < 0)
		return -1;
	if (*leader == -2)
		*leader = l->n - 1;
	return 1;
}

/* A group member with the group's modifiers appended: "a" + "u" -> "a:u". */
static char *member_name(const char *m, size_t len, const char *mods)
{
	const char *colon = memrchr(m, ':', len);
	bool has_mods = colon && colon + 1 < m + len &&
		strspn(colon + 1, "ukhp") == (size_t)(m + len - colon - 1);
	char *s;

	if (!mods || !*mods)
		return strndup(m, len);
	if (asprintf(&s, "%.*s%s%s", (int)len, m, has_mods ? "" : ":", mods) < 0)
		return NULL;
	return s;
}

static int push_group(struct ftc_perf_evlist *l, const char *body, size_t len, const char *mods)
{
	int leader = -2, added = 0;
	const char *p = body, *end = body + len;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);
		char *name = member_name(p, n, mods);
		int ret;

		if (!name)
			return ftc_error(ENOMEM, "out of memory");
		ret = push_name(l, name, &leader);
		free(name);
		if (ret < 0)
			return -1;
		added += ret;
		p += n + 1;
	}
	return added;
}

int ftc_perf_evlist_add(struct ftc_perf_evlist *l, const char *spec)
{
	const char *p = spec;
	int added = 0, ret;

	while (*p) {
		size_t n = strcspn(p, ",{");
		char *name, *mods = NULL;

		if (*p == '{') {
			const char *close = strchr(p, '}');
			size_t mlen;

			if (!close)
				return ftc_error(EINVAL, "unclosed '{' in event list '%s'", spec);
			mlen = *(close + 1) == ':' ? strcspn(close + 2, ",") : 0;
			if (mlen)
				mods = strndup(close + 2, mlen);
			ret = push_group(l, p + 1, (size_t)(close - p - 1), mods);
			free(mods);
			p = close + 1 + (mlen ? mlen + 1 : 0);
		} else {
			int leader = -1;

			if (p[n] == '{')
				return ftc_error(EINVAL, "'{' inside an event name in '%s'", spec);
			name = strndup(p, n);
			if (!name)
				return ftc_error(ENOMEM, "out of memory");
			ret = push_name(l, name, &leader);
			free(name);
			p += n;
		}
		if (ret < 0)
			return -1;
		added += ret;
		if (*p == ',')
			p++;
		else if (*p)
			return ftc_error(EINVAL, "expected ',' at '%s' in event list '%s'", p, spec);
	}
	if (!added)
		return ftc_error(EINVAL, "empty event list");
	return added;
}

static void close_fds(struct ftc_perf_event *e, int slots)
{
	if (!e->fds)
		return;
	for (int s = 0; s < slots; s++)
		if (e->fds[s] >= 0)
			close(e->fds[s]);
	free(e->fds);
	e->fds = NULL;
}

void ftc_perf_evlist_close(struct ftc_perf_evlist *l)
{
	for (int i = 0; i < l->n; i++)
		close_fds(&l->ev[i], l->ncpus * l->npids);
}

struct ftc_perf_evlist *ftc_perf_evlist_new(void)
{
	struct ftc_perf_evlist *l = calloc(1, sizeof(*l));

	if (!l)
		ftc_error(ENOMEM, "out of memory");
	return l;
}

void ftc_perf_evlist_free(struct ftc_perf_evlist *l)
{
	if (!l)
		return;
	ftc_perf_evlist_close(l);
	for (int i = 0; i < l->n; i++) {
		free(l->ev[i].name);
		ftc_perf_event_cgroup_clear(&l->ev[i]);
	}
	free(l->ev);
	free(l->cpus);
	free(l->pids);
	free(l);
}

int ftc_perf_evlist_count(const struct ftc_perf_evlist *l)
{
	return l->n;
}

const struct ftc_perf_event *ftc_perf_evlist_event(const struct ftc_perf_evlist *l, int i)
{
	return i >= 0 && i < l->n ? &l->ev[i] : NULL;
}

int ftc_perf_evlist_ncpus(const struct ftc_perf_evlist *l)
{
	return l->ncpus;
}

int ftc_perf_evlist_cpu(const struct ftc_perf_evlist *l, int slot)
{
	return slot >= 0 && slot < l->ncpus ? l->cpus[slot] : -1;
}

int ftc_perf_evlist_target(struct ftc_perf_evlist *l, const pid_t *pids, int npids,
			   const int *cpus, int ncpus)
{
	static const pid_t any_pid = -1;
	static const int any_cpu = -1;

	if (!npids) {
		pids = &any_pid;
		npids = 1;
	}
	if (!ncpus) {
		cpus = &any_cpu;
		ncpus = 1;
	}
	free(l->pids);
	free(l->cpus);
	l->pids = malloc((size_t)npids * sizeof(*pids));
	l->cpus = malloc((size_t)ncpus * sizeof(*cpus));
	if (!l->pids || !l->cpus)
		return ftc_error(ENOMEM, "out of memory");
	memcpy(l->pids, pids, (size_t)npids * sizeof(*pids));
	memcpy(l->cpus, cpus, (size_t)ncpus * sizeof(*cpus));
	l->npids = npids;
	l->ncpus = ncpus;
	return 0;
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static void prepare_attr(struct ftc_perf_event *e, bool is_leader, unsigned int flags)
{
	struct perf_event_attr *a = &e->attr;

	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* Only a leader carries disabled/enable_on_exec: members follow it. */
	a->disabled = is_leader;
	a->enable_on_exec = is_leader && (flags & FTC_PERF_ENABLE_ON_EXEC);
	a->inherit = !!(flags & FTC_PERF_INHERIT);
}

/* A cgroup event counts the cgroup's tasks on one CPU: the target must be CPUs. */
static int check_cgroup_target(const struct ftc_perf_evlist *l, const struct ftc_perf_event *e)
{
	if (!e->cgroup || (l->npids == 1 && l->pids[0] == -1 && l->cpus[0] >= 0))
		return 0;
	return ftc_error(EINVAL, "'%s' counts in cgroup '%s', which takes CPUs to count on "
			 "(system wide), not tasks", e->name, e->cgroup);
}

/*
 * As perf does: where perf_event_paranoid forbids counting the kernel, an
 * event that did not ask for it explicitly counts user space alone and
 * says so by its name ("cycles:u"). Tracepoints happen in the kernel.
 */
static bool fall_back_to_user(struct ftc_perf_event *e)
{
	char *name;

	if ((e->open_errno != EACCES && e->open_errno != EPERM) || e->attr.exclude_kernel ||
	    e->attr.exclude_user || e->attr.type == PERF_TYPE_TRACEPOINT || e->cgroup)
		return false;
	if (asprintf(&name, "%s%s", e->name, strchr(e->name, ':') ? "u" : ":u") < 0)
		return false;
	free(e->name);
	e->name = name;
	e->attr.exclude_kernel = 1;
	e->attr.exclude_hv = 1;
	return true;
}

static int open_event(struct ftc_perf_evlist *l, int i, unsigned int flags)
{
	struct ftc_perf_event *e = &l->ev[i];
	struct ftc_perf_event *lead = &l->ev[e->leader];
	int slots = l->ncpus * l->npids;
	unsigned long oflags = PERF_FLAG_FD_CLOEXEC | (e->cgroup ? PERF_FLAG_PID_CGROUP : 0);

	if (check_cgroup_target(l, e) < 0)
		return -1;
	e->fds = malloc((size_t)slots * sizeof(int));
	if (!e->fds)
		return ftc_error(ENOMEM, "out of memory");
	for (int s = 0; s < slots; s++)
		e->fds[s] = -1;
	prepare_attr(e, e->leader == i, flags);
retry:
	e->open_errno = 0;
	for (int c = 0; c < l->ncpus; c++) {
		for (int p = 0; p < l->npids; p++) {
			int s = c * l->npids + p;
			int group_fd = e->leader == i ? -1 : lead->fds[s];

			if (e->leader != i && group_fd < 0) {
				e->open_errno = lead->open_errno ? lead->open_errno : EBADF;
				break;
			}
			e->fds[s] = sys_perf_event_open(&e->attr,
							e->cgroup ? e->cgroup_fd : l->pids[p],
							l->cpus[c], group_fd, oflags);
			if (e->fds[s] < 0) {
				e->open_errno = errno;
				break;
			}
		}
		if (e->open_errno)
			break;
	}
	if (e->open_errno && fall_back_to_user(e)) {
		for (int s = 0; s < slots; s++)
			if (e->fds[s] >= 0) {
				close(e->fds[s]);
				e->fds[s] = -1;
			}
		goto retry;
	}
	/* Out of descriptors or target gone: the run itself is wrong, not the event. */
	if (e->open_errno == EMFILE || e->open_errno == ENFILE || e->open_errno == ESRCH) {
		int err = e->open_errno;

		close_fds(e, slots);
		if (err == ESRCH)
			return ftc_error(err, "cannot count '%s': the process is gone", e->name);
		return ftc_error(err, "cannot open '%s': out of file descriptors (%d events x %d "
				 "CPUs x %d threads); raise 'ulimit -n' or count fewer events",
				 e->name, l->n, l->ncpus, l->npids);
	}
	/* Half a count is worse than none: an event counts everywhere or not at all. */
	if (e->open_errno) {
		for (int s = 0; s < slots; s++)
			if (e->fds[s] >= 0) {
				close(e->fds[s]);
				e->fds[s] = -1;
			}
		return 0;
	}
	return 1;
}

int ftc_perf_evlist_open(struct ftc_perf_evlist *l, unsigned int flags)
{
	int opened = 0;

	if (!l->ncpus || !l->npids) {
		if (ftc_perf_evlist_target(l, NULL, 0, NULL, 0) < 0)
			return -1;
	}
	for (int i = 0; i < l->n; i++) {
		int ret = open_event(l, i, flags);

		if (ret < 0) {
			ftc_perf_evlist_close(l);
			return -1;
		}
		opened += ret;
	}
	return opened;
}

int ftc_perf_evlist_enable(struct ftc_perf_evlist *l, bool on)
{
	int slots = l->ncpus * l->npids;
	unsigned long req = on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE;

	for (int i = 0; i < l->n; i++) {
		if (l->ev[i].leader != i || !l->ev[i].fds)
			continue;
		for (int s = 0; s < slots; s++)
			if (l->ev[i].fds[s] >= 0 &&
			    ioctl(l->ev[i].fds[s], req, PERF_IOC_FLAG_GROUP) < 0)
				return ftc_error(errno, "cannot %s event '%s': %s",
						 on ? "enable" : "disable", l->ev[i].name,
						 strerror(errno));
	}
	return 0;
}

static int read_fd(int fd, const char *name, struct ftc_perf_count *c)
{
	uint64_t buf[3];

	if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return ftc_error(errno ? errno : EIO, "cannot read counter '%s': %s", name,
				 strerror(errno ? errno : EIO));
	c->val += buf[0];
	c->ena += buf[1];
	c->run += buf[2];
	return 0;
}

int ftc_perf_evlist_read(const struct ftc_perf_evlist *l, int i, int cpu_slot,
			 struct ftc_perf_count *out)
{
	const struct ftc_perf_event *e = &l->ev[i];
	int c0 = cpu_slot < 0 ? 0 : cpu_slot;
	int c1 = cpu_slot < 0 ? l->ncpus : cpu_slot + 1;

	memset(out, 0, sizeof(*out));
	if (!e->fds || e->open_errno)
		return 0;
	for (int c = c0; c < c1; c++)
		for (int p = 0; p < l->npids; p++)
			if (read_fd(e->fds[c * l->npids + p], e->name, out) < 0)
				return -1;
	return 0;
}

enum ftc_perf_state ftc_perf_evlist_state(const struct ftc_perf_evlist *l, int i,
					  const struct ftc_perf_count *c)
{
	/* Decided at open time: still valid after the descriptors closed. */
	if (l->ev[i].open_errno)
		return FTC_PERF_UNSUPPORTED;
	/* Per-task times advance only while the task runs: no run time, no count. */
	if (!c->run)
		return FTC_PERF_NOT_COUNTED;
	return FTC_PERF_OK;
}
