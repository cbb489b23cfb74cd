// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A memo of the event info libtraceevent printed, keyed by the event and
 * its payload bytes. Printing an event through its print format is most of
 * a report's cost, and a trace repeats itself: the same syscall with the
 * same arguments, the same wake-up of the same task. Only events whose text
 * is a function of their payload use it: no plugin handler (sched_switch's
 * registers comms as it prints) and no REC->common_* in the print format
 * (the common header, with pid and flags, is left out of the key).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc.h"
#include "format.h"

#define MEMO_SLOTS	2048	/* direct-mapped; a power of two */
#define MEMO_KEY_MAX	64	/* payload bytes a slot can hold */
#define MEMO_TEXT_MAX	192	/* longer texts are printed every time */
#define COMMON_BYTES	8	/* type, flags, preempt count, pid */
#define STAT_SLOTS	1024	/* per-event hit counts, by event id */
#define TRIAL_LOOKUPS	1024
#define MIN_HIT_SHARE	8
#define MEMO_START	1024	/* lookups before a memo is made: a short trace prints faster */

struct memo_slot {
	struct tep_event *ev;
	uint16_t key_len, text_len;
	unsigned char key[MEMO_KEY_MAX];
	char text[MEMO_TEXT_MAX];
};

struct memo_stat {
	int id;
	uint32_t tries, hits;
	bool off;
};

struct ftc_info_memo {
	struct memo_slot slot[MEMO_SLOTS];
	struct memo_stat stat[STAT_SLOTS];
};

/* Eight bytes at a time: keys are short and this runs for every record. */
static size_t payload_len(const struct tep_record *rec)
{
	return rec->size > COMMON_BYTES ? (size_t)rec->size - COMMON_BYTES : 0;
}

static struct memo_stat *stat_of(struct ftc_info_memo *m, const struct tep_event *ev)
{
	return &m->stat[(unsigned int)ev->id & (STAT_SLOTS - 1)];
}

static unsigned int key_hash(const struct tep_event *ev, const unsigned char *k, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL * ((uint64_t)(unsigned int)ev->id + n);
	uint64_t w;

	for (; n >= 8; k += 8, n -= 8) {
		memcpy(&w, k, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (n) {
		w = 0;
		memcpy(&w, k, n);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
	}
	h ^= h >> 29;
	return (unsigned int)h & (MEMO_SLOTS - 1);
}

/*
 * Events whose payloads never repeat (pointers, counters) only pay for the
 * memo: after TRIAL_LOOKUPS with fewer than one hit in MIN_HIT_SHARE, an
 * event is printed directly from then on.
 */
static bool memo_worth_it(struct ftc_info_memo *m, const struct tep_event *ev)
{
	struct memo_stat *st = stat_of(m, ev);

	if (st->id != ev->id) {
		st->id = ev->id;
		st->tries = st->hits = 0;
		st->off = false;
	}
	return !st->off;
}

static void memo_count(struct ftc_info_memo *m, const struct tep_event *ev, bool hit)
{
	struct memo_stat *st = stat_of(m, ev);

	st->hits += hit;
	if (++st->tries == TRIAL_LOOKUPS && st->hits < TRIAL_LOOKUPS / MIN_HIT_SHARE)
		st->off = true;
}

/* The slot that holds (or would hold) this record's text; NULL: no memo. */
static struct memo_slot *memo_slot(struct ftc_format *f, struct tep_record *rec,
				   struct tep_event *ev)
{
	size_t n = payload_len(rec);

	if (n > MEMO_KEY_MAX || !ftc_reader_print_is_pure(f->r, ev))
		return NULL;
	if (!f->memo && f->memo_wait < MEMO_START) {
		f->memo_wait++;
		return NULL;
	}
	if (!f->memo)
		f->memo = calloc(1, sizeof(*f->memo));
	if (!f->memo || !memo_worth_it(f->memo, ev))
		return NULL;
	return &f->memo->slot[key_hash(ev, (unsigned char *)rec->data + COMMON_BYTES, n)];
}

static bool slot_holds(const struct memo_slot *m, struct tep_record *rec, struct tep_event *ev)
{
	size_t n = payload_len(rec);

	return m->ev == ev && m->key_len == n &&
	       !memcmp(m->key, (unsigned char *)rec->data + COMMON_BYTES, n);
}

static void slot_store(struct memo_slot *m, struct tep_record *rec, struct tep_event *ev,
		       const char *text, int len)
{
	size_t n = payload_len(rec);

	if (len < 0 || len >= MEMO_TEXT_MAX)
		return;
	m->ev = ev;
	m->key_len = (uint16_t)n;
	memcpy(m->key, (unsigned char *)rec->data + COMMON_BYTES, n);
	m->text_len = (uint16_t)len;
	memcpy(m->text, text, (size_t)len);
}

const char *ftc_format_info_in(struct ftc_format *f, struct trace_seq *seq, bool raw,
			       struct tep_record *rec, struct tep_event *ev, int *len)
{
	struct memo_slot *m;
	const char *text;

	/* A compiled print format is cheaper than the memo's lookup. */
	if (!raw && (text = ftc_compile_print(f, rec, ev, len)))
		return text;
	/* The memo holds the texts of the format's own mode. */
	m = raw == !!(f->flags & FTC_FMT_RAW) ? memo_slot(f, rec, ev) : NULL;
	if (m) {
		bool hit = slot_holds(m, rec, ev);

		memo_count(f->memo, ev, hit);
		if (hit) {
			*len = m->text_len;
			return m->text;
		}
	}
	trace_seq_reset(seq);
	tep_print_event(f->r->tep, seq, rec, "%s", raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
	if (m && seq->state == TRACE_SEQ__GOOD)
		slot_store(m, rec, ev, seq->buffer, seq->len);
	*len = seq->len;
	return seq->buffer;
}

const char *ftc_format_info(struct ftc_format *f, struct tep_record *rec, struct tep_event *ev,
			    int *len)
{
	return ftc_format_info_in(f, &f->seq, f->flags & FTC_FMT_RAW, rec, ev, len);
}

void ftc_format_memo_free(struct ftc_format *f)
{
	free(f->memo);
	f->memo = NULL;
}
