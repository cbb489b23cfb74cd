/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the info files: a growing NULL-terminated string list. */
#ifndef FTC_INFO_INTERNAL_H
#define FTC_INFO_INTERNAL_H

struct ftc_strvec {
	char **v;
	int n;
	int cap;
};

/* Copies s in; -1 with ftc_error(ENOMEM) (and the list freed) on failure. */
int ftc_strvec_add(struct ftc_strvec *sv, const char *s);
/* The list, never NULL unless out of memory; the strvec is emptied. */
char **ftc_strvec_done(struct ftc_strvec *sv);
void ftc_strvec_sort(struct ftc_strvec *sv);

#endif
