// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Feeds the metadata payloads (identical in v6 and v7) to libtraceevent.
 * Event formats are indexed on open and parsed on first use: a file holds
 * some 1500 formats of which a trace uses a handful, and kallsyms (several
 * megabytes) is loaded only when an event that prints symbols shows up.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "reader.h"
#include "ringbuf.h"
#include "tracedat-format.h"

#define FTC_MAX_EVENT_ID	(1 << 20)

/*
 * A static ftc cannot dlopen plugins: it links ftc's own in (plugins/
 * static.c) and they are registered through these, which only such a
 * binary defines.
 */
int ftc_static_plugins_load(struct tep_handle *tep) __attribute__((weak));
void ftc_static_plugins_unload(struct tep_handle *tep) __attribute__((weak));
bool ftc_static_plugins_pure(void *handler) __attribute__((weak));

/*
 * libtraceevent's plugins whose handlers print from the record alone: no
 * writable state (.data, .bss) and no comm registration (nm -D), which
 * sched_switch's (comms), function's (a call stack) and kvm's (state) have.
 * Their events then memoize, and a pass-over need not print them.
 */
static const char *const print_only_plugins[] = {
	"plugin_kmem.so", "plugin_hrtimer.so", "plugin_jbd2.so", "plugin_scsi.so",
	"plugin_tlb.so", "plugin_futex.so", "plugin_cfg80211.so", "plugin_mac80211.so",
};

static bool is_print_only(const char *file)
{
	for (size_t i = 0; i < sizeof(print_only_plugins) / sizeof(*print_only_plugins); i++)
		if (!strcmp(file, print_only_plugins[i]))
			return true;
	return false;
}

/* Where a print-only plugin lies in memory, to know its handlers by address. */
static void keep_print_only(struct ftc_reader *r, void *dl)
{
	void *loader = dlsym(dl, "tep_plugin_loader");
	Dl_info info;

	if (!loader || r->nprint_only >= FTC_MAX_PURE_PLUGINS || !dladdr(loader, &info)) {
		dlclose(dl);
		return;
	}
	r->print_only_base[r->nprint_only] = info.dli_fbase;
	r->print_only_dl[r->nprint_only++] = dl;
}

/*
 * A plugin may say which of its handlers print from the record's payload
 * alone (then the info memo can keep their text): it exports
 * "bool ftc_plugin_pure(void *handler)". The plugins libtraceevent loaded
 * are found again, in its own walk, by their paths (RTLD_NOLOAD: never a
 * new load).
 */
