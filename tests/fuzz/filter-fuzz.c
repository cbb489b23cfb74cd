// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target over the event filter check (libftc/base/filter-expr.c):
 * a filter comes from the command line (ftc report -F, ftc stream --match),
 * so any bytes. A filter the check takes must be taken by libtraceevent's
 * tep_filter_add_filter_str() and run over a record of each event without
 * a crash: the check exists because libtraceevent's parser crashes on what
 * it should refuse. The same text goes through the kernel filter syntax
 * check (filter-kernel.c), whose refusals must point into the text
 * (tests/fuzz/run --target filter).
 */
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftc-filter.h"

#define COMMON \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* This host's formats (6.18), with short print formats: strings, a
 * dynamic string, a signed long, pointers and longs (compared as symbols). */
static const struct fmt {
	const char *sys, *text;
	int size;
} fmts[] = {
	{ "sched", "name: sched_switch\nID: 372\n" COMMON
	  "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	  "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	  "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	  "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	  "print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n", 64 },
	{ "sched", "name: sched_wakeup\nID: 374\n" COMMON
	  "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	  "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	  "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	  "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	  "print fmt: \"comm=%s pid=%d\", REC->comm, REC->pid\n", 36 },
	{ "sched", "name: sched_process_exec\nID: 365\n" COMMON
	  "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	  "\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	  "print fmt: \"filename=%s pid=%d\", __get_str(filename), REC->pid\n", 28 },
	{ "kmem", "name: kmalloc\nID: 658\n" COMMON
	  "\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
	  "\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\tfield:size_t bytes_req;\toffset:24;\tsize:8;\tsigned:0;\n"
	  "\tfield:size_t bytes_alloc;\toffset:32;\tsize:8;\tsigned:0;\n"
	  "\tfield:unsigned long gfp_flags;\toffset:40;\tsize:8;\tsigned:0;\n"
	  "\tfield:int node;\toffset:48;\tsize:4;\tsigned:1;\n\n"
	  "print fmt: \"call_site=%lx ptr=%p\", REC->call_site, REC->ptr\n", 52 },
};

#define NFMT (sizeof(fmts) / sizeof(fmts[0]))

static struct tep_handle *tep;
static struct tep_event *events[NFMT];
static unsigned char data[NFMT][128];

static void setup(void)
{
	tep = tep_alloc();
	if (!tep)
		abort();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	for (size_t i = 0; i < NFMT; i++) {
		if (tep_parse_format(tep, &events[i], fmts[i].text, strlen(fmts[i].text), fmts[i].sys))
			abort();
		/* a record of the event: "sh" in its strings, a dynamic "abc" */
		memcpy(data[i], &events[i]->id, 2);
		data[i][4] = 7;
		strcpy((char *)data[i] + 8, "sh");
	}
	strcpy((char *)data[0] + 40, "swapper/0");
	memset(data[2] + 8, 0, 4);
	data[2][8] = 24, data[2][10] = 4;	/* __data_loc: offset 24, 4 bytes */
	strcpy((char *)data[2] + 24, "abc");
}

static bool name_re_match(const char *re_text, const char *name)
{
	regex_t re;
	char anch[4096];
	bool ok;

	snprintf(anch, sizeof(anch), "^%s$", re_text);
	if (regcomp(&re, anch, REG_ICASE | REG_NOSUB))
		abort();	/* the split checked it */
	ok = !regexec(&re, name, 0, NULL, 0);
	regfree(&re);
	return ok;
}

/* ftc report's rules (cmd/rec-select.c): the events each name selects. */
static bool selected[NFMT];

static int select_events(const struct ftc_filter_head *h)
{
	memset(selected, 0, sizeof(selected));
	for (size_t k = 0; k < h->nevents; k++) {
		const struct ftc_filter_event *e = &h->events[k];
		bool any = false;

		for (size_t i = 0; i < NFMT; i++) {
			bool m = e->sys ? name_re_match(e->sys, events[i]->system) && name_re_match(e->name, events[i]->name)
					: name_re_match(e->name, events[i]->system) || name_re_match(e->name, events[i]->name);

			selected[i] |= m;
			any |= m;
		}
		if (!any)
			return -1;
	}
	return 0;
}

static enum ftc_filter_type lookup(void *ctx, const char *name)
{
	for (size_t i = 0; i < NFMT; i++) {
		struct tep_format_field *f = selected[i] ? tep_find_any_field(events[i], name) : NULL;

		if (!f)
			continue;
		if (f->flags & TEP_FIELD_IS_STRING)
			return FTC_FILTER_STR;
		return f->flags & (TEP_FIELD_IS_POINTER | TEP_FIELD_IS_LONG) ? FTC_FILTER_SYM : FTC_FILTER_NUM;
	}
	if (!strcmp(name, "COMM"))
		return FTC_FILTER_STR;
	return strcmp(name, "CPU") ? FTC_FILTER_UNKNOWN : FTC_FILTER_NUM;
}

static void run(const char *text)
{
	struct ftc_filter_head h;
	struct ftc_filter_error err = { 0 };
	struct tep_event_filter *filter;
	char *tep_text;

	if (ftc_filter_split(text, &h, &err) < 0 ||
	    (select_events(&h) == 0 && ftc_filter_check(text, &h, lookup, NULL, &err) < 0)) {
		if (err.pos > strlen(text) || !err.msg[0] || (err.status != 2 && err.status != 3))
			abort();	/* the caret must point into the filter */
		ftc_filter_head_free(&h);
		return;
	}
	if (select_events(&h) < 0) {	/* an event the file lacks: exit 3 */
		ftc_filter_head_free(&h);
		return;
	}
	tep_text = ftc_filter_tep_text(text, &h);
	filter = tep_filter_alloc(tep);
	if (!tep_text || !filter)
		abort();
	if (tep_filter_add_filter_str(filter, tep_text) != 0) {
		char why[256];

		tep_filter_strerror(filter, 0, why, sizeof(why));
		fprintf(stderr, "checked, but libtraceevent refused '%s': %s\n", tep_text, why);
		abort();
	}
	for (size_t i = 0; i < NFMT; i++) {
		struct tep_record rec = { .data = data[i], .size = fmts[i].size, .cpu = 1 };

		tep_filter_match(filter, &rec);
	}
	tep_filter_free(filter);
	free(tep_text);
	ftc_filter_head_free(&h);
}

/* The kernel's grammar (record -f): a refusal points into the filter. */
static void run_kernel(const char *text)
{
	struct ftc_filter_error err = { 0 };

	if (ftc_filter_check_kernel(text, &err) < 0 &&
	    (err.pos > strlen(text) || !err.msg[0] || err.status != 2))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	char *text;

	if (!tep)
		setup();
	if (size > 4000)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, in, size);
	text[size] = '\0';
	run(text);
	run_kernel(text);
	free(text);
	return 0;
}
