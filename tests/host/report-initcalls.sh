# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel developer asks which initcalls of a boot were slowest: ftc report
# --initcalls on a boot-time capture. The captures here are made by the
# writer from hand-made pages with Linux 6.1's initcall and function_graph
# formats and a kallsyms, so every duration is known: start/finish pairs
# matched per task (one initcall finishes on another CPU than it started,
# another task's initcall interleaves, one start and one finish have no
# partner), and do_one_initcall's graph (its helpers left out, an
# untraceable initcall named "?"). trace-cmd reads the same files: its
# timestamps give the same durations. Reads no tracefs. (The lab's
# tests/lab/boot-trace.sh does the same on real boots.)
. "$(dirname "$0")/../lib.sh"

export LC_ALL=C
B=${B:-build/default}
dir=$OUT/report-initcalls
rm -rf "$dir"
mkdir -p "$dir"

cat >"$dir/make-boot.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "ftc.h"
#include "meta.h"

/* Linux 6.1's formats: events/initcall and events/ftrace/funcgraph_{entry,exit}. */
static char start_fmt[] = "name: initcall_start\nID: 601\nformat:\n" FIXTURE_COMMON
	"\tfield:initcall_t func;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"func=%pS\", REC->func\n";
static char finish_fmt[] = "name: initcall_finish\nID: 602\nformat:\n" FIXTURE_COMMON
	"\tfield:initcall_t func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int ret;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"func=%pS ret=%d\", REC->func, REC->ret\n";
static char entry_fmt[] = "name: funcgraph_entry\nID: 11\nformat:\n" FIXTURE_COMMON
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"--> %ps (%d)\", REC->func, REC->depth\n";
static char exit_fmt[] = "name: funcgraph_exit\nID: 10\nformat:\n" FIXTURE_COMMON
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", REC->func, "
	"REC->depth, REC->calltime, REC->rettime, REC->depth\n";
static char header_page[] = FIXTURE_HEADER_PAGE;
static char header_event[] = FIXTURE_HEADER_EVENT;
static char kallsyms[] =
	"ffffffff81001000 T do_one_initcall\n"
	"ffffffff81002000 T initcall_blacklisted\n"
	"ffffffff81003000 T add_device_randomness\n"
	"ffffffff81004000 T kmalloc_trace\n"
	"ffffffff81005000 T mutex_lock\n"
	"ffffffff82001000 t con_init\n"
	"ffffffff82002000 t alpha_init\n"
	"ffffffff82003000 t beta_init\n"
	"ffffffff82004000 t gamma_init\n"
	"ffffffff82005000 t delta_init\n"
	"ffffffff82006000 t eps_init\n"
	"ffffffff82007000 t foo_init\n"
	"ffffffff82008000 t bar_init\n";
static char cmdlines[] = "1 swapper/0\n5 modprobe\n";

enum { DO = 0x81001000, BLACK = 0x81002000, RAND = 0x81003000, KMALLOC = 0x81004000,
       MUTEX = 0x81005000, CON = 0x82001000, ALPHA = 0x82002000, BETA = 0x82003000,
       GAMMA = 0x82004000, DELTA = 0x82005000, EPS = 0x82006000, FOO = 0x82007000,
       BAR = 0x82008000 };
#define K(a) (0xffffffff00000000ULL | (a))

struct page {
	unsigned char d[4096];
	size_t used;
	uint64_t last;
};

/* One record: ts in ns, event id, pid, then 8-byte words (ret/depth packed by the caller). */
static void put(struct page *p, uint64_t ts, uint16_t id, int32_t pid, const uint64_t *w, int nw,
		const uint32_t *tail, int nt)
{
	size_t len = 8 + 8 * (size_t)nw + 4 * (size_t)nt;
	uint32_t words = (uint32_t)((len + 3) / 4), head;

	if (!p->used)
		memcpy(p->d, &ts, 8), p->last = ts;
	head = words | (uint32_t)(ts - p->last) << 5;
	memcpy(p->d + 16 + p->used, &head, 4);
	memset(p->d + 20 + p->used, 0, words * 4);
	memcpy(p->d + 20 + p->used, &id, 2);
	memcpy(p->d + 24 + p->used, &pid, 4);
	memcpy(p->d + 28 + p->used, w, 8 * (size_t)nw);
	memcpy(p->d + 28 + p->used + 8 * nw, tail, 4 * (size_t)nt);
	p->used += 4 + words * 4;
	p->last = ts;
	memcpy(p->d + 8, &(uint64_t){ p->used }, 8);
}

static void start(struct page *p, uint64_t ts, int pid, uint64_t f)
{
	uint64_t w[] = { K(f) };

	put(p, ts, 601, pid, w, 1, NULL, 0);
}

static void finish(struct page *p, uint64_t ts, int pid, uint64_t f, int32_t ret)
{
	uint64_t w[] = { K(f) };
	uint32_t t[] = { (uint32_t)ret };

	put(p, ts, 602, pid, w, 1, t, 1);
}