static void find_pure(struct tep_handle *tep, const char *dir, const char *file, void *data)
{
	struct ftc_reader *r = data;
	char path[4096];
	void *dl, *sym;

	if (r->npure >= FTC_MAX_PURE_PLUGINS ||
	    snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return;
	dl = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	if (!dl)
		return;
	sym = dlsym(dl, "ftc_plugin_pure");
	if (!sym) {
		if (is_print_only(file))
			keep_print_only(r, dl);
		else
			dlclose(dl);
		return;
	}
	memcpy(&r->pure[r->npure], &sym, sizeof(sym));
	r->pure_dl[r->npure++] = dl;
}

int ftc_tep_init(struct ftc_reader *r)
{
	r->tep = tep_alloc();
	if (!r->tep)
		return ftc_error(ENOMEM, "out of memory for libtraceevent");
	tep_set_file_bigendian(r->tep, r->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(r->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(r->tep, r->long_size);
	tep_set_page_size(r->tep, (int)r->page_size);
	if (ftc_reader_perf_init(r) < 0)
		return -1;
	if (!(r->flags & FTC_READER_NO_PLUGINS)) {
		/* TEP_PLUGIN_LAST: after the system's, so the caller's win. */
		if (r->plugin_dir &&
		    tep_add_plugin_path(r->tep, r->plugin_dir, TEP_PLUGIN_LAST) < 0)
			return ftc_error(ENOMEM, "out of memory for libtraceevent");
		r->plugins = tep_load_plugins(r->tep);
		if (r->plugins)
			tep_load_plugins_hook(r->tep, ".so", find_pure, r);
		if (ftc_static_plugins_load && ftc_static_plugins_load(r->tep) == 0)
			r->static_plugins = true;
	}
	return 0;
}

/*
 * Plugin options the file decides: ftc's syscalls plugin names raw syscall
 * numbers from the table of the machine that recorded the trace, the last
 * word of its uname ("" when the file has none: the plugin guesses).
 * libtraceevent's options are global: the last file opened sets them.
 */
void ftc_tep_plugin_options(struct ftc_reader *r)
{
	/* libtraceevent keeps every option set, for good: set a new value only. */
	static char last[32] = "-";
	const char *uname = ftc_reader_option_text(r, FTC_OPT_UNAME);
	const char *machine = uname && strrchr(uname, ' ') ? strrchr(uname, ' ') + 1 : "";

	if (!r->tep || (r->flags & FTC_READER_NO_PLUGINS) || strlen(machine) >= sizeof(last) ||
	    !strcmp(last, machine))
		return;
	if (tep_plugin_add_option("ftc_syscalls:arch", machine) == 0)
		snprintf(last, sizeof(last), "%s", machine);
}

void ftc_tep_unload_plugins(struct ftc_reader *r)
{
	if (r->static_plugins && ftc_static_plugins_unload)
		ftc_static_plugins_unload(r->tep);
	if (r->plugins)
		tep_unload_plugins(r->plugins, r->tep);
	while (r->npure > 0)
		dlclose(r->pure_dl[--r->npure]);
	while (r->nprint_only > 0)
		dlclose(r->print_only_dl[--r->nprint_only]);
}

static bool handler_is_pure(struct ftc_reader *r, struct tep_event *ev)
{
	if (r->static_plugins && ftc_static_plugins_pure &&
	    ftc_static_plugins_pure((void *)ev->handler))
		return true;
	for (int i = 0; i < r->npure; i++)
		if (r->pure[i]((void *)ev->handler))
			return true;
	if (r->nprint_only) {
		Dl_info info;
		void *h;

		memcpy(&h, &ev->handler, sizeof(h));
		if (dladdr(h, &info))
			for (int i = 0; i < r->nprint_only; i++)
				if (info.dli_fbase == r->print_only_base[i])
					return true;
	}
	return false;
}

static void cur_mem(struct ftc_cur *c, struct ftc_reader *r, const char *buf, size_t len,
		    const char *what, uint64_t base)
{
	memset(c, 0, sizeof(*c));
	c->r = r;
	c->mem = buf;
	c->end = len;
	c->what = what;
	c->base = base;
}

/* The header_page text of a header info payload ("header_page", u64 size, text, ...). */
static int header_page(struct ftc_reader *r, char *buf, size_t len, uint64_t *at,
		       uint64_t *size)
{
	struct ftc_cur c;
	char tag[12];

	cur_mem(&c, r, buf, len, "header info", 0);
	if (ftc_cur_read(&c, tag, 12) < 0)
		return -1;
	if (memcmp(tag, "header_page", 12))
		return ftc_cur_err(&c, "expected \"header_page\"");
	if (ftc_cur_u64(&c, size) < 0)
		return -1;
	if (*size > c.end - c.pos)
		return ftc_cur_err(&c, "header_page size %llu exceeds the section",
				   (unsigned long long)*size);
	*at = c.pos;
	return 0;
}

int ftc_tep_header(struct ftc_reader *r, char *buf, size_t len)
{
	struct ftc_subbuf_layout l = { 0 };
	uint64_t at, size;

	if (header_page(r, buf, len, &at, &size) < 0)
		return -1;
	/*
	 * Only the commit size matters (kbuffer walks the pages): read it with
	 * ftc's parser, not tep_parse_header_page(), which ran the whole
	 * event-format parser on it and was a tenth of opening a small file.
	 * header_event only describes the fixed ring-buffer event layout.
	 */
	if (ftc_subbuf_layout_parse(&l, buf + at, size) < 0) {
		ftc_reader_warn(r, "%s: header_page at byte %llu of the header info does not "
				"describe a sub-buffer header; the file's long size (%d) is used",
				r->path, (unsigned long long)at, r->long_size);
		return 0;
	}
	r->header_commit_size = (int)l.commit_size;
	return 0;
}

/* The header info payload: the last HEADER_INFO option's section (v7), or block (v6). */
static int load_header_info(struct ftc_reader *r, char **buf, size_t *len)
{
	const struct ftc_dat_opt *opt = NULL;
	const struct ftc_dat_section *s = NULL;
	struct ftc_cur c = { .r = r, .what = "header info" };

	for (int i = 0; i < r->noptions; i++)
		if (r->options[i].id == FTC_OPT_HEADER_INFO && r->options[i].size >= 8)
			opt = &r->options[i];
	if (r->version == 7)
		return opt ? ftc_v7_section_load(r, ftc_rd64(r, opt->data), FTC_OPT_HEADER_INFO,
						  buf, len) :
			ftc_error(ENOENT, "%s: no HEADER_INFO option", r->path);
	for (int i = 0; i < r->nsections && !s; i++)
		if (r->sections[i].id == FTC_OPT_HEADER_INFO)
			s = &r->sections[i];
	if (!s)
		return ftc_error(ENOENT, "%s: no header_page block", r->path);
	c.pos = s->offset;
	c.end = s->offset + s->size;
	*len = s->size;
	return ftc_cur_blob(&c, s->size, buf);
}

int ftc_reader_subbuf_layout(struct ftc_reader *r, struct ftc_subbuf_layout *l)
{
	uint64_t at, size;
	size_t len;
	char *buf;
	int ret;

	if (load_header_info(r, &buf, &len) < 0)
		return -1;
	ret = header_page(r, buf, len, &at, &size);
	if (ret == 0)
		ftc_subbuf_layout_parse(l, buf + at, size);
	free(buf);
	return ret;
}

static int index_format(struct ftc_reader *r, const char *system, const char *text,
			size_t len)
{
	struct ftc_fmt_index *f;
	const char *p = memmem(text, len, "\nID: ", 5);
	long id;

	if (!p)
		return 0;	/* a format without an ID cannot appear in data */
	id = strtol(p + 5, NULL, 10);
	if (id < 0 || id >= FTC_MAX_EVENT_ID)
		return 0;
	if (!(r->nfmts & (r->nfmts + 1)) || !r->fmts) {
		f = realloc(r->fmts, (size_t)(r->nfmts * 2 + 2) * sizeof(*f));
		if (!f)
			return ftc_error(ENOMEM, "out of memory");
		r->fmts = f;
	}
	f = &r->fmts[r->nfmts++];
	memset(f, 0, sizeof(*f));
	f->id = (int)id;
	f->system = system;
	f->text = text;
	f->len = len;
	f->needs_syms = (!strcmp(system, "ftrace") && !memmem(text, len, "name: print\n", 12)) ||
			memmem(text, len, "%ps", 3) || memmem(text, len, "%pS", 3) ||
			memmem(text, len, "%pB", 3) || memmem(text, len, "%pf", 3) ||
			memmem(text, len, "%pF", 3);
	p = memmem(text, len, "print fmt:", 10);
	f->uses_common = !p || memmem(p, len - (size_t)(p - text), "REC->common_", 12);
	if (id > r->max_id)
		r->max_id = (int)id;
	return 0;
}

static int build_id_map(struct ftc_reader *r)
{
	free(r->ev_by_id);
	r->ev_by_id = NULL;
	free(r->fmt_by_id);
	r->fmt_by_id = calloc((size_t)r->max_id + 1, sizeof(int));
	if (!r->fmt_by_id)
		return ftc_error(ENOMEM, "out of memory");
	for (int i = 0; i < r->nfmts; i++)
		r->fmt_by_id[r->fmts[i].id] = i + 1;
	return 0;
}

struct parse_call {
	struct ftc_reader *r;
	struct ftc_fmt_index *f;
};

static int parse_call(void *arg)
{
	struct parse_call *c = arg;
	int long_size = tep_get_long_size(c->r->tep);
	size_t len = 0;
	char *folded = ftc_fmt_fold_sizeof(c->f->text, c->f->len, long_size > 0 ? long_size : 8,
					   &len);
	int ret;

	ret = tep_parse_event(c->r->tep, folded ? folded : c->f->text, folded ? len : c->f->len,
			      c->f->system);
	free(folded);
	return ret ? -1 : 0;
}

/*
 * libtraceevent 1.7's format parser is not hardened: on some damaged
 * formats it divides by zero or follows a NULL pointer (found by the
 * fuzzer). The caller's guard, when it gave one, catches that (see struct
 * ftc_reader_opts); without one, the shapes known to do it are refused
 * first. Not both: the check also refuses some damaged formats the parser
 * would have half-parsed (their fields still print), which a guard makes
 * needless.
 */
static int guarded_parse(struct ftc_reader *r, struct ftc_fmt_index *f)
{
	struct parse_call c = { r, f };
	const char *why;

	if (!ftc_fmt_args_closed(f->text, f->len)) {
		ftc_reader_warn(r, "%s: the format of event id %d (system %s) has a print format "
				"whose arguments leave a parenthesis open (cut short?); its records "
				"print raw", r->path, f->id, f->system);
		return 1;
	}
	if (r->parse_guard)
		return r->parse_guard(parse_call, &c, r->guard_ctx) ? -1 : 0;
	if (!ftc_fmt_text_parsable(f->text, f->len, &why)) {
		ftc_reader_warn(r, "%s: the format of event id %d (system %s) has %s, which "
				"libtraceevent's parser crashes on; its records print raw",
				r->path, f->id, f->system, why);
		return 1;
	}
	return parse_call(&c);
}

static int parse_fmt(struct ftc_reader *r, struct ftc_fmt_index *f)
{
	int ret;

	if (f->parsed)
		return 0;
	f->parsed = true;
	if (!r->tep)
		return 0;
	ret = guarded_parse(r, f);
	if (ret < 0)
		ftc_reader_warn(r, "%s: libtraceevent cannot parse the format of event id %d "
				"(system %s); its records print raw", r->path, f->id, f->system);
	if (ret)
		return -1;
	ftc_reader_perf_parsed(r, f->system);
	return 0;
}

/* A list of u64 size + format text; system NULL means "ftrace". */
static int index_list(struct ftc_reader *r, struct ftc_cur *c, const char *system,
		      uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		uint64_t size;

		if (ftc_cur_u64(c, &size) < 0)
			return -1;
		if (size > c->end - c->pos)
			return ftc_cur_err(c, "format %u of system %s has size %llu, beyond the "
					   "section", i, system, (unsigned long long)size);
		if (index_format(r, system, c->mem + c->pos, size) < 0)
			return -1;
		c->pos += size;
	}
	return 0;
}

/*
 * The reader keeps a format section's text (*slot) for parsing on first
 * use: the formats indexed from it point into it. A second section of the
 * same kind (a damaged file) is read no further: 1.
 */
static int take_formats(struct ftc_reader *r, char **slot, char *buf, size_t len,
			const char *what, struct ftc_cur *c, uint32_t *count)
{
	if (*slot) {
		ftc_reader_warn(r, "%s: a second %s section: ignored, the first is read",
				r->path, what);
		free(buf);
		return 1;
	}
	*slot = buf;
	cur_mem(c, r, buf, len, what, 0);
	return ftc_cur_u32(c, count);
}

int ftc_tep_ftrace_events(struct ftc_reader *r, char *buf, size_t len)
{
	struct ftc_cur c;
	uint32_t count;
	int ret = take_formats(r, &r->ftrace_formats, buf, len, "ftrace event formats", &c,
			       &count);

	if (ret)
		return ret < 0 ? -1 : 0;
	if (index_list(r, &c, "ftrace", count) < 0)
		return -1;
	/*
	 * Parsed on first use like the others (parsing them all cost a damaged
	 * file's reader most of its open); see ftc_reader_learn_common().
	 */
	return build_id_map(r);
}

int ftc_tep_event_formats(struct ftc_reader *r, char *buf, size_t len)
{
	struct ftc_cur c;
	uint32_t nsys;
	int ret = take_formats(r, &r->formats, buf, len, "event formats", &c, &nsys);

	if (ret)
		return ret < 0 ? -1 : 0;
	for (uint32_t s = 0; s < nsys; s++) {
		const char *sys = buf + c.pos;
		const char *nul = memchr(sys, '\0', c.end - c.pos);
		uint32_t count;

		if (!nul || nul == sys)
			return ftc_cur_err(&c, "system name %u is empty or not terminated", s);
		c.pos += (size_t)(nul - sys) + 1;
		if (ftc_cur_u32(&c, &count) < 0 || index_list(r, &c, sys, count) < 0)
			return -1;
	}
	return build_id_map(r);
}

/*
 * A section that is a size (u32 or u64, size_bytes) and that much text:
 * *text is the text, NUL-terminated in place, or NULL when empty or damaged.
 */
static int sized_text(struct ftc_reader *r, char *buf, size_t len, const char *what,
		      int size_bytes, char **text)
{
	struct ftc_cur c;
	uint64_t size;
	uint32_t size32;

	*text = NULL;
	cur_mem(&c, r, buf, len, what, 0);
	if (size_bytes == 4 ? ftc_cur_u32(&c, &size32) < 0 : ftc_cur_u64(&c, &size) < 0)
		return -1;
	if (size_bytes == 4)
		size = size32;
	if (size > c.end - c.pos)
		return ftc_cur_err(&c, "size %llu exceeds the section", (unsigned long long)size);
	if (size) {
		buf[c.pos + size] = '\0';	/* buf has room: a NUL follows each payload */
		*text = buf + c.pos;
	}
	return 0;
}

/*
 * 'ADDR : "FORMAT"' lines. libtraceevent 1.7 reads past a line without the
 * ':' and before a format without both quotes (found by the fuzzer): only
 * lines of that shape are passed on, the others dropped in place.
 */
static void keep_printk_lines(char *text)
{
	char *dst = text, *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *q = strstr(line, " : \"");
		size_t n = strlen(line);

		if (!q || q == line || n < (size_t)(q - line) + 5 || line[n - 1] != '"')
			continue;
		memmove(dst, line, n);
		dst[n] = '\n';
		dst += n + 1;
	}
	*dst = '\0';
}

int ftc_tep_printk(struct ftc_reader *r, char *buf, size_t len)
{
	char *text;
	int ret = sized_text(r, buf, len, "printk formats", 4, &text);

	if (text && r->tep) {
		keep_printk_lines(text);
		if (*text)
			tep_parse_printk_formats(r->tep, text);
	}
	free(buf);
	return ret;
}

/*
 * "PID COMM" lines. tep_parse_saved_cmdlines() leaks on malformed lines (a
 * damaged file has them), so each line is checked and registered here.
 */
static void register_cmdlines(struct ftc_reader *r, char *text)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end;
		long pid = strtol(line, &end, 10);

		if (end == line || *end != ' ' || !end[1] || pid < 0 || pid > INT32_MAX)
			continue;
		if (strlen(end + 1) > 64)
			end[65] = '\0';
		tep_register_comm(r->tep, end + 1, (int)pid);
	}
	/*
	 * tep keeps registered comms in a list until its first lookup sorts
	 * them; until then a plugin's tep_register_comm() of a pid the file
	 * names adds a second entry instead of being refused, and which one a
	 * lookup finds depends on where the report starts (--cpu 1 showed a
	 * task's pre-exec name where the whole report showed the file's).
	 * A lookup now makes the file's names win from the first record.
	 */
	(void)tep_data_comm_from_pid(r->tep, 1);
}

