// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The metadata of a capture (struct ftc_meta, gathered by the tracefs
 * layer or made by hand) built into payloads laid out as trace.dat
 * carries them; writer.c decides where they go. Nothing here reads the
 * kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "meta.h"
#include "writer.h"

void ftc_dbuf_add(struct ftc_dbuf *b, const void *p, size_t n)
{
	if (b->oom || !n)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *np;

		while (cap < b->len + n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void ftc_dbuf_u16(struct ftc_dbuf *b, uint16_t v) { ftc_dbuf_add(b, &v, 2); }
void ftc_dbuf_u32(struct ftc_dbuf *b, uint32_t v) { ftc_dbuf_add(b, &v, 4); }
void ftc_dbuf_u64(struct ftc_dbuf *b, uint64_t v) { ftc_dbuf_add(b, &v, 8); }
void ftc_dbuf_str(struct ftc_dbuf *b, const char *s) { ftc_dbuf_add(b, s, strlen(s) + 1); }

void ftc_dbuf_free(struct ftc_dbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static void add_named(struct ftc_dbuf *b, const char *name, const struct ftc_blob *f)
{
	ftc_dbuf_str(b, name);
	ftc_dbuf_u64(b, f->len);
	ftc_dbuf_add(b, f->data, f->len);
}

/* (u64 size, format) for every event of the system. */
static void add_formats(struct ftc_dbuf *b, const struct ftc_meta_system *s)
{
	for (int i = 0; i < s->nformats; i++) {
		ftc_dbuf_u64(b, s->formats[i].len);
		ftc_dbuf_add(b, s->formats[i].data, s->formats[i].len);
	}
}

static void add_text32(struct ftc_dbuf *b, const struct ftc_blob *f)
{
	ftc_dbuf_u32(b, (uint32_t)f->len);
	ftc_dbuf_add(b, f->data, f->len);
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

int ftc_wmeta_build(struct ftc_wmeta *wm, const struct ftc_meta *m)
{
	memset(wm, 0, sizeof(*wm));
	add_named(&wm->header_info, "header_page", &m->header_page);
	add_named(&wm->header_info, "header_event", &m->header_event);
	ftc_dbuf_u32(&wm->ftrace_events, (uint32_t)m->ftrace.nformats);
	add_formats(&wm->ftrace_events, &m->ftrace);
	ftc_dbuf_u32(&wm->event_formats, (uint32_t)m->nsystems);
	for (int i = 0; i < m->nsystems; i++) {
		ftc_dbuf_str(&wm->event_formats, m->systems[i].name);
		ftc_dbuf_u32(&wm->event_formats, (uint32_t)m->systems[i].nformats);
		add_formats(&wm->event_formats, &m->systems[i]);
	}
	add_text32(&wm->kallsyms, &m->kallsyms);
	add_text32(&wm->printk, &m->printk);
	ftc_dbuf_u64(&wm->cmdlines, m->cmdlines.len);
	ftc_dbuf_add(&wm->cmdlines, m->cmdlines.data, m->cmdlines.len);
	wm->uname = dup_or_empty(m->uname);
	wm->trace_clock = dup_or_empty(m->trace_clock);
	if (wm->header_info.oom || wm->ftrace_events.oom || wm->event_formats.oom ||
	    wm->kallsyms.oom || wm->printk.oom || wm->cmdlines.oom || !wm->uname ||
	    !wm->trace_clock) {
		ftc_wmeta_free(wm);
		return ftc_error(ENOMEM, "out of memory while storing the trace metadata");
	}
	return 0;
}

void ftc_wmeta_subbuf(struct ftc_subbuf_layout *l, const char *payload, size_t len)
{
	static const char tag[] = "header_page";
	uint64_t n;

	if (len < sizeof(tag) + 8 || memcmp(payload, tag, sizeof(tag)))
		return;
	memcpy(&n, payload + sizeof(tag), 8);
	if (n <= len - sizeof(tag) - 8)
		ftc_subbuf_layout_parse(l, payload + sizeof(tag) + 8, (size_t)n);
}

void ftc_wmeta_free(struct ftc_wmeta *m)
{
	ftc_dbuf_free(&m->header_info);
	ftc_dbuf_free(&m->ftrace_events);
	ftc_dbuf_free(&m->event_formats);
	ftc_dbuf_free(&m->kallsyms);
	ftc_dbuf_free(&m->printk);
	ftc_dbuf_free(&m->cmdlines);
	free(m->uname);
	free(m->trace_clock);
	memset(m, 0, sizeof(*m));
}