static void entry(struct page *p, uint64_t ts, uint64_t f, int depth)
{
	uint64_t w[] = { K(f) };
	uint32_t t[] = { (uint32_t)depth };

	put(p, ts, 11, 1, w, 1, t, 1);
}

static void leave(struct page *p, uint64_t call, uint64_t ret, uint64_t f, int depth)
{
	uint64_t w[] = { K(f), (uint64_t)(uint32_t)depth, call, ret };

	put(p, ret, 10, 1, w, 4, NULL, 0);
}

#define S 1000000000ULL
#define US 1000ULL

/*
 * events: con_init by the idle task (2 us); alpha_init by init, started on
 * CPU 0 and finished on CPU 1 (500 us); delta_init by modprobe on CPU 0
 * while alpha runs (10 us); beta_init on CPU 1, -19 (1000 us); gamma_init
 * without a finish, eps_init without a start: no rows.
 */
static void events(struct page *c0, struct page *c1)
{
	start(c0, S, 0, CON);
	finish(c0, S + 2 * US, 0, CON, 0);
	start(c0, S + 10 * US, 1, ALPHA);
	start(c0, S + 20 * US, 5, DELTA);
	finish(c0, S + 30 * US, 5, DELTA, 0);
	finish(c1, S + 510 * US, 1, ALPHA, 0);
	start(c1, S + 600 * US, 1, BETA);
	finish(c1, S + 1600 * US, 1, BETA, -19);
	finish(c1, S + 1650 * US, 1, EPS, 0);
	start(c1, S + 1700 * US, 1, GAMMA);
}

/* One do_one_initcall: the blacklist check, CHILDREN, the entropy call. */
static uint64_t initcall(struct page *p, uint64_t t, const uint64_t (*kids)[2], int n)
{
	uint64_t t0 = t;

	entry(p, t, DO, 0);
	entry(p, t + 1 * US, BLACK, 1);
	leave(p, t + 1 * US, t + 2 * US, BLACK, 1);
	t += 3 * US;
	for (int i = 0; i < n; i++) {
		entry(p, t, kids[i][0], 1);
		leave(p, t, t + kids[i][1], kids[i][0], 1);
		t += kids[i][1] + US;
	}
	entry(p, t, RAND, 1);
	leave(p, t, t + US, RAND, 1);
	leave(p, t0, t + 2 * US, DO, 0);
	return t + 3 * US;
}

/*
 * graph: foo_init 300 us; an untraceable initcall whose callees are
 * do_one_initcall's children (its whole call: 59 us); bar_init 20 us.
 */
static void graph(struct page *c0)
{
	const uint64_t foo[][2] = { { FOO, 300 * US } }, bar[][2] = { { BAR, 20 * US } };
	const uint64_t two[][2] = { { KMALLOC, 50 * US }, { MUTEX, 2 * US } };
	uint64_t t = 2 * S;

	t = initcall(c0, t, foo, 1);
	t = initcall(c0, t, two, 2);
	initcall(c0, t, bar, 1);
	/* outside any initcall */
	entry(c0, 3 * S, KMALLOC, 0);
	leave(c0, 3 * S, 3 * S + US, KMALLOC, 0);
}

int main(int argc, char **argv)
{
	struct ftc_blob fs[2] = { { start_fmt, strlen(start_fmt) }, { finish_fmt, strlen(finish_fmt) } };
	struct ftc_blob gf[2] = { { entry_fmt, strlen(entry_fmt) }, { exit_fmt, strlen(exit_fmt) } };
	struct ftc_meta_system sys = { "initcall", fs, 2 };
	struct ftc_meta m = {
		.header_page = { header_page, strlen(header_page) },
		.header_event = { header_event, strlen(header_event) },
		.ftrace = { "ftrace", gf, 2 },
		.systems = &sys, .nsystems = 1,
		.kallsyms = { kallsyms, strlen(kallsyms) }, .printk = { "", 0 },
		.cmdlines = { cmdlines, strlen(cmdlines) },
		.uname = "Linux lab 6.1.0 #1 SMP x86_64",
		.trace_clock = "[local] global\n",
	};
	static struct page c0, c1;
	const int cpus[] = { 0, 1 };
	struct ftc_writer *w;

	if (argc != 3)
		return 2;
	if (!strcmp(argv[1], "events"))
		events(&c0, &c1);
	else if (!strcmp(argv[1], "graph"))
		graph(&c0);
	else
		entry(&c0, S, KMALLOC, 0), leave(&c0, S, S + US, KMALLOC, 0);
	w = ftc_writer_create(argv[2], 7, FTC_COMPRESS_ZSTD);
	if (!w || ftc_writer_add_buffer_clock(w, NULL, "local", 2, cpus) < 0 ||
	    ftc_writer_set_meta(w, &m) < 0 || ftc_writer_start(w) < 0 ||
	    (c0.used && ftc_writer_add_pages(w, 0, 0, c0.d, sizeof(c0.d)) < 0) ||
	    (c1.used && ftc_writer_add_pages(w, 0, 1, c1.d, sizeof(c1.d)) < 0) ||
	    ftc_writer_finish(w) < 0) {
		fprintf(stderr, "make-boot: %s\n", ftc_strerror());
		return 1;
	}
	ftc_writer_free(w);
	return 0;
}
C
setup "build the capture maker" cc -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror \
	-I"$TOP/libftc" -I"$TOP/libftc/tracefs" -I"$TOP/tests/unit" \
	$(pkg-config --cflags libtracefs libtraceevent) -o "$dir/make-boot" "$dir/make-boot.c" \
	"$TOP/$B/libftc.a" $(pkg-config --libs libtracefs libtraceevent libelf libdw zlib libzstd) \
	-lm -lpthread || finish