int ftc_tep_cmdlines(struct ftc_reader *r, char *buf, size_t len)
{
	char *text;
	int ret = sized_text(r, buf, len, "command lines", 8, &text);

	if (text && r->tep)
		register_cmdlines(r, text);
	free(buf);
	return ret;
}

int ftc_reader_parse_all_events(struct ftc_reader *r)
{
	for (int i = 0; i < r->nfmts; i++)
		parse_fmt(r, &r->fmts[i]);
	for (int i = 0; i < r->nfmts; i++)
		if (r->fmts[i].needs_syms)
			return ftc_load_kallsyms(r);
	return 0;
}

/* Whether f is the format of system:name ("name: NAME" opens its text). */
static bool names(const struct ftc_fmt_index *f, const char *system, const char *name)
{
	size_t n = strlen(name);

	return !strcmp(f->system, system) && f->len > 6 + n && !memcmp(f->text, "name: ", 6) &&
	       !memcmp(f->text + 6, name, n) && f->text[6 + n] == '\n';
}

struct tep_event *ftc_reader_find_event(struct ftc_reader *r, const char *system,
					const char *name)
{
	for (int i = 0; r->tep && i < r->nfmts; i++) {
		struct ftc_fmt_index *f = &r->fmts[i];

		if (!names(f, system, name))
			continue;
		if (!f->parsed)
			parse_fmt(r, f);
		/* as ftc_reader_event(): a format that prints addresses needs the symbols */
		if (f->needs_syms && r->kallsyms_state == 0)
			ftc_load_kallsyms(r);
		return tep_find_event(r->tep, f->id);
	}
	return NULL;
}

