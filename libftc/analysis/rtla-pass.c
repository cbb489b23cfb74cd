// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The timerlat and osnoise pass. timerlat writes a record each time its
 * timer fires: the latency (ns) in the timer's IRQ, then in its thread
 * (and on the return to user space where a program waits on it), as
 * ftrace:timerlat. osnoise writes one record a period per CPU,
 * ftrace:osnoise: the period's runtime and noise (us), its longest single
 * noise and how many of each kind it had. The osnoise:*_noise events, when
 * enabled, time each interference (ns) and name it. Fields are read at
 * their offsets; the names of the few noise sources are copied once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "ftc-rtla.h"
#include "keytab.h"
#include "opts.h"
#include "pass-util.h"
#include "softirq-names.h"

enum rt_kind { TIMERLAT, OSNOISE, IRQ_NOISE, SOFTIRQ_NOISE, THREAD_NOISE, NMI_NOISE, NKINDS };

static const struct { const char *sys, *name; } kinds[NKINDS] = {
	[TIMERLAT] = { "ftrace", "timerlat" },
	[OSNOISE] = { "ftrace", "osnoise" },
	[IRQ_NOISE] = { "osnoise", "irq_noise" },
	[SOFTIRQ_NOISE] = { "osnoise", "softirq_noise" },
	[THREAD_NOISE] = { "osnoise", "thread_noise" },
	[NMI_NOISE] = { "osnoise", "nmi_noise" },
};

enum rt_field {
	F_CONTEXT, F_LATENCY, F_NOISE, F_RUNTIME, F_MAX_SAMPLE, F_HW, F_NMI, F_IRQ, F_SOFTIRQ,
	F_THREAD, NFIELDS
};

static const struct { enum rt_kind kind; const char *name; } fields[NFIELDS] = {
	[F_CONTEXT] = { TIMERLAT, "context" }, [F_LATENCY] = { TIMERLAT, "timer_latency" },
	[F_NOISE] = { OSNOISE, "noise" }, [F_RUNTIME] = { OSNOISE, "runtime" },
	[F_MAX_SAMPLE] = { OSNOISE, "max_sample" }, [F_HW] = { OSNOISE, "hw_count" },
	[F_NMI] = { OSNOISE, "nmi_count" }, [F_IRQ] = { OSNOISE, "irq_count" },
	[F_SOFTIRQ] = { OSNOISE, "softirq_count" }, [F_THREAD] = { OSNOISE, "thread_count" },
};

struct rt_source {
	struct ftc_rtla_source pub;
	char name[32];
};

struct ftc_rtla {
	struct ftc_reader *r;
	struct tep_handle *tep;
	struct ftc_rtla_opts o;
	int buffer;
	int id[NKINDS];
	struct tep_event *ev[NKINDS];
	struct tep_format_field *f[NFIELDS];
	struct tep_format_field *duration[NKINDS], *src_id[NKINDS];
	uint64_t timerlat_records, osnoise_records, noise_records, lost;
	struct ftc_rtla_cpu *cpus;
	bool *seen;
	int ncpus;
	struct ftc_keytab src_keys;
	struct rt_source *sources;
};

static void look_up(struct ftc_rtla *t)
{
	for (int i = 0; i < NKINDS; i++) {
		struct tep_event *e = ftc_reader_find_event(t->r, kinds[i].sys, kinds[i].name);

		t->ev[i] = e;
		t->id[i] = e ? e->id : -1;
		t->duration[i] = e && i >= IRQ_NOISE ? tep_find_field(e, "duration") : NULL;
		t->src_id[i] = !e ? NULL : i == THREAD_NOISE ? tep_find_field(e, "pid") :
			       tep_find_field(e, "vector");
	}
	for (int i = 0; i < NFIELDS; i++)
		t->f[i] = t->ev[fields[i].kind] ? tep_find_field(t->ev[fields[i].kind],
								   fields[i].name) : NULL;
}

struct ftc_rtla *ftc_rtla_new(struct ftc_reader *r, const struct ftc_rtla_opts *o)
{
	struct ftc_rtla *t = calloc(1, sizeof(*t));

