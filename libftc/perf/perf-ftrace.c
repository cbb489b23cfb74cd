// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Perf records as ftrace events: formats in tracefs's own syntax (system
 * "ftc_perf") and a packer that writes the events into ring-buffer
 * sub-buffers laid out as the kernel lays them out (its header_page's
 * header, 4-byte event headers with 27-bit time deltas, time extends:
 * ringbuf.h holds those facts). Pages made here
 * can go into trace.dat as one more buffer, per CPU, and libtraceevent,
 * trace-cmd and KernelShark read them like any other.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tracefs.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "perf.h"
#include "tracefs-layer.h"

#define MAX_SMALL	(FTC_RB_TYPE_DATA_MAX * 4)	/* longer events carry their length */
#define DELTA_MASK	((1u << FTC_RB_DELTA_BITS) - 1)

static const char common_fields[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

/* Fixed payloads, after the 8-byte common header. */
struct f_sample {
	uint64_t ip, period;
	uint32_t tid, cpu;
	uint32_t callchain;	/* __data_loc: offset | length << 16 */
} __attribute__((packed));

struct f_comm {
	uint32_t tid;
	char comm[16];
} __attribute__((packed));

struct f_mmap {
	uint64_t start, len, pgoff;
	uint32_t filename;	/* __data_loc */
} __attribute__((packed));

struct f_lost {
	uint64_t lost;
} __attribute__((packed));

struct f_counter {
	uint64_t value, enabled, running;
	uint32_t name;		/* __data_loc */
} __attribute__((packed));

static const char *const names[FTC_PERF_EV_COUNT] = {
	[FTC_PERF_EV_SAMPLE] = "sample",
	[FTC_PERF_EV_COMM] = "comm",
	[FTC_PERF_EV_MMAP] = "mmap",
	[FTC_PERF_EV_LOST] = "lost",
	[FTC_PERF_EV_COUNTER] = "counter",
};

static const char *const bodies[FTC_PERF_EV_COUNT] = {
	[FTC_PERF_EV_SAMPLE] =
		"\tfield:u64 ip;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u64 period;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 tid;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 cpu;\toffset:28;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc u64[] callchain;\toffset:32;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"ip=0x%llx tid=%u period=%llu\", REC->ip, REC->tid, REC->period\n",
	[FTC_PERF_EV_COMM] =
		"\tfield:u32 tid;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:1;\n\n"
		"print fmt: \"tid=%u comm=%s\", REC->tid, REC->comm\n",
	[FTC_PERF_EV_MMAP] =
		"\tfield:u64 start;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u64 len;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:u64 pgoff;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc char[] filename;\toffset:32;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"start=0x%llx len=0x%llx pgoff=0x%llx %s\", REC->start, REC->len, "
		"REC->pgoff, __get_str(filename)\n",
	[FTC_PERF_EV_LOST] =
		"\tfield:u64 lost;\toffset:8;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"lost=%llu\", REC->lost\n",
	[FTC_PERF_EV_COUNTER] =
		"\tfield:u64 value;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u64 enabled;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:u64 running;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc char[] name;\toffset:32;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"%s=%llu enabled=%llu running=%llu\", __get_str(name), REC->value, "
		"REC->enabled, REC->running\n",
};

const char *ftc_perf_ftrace_name(enum ftc_perf_fevent e)
{
	return e < FTC_PERF_EV_COUNT ? names[e] : NULL;
}

char *ftc_perf_ftrace_format(enum ftc_perf_fevent e, int id)
{
	char *s;

	if (e >= FTC_PERF_EV_COUNT) {
		ftc_error(EINVAL, "no perf event format %d", (int)e);
		return NULL;
	}
	if (asprintf(&s, "name: %s\nID: %d\nformat:\n%s%s", names[e], id, common_fields,
		     bodies[e]) < 0) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	return s;
}

struct ftc_perf_pager *ftc_perf_pager_new(size_t page_size, int base_id,
					  ftc_perf_page_fn flush, void *ctx)
{
	struct ftc_subbuf_layout l;

	ftc_tracefs_subbuf_layout(&l);
	return ftc_perf_pager_new_layout(page_size, &l, base_id, flush, ctx);
}

struct ftc_perf_pager *ftc_perf_pager_new_layout(size_t page_size,
						 const struct ftc_subbuf_layout *l,
						 int base_id, ftc_perf_page_fn flush,
						 void *ctx)
{
	struct ftc_perf_pager *p;

	if (page_size < 256 || page_size > (1u << 20)) {
		ftc_error(EINVAL, "sub-buffer of %zu bytes: not a page size", page_size);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p)
		p->page = calloc(1, page_size);
	if (!p || !p->page) {
		free(p);
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	p->layout = *l;
	p->page_size = page_size;
	p->base_id = base_id;
	p->flush = flush;
	p->ctx = ctx;
	return p;
}

void ftc_perf_pager_free(struct ftc_perf_pager *p)
{
	if (!p)
		return;
	free(p->page);
	free(p);
}

uint64_t ftc_perf_pager_events(const struct ftc_perf_pager *p)
{
	return p->events;
}

uint64_t ftc_perf_pager_pages(const struct ftc_perf_pager *p)
{
	return p->pages;
}

static void put32(unsigned char *at, uint32_t v)
{
	memcpy(at, &v, 4);
}

/* Room for events after the header. */
static size_t room(const struct ftc_perf_pager *p)
{
	return p->page_size - p->layout.data_off;
}

int ftc_perf_pager_flush(struct ftc_perf_pager *p)
{
	struct ftc_subbuf sb = { .ts = p->page_ts, .len = p->used };
	int ret;

	if (!p->used)
		return 0;
	memset(p->page, 0, p->layout.data_off);
	memset(p->page + p->layout.data_off + p->used, 0, room(p) - p->used);
	ftc_subbuf_encode(&p->layout, p->page, &sb);
	ret = p->flush(p->page, p->page_size, p->ctx);
	p->used = 0;
	p->pages++;
	return ret;
}

/* Writes one event of payload len at ts, starting a new page when needed. */
static int put_event(struct ftc_perf_pager *p, uint64_t ts, const void *payload, size_t len)
{
	size_t body = (len + 3) & ~(size_t)3;
	size_t need = 4 + (body > MAX_SMALL ? 4 : 0) + body;
	uint64_t delta;
	unsigned char *at;

	if (need + 8 > room(p))
		return ftc_error(E2BIG, "perf event of %zu bytes does not fit a %zu-byte page",
				 len, p->page_size);
	if (p->used && p->used + need + 8 > room(p) &&
	    ftc_perf_pager_flush(p) < 0)
		return -1;
	if (!p->used) {
		p->page_ts = ts;
		p->last_ts = ts;
	}
	/* Records of different rings may step back a little: never a negative delta. */
	delta = ts > p->last_ts ? ts - p->last_ts : 0;
	at = p->page + p->layout.data_off + p->used;
	if (delta >> FTC_RB_DELTA_BITS) {
		put32(at, FTC_RB_TYPE_TIME_EXTEND |
		      (uint32_t)(delta & DELTA_MASK) << FTC_RB_TYPE_BITS);
		put32(at + 4, (uint32_t)(delta >> FTC_RB_DELTA_BITS));
		at += 8;
		p->used += 8;
		delta = 0;
	}
	if (body > MAX_SMALL) {
		put32(at, (uint32_t)delta << FTC_RB_TYPE_BITS);
		put32(at + 4, (uint32_t)(body + 4));
		at += 8;
	} else {
		put32(at, (uint32_t)(body / 4) | (uint32_t)delta << FTC_RB_TYPE_BITS);
		at += 4;
	}
	memcpy(at, payload, len);
	memset(at + len, 0, body - len);
	p->used += need;
	if (ts > p->last_ts)
		p->last_ts = ts;
	p->events++;
	return 0;
}

/* An event the caller laid out itself, common header first (ftc import's). */
int ftc_perf_pager_add_raw(struct ftc_perf_pager *p, uint64_t ts, const void *payload,
			   size_t len)
{
	return put_event(p, ts, payload, len);
}

/* Common header + fixed fields + one optional dynamic array, as one payload. */
static int add(struct ftc_perf_pager *p, enum ftc_perf_fevent e, uint64_t ts, int32_t pid,
	       const void *fixed, size_t fixed_len, int loc_off, const void *dyn, size_t dyn_len)
{
	size_t len = 8 + fixed_len + dyn_len;
	unsigned char *buf = malloc(len);
	uint16_t type = (uint16_t)(p->base_id + (int)e);
	uint32_t loc = (uint32_t)(8 + fixed_len) | (uint32_t)dyn_len << 16;
	int ret;

	if (!buf)
		return ftc_error(ENOMEM, "out of memory");
	memset(buf, 0, 8);
	memcpy(buf, &type, 2);
	memcpy(buf + 4, &pid, 4);
	memcpy(buf + 8, fixed, fixed_len);
	/* __data_loc: where the dynamic array starts in the event, and its length. */
	if (loc_off >= 0)
		memcpy(buf + 8 + loc_off, &loc, 4);
	if (dyn_len)
		memcpy(buf + 8 + fixed_len, dyn, dyn_len);
	ret = put_event(p, ts, buf, len);
	free(buf);
	return ret;
}

int ftc_perf_pager_add_sample(struct ftc_perf_pager *p, const struct ftc_perf_sample *s)
{
	struct f_sample f = { s->ip, s->period, s->tid, s->cpu, 0 };
	uint64_t nr = s->ips ? s->nr : 0;

	/* A dynamic array's length is 16 bits: 8191 frames at most. */
	if (nr > 8191)
		nr = 8191;
	return add(p, FTC_PERF_EV_SAMPLE, s->time, (int32_t)s->pid, &f, sizeof(f),
		   (int)offsetof(struct f_sample, callchain),
		   s->ips, nr * 8);
}

int ftc_perf_pager_add_comm(struct ftc_perf_pager *p, uint64_t ts, uint32_t pid, uint32_t tid,
			    const char *comm)
{
	struct f_comm f = { .tid = tid };

	strncpy(f.comm, comm, sizeof(f.comm) - 1);
	return add(p, FTC_PERF_EV_COMM, ts, (int32_t)pid, &f, sizeof(f), -1, NULL, 0);
}

int ftc_perf_pager_add_mmap(struct ftc_perf_pager *p, uint64_t ts, uint32_t pid,
			    const struct ftc_perf_map *m)
{
	struct f_mmap f = { m->start, m->len, m->pgoff, 0 };

	return add(p, FTC_PERF_EV_MMAP, ts, (int32_t)pid, &f, sizeof(f),
		   (int)offsetof(struct f_mmap, filename), m->file,
		   strlen(m->file) + 1);
}

int ftc_perf_pager_add_lost(struct ftc_perf_pager *p, uint64_t ts, uint64_t lost)
{
	struct f_lost f = { lost };

	return add(p, FTC_PERF_EV_LOST, ts, 0, &f, sizeof(f), -1, NULL, 0);
}

int ftc_perf_pager_add_counter(struct ftc_perf_pager *p, uint64_t ts, const char *name,
			       const struct ftc_perf_count *c)
{
	struct f_counter f = { c->val, c->ena, c->run, 0 };

	return add(p, FTC_PERF_EV_COUNTER, ts, 0, &f, sizeof(f),
		   (int)offsetof(struct f_counter, name), name,
		   strlen(name) + 1);
}

/* One past the largest event id in tracefs: ids of our own that no kernel
 * event uses, so trace.dat readers never confuse the two. */
static long max_event_id(char **systems)
{
	long max = 0;

	for (int i = 0; systems[i]; i++) {
		char **events = tracefs_system_events(NULL, systems[i]);

		for (int j = 0; events && events[j]; j++) {
			char file[512], *text = NULL;
			long id;

			snprintf(file, sizeof(file), "events/%s/%s/id", systems[i], events[j]);
			if (ftc_tracefs_read_max(NULL, file, 32, &text) == 0 &&
			    sscanf(text, "%ld", &id) == 1 && id > max)
				max = id;
			free(text);
		}
		tracefs_list_free(events);
	}
	return max;
}

int ftc_perf_ftrace_base_id(void)
{
	char **systems;
	long max = 0;

	if (!ftc_tracefs_dir())
		return ftc_error(ENODEV, "tracefs is not mounted: no event ids to avoid");
	systems = tracefs_event_systems(NULL);
	if (systems)
		max = max_event_id(systems);
	tracefs_list_free(systems);
	if (max + FTC_PERF_EV_COUNT > 65535)
		return ftc_error(ERANGE, "kernel event ids reach %ld: no room for perf events", max);
	return (int)max + 1;
}

/*
 * perf stamps records with local_clock(), which is trace_clock "local";
 * for "mono", "mono_raw" and "boot" perf can use the same clock through
 * use_clockid. Other trace clocks have no perf counterpart.
 */
int ftc_perf_clock_for_trace(const char *trace_clock, struct perf_event_attr *attr)
{
	static const struct { const char *name; int clockid; } map[] = {
		{ "mono", CLOCK_MONOTONIC },
		{ "mono_raw", CLOCK_MONOTONIC_RAW },
		{ "boot", CLOCK_BOOTTIME },
	};

	if (!trace_clock || !strcmp(trace_clock, "local")) {
		attr->use_clockid = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (strcmp(trace_clock, map[i].name))
			continue;
		attr->use_clockid = 1;
		attr->clockid = map[i].clockid;
		return 0;
	}
	return ftc_error(EINVAL, "trace clock '%s' has no perf counterpart: use local, mono, "
			 "mono_raw or boot (-C) to put samples beside the trace", trace_clock);
}