/*
 * Every kernel puts common_type first as a u16: read it directly when the
 * file's byte order is ours (tep_data_type costs two calls per record).
 */
static int record_type(struct ftc_reader *r, struct tep_record *rec)
{
	uint16_t t;

	if (r->type_u16 <= 0)
		return tep_data_type(r->tep, rec);
	memcpy(&t, rec->data, sizeof(t));
	return t;
}

static void learn_type_layout(struct ftc_reader *r, struct tep_event *ev)
{
	struct tep_format_field *f = tep_find_common_field(ev, "common_type");

	r->type_u16 = f && f->offset == 0 && f->size == 2 && ftc_reader_host_order(r) ? 1 : -1;
}

static struct ftc_fmt_index *fmt_of(struct ftc_reader *r, const struct tep_event *ev)
{
	int id = ev->id;

	if (id < 0 || id > r->max_id || !r->fmt_by_id || !r->fmt_by_id[id])
		return NULL;
	return &r->fmts[r->fmt_by_id[id] - 1];
}

bool ftc_reader_handler_is_pure(struct ftc_reader *r, struct tep_event *ev)
{
	struct ftc_fmt_index *f = fmt_of(r, ev);

	if (!f || !ev->handler)
		return false;
	/* A handler is set once, when its event is parsed: ask once. */
	if (!f->pure_handler)
		f->pure_handler = handler_is_pure(r, ev) ? 1 : -1;
	return f->pure_handler > 0;
}

