// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.dat v7: a chain of sections after the file header. The chain is
 * walked once to list the sections and gather the STRINGS; the options
 * sections form a linked list from the header; options point at the
 * metadata sections and the BUFFER sections.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "reader.h"
#include "tracedat-format.h"

static int add_strings(struct ftc_reader *r, uint64_t off)
{
	char *buf, *s;
	size_t len;

	if (ftc_v7_section_load(r, off, FTC_OPT_STRINGS, &buf, &len) < 0)
		return -1;
	s = realloc(r->strings, r->strings_len + len + 1);
	if (!s) {
		free(buf);
		return ftc_error(ENOMEM, "out of memory");
	}
	memcpy(s + r->strings_len, buf, len);
	s[r->strings_len + len] = '\0';
	r->strings = s;
	r->strings_len += len;
	free(buf);
	return 0;
}

/* Lists every section; a broken chain is a warning: what precedes it stays usable. */
static void walk_chain(struct ftc_reader *r, uint64_t pos, int32_t *descs)
{
	while (pos < r->file_size && r->nsections < FTC_MAX_SECTIONS) {
		struct sec_hdr h = { 0 };

		if (ftc_v7_section_head(r, pos, &h) < 0) {
			/* A cut section is still listed, with the size it claims. */
			if (pos + SEC_HDR > r->file_size) {
				r->cut_want = pos + SEC_HDR;
				r->cut_section = pos;
			} else if (h.size > r->file_size - pos - SEC_HDR) {
				r->cut_want = pos + SEC_HDR + h.size;
				r->cut_section = pos;
				descs[r->nsections] = h.desc;
				ftc_add_section(r, h.id, h.flags, NULL, pos, h.size, 0);
			} else {
				ftc_reader_warn(r, "%s", ftc_strerror());
			}
			return;
		}
		descs[r->nsections] = h.desc;
		if (ftc_add_section(r, h.id, h.flags, NULL, pos, h.size, 0) < 0)
			return;
		if (h.id == FTC_OPT_STRINGS && add_strings(r, pos) < 0)
			ftc_reader_warn(r, "%s", ftc_strerror());
		pos += SEC_HDR + h.size;
	}
}

static void name_sections(struct ftc_reader *r, const int32_t *descs)
{
	for (int i = 0; i < r->nsections; i++) {
		int32_t d = descs[i];

		if (d >= 0 && r->strings && (size_t)d < r->strings_len)
			r->sections[i].description = r->strings + d;
		else
			r->sections[i].description = "";
	}
}

/*
 * One options section: options until DONE, whose payload links the next;
 * *link gets the file offset of that payload (0 when DONE carries none).
 */
static int read_options_section(struct ftc_reader *r, uint64_t off, uint64_t *next,
				uint64_t *link)
{
	struct ftc_cur c = { .r = r, .what = "options", .base = off };
	char *buf;
	size_t len;
	int ret = -1;

	*next = *link = 0;
	if (ftc_v7_section_load(r, off, FTC_OPT_DONE, &buf, &len) < 0)
		return -1;
	c.mem = buf;
	c.end = len;
	for (;;) {
		uint16_t id;
		uint32_t size;

		if (ftc_cur_u16(&c, &id) < 0 || ftc_cur_u32(&c, &size) < 0)
			goto out;
		if (size > c.end - c.pos) {
			ftc_cur_err(&c, "option %u (%s) has size %u, beyond the section", id,
				    ftc_option_name(id), size);
			goto out;
		}
		if (id == FTC_OPT_DONE) {
			if (size >= 8) {
				*next = ftc_rd64(r, buf + c.pos);
				*link = off + SEC_HDR + c.pos;
			}
			break;
		}
		if (ftc_add_option(r, id, size, off + SEC_HDR + c.pos, buf + c.pos) < 0)
			goto out;
		c.pos += size;
	}
	ret = 0;
out:
	free(buf);
	return ret;
}

static int read_header_strings(struct ftc_reader *r, uint64_t *pos, uint64_t *opt_off)
{
	struct ftc_cur c = { .r = r, .pos = *pos, .end = r->file_size,
			     .what = "compression header" };

	if (ftc_cur_str(&c, &r->comp_name, 64) < 0 || ftc_cur_str(&c, &r->comp_version, 64) < 0 ||
	    ftc_cur_u64(&c, opt_off) < 0)
		return -1;
	if (!strcmp(r->comp_name, "zstd"))
		r->comp = 2;
	else if (!strcmp(r->comp_name, "zlib"))
		r->comp = 1;
	else if (strcmp(r->comp_name, "none") && strcmp(r->comp_name, ""))
		return ftc_error(ENOTSUP, "%s: compression '%s' is not supported (ftc reads zstd "
				 "and zlib)", r->path, r->comp_name);
	*pos = c.pos;
	return 0;
}

static int load_meta(struct ftc_reader *r, uint16_t id, uint64_t off,
		     int (*fn)(struct ftc_reader *, char *, size_t))
{
	char *buf;
	size_t len;

	if (ftc_v7_section_load(r, off, id, &buf, &len) < 0)
		return -1;
	return fn(r, buf, len);
}

static int header_done(struct ftc_reader *r, char *buf, size_t len)
{
	int ret = ftc_tep_header(r, buf, len);

	free(buf);
	return ret;
}