	if (!t) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	t->r = r;
	t->tep = ftc_reader_tep(r);
	t->buffer = -1;
	t->ncpus = ftc_reader_ncpus(r) > 0 ? ftc_reader_ncpus(r) : 1;
	if (o && FTC_OPTS_COPY(&t->o, o, ftc_rtla_opts, instance) < 0)
		goto fail;
	t->cpus = calloc((size_t)t->ncpus, sizeof(*t->cpus));
	t->seen = calloc((size_t)t->ncpus, sizeof(*t->seen));
	if (!t->cpus || !t->seen) {
		ftc_error(ENOMEM, "out of memory");
		goto fail;
	}
	for (int c = 0; c < t->ncpus; c++)
		t->cpus[c].cpu = c;
	look_up(t);
	return t;
fail:
	ftc_rtla_free(t);
	return NULL;
}

void ftc_rtla_free(struct ftc_rtla *t)
{
	if (!t)
		return;
	free(t->cpus);
	free(t->seen);
	ftc_keytab_free(&t->src_keys);
	free(t->sources);
	free(t);
}

static unsigned int bucket_of(uint64_t ns)
{
	uint64_t us = ns / 1000;
	unsigned int b = us ? 63 - (unsigned int)__builtin_clzll(us) : 0;

	return b < FTC_RTLA_BUCKETS ? b : FTC_RTLA_BUCKETS - 1;
}

static void on_timerlat(struct ftc_rtla *t, const struct tep_record *rec, struct ftc_rtla_cpu *c)
{
	uint64_t ctx = ftc_pass_field(t->f[F_CONTEXT], rec);
	uint64_t ns = ftc_pass_field(t->f[F_LATENCY], rec);
	struct ftc_rtla_latency *l;

	if (ctx >= FTC_RTLA_NCONTEXTS)
		return;
	l = &c->timerlat[ctx];
	if (!l->count || ns < l->min_ns)
		l->min_ns = ns;
	if (!l->count || ns > l->max_ns) {
		l->max_ns = ns;
		l->max_at = rec->ts;
	}
	l->count++;
	l->sum_ns += ns;
	l->buckets[bucket_of(ns)]++;
}

static void on_osnoise(struct ftc_rtla *t, const struct tep_record *rec, struct ftc_rtla_cpu *c)
{
	uint64_t noise = ftc_pass_field(t->f[F_NOISE], rec);
	uint64_t single = ftc_pass_field(t->f[F_MAX_SAMPLE], rec);

	c->periods++;
	c->runtime_us += ftc_pass_field(t->f[F_RUNTIME], rec);
	c->noise_us += noise;
	if (noise > c->max_noise_us)
		c->max_noise_us = noise;
	if (single > c->max_single_us)
		c->max_single_us = single;
	c->hw += ftc_pass_field(t->f[F_HW], rec);
	c->nmi += ftc_pass_field(t->f[F_NMI], rec);
	c->irq += ftc_pass_field(t->f[F_IRQ], rec);
	c->softirq += ftc_pass_field(t->f[F_SOFTIRQ], rec);
	c->thread += ftc_pass_field(t->f[F_THREAD], rec);
}

/* The source's name, copied when it is first seen: an irq's desc, a thread's comm. */
static void name_source(struct ftc_rtla *t, enum rt_kind kind, const struct tep_record *rec,
			struct rt_source *s)
{
	const char *field_name = kind == IRQ_NOISE ? "desc" : kind == THREAD_NOISE ? "comm" : NULL;
	const char *p = NULL;
	int len = 0;

	if (kind == SOFTIRQ_NOISE)
		p = ftc_softirq_name(s->pub.id);
	else if (field_name)
		p = tep_get_field_raw(NULL, t->ev[kind], field_name, (struct tep_record *)rec,
				      &len, 0);
	if (p)
		snprintf(s->name, sizeof(s->name), "%.*s", len > 0 ? len : (int)sizeof(s->name), p);
}

