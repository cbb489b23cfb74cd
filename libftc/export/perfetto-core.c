// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the Perfetto exporter's files share (perfetto.h): interned string
 * tables, a packet written with its Trace.packet tag and length, the
 * sequence flags of a packet, the task table, and the kernel symbols
 * interned on the ftrace sequence.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "export-util.h"
#include "perfetto.h"

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return ftc_hindex_mix(h);
}

struct str_key {
	const char *s;
	size_t len;
};

static bool same_str(size_t i, const void *key, const void *tab)
{
	const struct pf_strings *t = tab;
	const struct str_key *k = key;

	return !strncmp(t->s[i], k->s, k->len) && t->s[i][k->len] == '\0';
}

static uint64_t hash_of_str(size_t i, const void *tab)
{
	const struct pf_strings *t = tab;

	return hash_bytes(t->s[i], strlen(t->s[i]));
}

uint64_t ftc_pf_strings_id(struct pf_strings *t, const char *s, size_t len)
{
	struct str_key k = { s, strnlen(s, len) };
	uint64_t h = hash_bytes(s, k.len);
	long i = ftc_hindex_find(&t->idx, h, same_str, &k, t);
	char *copy;

	if (i >= 0)
		return (uint64_t)i + 1;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **n = realloc(t->s, cap * sizeof(*n));

		if (!n)
			return 0;
		t->s = n;
		t->cap = cap;
	}
	copy = strndup(s, k.len);
	if (!copy)
		return 0;
	t->s[t->n] = copy;
	if (ftc_hindex_add(&t->idx, t->n, h, hash_of_str, t) < 0) {
		free(copy);
		return 0;
	}
	return ++t->n;
}

void ftc_pf_strings_emit(struct pf_strings *t, struct ftc_pb *interned, unsigned int field)
{
	for (size_t i = t->emitted; i < t->n; i++) {
		size_t m = ftc_pb_open(interned, field);

		ftc_pb_uint(interned, ISTR_IID, i + 1);
		ftc_pb_str(interned, ISTR_STR, t->s[i]);
		ftc_pb_close(interned, m);
	}
	t->emitted = t->n;
}

void ftc_pf_strings_free(struct pf_strings *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
	ftc_hindex_free(&t->idx);
	*t = (struct pf_strings){ 0 };
}

int ftc_pf_write_packet(struct ftc_perfetto *p, const struct ftc_pb *pkt)
{
	struct ftc_pb head = { 0 };
	int ret = 0;

	if (pkt->failed)
		return ftc_error(ENOMEM, "out of memory");
	ftc_pb_raw_varint(&head, TRACE_PACKET << 3 | 2);	/* length-delimited */
	ftc_pb_raw_varint(&head, pkt->len);
	if (head.failed) {
		ret = ftc_error(ENOMEM, "out of memory");
	} else if (fwrite(head.buf, 1, head.len, p->out) != head.len ||
		   fwrite(pkt->buf, 1, pkt->len, p->out) != pkt->len) {
		p->write_failed = true;
		ret = ftc_error(errno ? errno : EIO, "cannot write the Perfetto trace: %s",
				strerror(errno ? errno : EIO));
	} else {
		p->st.packets++;
		p->st.bytes += head.len + pkt->len;
	}
	ftc_pb_free(&head);
	return ret;
}

void ftc_pf_sequence(struct ftc_perfetto *p, struct ftc_pb *pkt, int seq)
{
	ftc_pb_uint(pkt, PKT_SEQUENCE_ID, (uint64_t)seq);
	ftc_pb_uint(pkt, PKT_SEQUENCE_FLAGS, p->seq_started[seq] ? SEQ_NEEDS_INCREMENTAL_STATE :
		    SEQ_INCREMENTAL_STATE_CLEARED | SEQ_NEEDS_INCREMENTAL_STATE);
	p->seq_started[seq] = true;
}

uint64_t ftc_pf_ksym(struct ftc_perfetto *p, uint64_t addr)
{
	int added = 0;
	uint64_t *id = ftc_keytab_value(&p->ksyms_by_addr, addr, (void **)&p->ksym_ids,
					sizeof(*id), &added);
	const char *name;
	char hex[24];

	if (!id)
		return 0;
	if (!added)
		return *id;
	name = ftc_export_ksym(p->r, addr, hex);
	*id = ftc_pf_strings_id(&p->ksyms, name, strlen(name));
	return *id;
}

void ftc_pf_task(struct ftc_perfetto *p, int pid, int tgid)
{
	int added = 0;
	int32_t *t;

	if (pid <= 0)
		return;
	t = ftc_keytab_value(&p->tasks, (uint64_t)pid, (void **)&p->tgids, sizeof(*t), &added);
	if (t && tgid > 0)
		*t = tgid;
}