bool ftc_reader_print_is_pure(struct ftc_reader *r, struct tep_event *ev)
{
	struct ftc_fmt_index *f = fmt_of(r, ev);

	if (!f)
		return false;
	return ev->handler ? ftc_reader_handler_is_pure(r, ev) : !f->uses_common;
}

/*
 * tep learns where common_type and common_pid lie from a parsed event.
 * Formats are parsed on first use, so the first record looked up picks
 * that event: the u16 at its start, where every kernel puts common_type,
 * names the format it needs anyway. The first format (parsed at open until
 * now, for nothing when no record used it: a tenth of a short file's
 * reading) is the fallback. rec NULL: only the fallback.
 */
void ftc_reader_learn_common(struct ftc_reader *r, struct tep_record *rec)
{
	int id;

	if (!r->tep || !r->nfmts || tep_get_first_event(r->tep))
		return;
	if (rec && rec->size >= 2) {
		id = ftc_rd16(r, rec->data);
		if (id <= r->max_id && r->fmt_by_id && r->fmt_by_id[id])
			parse_fmt(r, &r->fmts[r->fmt_by_id[id] - 1]);
		if (tep_get_first_event(r->tep))
			return;
	}
	parse_fmt(r, &r->fmts[0]);
}

struct tep_event *ftc_reader_event(struct ftc_reader *r, struct tep_record *rec)
{
	struct tep_event *ev;
	int id;