static int on_noise(struct ftc_rtla *t, enum rt_kind kind, const struct tep_record *rec, int cpu)
{
	enum ftc_rtla_source_kind sk = (enum ftc_rtla_source_kind)(kind - IRQ_NOISE);
	uint64_t id = ftc_pass_field(t->src_id[kind], rec) & 0xffffffffffULL;
	uint64_t ns = ftc_pass_field(t->duration[kind], rec);
	uint64_t key = ((uint64_t)cpu << 48) | ((uint64_t)sk << 40) | id;
	struct rt_source *s;
	int added = 0;

	s = ftc_keytab_value(&t->src_keys, key, (void **)&t->sources, sizeof(*s), &added);
	if (!s)
		return -1;
	if (added) {
		s->pub = (struct ftc_rtla_source){ .cpu = cpu, .kind = sk, .id = id };
		name_source(t, kind, rec, s);
	}
	s->pub.count++;
	s->pub.total_ns += ns;
	if (ns > s->pub.max_ns)
		s->pub.max_ns = ns;
	return 0;
}

static enum rt_kind kind_of(const struct ftc_rtla *t, int type)
{
	for (int i = 0; i < NKINDS; i++)
		if (t->id[i] == type)
			return (enum rt_kind)i;
	return NKINDS;
}

int ftc_rtla_add(struct ftc_rtla *t, const struct ftc_merge_record *mr)
{
	const struct tep_record *rec = mr->rec;
	enum rt_kind kind = kind_of(t, tep_data_type(t->tep, (struct tep_record *)rec));

	if (!ftc_pass_buffer(t->r, t->o.instance, kind != NKINDS, mr, &t->buffer, &t->lost))
		return 0;
	if (kind == NKINDS || mr->cpu < 0 || mr->cpu >= t->ncpus)
		return 0;
	switch (kind) {
	case TIMERLAT:
		t->timerlat_records++;
		t->seen[mr->cpu] = true;
		on_timerlat(t, rec, &t->cpus[mr->cpu]);
		return 0;
	case OSNOISE:
		t->osnoise_records++;
		t->seen[mr->cpu] = true;
		on_osnoise(t, rec, &t->cpus[mr->cpu]);
		return 0;
	default:
		t->noise_records++;
		return on_noise(t, kind, rec, mr->cpu);
	}
}

size_t ftc_rtla_ncpus(const struct ftc_rtla *t)
{
	size_t n = 0;

	for (int c = 0; c < t->ncpus; c++)
		n += t->seen[c];
	return n;
}

const struct ftc_rtla_cpu *ftc_rtla_cpu_at(const struct ftc_rtla *t, size_t i)
{
	for (int c = 0; c < t->ncpus; c++)
		if (t->seen[c] && !i--)
			return &t->cpus[c];
	return NULL;
}

size_t ftc_rtla_nsources(const struct ftc_rtla *t)
{
	return t->src_keys.n;
}

const struct ftc_rtla_source *ftc_rtla_source_at(const struct ftc_rtla *t, size_t i)
{
	struct rt_source *s;

	if (i >= t->src_keys.n)
		return NULL;
	s = &t->sources[i];
	s->pub.name = s->name[0] ? s->name : NULL;
	return &s->pub;
}

uint64_t ftc_rtla_timerlat_records(const struct ftc_rtla *t)
{
	return t->timerlat_records;
}

uint64_t ftc_rtla_osnoise_records(const struct ftc_rtla *t)
{
	return t->osnoise_records;
}

uint64_t ftc_rtla_noise_records(const struct ftc_rtla *t)
{
	return t->noise_records;
}

uint64_t ftc_rtla_lost(const struct ftc_rtla *t)
{
	return t->lost;
}

const char *ftc_rtla_context_name(enum ftc_rtla_context c)
{
	static const char *const names[] = { "irq", "thread", "user" };

	return c < FTC_RTLA_NCONTEXTS ? names[c] : "?";
}

const char *ftc_rtla_source_kind_name(enum ftc_rtla_source_kind k)
{
	static const char *const names[] = { "irq", "softirq", "thread", "nmi" };

	return k < FTC_RTLA_NSOURCE_KINDS ? names[k] : "?";
}
