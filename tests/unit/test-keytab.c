// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the analysis passes' index (libftc/analysis/keytab.c):
 * 64-bit keys found again across the index's growth, each added once, in
 * the order met; keys that share their low bits; a miss is -1; a value
 * per key beside them.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "keytab.h"

static void test_growth(void)
{
	struct ftc_keytab t = { 0 };
	bool order = true, again = true, once = true;
	int added;

	for (uint64_t k = 0; k < 20000; k++)
		order &= ftc_keytab_get(&t, k * 7919 + 3, &added) == (long)k && added;
	for (uint64_t k = 0; k < 20000; k++) {
		again &= ftc_keytab_find(&t, k * 7919 + 3) == (long)k;
		once &= ftc_keytab_get(&t, k * 7919 + 3, &added) == (long)k && !added;
	}
	CHECK("20000 keys get the entries 0.. in the order met", order && t.n == 20000);
	CHECK("each is found again after the index grew", again);
	CHECK("a key met again is not added", once && t.n == 20000);
	CHECK("a key never added is not found", ftc_keytab_find(&t, 1) == -1);
	ftc_keytab_free(&t);
	CHECK("an emptied table finds nothing", ftc_keytab_find(&t, 3) == -1 && !t.n);
}

static void test_low_bits(void)
{
	struct ftc_keytab t = { 0 };
	bool ok = true;
	int added;

	/* (tid << 32 | nr) keys: the low 32 bits the same for every tid */
	for (uint64_t tid = 1; tid <= 3000; tid++)
		ok &= ftc_keytab_get(&t, tid << 32 | 39, &added) == (long)(tid - 1);
	for (uint64_t tid = 1; tid <= 3000; tid++)
		ok &= ftc_keytab_find(&t, tid << 32 | 39) == (long)(tid - 1);
	CHECK("keys that differ only in their high bits are told apart", ok);
	ftc_keytab_free(&t);
}

static void test_values(void)
{
	struct ftc_keytab t = { 0 };
	uint64_t *vals = NULL, *v;
	bool ok = true;
	int added;

	for (uint64_t k = 0; k < 5000; k++) {
		v = ftc_keytab_value(&t, k * 31, (void **)&vals, sizeof(*vals), &added);
		ok &= v && added && *v == 0;
		if (v)
			*v = k + 1;
	}
	for (uint64_t k = 0; k < 5000; k++) {
		v = ftc_keytab_value(&t, k * 31, (void **)&vals, sizeof(*vals), &added);
		ok &= v && !added && *v == k + 1;
	}
	CHECK("a value per key, zeroed when new, kept across the growth", ok && t.n == 5000);
	free(vals);
	ftc_keytab_free(&t);
}

int main(void)
{
	test_growth();
	test_values();
	test_low_bits();
	return CHECK_DONE();
}
