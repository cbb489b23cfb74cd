// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of ftc hist's reader of the kernel's hist file, on texts that
 * Debian's 6.1 kernel printed in the lab (trimmed): every key type's
 * padding, two sections in one file, a stacktrace key over several lines,
 * and what the table makes of them.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
/* cmd/ is not a library: the files under test are built in. */
#include "hist-parse.c"
#include "hist-table.c"

static const char two_sections[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=call_site.sym,common_pid.execname:vals=hitcount,bytes_req,"
	"bytes_alloc:sort=hitcount.descending:size=2048 [active]\n"
	"#\n"
	"\n"
	"{ call_site: [ffffffff827ea0b8] hist_trigger_elt_data_alloc                  , "
	"common_pid: sh              [        94] } hitcount:       8192  bytes_req:     262144"
	"  bytes_alloc:     262144\n"
	"{ call_site: [ffffffff827dceff] create_filter_start.constprop.0              , "
	"common_pid: cat             [       102] } hitcount:          1  bytes_req:          8"
	"  bytes_alloc:          8\n"
	"\n"
	"Totals:\n"
	"    Hits: 8193\n"
	"    Entries: 2\n"
	"    Dropped: 0\n"
	"\n"
	"\n"
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=bytes_req.log2:vals=hitcount:sort=hitcount:size=2048 "
	"if bytes_req > 64 [paused]\n"
	"#\n"
	"\n"
	"{ bytes_req: ~ 2^14 } hitcount:          1\n"
	"{ bytes_req: ~ 2^9  } hitcount:          8\n"
	"\n"
	"Totals:\n"
	"    Hits: 9\n"
	"    Entries: 2\n"
	"    Dropped: 0\n";

static const char strings_and_syscalls[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=next_comm,id.syscall,common_pid.hex:vals=hitcount:"
	"sort=next_comm:size=2048 [active]\n"
	"#\n"
	"\n"
	"{ next_comm: a, b: c                                        , id: sys_read                      "
	"[  0], common_pid: 6d } hitcount:          2\n"
	"{ next_comm: kworker/0:1                                    , id: sys_rt_sigaction              "
	"[ 13], common_pid: 6f } hitcount:         10\n"
	"\n"
	"Totals:\n"
	"    Hits: 13\n"
	"    Entries: 2\n"
	"    Dropped: 1\n";

static const char stacktrace[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=stacktrace:vals=hitcount:sort=hitcount:size=2048 [active]\n"
	"#\n"
	"\n"
	"{ stacktrace:\n"
	"         __schedule+0x4f8/0xa00\n"
	"         do_task_dead+0x3f/0x50\n"
	"} hitcount:          1\n"
	"{ stacktrace:\n"
	"         __schedule+0x4f8/0xa00\n"
	"         schedule+0x5a/0xd0\n"
	"} hitcount:          3\n"
	"\n"
	"Totals:\n"
	"    Hits: 4\n"
	"    Entries: 2\n"
	"    Dropped: 0\n";

static char *table_of(const struct hist_section *s)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	hist_print_table(f, s, "# t");
	fclose(f);
	return buf;
}

/* The column at which every table line holding word ends it (the title
 * line left out): -1 if they differ. */
static int same_end(const char *table, const char *word)
{
	int col = -2;

	for (const char *l = table; *l; ) {
		size_t n = strcspn(l, "\n");
		const char *w = strstr(l, word);

		if (w && (size_t)(w - l) < n && *l != '#') {
			int end = (int)(w - l + (long)strlen(word));

			if (col == -2)
				col = end;
			else if (col != end)
				return -1;
		}
		l += n + (l[n] == '\n');
	}
	return col;
}

/* Where word ends in the line that starts with head, -1 when absent. */
static int end_in_line(const char *table, const char *head, const char *word)
{
	for (const char *l = table; *l; ) {
		size_t n = strcspn(l, "\n");
		const char *w = strstr(l, word);

		if (!strncmp(l, head, strlen(head)) && w && (size_t)(w - l) < n)
			return (int)(w - l + (long)strlen(word));
		l += n + (l[n] == '\n');
	}
	return -1;
}

static void sections(void)
{
	struct hist_section *s = NULL;
	unsigned long long sum = 0;
	size_t n = 0;
	char *t;

	CHECK("two sections parse", hist_parse(two_sections, &s, &n) == 0 && n == 2);
	if (n != 2)
		return;
	CHECK("the first is read", s[0].parsed);
	CHECK_STR("its keys", s[0].key_names[1], "common_pid.execname");
	CHECK_STR("its values from the entries", s[0].val_names[2], "bytes_alloc");
	CHECK("two rows", s[0].nrows == 2);
	CHECK_STR("a symbol key, padding out", s[0].rows[0].keys[0],
		  "[ffffffff827ea0b8] hist_trigger_elt_data_alloc");
	CHECK_STR("an execname key, padding out", s[0].rows[1].keys[1], "cat [102]");
	CHECK_STR("a value", s[0].rows[0].vals[1], "262144");
	CHECK("the totals", s[0].hits == 8193 && s[0].entries == 2 && s[0].dropped == 0);
	CHECK("hitcounts add up to Hits", hist_hitcount_sum(&s[0], &sum) && sum == 8193);
	CHECK("the first section's raw text ends at its totals",
	      strlen(s[0].raw) == (size_t)(strstr(two_sections, "\n\n\n#") + 1 - two_sections));
	CHECK("the second is read, filter and all", s[1].parsed && s[1].nrows == 2);
	CHECK_STR("a log2 key", s[1].rows[1].keys[0], "~ 2^9");
	CHECK("the second's raw text is the rest",
	      !strcmp(s[1].raw, strstr(two_sections, "\n\n\n#") + 3));
	t = table_of(&s[0]);
	CHECK("the table heads with the trigger", t && strstr(t, "# t: hist:keys=call_site.sym"));
	CHECK("hitcount column right-aligned", t && same_end(t, "hitcount") > 0 &&
	      same_end(t, "hitcount") == same_end(t, "8192"));
	CHECK("the total row sums the hitcounts", t &&
	      end_in_line(t, "total ", " 8193") == same_end(t, "hitcount"));
	CHECK("pids align in their brackets", t && same_end(t, "[94]") == same_end(t, "[102]"));
	CHECK("symbols start in one column", t &&
	      strstr(t, "] hist_trigger") - strstr(t, "[ffffffff827ea0b8]") ==
	      strstr(t, "] create_filter") - strstr(t, "[ffffffff827dceff]"));
	CHECK("the kernel's totals close it", t && strstr(t, "\nTotals:\n    Hits: 8193\n"));
	free(t);
	hist_sections_free(s, n);
}

static void keys(void)
{
	struct hist_section *s = NULL;
	size_t n = 0;
	char *t;

	CHECK("strings and syscalls parse", hist_parse(strings_and_syscalls, &s, &n) == 0 &&
	      n == 1 && s[0].parsed);
	if (n != 1 || !s[0].parsed)
		return;
	CHECK_STR("a string key may hold ', '", s[0].rows[0].keys[0], "a, b: c");
	CHECK_STR("a syscall key", s[0].rows[1].keys[1], "sys_rt_sigaction [13]");
	CHECK_STR("a hex key", s[0].rows[1].keys[2], "6f");
	CHECK("Dropped is read", s[0].dropped == 1);
	t = table_of(&s[0]);
	CHECK("hex keys right-aligned", t && same_end(t, " 6d") == same_end(t, " 6f"));
	free(t);
	hist_sections_free(s, n);

	CHECK("a stacktrace over lines parses", hist_parse(stacktrace, &s, &n) == 0 && n == 1 &&
	      s[0].parsed && s[0].nrows == 2);
	if (n == 1 && s[0].nrows == 2)
		CHECK_STR("its frames on one line", s[0].rows[1].keys[0],
			  "__schedule+0x4f8/0xa00 schedule+0x5a/0xd0");
	hist_sections_free(s, n);
}

static void odd(void)
{
	struct hist_section *s = NULL;
	size_t n = 0;
	char info[64];

	CHECK("an empty file has no section", hist_parse("", &s, &n) == 0 && n == 0);
	hist_sections_free(s, n);
	CHECK("an unknown line leaves the section raw",
	      hist_parse("# event histogram\n#\n# trigger info: hist:keys=x:vals=hitcount "
			 "[active]\n#\n\nsomething new\n\nTotals:\n    Hits: 0\n", &s, &n) == 0 &&
	      n == 1 && !s[0].parsed && strstr(s[0].raw, "something new"));
	hist_sections_free(s, n);
	hist_info_stateless("hist:keys=x if y == 1 [paused]", info, sizeof(info));
	CHECK_STR("the state is cut", info, "hist:keys=x if y == 1");
}

/*
 * What the fuzzer found (tests/fuzz/run --target hist) stays found: each
 * input of tests/fuzz/regress-hist parses and prints without a sanitizer
 * report (this test runs again in the asan tier).
 */
static void fuzz_findings(void)
{
	const char *top = getenv("TOP");
	char dir[4096], path[4400], *text;
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/tests/fuzz/regress-hist", top ? top : ".");
	d = opendir(dir);
	CHECK("the fuzz findings are there (TOP names the tree)", d != NULL);
	while (d && (de = readdir(d))) {
		struct hist_section *secs = NULL;
		size_t ns = 0, len = 0;
		FILE *f, *null = fopen("/dev/null", "w");

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "r");
		text = NULL;
		if (f && getdelim(&text, &len, '\0', f) >= 0 && hist_parse(text, &secs, &ns) == 0) {
			for (size_t i = 0; i < ns; i++)
				hist_print_table(null, &secs[i], "# fuzz");
			hist_sections_free(secs, ns);
		}
		n++;
		free(text);
		if (f)
			fclose(f);
		if (null)
			fclose(null);
	}
	if (d)
		closedir(d);
	CHECK("every fuzz finding parsed and printed", n > 0);
}

int main(void)
{
	sections();
	keys();
	odd();
	fuzz_findings();
	return CHECK_DONE();
}
