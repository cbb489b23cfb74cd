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
#include "reader.h"

#define MEMO_SLOTS	2048	/* direct-mapped; a power of two */
#define MEMO_KEY_MAX	64	/* payload bytes a slot can hold */
#define MEMO_TEXT_MAX	192	/* longer texts are printed every time */
#define COMMON_BYTES	8	/* type, flags, preempt count, pid */

struct memo_slot {
	struct tep_event *ev;
	uint16_t key_len, text_len;
	unsigned char key[MEMO_KEY_MAX];
	char text[MEMO_TEXT_MAX];
};

struct ftc_info_memo {
	struct memo_slot slot[MEMO_SLOTS];
};

static unsigned int key_hash(const struct tep_event *ev, const unsigned char *k, size_t n)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)(unsigned int)ev->id;

	for (size_t i = 0; i < n; i++)
		h = (h ^ k[i]) * 1099511628211ULL;
	return (unsigned int)(h ^ (h >> 29)) & (MEMO_SLOTS - 1);
}

/* The slot that holds (or would hold) this record's text; NULL: no memo. */
static struct memo_slot *memo_slot(struct ftc_format *f, struct tep_record *rec,
				   struct tep_event *ev)
{
	size_t n = rec->size > COMMON_BYTES ? (size_t)rec->size - COMMON_BYTES : 0;

	if (n > MEMO_KEY_MAX || !ftc_reader_print_is_pure(f->r, ev))
		return NULL;
	if (!f->memo)
		f->memo = calloc(1, sizeof(*f->memo));
	if (!f->memo)
		return NULL;
	return &f->memo->slot[key_hash(ev, (unsigned char *)rec->data + COMMON_BYTES, n)];
}

static bool slot_holds(const struct memo_slot *m, struct tep_record *rec, struct tep_event *ev)
{
	size_t n = rec->size > COMMON_BYTES ? (size_t)rec->size - COMMON_BYTES : 0;

	return m->ev == ev && m->key_len == n &&
	       !memcmp(m->key, (unsigned char *)rec->data + COMMON_BYTES, n);
}

static void slot_store(struct memo_slot *m, struct tep_record *rec, struct tep_event *ev,
		       const char *text, int len)
{
	size_t n = rec->size > COMMON_BYTES ? (size_t)rec->size - COMMON_BYTES : 0;

	if (len < 0 || len >= MEMO_TEXT_MAX)
		return;
	m->ev = ev;
	m->key_len = (uint16_t)n;
	memcpy(m->key, (unsigned char *)rec->data + COMMON_BYTES, n);
	m->text_len = (uint16_t)len;
	memcpy(m->text, text, (size_t)len);
}

const char *ftc_format_info(struct ftc_format *f, struct tep_record *rec, struct tep_event *ev,
			    int *len)
{
	struct memo_slot *m = memo_slot(f, rec, ev);

	if (m && slot_holds(m, rec, ev)) {
		*len = m->text_len;
		return m->text;
	}
	trace_seq_reset(&f->seq);
	tep_print_event(f->r->tep, &f->seq, rec, "%s",
			(f->flags & FTC_FMT_RAW) ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
	if (m && f->seq.state == TRACE_SEQ__GOOD)
		slot_store(m, rec, ev, f->seq.buffer, f->seq.len);
	*len = f->seq.len;
	return f->seq.buffer;
}

void ftc_format_memo_free(struct ftc_format *f)
{
	free(f->memo);
	f->memo = NULL;
}
