// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A previous boot's capture (ftc extract of a persistent instance) holds
 * that boot's addresses and this boot's kallsyms, with LAST_BOOT_INFO
 * saying how far the kernel's text moved: the reader names the previous
 * boot's functions by moving the core kernel's symbols back by the text
 * delta, leaves modules' alone, and does nothing without the option. The
 * lab (tests/lab/persistent.sh) does the same on a real 6.12 crash. At an
 * address kallsyms gives several names, the function is named as trace-cmd
 * names it: not a linker's mark, and of aliases the one listed first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "check.h"
#include "fixture.h"
#include "ftc.h"
#include "ftc-reader.h"
#include "ftc-writer.h"
#include "meta.h"
#include "writer.h"

/* "this boot": foo at ...81000000, bar a page later; a module's function */
static char kallsyms[] = "ffffffff81000000 T foo\n"
			 "ffffffff81001000 T bar\n"
			 "ffffffff81004000 t __do_sys_vfork\n"
			 "ffffffff81004000 T __ia32_sys_vfork\n"
			 "ffffffff81004000 T __x64_sys_vfork\n"
			 "ffffffff81005000 T __sched_text_start\n"
			 "ffffffff81005000 T io_schedule_timeout\n"
			 "ffffffffc0001000 t mod_fn\t[mymod]\n";
static char header_page[] = FIXTURE_HEADER_PAGE;
static char header_event[] = FIXTURE_HEADER_EVENT;
static char fmt_fn[] = "name: fn\nID: 901\nformat:\n" FIXTURE_COMMON
		       "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n\n"
		       "print fmt: \"%ps\", (void *)REC->ip\n";

static int write_file(const char *path, const char *info)
{
	struct ftc_writer *w = ftc_writer_create(path, 7, FTC_COMPRESS_NONE);
	struct ftc_blob f = { fmt_fn, sizeof(fmt_fn) - 1 };
	struct ftc_meta_system sys = { "ftctest", &f, 1 };
	const int cpus[] = { 0 };
	struct ftc_meta m = {
		.header_page = { header_page, sizeof(header_page) - 1 },
		.header_event = { header_event, sizeof(header_event) - 1 },
		.ftrace = { "ftrace", NULL, 0 },
		.systems = &sys, .nsystems = 1,
		.kallsyms = { kallsyms, sizeof(kallsyms) - 1 },
		.printk = { "", 0 }, .cmdlines = { "", 0 },
		.uname = "Linux lab 6.12.117 #1 SMP x86_64",
		.trace_clock = "[local] global\n",
	};
	int ret = -1;

	if (w && ftc_writer_add_buffer_clock(w, "boot_map", "local", 1, cpus) == 0 &&
	    ftc_writer_set_meta(w, &m) == 0 &&
	    (!info || ftc_writer_add_option(w, FTC_OPT_LAST_BOOT_INFO, info,
					    (uint32_t)strlen(info) + 1) == 0) &&
	    ftc_writer_start(w) == 0 && ftc_writer_finish(w) == 0)
		ret = 0;
	ftc_writer_free(w);
	return ret;
}

/* The name the file's reader gives addr, "" when none. */
static char *name_at(const char *path, unsigned long long addr)
{
	struct ftc_reader *r = ftc_reader_open(path, 0);
	const char *name = NULL;
	char *ret;

	if (r && ftc_reader_find_event(r, "ftctest", "fn"))
		name = tep_find_function(ftc_reader_tep(r), addr);
	ret = strdup(name ? name : "");
	ftc_reader_close(r);
	return ret;
}

int main(void)
{
	char path[] = "/tmp/ftc-unit-lastboot.XXXXXX";
	int fd = mkstemp(path);
	char *n;

	if (fd < 0) {
		SKIP("last boot", "cannot make a temporary file");
		return CHECK_DONE();
	}
	close(fd);
	/* the previous kernel was a page higher: this boot's is 4096 lower */
	CHECK("write a previous boot's file",
	      write_file(path, "boot_map:text delta: -4096\ndata delta: -4096\n") == 0);
	n = name_at(path, 0xffffffff81001000ULL);
	CHECK_STR("the previous boot's foo is named foo, not bar", n, "foo");
	free(n);
	n = name_at(path, 0xffffffff81002010ULL);
	CHECK_STR("... and its bar, past the start", n, "bar");
	free(n);
	n = name_at(path, 0xffffffffc0001000ULL);
	CHECK_STR("a module's symbol stays where kallsyms has it", n, "mod_fn");
	free(n);
	CHECK("write a file without the option", write_file(path, NULL) == 0);
	n = name_at(path, 0xffffffff81001000ULL);
	CHECK_STR("without LAST_BOOT_INFO the address is this boot's: bar", n, "bar");
	free(n);
	n = name_at(path, 0xffffffff81004063ULL);
	CHECK_STR("of three aliases, the one kallsyms lists first (as trace-cmd)", n,
		  "__do_sys_vfork");
	free(n);
	n = name_at(path, 0xffffffff81005010ULL);
	CHECK_STR("a function, not the section mark at its address", n, "io_schedule_timeout");
	free(n);
	CHECK("write a file whose info has no text delta",
	      write_file(path, "boot_map:# Current\n") == 0);
	n = name_at(path, 0xffffffff81001000ULL);
	CHECK_STR("no delta, no move", n, "bar");
	free(n);
	unlink(path);
	return CHECK_DONE();
}
