// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The lists a file's metadata is read into, common to v6 and v7: its
 * options, sections and buffers, and the names of their ids.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "reader.h"
#include "tracedat-format.h"

static const char *const option_names[] = {
	"DONE", "DATE", "CPUSTAT", "BUFFER", "TRACECLOCK", "UNAME", "HOOK", "OFFSET",
	"CPUCOUNT", "VERSION", "PROCMAPS", "TRACEID", "TIME_SHIFT", "GUEST", "TSC2NSEC",
	"STRINGS", "HEADER_INFO", "FTRACE_EVENTS", "EVENT_FORMATS", "KALLSYMS", "PRINTK",
	"CMDLINES", "BUFFER_TEXT", "BTF_FILE", "LAST_BOOT_INFO", "MODULES_FILE",
};

const char *ftc_option_name(unsigned int id)
{
	switch (id) {	/* ftc's own, which trace-cmd passes over */
	case FTC_OPT_FTC_LOST: return "FTC_LOST";
	case FTC_SEC_PAD: return "FTC_PAD";
	case FTC_OPT_FTC_RESTORING: return "FTC_RESTORING";
	case FTC_OPT_FTC_ENABLED: return "FTC_ENABLED";
	}
	return id < sizeof(option_names) / sizeof(option_names[0]) ? option_names[id] : "UNKNOWN";
}

const char *ftc_section_name(unsigned int id)
{
	switch (id) {
	case FTC_OPT_DONE: return "options";
	case FTC_OPT_BUFFER: return "buffer";
	case FTC_OPT_STRINGS: return "strings";
	case FTC_OPT_HEADER_INFO: return "headers";
	case FTC_OPT_FTRACE_EVENTS: return "ftrace events";
	case FTC_OPT_EVENT_FORMATS: return "event formats";
	case FTC_OPT_KALLSYMS: return "kallsyms";
	case FTC_OPT_PRINTK: return "printk";
	case FTC_OPT_CMDLINES: return "command lines";
	case FTC_OPT_BUFFER_TEXT: return "buffer text";
	case FTC_SEC_PAD: return "restore pad";
	default: return ftc_option_name(id);
	}
}

int ftc_add_option(struct ftc_reader *r, uint16_t id, uint32_t size, uint64_t off,
		   const void *data)
{
	struct ftc_dat_opt *o;
	unsigned char *copy;

	if (r->noptions >= FTC_MAX_OPTIONS)
		return ftc_error(EINVAL, "%s: more than %d options", r->path, FTC_MAX_OPTIONS);
	if (!(r->noptions & (r->noptions + 1)) || !r->options) {
		o = realloc(r->options, (size_t)(r->noptions * 2 + 2) * sizeof(*o));
		if (!o)
			return ftc_error(ENOMEM, "out of memory");
		r->options = o;
	}
	copy = malloc((size_t)size + 1);
	if (!copy)
		return ftc_error(ENOMEM, "out of memory");
	memcpy(copy, data, size);
	copy[size] = '\0';
	o = &r->options[r->noptions++];
	o->id = id;
	o->size = size;
	o->offset = off;
	o->data = copy;
	return 0;
}

int ftc_add_section(struct ftc_reader *r, uint16_t id, uint16_t flags, const char *desc,
		    uint64_t off, uint64_t size, uint64_t usize)
{
	struct ftc_dat_section *s;

	if (r->nsections >= FTC_MAX_SECTIONS)
		return ftc_error(EINVAL, "%s: more than %d sections", r->path, FTC_MAX_SECTIONS);
	if (!(r->nsections & (r->nsections + 1)) || !r->sections) {
		s = realloc(r->sections, (size_t)(r->nsections * 2 + 2) * sizeof(*s));
		if (!s)
			return ftc_error(ENOMEM, "out of memory");
		r->sections = s;
	}
	s = &r->sections[r->nsections++];
	s->id = id;
	s->flags = flags;
	s->description = desc ? desc : "";
	s->offset = off;
	s->size = size;
	s->usize = usize;
	return 0;
}

struct ftc_dat_buffer *ftc_add_buffer(struct ftc_reader *r, const char *name)
{
	struct ftc_dat_buffer *b;

	if (r->nbuffers >= 4096) {
		ftc_error(EINVAL, "%s: too many buffers", r->path);
		return NULL;
	}
	b = realloc(r->buffers, (size_t)(r->nbuffers + 1) * sizeof(*b));
	if (!b) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	r->buffers = b;
	b = &b[r->nbuffers++];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	b->page_size = r->page_size;
	if (!b->name) {
		r->nbuffers--;
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	return b;
}

/* v7 BUFFER: u64 offset, name, clock, u32 page size, u32 n, n x (u32, u64, u64). */
