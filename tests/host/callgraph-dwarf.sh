# SPDX-License-Identifier: GPL-2.0-or-later
# A user profiles a program built without frame pointers (-O2
# -fomit-frame-pointer; tests/fixtures/callchain.c spins in leaf_spin under
# main -> outer -> middle). With --call-graph fp (or -g) the callers of the
# leaf are lost; with --call-graph dwarf ftc unwinds them from the sampled
# stacks, and the share of leaf samples with the whole chain is what perf
# record --call-graph dwarf finds, within 10 points. ftc record --sample
# --call-graph dwarf stores the unwound chains: ftc report's profile and
# folded stacks show them, and trace-cmd still reads the file.
. "$(dirname "$0")/../lib.sh"
OUT="$OUT/callgraph-dwarf.$$"
mkdir -p "$OUT"
# ftc report's option for the profile of a file's samples.
PROFILE=--sample-profile
inst=ftc-callgraph-$$
trap 'rmdir "$TRACEFS/instances/$inst" 2>/dev/null; [ "$T_FAILED" = 0 ] && rm -rf "$OUT"' EXIT

command -v cc >/dev/null || { skip "call graphs" "no C compiler to build the program"; finish; }
prog=$OUT/callchain
setup "build callchain without frame pointers" \
	cc -O2 -fomit-frame-pointer -g -o "$prog" "$TOP/tests/fixtures/callchain.c" || finish

# share FILE: "FULL LEAF" of folded stacks: the samples whose innermost user
# frame is leaf_spin, and those of them under main;outer;middle.
share() {
	awk '{
		c = $NF; sub(/ [0-9]+$/, ""); n = split($0, f, ";")
		while (n > 1 && f[n] ~ /_\[k\]$/) n--
		if (f[n] != "leaf_spin") next
		leaf += c
		if (n > 4 && f[n - 1] == "middle" && f[n - 2] == "outer" && f[n - 3] == "main")
			full += c
	} END { print full + 0, leaf + 0 }' "$1"
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }'; }

# Frame pointers: the leaf is found, its callers are not.
expect_status "profile --call-graph fp exits 0" 0 \
	"$FTC" profile -F 1000 --call-graph fp --folded -- "$prog" 1
cp "$OUT/last.out" "$OUT/fp.folded"
set -- $(share "$OUT/fp.folded")
fp_full=$1 fp_leaf=$2
[ "$fp_leaf" -ge 200 ] && pass "fp: leaf_spin sampled ($fp_leaf samples)" ||
	fail "fp: leaf_spin sampled" "$fp_leaf leaf samples: $(sort -k2nr "$OUT/fp.folded" | head -3)"
expect_nomatch "fp: no stack holds outer;middle;leaf_spin" 'outer;middle;leaf_spin' \
	"$(cat "$OUT/fp.folded")"
expect_status "profile -g (fp) exits 0" 0 "$FTC" profile -F 1000 -g --folded -- "$prog" 0.3
expect_nomatch "-g is fp: no stack holds outer;middle;leaf_spin" 'outer;middle;leaf_spin' \
	"$(cat "$OUT/last.out")"

# DWARF: the callers are unwound from the copied stacks.
expect_status "profile --call-graph=dwarf exits 0" 0 \
	"$FTC" profile -F 1000 --call-graph=dwarf --folded -- "$prog" 1
cp "$OUT/last.out" "$OUT/dwarf.folded"
grep -q 'lost' "$OUT/last.err" && echo "# $(cat "$OUT/last.err")"
set -- $(share "$OUT/dwarf.folded")
dw_full=$1 dw_leaf=$2
dw_pct=$(pct "$dw_full" "$dw_leaf")
[ "$dw_leaf" -ge 200 ] && awk -v p="$dw_pct" 'BEGIN { exit !(p >= 80) }' &&
	pass "dwarf: $dw_pct% of leaf_spin's samples are under main;outer;middle ($dw_full of $dw_leaf)" ||
	fail "dwarf: most leaf_spin samples are under main;outer;middle" \
		"$dw_full of $dw_leaf: $(sort -k2nr "$OUT/dwarf.folded" | head -3)"
expect_status "profile --call-graph dwarf,4096 (separate word) exits 0" 0 \
	"$FTC" profile -F 1000 --call-graph dwarf,4096 --folded -- "$prog" 0.3
expect_match "dwarf,4096: the chain is unwound too" ';main;outer;middle;leaf_spin [0-9]+$' \
	"$(cat "$OUT/last.out")"

