// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc report --jobs N. Formatting is most of a report's time, and the
 * records of a file depend on each other only through what printing one
 * leaves behind (task names a plugin registers, a function_graph exit an
 * entry folds). So every process reads and merges the whole file alike,
 * the selected records are cut into stretches of REPORT_JOBS_CHUNK, and
 * process k formats the stretches k, k+N, k+2N...; for the others it does
 * what printing would do without printing (ftc_format_skip_record). The
 * parent prints its own stretches and copies each helper's from its pipe in
 * stretch order, so the output is byte for byte one process's.
 *
 * Processes, not threads: libtraceevent's handle caches as it prints and
 * is not made to be shared.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format-env.h"
#include "ftc.h"
#include "ftc-merge.h"
#include "options.h"
#include "output.h"
#include "report-jobs.h"

/* Less ring buffer data than this formats in a fraction of a second: one process. */
#define JOBS_MIN_BYTES		(4ull << 20)
#define JOBS_DEFAULT_MAX	4

static int usable_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	return CPU_COUNT(&set);
}

/* The ring buffer data in the file (compressed data counted at a guessed 4:1). */
static unsigned long long data_bytes(struct ftc_reader *r)
{
	unsigned long long sum = 0;

	for (int b = 0; b < ftc_reader_nbuffers(r); b++) {
		const struct ftc_dat_buffer *buf = ftc_reader_buffer(r, b);

		for (int c = 0; c < buf->ncpus; c++)
			sum += buf->cpus[c].size * (buf->compressed ? 4 : 1);
	}
	return sum;
}

int report_jobs_count(struct ftc_reader *r, unsigned int fl, int asked)
{
	int n;

	/* That layout's state is what it printed; the compile figures are one process's. */
	if ((fl & FTC_FMT_GRAPH_KERNEL) || format_env_stats())
		return 1;
	if (asked > 0)
		return asked < REPORT_JOBS_MAX ? asked : REPORT_JOBS_MAX;
	if (data_bytes(r) < JOBS_MIN_BYTES)
		return 1;
	n = usable_cpus();
	return n < JOBS_DEFAULT_MAX ? n : JOBS_DEFAULT_MAX;
}

static int write_all(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p = (const char *)p + w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads n bytes; 0 at once at the end of the pipe, -1 on a short read. */
static int read_all(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return got ? -1 : (r == 0 ? 0 : -1);
		got += (size_t)r;
	}
	return 1;
}

/* The helper's stretch into its pipe: its length, then its text. */
static void send_stretch(struct report_jobs *j, struct ftc_format *f)
{
	uint64_t len;

	ftc_format_sync(f);
	fflush(j->mem);
	len = j->len;
	if (write_all(j->fd[j->me], &len, sizeof(len)) < 0 ||
	    write_all(j->fd[j->me], j->buf, j->len) < 0)
		_exit(FTC_EXIT_FAIL);	/* the parent is gone (EPIPE) or stopped */
	rewind(j->mem);
	j->len = 0;
}

static void stop_helpers(struct report_jobs *j)
{
	for (int k = 1; k < j->n; k++) {
		if (j->pid[k] > 0) {
			kill(j->pid[k], SIGTERM);
			waitpid(j->pid[k], NULL, 0);
			j->pid[k] = 0;
		}
		if (j->fd[k] >= 0)
			close(j->fd[k]);
		j->fd[k] = -1;
	}
}

/* Names how helper k ended (after its pipe closed early, or at the end). */
static void helper_failed(struct report_jobs *j, int k, unsigned long long printed)
{
	int st = 0;
	pid_t pid = j->pid[k];

	if (pid > 0 && waitpid(pid, &st, 0) == pid)
		j->pid[k] = 0;
	fprintf(stderr, "ftc report: %s: --jobs: helper %d (pid %d) %s %d before its part of "
		"the records was printed; the output stops after %llu records: run with "
		"--jobs 1\n", j->input, k, (int)pid,
		WIFSIGNALED(st) ? "was killed by signal" : "exited with status",
		WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), printed);
	stop_helpers(j);
}

/* The parent: helper k's next stretch, copied to stdout after what came before. */
static int copy_stretch(struct report_jobs *j, struct ftc_format *f, int k,
			unsigned long long printed)
{
	char buf[65536];
	uint64_t len;

	ftc_format_sync(f);
	if (read_all(j->fd[k], &len, sizeof(len)) != 1) {
		helper_failed(j, k, printed);
		return -1;
	}
	while (len) {
		size_t n = len < sizeof(buf) ? (size_t)len : sizeof(buf);

		if (read_all(j->fd[k], buf, n) != 1) {
			helper_failed(j, k, printed);
			return -1;
		}
		fwrite(buf, 1, n, stdout);
		len -= n;
	}
	return 0;
}

