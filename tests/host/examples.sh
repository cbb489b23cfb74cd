# SPDX-License-Identifier: GPL-2.0-or-later
# The library's documentation, checked: `make install` installs the man(3)
# pages, Documentation/examples builds against the installed libftc.pc with
# pkg-config alone and counts a trace.dat's events as `ftc report` prints
# them, every function of the public headers is in the SYNOPSIS of a
# libftc-*.3 page with the header's prototype (and in that page's NAME),
# and every page renders without a warning. Reads no tracefs: the trace.dat
# is made by the writer from hand-made metadata and pages (as
# tests/unit/test-writer-meta.c does).
. "$(dirname "$0")/../lib.sh"

# sort and join agree on the order of names whatever the user's locale.
export LC_ALL=C
B=${B:-build/default}
dir=$OUT/examples
rm -rf "$dir"
mkdir -p "$dir"

# Statements of C text (comments, preprocessor lines and attributes left
# out, FTC_API dropped) that declare a function, outside typedefs: one line
# per function, "name<TAB>declaration", the declaration with its blanks
# normalized so that line breaks and alignment do not count.
prototypes() {
	awk -v mode=prototypes -f "$TOP/tests/c-decls.awk" "$@" | sort -u
}

# The SYNOPSIS of man pages as C text: requests and comments dropped, font
# escapes removed, troff's \- and \e turned back into - and \.
synopsis() {
	for page in "$@"; do
		sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$page"
	done | grep -v -e '^\.' -e "^'" | sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\&//g'
}

# --- The declared API against the SYNOPSIS of the pages -------------------
pages=$(ls "$TOP"/Documentation/libftc-*.3 2>/dev/null)
if [ -z "$pages" ]; then
	fail "man(3) pages" "no Documentation/libftc-*.3"
	finish
fi
if ! headers=$(make -s --no-print-directory -C "$TOP" public-headers) || [ -z "$headers" ]; then
	fail "the Makefile lists the public headers" "make public-headers printed nothing"
	finish
fi
(cd "$TOP" && prototypes $headers) >"$dir/declared"
synopsis $pages | prototypes >"$dir/documented"
echo "$(wc -l <"$dir/declared") functions declared in: $(echo $headers)"
echo "$(wc -l <"$dir/documented") functions in the SYNOPSIS of: $(cd "$TOP" && echo Documentation/libftc-*.3)"

missing=$(join -t "$(printf '\t')" -v 1 <(cut -f1 "$dir/declared") <(cut -f1 "$dir/documented"))
[ -z "$missing" ] && pass "every FTC_API function is in the SYNOPSIS of a libftc-*.3 page" ||
	fail "every FTC_API function is in the SYNOPSIS of a libftc-*.3 page" \
		"$(echo "$missing" | wc -l) missing: $(echo $missing | cut -c1-600)"
stale=$(join -t "$(printf '\t')" -v 2 <(cut -f1 "$dir/declared") <(cut -f1 "$dir/documented"))
[ -z "$stale" ] && pass "every function of the pages' SYNOPSIS is declared in a public header" ||
	fail "every function of the pages' SYNOPSIS is declared in a public header" \
		"$(echo "$stale" | wc -l) not declared: $(echo $stale | cut -c1-600)"
differ=$(join -t "$(printf '\t')" "$dir/declared" "$dir/documented" | awk -F '\t' '$2 != $3 { print $1 }')
[ -z "$differ" ] && pass "the SYNOPSIS prototypes are the headers' own" ||
	fail "the SYNOPSIS prototypes are the headers' own" \
		"$(echo "$differ" | wc -l) differ: $(echo $differ | cut -c1-600) (see $dir/declared and $dir/documented)"

# Each page's NAME lists the functions of its SYNOPSIS (whatis, man NAME).
unnamed=$(for page in $pages; do
	name=$(sed -n '/^\.SH NAME/,/^\.SH /p' "$page" | tr -c 'A-Za-z0-9_\n' ' ')
	for f in $(synopsis "$page" | prototypes | cut -f1); do
		echo " $name " | tr '\n' ' ' | grep -q " $f " || echo "$(basename "$page"):$f"
	done
done)
[ -z "$unnamed" ] && pass "each page's NAME lists the functions of its SYNOPSIS" ||
	fail "each page's NAME lists the functions of its SYNOPSIS" \
		"$(echo "$unnamed" | wc -l) not named: $(echo $unnamed | cut -c1-600)"

# --- Every page renders without a warning ----------------------------------
if command -v man >/dev/null; then
	bad=
	for page in "$TOP"/Documentation/libftc*.3; do
		w=$(LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l -Tutf8 "$page" 2>&1 >/dev/null)
		[ -n "$w" ] && bad="$bad $(basename "$page"): $(echo "$w" | head -2 | tr '\n' ' ')"
	done
	[ -z "$bad" ] && pass "every libftc*.3 page renders without a man warning" ||
		fail "every libftc*.3 page renders without a man warning" "$(echo "$bad" | cut -c1-600)"
