// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc report --timeline FILE.html: the timeline pass (ftc-timeline.h)
 * written as it goes into one HTML page that needs nothing else: the
 * page's style and script (cmd/timeline-page.html, compiled in) around a
 * JSON block of the pass's slices, states, marks and points, one a line,
 * with times in ns from the first record (or --from). A file is written
 * beside FILE.html under a temporary name and renamed once complete, so
 * that a failure leaves nothing, and an older FILE.html stays as .old; a
 * device, a fifo or standard output is written as it is.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-merge.h"
#include "ftc-timeline.h"
#include "options.h"
#include "output.h"
#include "report-timeline.h"

extern const struct command cmd_report;
/* cmd/timeline-page.html, as the build embeds it ($(B)/gen/timeline-page.c) */
extern const unsigned char cmd_timeline_page[];
extern const unsigned int cmd_timeline_page_len;

#define DATA_MARK "@FTC_DATA@"

struct tl_writer {
	FILE *f;
	int err;			/* the first failed write's errno (stdio drops it) */
	uint64_t base;			/* times are written from it */
	bool more;			/* an event was written: the next takes a comma */
	unsigned long long slices, heads, states, marks, lost, samples, counters;
};

int report_timeline_opt(const char *path)
{
	struct stat st;

	if (!*path)
		return cmd_bad_value("an empty name: name the HTML file to write");
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return cmd_bad_value("is a directory: name the HTML file to write in it");
	return 0;
}