for k in events graph none; do
	setup "write the $k capture" "$dir/make-boot" $k "$dir/$k.dat" || finish
done

# rows FILE: the table without its comment lines, blanks squeezed.
rows() { grep -v '^#' "$1" | awk '{ $1 = $1; print }'; }

# --- initcall_start/initcall_finish pairs
expect_status "--initcalls on the events capture exits 0" 0 "$FTC" report --initcalls "$dir/events.dat"
cp "$OUT/last.out" "$dir/events.out"
want='1000.000 1 1.000600 -19 beta_init
500.000 0 1.000010 0 alpha_init
10.000 0 1.000020 0 delta_init
2.000 0 1.000000 0 con_init'
got=$(rows "$dir/events.out")
[ "$got" = "$want" ] && pass "--initcalls: slowest first, with CPU, start, return value and name" ||
	fail "--initcalls: slowest first, with CPU, start, return value and name" \
		"got: $(echo "$got" | tr '\n' '|'), want: $(echo "$want" | tr '\n' '|')"
expect_match "--initcalls: the header names the source" \
	'^# 4 initcalls in .*events\.dat, from initcall_start/initcall_finish events, slowest first; clock local$' \
	"$(cat "$dir/events.out")"
expect_match "--initcalls: the last line is the total" '^# total 1512\.000 us$' "$(cat "$dir/events.out")"
expect_nomatch "--initcalls: no row for a start without a finish, or a finish without a start" \
	'gamma_init|eps_init' "$(cat "$dir/events.out")"
"$FTC" report --initcalls -t "$dir/events.dat" >"$dir/events-ns.out" 2>&1
expect_match "--initcalls -t: durations and starts in ns" '^ +1000000 +1 +1000600000 +-19 +beta_init$' \
	"$(cat "$dir/events-ns.out")"
# trace-cmd's timestamps: each duration is finish - start.
if command -v trace-cmd >/dev/null; then
	trace-cmd report -t -i "$dir/events.dat" >"$dir/events.tc" 2>&1
	bad=""
	for f in beta_init alpha_init delta_init con_init; do
		want=$(grep -E "initcall_(start|finish): +func=$f\\+" "$dir/events.tc" |
			awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
				sub(":", "", $i); sub("\\.", "", $i); t[n++] = $i } }
			     END { if (n == 2) printf "%.3f", (t[1] - t[0]) / 1000 }')
		got=$(rows "$dir/events.out" | awk -v f="$f" '$5 == f { print $1 }')
		[ -n "$want" ] && [ "$got" = "$want" ] || bad="$bad $f: $got vs trace-cmd '$want';"
	done
	[ -z "$bad" ] && pass "--initcalls durations are finish - start of trace-cmd's timestamps" ||
		fail "--initcalls durations are finish - start of trace-cmd's timestamps" "$bad"
else
	skip "--initcalls against trace-cmd" "trace-cmd not installed"
fi

# --- function_graph under do_one_initcall
expect_status "--initcalls on the graph capture exits 0" 0 "$FTC" report --initcalls "$dir/graph.dat"
cp "$OUT/last.out" "$dir/graph.out"
want='300.000 0 2.000000 - foo_init
59.000 0 2.000307 - ? (calls kmalloc_trace and another)
20.000 0 2.000367 - bar_init'
got=$(rows "$dir/graph.out")
[ "$got" = "$want" ] && pass "--initcalls from the graph: the initcall child's duration, '?' for an untraceable one" ||
	fail "--initcalls from the graph: the initcall child's duration, '?' for an untraceable one" \
		"got: $(echo "$got" | tr '\n' '|'), want: $(echo "$want" | tr '\n' '|')"
expect_match "--initcalls from the graph: the header names the source" \
	'from function_graph records of do_one_initcall' "$(cat "$dir/graph.out")"

# --- nothing to show, and outputs that exclude each other
expect_status "--initcalls on a capture without initcalls exits 1" 1 \
	"$FTC" report --initcalls "$dir/none.dat"
expect_match "the message says how to boot for it" 'holds no initcall.*ftc boot-args -e initcall' \
	"$(cat "$OUT/last.err")"
for o in --stat --json -e --sample-profile; do
	expect_status "--initcalls with $o exits 2" 2 "$FTC" report --initcalls $o "$dir/events.dat"
done
finish
