/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the info files: a growing NULL-terminated string list. */
#ifndef FTC_INFO_INTERNAL_H
#define FTC_INFO_INTERNAL_H

struct strvec {
	char **v;
	int n;
	int cap;
};

/* Copies s in; -1 with ftc_error(ENOMEM) (and the list freed) on failure. */
int strvec_add(struct strvec *sv, const char *s);
/* The list, never NULL unless out of memory; the strvec is emptied. */
char **strvec_done(struct strvec *sv);
void strvec_sort(struct strvec *sv);

#endif