else
	skip "every libftc*.3 page renders without a man warning" "man (man-db) is not installed"
fi

# Every libftc page that a page refers to exists.
refs=$(cat "$TOP"/Documentation/libftc*.3 | grep -o 'libftc\(\\-[a-z]*\)* (3)' | sed 's/\\//g; s/ (3)//' | sort -u)
dangling=$(for r in $refs; do [ -f "$TOP/Documentation/$r.3" ] || echo "$r"; done)
[ -z "$dangling" ] && pass "every libftc page referred to exists" ||
	fail "every libftc page referred to exists" "no page for: $(echo $dangling)"

# --- make install, and the example against the installed library -----------
prefix=$dir/prefix
# TEP_PLUGIN_DIR too: by default the plugins go where the system's
# libtraceevent looks, whatever PREFIX is, and a test must not touch that.
if ! setup "make install PREFIX" make -s -C "$TOP" install PREFIX="$prefix" \
	TEP_PLUGIN_DIR="$prefix/lib/traceevent/plugins"; then
	finish
fi
missing=$(for page in "$TOP"/Documentation/libftc*.3; do
	[ -f "$prefix/share/man/man3/$(basename "$page")" ] || basename "$page"
done)
[ -z "$missing" ] && pass "make install installs the man(3) pages in share/man/man3" ||
	fail "make install installs the man(3) pages in share/man/man3" "missing: $(echo $missing)"
[ -f "$prefix/share/man/man1/ftc.1" ] && pass "make install still installs the man(1) pages" ||
	fail "make install still installs the man(1) pages" "no $prefix/share/man/man1/ftc.1"

# A copy of the examples, away from the source tree, built by their own
# Makefile with pkg-config finding the installed libftc.pc.
cp -r "$TOP/Documentation/examples" "$dir/src"
rm -f "$dir/src/ftc-events"
if out=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig make -C "$dir/src" 2>&1); then
	pass "Documentation/examples builds against the installed libftc.pc"
else
	fail "Documentation/examples builds against the installed libftc.pc" "$(echo "$out" | tail -3)"
	finish
fi
leak=$(echo "$out" | grep -e "$TOP/libftc" -e "$TOP/$B" -e "$TOP/cmd")
[ -z "$leak" ] && pass "the example's build uses no path into the source tree" ||
	fail "the example's build uses no path into the source tree" "$(echo "$leak" | head -2)"

# --- A trace.dat of known content ------------------------------------------
# CPU 0: 200 "tick" and 50 "alpha"; CPU 1: 150 "tock" and 100 "alpha", 1 us
# apart, CPU 1 half a microsecond behind CPU 0: 150 alpha and 150 tock tie.
cat >"$dir/make-dat.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "ftc.h"
#include "meta.h"

#define FORMAT(name, id) "name: " name "\nID: " #id "\nformat:\n" FIXTURE_COMMON \
	"\tfield:unsigned long value;\toffset:8;\tsize:8;\tsigned:0;\n\n" \
	"print fmt: \"value=%lu\", REC->value\n"

static char header_page[] = FIXTURE_HEADER_PAGE;
static char header_event[] = FIXTURE_HEADER_EVENT;
static char *formats[] = { FORMAT("tick", 901), FORMAT("tock", 902), FORMAT("alpha", 903) };
static char cmdlines[] = "42 ftc-test\n";

/* Event i of CPU cpu: its id, among n events. */
static uint16_t type_of(int cpu, int i)
{
	if (cpu == 0)
		return i % 5 == 4 ? 903 : 901;	/* 200 tick, 50 alpha */
	return i % 5 < 2 ? 903 : 902;		/* 100 alpha, 150 tock */
}

static int write_cpu(struct ftc_writer *w, int cpu, int n)
{
	size_t page = ftc_writer_page_size(w), per_page = (page - 16) / 20;
	size_t npages = (n + per_page - 1) / per_page, used = 0;
	unsigned char *buf = calloc(npages, page), *p = buf;
	uint64_t last = 0;
	int ret;

	for (int i = 0; buf && i < n; i++) {
		uint64_t ts = 1000000000ULL + (uint64_t)i * 1000 + (uint64_t)cpu * 500, v = i;
		uint32_t head = 4 | (uint32_t)(ts - last) << 5;
		uint16_t type = type_of(cpu, i);
		int32_t pid = 42;

		if (i % per_page == 0) {
			p = buf + (i / per_page) * page;
			used = 0;
			last = ts;
			head = 4;
			memcpy(p, &ts, 8);
		}
		memcpy(p + 16 + used, &head, 4);
		memcpy(p + 20 + used, &type, 2);
		memcpy(p + 24 + used, &pid, 4);
		memcpy(p + 28 + used, &v, 8);
		used += 20;
		last = ts;
		memcpy(p + 8, &(uint64_t){ used }, 8);
	}
	ret = buf ? ftc_writer_add_pages(w, 0, cpu, buf, npages * page) : -1;
	free(buf);
	return ret;
}