# perf record --call-graph dwarf of the same program: the same share.
if command -v perf >/dev/null &&
	perf record -q -e cpu-clock -F 1000 --call-graph dwarf -o "$OUT/perf.data" -- "$prog" 1 \
		>"$OUT/perf.out" 2>&1; then
	set -- $(perf script -i "$OUT/perf.data" -F ip,sym,dso 2>/dev/null | awk 'BEGIN { RS = "" } {
		n = 0
		m = split($0, line, "\n")
		for (i = 1; i <= m; i++) {
			if (line[i] ~ /\[kernel\.kallsyms\]/ || line[i] !~ /[^ \t]/) continue
			split(line[i], w, " "); f[++n] = w[2]
		}
		if (n && f[1] == "leaf_spin") {
			leaf++
			if (n > 3 && f[2] == "middle" && f[3] == "outer" && f[4] == "main") full++
		}
	} END { print full + 0, leaf + 0 }')
	pf_full=$1 pf_leaf=$2
	pf_pct=$(pct "$pf_full" "$pf_leaf")
	echo "# chains of leaf_spin's samples: fp $(pct "$fp_full" "$fp_leaf")% ($fp_full/$fp_leaf)," \
		"ftc dwarf $dw_pct% ($dw_full/$dw_leaf), perf dwarf $pf_pct% ($pf_full/$pf_leaf)"
	[ "$pf_leaf" -ge 200 ] && awk -v a="$dw_pct" -v b="$pf_pct" \
		'BEGIN { d = a - b; exit !(d <= 10 && d >= -10) }' &&
		pass "ftc's share of whole chains ($dw_pct%) is perf's ($pf_pct%) within 10 points" ||
		fail "ftc's share of whole chains is perf's within 10 points" \
			"ftc $dw_pct% ($dw_full/$dw_leaf), perf $pf_pct% ($pf_full/$pf_leaf)"
else
	skip "perf --call-graph dwarf" "perf record failed: $(tail -2 "$OUT/perf.out" 2>/dev/null)"
fi

# Bad modes: exit 2, naming the option and the value.
expect_status "profile --call-graph dwarf,12 exits 2" 2 "$FTC" profile --call-graph dwarf,12 -- true
expect_match "... naming the option and the value" "^ftc profile: --call-graph 'dwarf,12': .*multiple of 8" \
	"$(cat "$OUT/last.err")"
expect_status "record --call-graph lbr exits 2" 2 \
	"$FTC" record --sample cpu-clock --call-graph lbr -o "$OUT/no.dat" -- true
expect_match "... naming the option and the value" "^ftc record: --call-graph 'lbr': " \
	"$(cat "$OUT/last.err")"

# ftc record stores the unwound chains: the file's profile shows them.
dat=$OUT/dwarf.dat
expect_status "record --sample --call-graph dwarf exits 0" 0 "$FTC" record -B "$inst" \
	-e sched:sched_process_exec --sample cpu-clock --freq 999 --call-graph dwarf \
	-o "$dat" -- "$prog" 1
[ ! -d "$TRACEFS/instances/$inst" ] && pass "record removed its instance $inst" ||
	fail "record removed its instance" "$TRACEFS/instances/$inst is left"
expect_status "report --folded of the file exits 0" 0 "$FTC" report --folded "$dat"
cp "$OUT/last.out" "$OUT/rec.folded"
set -- $(share "$OUT/rec.folded")
rc_pct=$(pct "$1" "$2")
[ "$2" -ge 200 ] && awk -v p="$rc_pct" 'BEGIN { exit !(p >= 80) }' &&
	pass "recorded: $rc_pct% of leaf_spin's samples are under main;outer;middle ($1 of $2)" ||
	fail "recorded: most leaf_spin samples are under main;outer;middle" \
		"$1 of $2: $(sort -k2nr "$OUT/rec.folded" | head -3)"
expect_status "report $PROFILE of the file exits 0" 0 "$FTC" report $PROFILE "$dat"
children() {
	awk -v s="$1" '$NF == s && $(NF - 1) == "[.]" { sub(/%/, "", $1); print $1 + 0; exit }' \
		"$OUT/last.out"
}
c_outer=$(children outer) c_middle=$(children middle)
awk -v a="${c_outer:-0}" -v b="${c_middle:-0}" 'BEGIN { exit !(a >= 80 && b >= 80) }' &&
	pass "report $PROFILE: outer and middle hold leaf_spin's time (children $c_outer%, $c_middle%)" ||
	fail "report $PROFILE: outer and middle hold leaf_spin's time" \
		"outer '$c_outer', middle '$c_middle': $(head -8 "$OUT/last.out")"
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$dat" >"$OUT/tc.txt" 2>"$OUT/tc.err"
	rc=$?
	n=$(grep -c ' sample: .*ip=0x' "$OUT/tc.txt")
	[ "$rc" = 0 ] && [ "$n" -ge 200 ] &&
		pass "trace-cmd report reads the file's samples ($n)" ||
		fail "trace-cmd report reads the file's samples" "exit $rc, $n samples: $(tail -2 "$OUT/tc.err")"
else
	skip "trace-cmd report" "trace-cmd is not installed"
fi
finish