/*
 * A streaming writer saves the command lines at the start and again at the
 * end; the last CMDLINES option supersedes the earlier ones.
 */
static int last_cmdlines(const struct ftc_reader *r)
{
	int last = -1;

	for (int i = 0; i < r->noptions; i++)
		if (r->options[i].id == FTC_OPT_CMDLINES)
			last = i;
	return last;
}

/* The metadata sections named by the options, fed to libtraceevent. */
static int read_metadata(struct ftc_reader *r)
{
	int cmdlines = last_cmdlines(r);

	for (int i = 0; i < r->noptions; i++) {
		const struct ftc_dat_opt *o = &r->options[i];
		uint64_t off;
		int ret = 0;

		if (o->id < FTC_OPT_HEADER_INFO || o->id > FTC_OPT_CMDLINES)
			continue;
		if (o->id == FTC_OPT_CMDLINES && i != cmdlines)
			continue;
		if (o->size < 8)
			return ftc_error(EINVAL, "%s: %s option at offset %llu is %u bytes, want 8",
					 r->path, ftc_option_name(o->id),
					 (unsigned long long)o->offset, o->size);
		off = ftc_rd64(r, o->data);
		if (o->id == FTC_OPT_KALLSYMS) {
			r->kallsyms_off = off;
			continue;
		}
		if (!r->tep)
			continue;
		switch (o->id) {
		case FTC_OPT_HEADER_INFO:
			ret = load_meta(r, o->id, off, header_done);
			break;
		case FTC_OPT_FTRACE_EVENTS:
			ret = load_meta(r, o->id, off, ftc_tep_ftrace_events);
			break;
		case FTC_OPT_EVENT_FORMATS:
			ret = load_meta(r, o->id, off, ftc_tep_event_formats);
			break;
		case FTC_OPT_PRINTK:
			ret = load_meta(r, o->id, off, ftc_tep_printk);
			break;
		case FTC_OPT_CMDLINES:
			ret = load_meta(r, o->id, off, ftc_tep_cmdlines);
			break;
		}
		if (ret < 0)
			return -1;
	}
	return 0;
}

/* The size the cut section claims (the last one listed), header included. */
static uint64_t cut_section_size(const struct ftc_reader *r)
{
	const struct ftc_dat_section *s = r->nsections ? &r->sections[r->nsections - 1] : NULL;

	return s && s->offset + SEC_HDR + s->size == r->cut_want ? SEC_HDR + s->size : 0;
}

int ftc_read_v7(struct ftc_reader *r, uint64_t pos)
{
	uint64_t opt_off, next, link;
	/* Only the entries written are read: no need to clear 48 KB per open. */
	int32_t *descs = malloc(FTC_MAX_SECTIONS * sizeof(*descs));
	uint64_t *visited = malloc(FTC_MAX_SECTIONS * sizeof(*visited));
	int n = 0, ret = -1;

	if (!descs || !visited) {
		free(descs);
		free(visited);
		return ftc_error(ENOMEM, "out of memory");
	}
	if (read_header_strings(r, &pos, &opt_off) < 0)
		goto out;
	walk_chain(r, pos, descs);
	name_sections(r, descs);
	/*
	 * Descriptions name strings (past the first one, at least): with no
	 * STRINGS section, the end was cut off.
	 */
	for (int i = 0; i < r->nsections && !r->strings && !r->cut_want; i++)
		if (descs[i] > 0)
			r->cut_want = r->file_size + SEC_HDR;
	if (read_options_section(r, opt_off, &next, &r->opts_link) < 0) {
		char why[1024];

		snprintf(why, sizeof(why), "%s", ftc_strerror());
		if (opt_off + SEC_HDR > r->file_size || r->cut_want)
			ftc_error(EINVAL, "%s: cut at %llu of at least %llu bytes, inside its "
				  "metadata: no record can be read (%s)", r->path,
				  (unsigned long long)r->file_size, (unsigned long long)
				  (r->cut_want > opt_off + SEC_HDR ? r->cut_want : opt_off + SEC_HDR),
				  why);
		goto out;
	}
	/* Later options sections follow the buffers: damage there loses only them. */
	while (next && n < FTC_MAX_SECTIONS) {
		/* A link back to a section already read would loop (or repeat options). */
		for (int i = 0; i < n; i++)
			if (visited[i] == next)
				next = 0;
		if (next == opt_off)
			next = 0;
		if (!next) {
			ftc_reader_warn(r, "%s: the options sections link in a loop; stopped",
					r->path);
			break;
		}
		visited[n++] = next;
		/* Past the end, or in the section the file is cut in: the cut says it. */
		if (next + SEC_HDR > r->file_size ||
		    (r->cut_want && next + SEC_HDR >= r->cut_want - cut_section_size(r))) {
			if (next + SEC_HDR > r->cut_want)
				r->cut_want = next + SEC_HDR;
			break;
		}
		if (read_options_section(r, visited[n - 1], &next, &link) < 0) {
			ftc_reader_warn(r, "%s", ftc_strerror());
			break;
		}
		if (link)
			r->opts_last = visited[n - 1];
	}
	ret = read_metadata(r);
out:
	free(descs);
	free(visited);
	return ret;
}
