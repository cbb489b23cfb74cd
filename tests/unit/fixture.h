/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Metadata of a 64-bit x86 kernel as tracefs shows it, for tests that
 * write a trace.dat without one (test-writer-meta.c, tests/host/examples.sh)
 * or mock tracefs (test-tracefs.c): events/header_page, events/header_event
 * and the common fields that open every event format.
 */
#ifndef FTC_TEST_FIXTURE_H
#define FTC_TEST_FIXTURE_H

#define FIXTURE_HEADER_PAGE \
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n" \
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n" \
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n" \
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n"

#define FIXTURE_HEADER_EVENT \
	"# compressed entry header\n" \
	"\ttype_len    :    5 bits\n" \
	"\ttime_delta  :   27 bits\n" \
	"\tarray       :   32 bits\n\n" \
	"\tpadding     : type == 29\n" \
	"\ttime_extend : type == 30\n" \
	"\ttime_stamp : type == 31\n" \
	"\tdata max type_len  == 28\n"

#define FIXTURE_COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#endif