/* A helper: its own formatter into memory, from the same merge. */
static int become_helper(struct report_jobs *j, int k, int wfd, struct ftc_format **f,
			 struct ftc_merge *m, struct ftc_reader *r, unsigned int fl, pid_t parent)
{
	for (int i = 1; i < k; i++)
		close(j->fd[i]);
	j->me = k;
	j->fd[k] = wfd;
	/*
	 * A parent that died (report | head: SIGPIPE) takes its helpers along
	 * at once, not at their next write, which may be a stretch away.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(FTC_EXIT_FAIL);
	signal(SIGPIPE, SIG_IGN);	/* a parent that stopped reading: EPIPE at the next write */
	j->mem = open_memstream(&j->buf, &j->len);
	*f = j->mem ? ftc_format_new(r, j->mem, fl) : NULL;
	if (!*f)
		_exit(FTC_EXIT_FAIL);
	ftc_format_set_merge(*f, m);
	return 0;
}

int report_jobs_start(struct report_jobs *j, int n, struct ftc_format **f, struct ftc_merge *m,
		      struct ftc_reader *r, unsigned int fl)
{
	const char *stretch = getenv("FTC_REPORT_STRETCH");
	pid_t parent = getpid();
	int k, p[2];

	j->n = 1;
	j->me = 0;
	j->chunk = stretch && atoi(stretch) > 0 ? (unsigned long long)atoi(stretch) :
		   REPORT_JOBS_CHUNK;
	if (n <= 1)
		return 0;
	/* Nothing buffered may be printed twice by a helper. */
	ftc_format_sync(*f);
	cmd_output_flush();
	j->n = n;
	for (k = 1; k < n; k++) {
		j->fd[k] = -1;
		j->pid[k] = 0;
		if (pipe2(p, O_CLOEXEC) < 0)
			break;
		/* A stretch moves in fewer wake-ups (the default pipe holds 64 KB). */
		fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
		j->pid[k] = fork();
		if (j->pid[k] == 0) {
			close(p[0]);
			return become_helper(j, k, p[1], f, m, r, fl, parent);
		}
		close(p[1]);
		if (j->pid[k] < 0) {
			j->pid[k] = 0;
			close(p[0]);
			break;
		}
		j->fd[k] = p[0];
	}
	if (k < n) {
		/* The helpers that started count on n: stop them, print alone. */
		fprintf(stderr, "ftc report: --jobs %d: cannot start helper %d (%s): one process "
			"prints the report\n", n, k, strerror(errno));
		j->n = k + 1;
		stop_helpers(j);
		j->n = 1;
	}
	return 0;
}

int report_jobs_step(struct report_jobs *j, struct ftc_format *f, unsigned long long printed)
{
	int owner;

	if (j->n == 1 || printed % j->chunk)
		return 0;
	owner = (int)((printed / j->chunk - 1) % (unsigned long long)j->n);
	if (j->me)
		return owner == j->me ? (send_stretch(j, f), 0) : 0;
	return owner ? copy_stretch(j, f, owner, printed) : 0;
}

int report_jobs_finish(struct report_jobs *j, struct ftc_format *f, unsigned long long printed)
{
	int owner, ret = 0;

	if (j->n == 1)
		return 0;
	/* The stretch in progress, maybe empty: both sides know whose it is. */
	owner = (int)((printed / j->chunk) % (unsigned long long)j->n);
	if (j->me) {
		if (owner == j->me)
			send_stretch(j, f);
		_exit(FTC_EXIT_OK);
	}
	if (owner && copy_stretch(j, f, owner, printed) < 0)
		return -1;
	for (int k = 1; k < j->n; k++) {
		int st;

		close(j->fd[k]);
		j->fd[k] = -1;
		if (waitpid(j->pid[k], &st, 0) == j->pid[k] && WIFEXITED(st) &&
		    WEXITSTATUS(st) == FTC_EXIT_OK) {
			j->pid[k] = 0;
			continue;
		}
		fprintf(stderr, "ftc report: %s: --jobs: helper %d (pid %d) ended badly (%s %d)\n",
			j->input, k, (int)j->pid[k],
			WIFSIGNALED(st) ? "signal" : "status",
			WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		j->pid[k] = 0;
		ret = -1;
	}
	return ret;
}
