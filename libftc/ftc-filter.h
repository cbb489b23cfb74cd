/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Checks an event filter ("EVENTS: EXPRESSION", ftc report -F, ftc stream
 * --match) before libtraceevent's tep_filter_add_filter_str() sees it:
 * that parser crashes on a half-typed expression and takes a misspelt field
 * as "false", so ftc accepts only the grammar it handles soundly and says
 * where the rest goes wrong.
 */
#ifndef FTC_FILTER_H
#define FTC_FILTER_H

#include <stddef.h>

#include "ftc-api.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ftc_filter_type {
	FTC_FILTER_UNKNOWN,	/* no selected event has the field */
	FTC_FILTER_NUM,
	FTC_FILTER_STR,
	FTC_FILTER_SYM,		/* a pointer or long: a number or a symbol's name */
};

/* The type of field name in the selected events. */
typedef enum ftc_filter_type (*ftc_filter_field_fn)(void *ctx, const char *name);

struct ftc_filter_error {
	size_t pos;		/* byte offset in the whole filter text */
	int status;		/* 2: malformed, 3: a field or event the file lacks */
	char msg[256];
};

/* One name of the event list: "sys/event", "sys:event" or "name" (each a
 * regular expression, as libtraceevent takes them); sys is NULL for a
 * name alone. */
struct ftc_filter_event {
	char *sys, *name;
	size_t pos;
};

struct ftc_filter_head {
	struct ftc_filter_event *events;
	size_t nevents;
	size_t expr;		/* offset of the expression; 0 when there is none */
	int has_expr;
	char *tep_expr;		/* the checked expression, as libtraceevent takes it */
};

/* Splits text into its event list and expression; -1 with err filled. */
FTC_API int ftc_filter_split(const char *text, struct ftc_filter_head *h,
			     struct ftc_filter_error *err);
FTC_API void ftc_filter_head_free(struct ftc_filter_head *h);

/* Checks the expression at text + h->expr against the fields field() knows;
 * 0 when libtraceevent can take it (h->tep_expr set: the same filter with
 * negations written as libtraceevent parses them soundly), else -1 with
 * err filled. */
FTC_API int ftc_filter_check(const char *text, struct ftc_filter_head *h,
			     ftc_filter_field_fn field, void *ctx, struct ftc_filter_error *err);

/* Checks the syntax of a filter for the kernel (an event's filter file, a
 * hist trigger's "if"): 0, or -1 with err filled. */
FTC_API int ftc_filter_check_kernel(const char *text, struct ftc_filter_error *err);

/* The text for libtraceevent: "sys/event,name:EXPRESSION" (malloc'd). */
FTC_API char *ftc_filter_tep_text(const char *text, const struct ftc_filter_head *h);

#ifdef __cplusplus
}
#endif

#endif
