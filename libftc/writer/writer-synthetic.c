// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Buffers that do not come from tracefs: events that ftc makes itself
 * (perf samples and counter readings) packed into ring-buffer pages, in
 * an extra instance of the file with event formats of their own system.
 * trace-cmd and KernelShark then read them like any other instance. The
 * caller says which clock the timestamps are on, and there are no
 * per_cpu stats to copy.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "writer.h"

int ftc_writer_add_system(struct ftc_writer *w, const char *system,
			  const char *const *formats, int n)
{
	struct ftc_dbuf *b = &w->extra_formats;

	if (w->started)
		return ftc_error(EBUSY, "%s: event system '%s' must be added before the capture "
				 "starts", w->path, system);
	if (!system || !*system || n < 1)
		return ftc_error(EINVAL, "%s: event system '%s' has no formats", w->path,
				 system ? system : "");
	ftc_dbuf_str(b, system);
	ftc_dbuf_u32(b, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		ftc_dbuf_u64(b, strlen(formats[i]));
		ftc_dbuf_add(b, formats[i], strlen(formats[i]));
	}
	if (b->oom)
		return ftc_error(ENOMEM, "out of memory");
	w->extra_systems++;
	return 0;
}

/* Appends the added systems to the formats read from tracefs. */
int ftc_wsynthetic_formats(struct ftc_writer *w)
{
	struct ftc_dbuf *f = &w->meta.event_formats;
	uint32_t nsys;

	if (!w->extra_systems)
		return 0;
	if (f->oom || f->len < 4)
		return ftc_error(ENOMEM, "out of memory while reading the trace metadata");
	memcpy(&nsys, f->p, 4);
	nsys += w->extra_systems;
	memcpy(f->p, &nsys, 4);
	ftc_dbuf_add(f, w->extra_formats.p, w->extra_formats.len);
	return f->oom ? ftc_error(ENOMEM, "out of memory") : 0;
}

int ftc_writer_add_synthetic_buffer(struct ftc_writer *w, const char *name,
				    int ncpus, const int *cpus, const char *clock)
{
	char *copy;
	int idx;

	if (w->started)
		return ftc_error(EBUSY, "%s: buffers must be added before the capture starts",
				 w->path);
	if (!name || !*name || ncpus < 1 || !clock || !*clock)
		return ftc_error(EINVAL, "%s: a synthetic buffer needs a name, a clock and CPUs",
				 w->path);
	copy = strdup(clock);
	if (!copy)
		return ftc_error(ENOMEM, "out of memory");
	idx = ftc_wbuf_add(w, name, copy, ncpus, cpus);
	if (idx >= 0)
		w->bufs[idx].synthetic = true;
	return idx;
}

int ftc_writer_add_option(struct ftc_writer *w, uint16_t id, const void *data, uint32_t size)
{
	if (w->started)
		return ftc_error(EBUSY, "%s: options must be added before the capture starts",
				 w->path);
	ftc_dbuf_u16(&w->extra_options, id);
	ftc_dbuf_u32(&w->extra_options, size);
	ftc_dbuf_add(&w->extra_options, data, size);
	return w->extra_options.oom ? ftc_error(ENOMEM, "out of memory") : 0;
}