/* A JSON string that an HTML script element cannot end early (<, >, & escaped). */
static void json_text(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* After writes: a failure's reason kept while errno still holds it. */
static void noted(struct tl_writer *w)
{
	if (!w->err && ferror(w->f))
		w->err = errno ? errno : EIO;
}

static void sep(struct tl_writer *w)
{
	if (w->more)
		fputs(",\n", w->f);
	w->more = true;
}

static long long rel(const struct tl_writer *w, uint64_t ts)
{
	return (long long)(ts - w->base);
}

static void state_text(FILE *f, char c)
{
	if (c)
		fprintf(f, "\"%c\"", c);
	else
		fputs("\"\"", f);
}

static void on_slice(const struct ftc_timeline_slice *s, void *ctx)
{
	struct tl_writer *w = ctx;

	sep(w);
	fprintf(w->f, "[0,%d,%lld,%llu,%zu,", s->cpu, rel(w, s->start),
		(unsigned long long)(s->end - s->start), s->task);
	state_text(w->f, s->end_state);
	fprintf(w->f, ",%d]", s->head);
	if (s->head)
		w->heads++;
	else
		w->slices++;
	noted(w);
}

static void on_state(const struct ftc_timeline_state *s, void *ctx)
{
	struct tl_writer *w = ctx;

	sep(w);
	fprintf(w->f, "[1,%zu,%lld,%llu,", s->task, rel(w, s->start),
		(unsigned long long)(s->end - s->start));
	state_text(w->f, s->state);
	fprintf(w->f, ",%d]", s->cpu);
	w->states++;
	noted(w);
}

static long long task_or_none(size_t task)
{
	return task == SIZE_MAX ? -1 : (long long)task;
}

static void on_mark(const struct ftc_timeline_mark *m, void *ctx)
{
	struct tl_writer *w = ctx;

	sep(w);
	if (!m->text) {
		fprintf(w->f, "[3,%lld,%d,%lld]", rel(w, m->ts), m->cpu, m->missed);
		w->lost++;
	} else {
		fprintf(w->f, "[2,%lld,%d,%lld,", rel(w, m->ts), m->cpu, task_or_none(m->task));
		json_text(w->f, m->text, m->len);
		fputc(']', w->f);
		w->marks++;
	}
	noted(w);
}

static void on_point(const struct ftc_timeline_point *p, void *ctx)
{
	struct tl_writer *w = ctx;

	sep(w);
	if (!p->name) {
		fprintf(w->f, "[4,%lld,%d,%lld,%llu]", rel(w, p->ts), p->cpu,
			task_or_none(p->task), (unsigned long long)p->value);
		w->samples++;
	} else {
		fprintf(w->f, "[5,%lld,%d,", rel(w, p->ts), p->cpu);
		json_text(w->f, p->name, strlen(p->name));
		fprintf(w->f, ",%llu]", (unsigned long long)p->value);
		w->counters++;
	}
	noted(w);
}

/* The page up to the data (before: true) or after it. */
static void page_part(FILE *f, bool before)
{
	const char *page = (const char *)cmd_timeline_page;
	const char *mark = memmem(page, cmd_timeline_page_len, DATA_MARK, strlen(DATA_MARK));
	size_t at = mark ? (size_t)(mark - page) : cmd_timeline_page_len;

	if (before)
		fwrite(page, 1, at, f);
	else if (mark)
		fwrite(mark + strlen(DATA_MARK), 1,
		       cmd_timeline_page_len - at - strlen(DATA_MARK), f);
}

static void write_tasks(FILE *f, struct ftc_timeline *t)
{
	bool more = false;

	fputs("],\n\"tasks\":[", f);
	for (size_t i = 0; i < ftc_timeline_ntasks(t); i++) {
		const struct ftc_timeline_task *k = ftc_timeline_task_at(t, i);

		if (!k->shown)
			continue;
		fprintf(f, "%s\n[%zu,%d,", more ? "," : "", i, k->pid);
		json_text(f, k->comm, strlen(k->comm));
		fprintf(f, ",%llu]", (unsigned long long)k->run_ns);
		more = true;
	}
	fputs("],\n", f);
}

static void write_cpus(FILE *f, struct ftc_reader *r, const struct report_timeline *o)
{
	bool more = false;

	fputs("\"cpus\":[", f);
	for (int c = 0; c < ftc_reader_ncpus(r) && c < 1024; c++) {
		if (o->cpu_mask && !(o->cpu_mask[c / 64] >> (c % 64) & 1))
			continue;
		fprintf(f, "%s%d", more ? "," : "", c);
		more = true;
	}
	fputs("],\n", f);
}

static void write_meta(FILE *f, struct ftc_reader *r, struct ftc_timeline *t,
		       const struct report_timeline *o, const struct tl_writer *w)
{
	const char *inst = ftc_timeline_instance(t);

	write_cpus(f, r, o);
	fputs("\"meta\":{\"file\":", f);
	json_text(f, o->input, strlen(o->input));
	fputs(",\"instance\":", f);
	json_text(f, inst ? inst : "", inst ? strlen(inst) : 0);
	fprintf(f, ",\"base\":%llu,\"start\":%lld,\"end\":%lld,\"slices\":%llu,\"heads\":%llu,"
		"\"states\":%llu,\"marks\":%llu,\"lost\":%llu,\"samples\":%llu,\"counters\":%llu,"
		"\"version\":\"%s\"}}", (unsigned long long)w->base,
		rel(w, ftc_timeline_start(t)), rel(w, ftc_timeline_end(t)), w->slices, w->heads,
		w->states, w->marks, w->lost, w->samples, w->counters, FTC_VERSION);
}

/* Every record through the pass, from the start (the window is the pass's), into w. */
static int feed(struct ftc_reader *r, struct ftc_timeline *t, struct tl_writer *w,
		struct cmd_window *win)
{
	struct ftc_merge *m = ftc_merge_open(r, NULL);
	struct ftc_merge_record mr;
	int ret = 0;

	if (!m)
		return -1;
	while (ret == 0 && (ret = ftc_merge_next(m, &mr)) == 1) {
		if (!win->first_ts) {
			win->first_ts = mr.rec->ts;
			w->base = win->have_from ? win->from : mr.rec->ts;
		}
		win->last_ts = mr.rec->ts;
		if (cmd_window_before(win, mr.rec->ts))
			win->skipped++;
		ret = ftc_timeline_add(t, &mr);
		if (ret > 0) {
			win->skipped++;
			win->stopped = true;
		}
		if (ret == 0 && ferror(w->f))
			ret = -1;
	}
	ftc_merge_close(m);
	if (ret < 0)
		return -1;
	ftc_timeline_finish(t);
	return 0;
}

/* A temporary file beside path (in its directory, to be renamed over it). */
static FILE *open_temp(const char *path, char *tmp, size_t size)
{
	int fd;
	FILE *f;

	if (snprintf(tmp, size, "%s.XXXXXX", path) >= (int)size) {
		cmd_error(&cmd_report, "--timeline %s: the name is too long", path);
		return NULL;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		cmd_error(&cmd_report, "--timeline %s: cannot create: %s (name a file in a "
			  "directory you can write)", path, strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		cmd_error(&cmd_report, "--timeline %s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
	}
	return f;
}

/* The finished page takes path's name, with the mode a new file gets (mkstemp's is 0600). */
static int put_in_place(FILE *f, const char *tmp, const char *path)
{
	mode_t mask = umask(0);

	umask(mask);
	if (fchmod(fileno(f), 0666 & ~mask) < 0 || cmd_output_close(&cmd_report, f, path) < 0) {
		unlink(tmp);
		return -1;
	}
	if (cmd_output_keep_old(&cmd_report, path) < 0) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		cmd_error(&cmd_report, "--timeline %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * Standard output, a device or a fifo is written as it is (a rename would
 * put a file in a device's place); any other path through a temporary file.
 */
static bool direct(const struct report_timeline *o)
{
	struct stat st;

	return !strcmp(o->path, "-") || (stat(o->path, &st) == 0 && !S_ISREG(st.st_mode));
}

/*
 * The selection left nothing to draw: 3 after a message, else 0. A --pid
 * or --cpu is named first: a window that holds records may hold none of
 * theirs.
 */
static int check_drawn(const struct report_timeline *o, struct ftc_timeline *t,
		       const struct tl_writer *w)
{
	bool window = o->win->have_from || o->win->have_to;
	int ret;

	if (w->slices + w->heads + w->states + w->marks + w->samples)
		return 0;
	if (o->pids) {
		cmd_error(&cmd_report, "--pid: no task of %s runs, wakes or writes a marker in "
			  "the selection%s ('ftc sched %s' lists the tasks)", o->input,
			  window || o->cpu_mask ? " (with --cpu, --from, --to)" : "", o->input);
		return FTC_EXIT_REFUSED;
	}
	if (o->cpu_mask) {
		cmd_error(&cmd_report, "--cpu: no task of %s runs on those CPUs%s ('ftc report "
			  "--stat %s' counts the records of each CPU)", o->input,
			  window ? " in the window" : "", o->input);
		return FTC_EXIT_REFUSED;
	}
	ret = cmd_window_empty(&cmd_report, o->win, o->input, "sched_switch");
	if (ret)
		return ret;
	cmd_error(&cmd_report, "%s holds no sched_switch record%s: record them (ftc record "
		  "-e sched:sched_switch -e sched:sched_wakeup ...)", o->input,
		  o->instance ? " in that instance" : "");
	return FTC_EXIT_REFUSED;
}

static int fail_out(FILE *f, const char *tmp, bool in_place, int status)
{
	if (f != stdout)
		fclose(f);
	if (!in_place)
		unlink(tmp);
	return status;
}

int report_timeline_run(struct ftc_reader *r, const struct report_timeline *o)
{
	struct ftc_timeline_opts to = FTC_OPTS_INIT(ftc_timeline_opts,
		.instance = o->instance, .cpu_mask = o->cpu_mask, .pids = o->pids,
		.npids = o->pids ? (size_t)o->npids : 0, .on_slice = on_slice,
		.on_state = on_state, .on_mark = on_mark, .on_point = on_point);
	struct tl_writer w = { 0 };
	char tmp[PATH_MAX + 16];
	struct ftc_timeline *t;
	bool in_place = direct(o);
	int status;

	to.from = o->win->have_from ? o->win->from : 0;
	to.to = o->win->have_to ? o->win->to : 0;
	to.ctx = &w;
	if (strcmp(o->path, "-") && cmd_output_not_input(&cmd_report, o->path, o->input) < 0)
		return FTC_EXIT_FAIL;
	t = ftc_timeline_new(r, &to);
	if (!t) {
		cmd_error(&cmd_report, "%s: %s", o->input, ftc_strerror());
		return errno == ENOENT ? FTC_EXIT_REFUSED : FTC_EXIT_FAIL;
	}
	w.f = in_place ? cmd_output_open(&cmd_report, o->path) :
			 open_temp(o->path, tmp, sizeof(tmp));
	if (!w.f) {
		ftc_timeline_free(t);
		return FTC_EXIT_FAIL;
	}
	page_part(w.f, true);
	fputs("{\"ev\":[\n", w.f);
	noted(&w);
	if (feed(r, t, &w, o->win) < 0) {
		if (ferror(w.f) && w.f == stdout)
			cmd_output_failed();	/* main names standard output, and why */
		else if (ferror(w.f))
			cmd_error(&cmd_report, "--timeline %s: %s", o->path,
				  strerror(w.err ? w.err : errno));
		else
			cmd_error(&cmd_report, "%s: %s", o->input, ftc_strerror());
		ftc_timeline_free(t);
		return fail_out(w.f, tmp, in_place, FTC_EXIT_FAIL);
	}
	status = check_drawn(o, t, &w);
	if (status) {
		ftc_timeline_free(t);
		return fail_out(w.f, tmp, in_place, status);
	}
	write_tasks(w.f, t);
	write_meta(w.f, r, t, o, &w);
	page_part(w.f, false);
	noted(&w);
	ftc_timeline_free(t);
	if (w.err && w.f != stdout) {
		cmd_error(&cmd_report, "--timeline %s: %s", o->path, strerror(w.err));
		return fail_out(w.f, tmp, in_place, FTC_EXIT_FAIL);
	}
	if (in_place ? cmd_output_close(&cmd_report, w.f, o->path) < 0 :
		       put_in_place(w.f, tmp, o->path) < 0)
		return FTC_EXIT_FAIL;
	if (w.f == stdout)
		return FTC_EXIT_OK;
	fprintf(stderr, "ftc report: %s: %llu slices (and %llu running from before), %llu task "
		"states, %llu marks, %llu lost-event marks, %llu samples\n", o->path, w.slices,
		w.heads, w.states, w.marks, w.lost, w.samples);
	return FTC_EXIT_OK;
}