int main(int argc, char **argv)
{
	struct ftc_blob f[3];
	struct ftc_meta_system sys = { "ftctest", f, 3 };
	struct ftc_meta m = {
		.header_page = { header_page, strlen(header_page) },
		.header_event = { header_event, strlen(header_event) },
		.ftrace = { "ftrace", NULL, 0 },
		.systems = &sys, .nsystems = 1,
		.kallsyms = { "", 0 }, .printk = { "", 0 },
		.cmdlines = { cmdlines, strlen(cmdlines) },
		.uname = "Linux testhost 6.1.0 #1 SMP x86_64",
		.trace_clock = "[local] global\n",
	};
	const int cpus[] = { 0, 1 };
	struct ftc_writer *w;

	for (int i = 0; i < 3; i++)
		f[i] = (struct ftc_blob){ formats[i], strlen(formats[i]) };
	w = argc == 2 ? ftc_writer_create(argv[1], 7, FTC_COMPRESS_ZSTD) : NULL;
	if (!w || ftc_writer_add_buffer_clock(w, NULL, "local", 2, cpus) < 0 ||
	    ftc_writer_set_meta(w, &m) < 0 || ftc_writer_start(w) < 0 ||
	    write_cpu(w, 0, 250) < 0 || write_cpu(w, 1, 250) < 0 || ftc_writer_finish(w) < 0) {
		fprintf(stderr, "make-dat: %s\n", ftc_strerror());
		return 1;
	}
	ftc_writer_free(w);
	return 0;
}
C
dat=$dir/events.dat
setup "build the trace.dat maker" cc -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror \
	-I"$TOP/libftc" -I"$TOP/libftc/tracefs" -I"$TOP/tests/unit" $(pkg-config --cflags libtracefs libtraceevent) -o "$dir/make-dat" \
	"$dir/make-dat.c" "$TOP/$B/libftc.a" \
	$(pkg-config --libs libtracefs libtraceevent libelf libdw zlib libzstd) -lm -lpthread &&
	setup "write the trace.dat" "$dir/make-dat" "$dat" || finish

export LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if "$dir/src/ftc-events" "$dat" >"$dir/events.out" 2>"$dir/events.err"; then
	pass "ftc-events reads the trace.dat"
else
	fail "ftc-events reads the trace.dat" "exit $?: $(head -3 "$dir/events.err")"
	finish
fi
want=$(printf '%s\n' "150 alpha" "150 tock" "200 tick" "500 total" | sort -k2)
got=$(awk '{ print $1, $2 }' "$dir/events.out" | sort -k2)
[ "$got" = "$want" ] && pass "ftc-events counts every event of the file" ||
	fail "ftc-events counts every event of the file" "got: $(echo $got), want: $(echo $want)"
order=$(awk '{ print $1, $2 }' "$dir/events.out" | sed '$d')
[ "$order" = "$(echo "$order" | sort -k1,1nr -k2,2)" ] && [ "$(tail -1 "$dir/events.out" | awk '{ print $2 }')" = total ] &&
	pass "ftc-events sorts by count, then name, and ends with the total" ||
	fail "ftc-events sorts by count, then name, and ends with the total" "$(cat "$dir/events.out" | tr '\n' '|')"

# The same counts from ftc report: the event name follows the timestamp.
if "$FTC" report "$dat" >"$dir/report.out" 2>"$dir/report.err"; then
	report=$(awk '!/^#/ { for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			n = $(i + 1); sub(/:$/, "", n); print n; break } }' "$dir/report.out" |
		sort | uniq -c | awk '{ print $1, $2; t += $1 } END { print t, "total" }' | sort -k2)
	[ "$got" = "$report" ] && pass "ftc-events and ftc report count the same events" ||
		fail "ftc-events and ftc report count the same events" \
			"ftc-events: $(echo $got), ftc report: $(echo $report)"
else
	fail "ftc report reads the trace.dat" "$(head -3 "$dir/report.err")"
fi

# Errors follow the convention: ftc_strerror()'s message, exit 1.
expect_status "ftc-events exits 1 on a missing file" 1 "$dir/src/ftc-events" "$dir/none.dat"
expect_match "ftc-events prints ftc_strerror()'s message" "^ftc-events: .*none\.dat: .*No such file" \
	"$(cat "$OUT/last.err")"
finish
