/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal unit-test harness. Every check prints one line that tests/run
 * counts: "PASS name", "FAIL name: why" or "SKIP name: why".
 */
#ifndef FTC_TEST_CHECK_H
#define FTC_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(name, cond) do {						\
	if (cond) {							\
		printf("PASS %s\n", name);				\
	} else {							\
		printf("FAIL %s: %s (%s:%d)\n", name, #cond,		\
		       __FILE__, __LINE__);				\
		check_failures++;					\
	}								\
} while (0)

#define CHECK_STR(name, got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (g_ && w_ && !strcmp(g_, w_)) {				\
		printf("PASS %s\n", name);				\
	} else {							\
		printf("FAIL %s: got '%s', want '%s' (%s:%d)\n", name,	\
		       g_ ? g_ : "(null)", w_ ? w_ : "(null)",		\
		       __FILE__, __LINE__);				\
		check_failures++;					\
	}								\
} while (0)

/*
 * Writes text to dir/file, a file of a mock tracefs. A failure is not
 * checked here: the checks that read the file back fail instead.
 */
static inline void check_put_file(const char *dir, const char *file, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

#define SKIP(name, why) printf("SKIP %s: %s\n", name, why)

#define CHECK_DONE() (check_failures ? 1 : 0)

#endif