	if (!r->tep || rec->size < 8)
		return NULL;
	if (!r->type_u16)
		ftc_reader_learn_common(r, rec);
	id = record_type(r, rec);
	if (id < 0 || id > r->max_id || !r->fmt_by_id || !r->fmt_by_id[id])
		return tep_find_event(r->tep, id);
	if (r->ev_by_id && r->ev_by_id[id])
		return r->ev_by_id[id];
	struct ftc_fmt_index *f = &r->fmts[r->fmt_by_id[id] - 1];

	if (!f->parsed)
		parse_fmt(r, f);
	if (f->needs_syms && r->kallsyms_state == 0)
		ftc_load_kallsyms(r);
	ev = tep_find_event(r->tep, id);
	if (ev && !r->type_u16)
		learn_type_layout(r, ev);
	if (!r->ev_by_id)
		r->ev_by_id = calloc((size_t)r->max_id + 1, sizeof(*r->ev_by_id));
	if (r->ev_by_id)
		r->ev_by_id[id] = ev;
	return ev;
}

#ifdef __SANITIZE_ADDRESS__
/*
 * libtraceevent 1.7 leaks a few bytes in tep_parse_event() on some real
 * format files (and on malformed ones). That is its bug, not ours: keep
 * LeakSanitizer quiet about it in ASan builds, and about nothing else.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\n";
}

const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
#endif
