# SPDX-License-Identifier: GPL-2.0-or-later
# ftc funclatency against two truths. Offline: a function_graph dump of the
# lab's kernel (an oops log, imported) prints each outermost call's duration;
# ftc's calls of do_sys_openat2 are those, to the nanosecond. Live, by a
# uprobe and uretprobe (the host refuses function_graph and kprobes): a
# program whose work() sleeps 20 x 1.5 ms then 5 x 25 ms measures each call
# itself; ftc counts 25 calls, the 5 slowest are the long ones, and its
# total is the program's within 0.3 ms a call. Options, JSON, the heat map,
# the refusals and their exit codes.
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || { skip "funclatency" "python3 is not installed"; finish; }
D=$OUT/funclatency.$$
rm -rf "$D"; mkdir -p "$D"
trap '[ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
FX=$TOP/tests/fixtures/import

# ---- offline: an imported function_graph dump ----
setup "import the graph dump" "$FTC" import -q --kallsyms "$FX/graph-orig-cpu.kallsyms" \
	-o "$D/g.dat" "$FX/graph-orig-cpu.log" || finish
# the kernel's durations of the outermost calls: "| }" two spaces in, as ns
# (a serial console's lines end in CR LF)
tr -d '\r' <"$FX/graph-orig-cpu.log" | sed -nE 's/.*[ !#+@*$] +([0-9]+)\.([0-9]{3}) us +\|  \}$/\1\2/p' |
	sort -n >"$D/kernel.ns"
expect_status "a file: exit 0" 0 "$FTC" funclatency -T do_sys_openat2 --slowest 16 "$D/g.dat"
cp "$OUT/last.out" "$D/openat.out"
sed -nE 's/^  [0-9.]+  \S+-[0-9]+  ([0-9.]+) (us|ms)$/\1 \2/p' "$D/openat.out" |
	awk '{ printf "%d\n", $2 == "ms" ? $1 * 1e6 + 0.5 : $1 * 1e3 + 0.5 }' | sort -n >"$D/ftc.ns"
if [ "$(wc -l <"$D/kernel.ns")" -ge 3 ] && cmp -s "$D/kernel.ns" "$D/ftc.ns"; then
	pass "each call's duration is the kernel's ($(wc -l <"$D/ftc.ns") calls)"
else
	fail "each call's duration is the kernel's" "kernel: $(tr '\n' ' ' <"$D/kernel.ns"); ftc: $(tr '\n' ' ' <"$D/ftc.ns")"
fi
expect_match "... with the count, total and extremes" \
	'^# do_sys_openat2: 4 calls, total 1.426 ms, min 190.683 us, avg 356.523 us, max 438.840 us$' \
	"$(cat "$D/openat.out")"
expect_match "... and the histogram's rows" '^ +131us -> 262us +1  \|' "$(cat "$D/openat.out")"
expect_status "--summary: a line per function" 0 "$FTC" funclatency --summary "$D/g.dat"
expect_match "... the longest total first" '^# do_sys_openat2: .*
# do_filp_open: ' "$(head -2 "$OUT/last.out")"
expect "... and no histogram" test "$(grep -c ' -> ' "$OUT/last.out")" = 0
expect_status "--per-task" 0 "$FTC" funclatency --per-task --summary -T do_sys_openat2 "$D/g.dat"
expect_match "... a line for each task" '^# do_sys_openat2 in sh-94: 2 calls.*
# do_sys_openat2 in gzip-102: 2 calls' "$(cat "$OUT/last.out")"
expect_status "--min 400us" 0 "$FTC" funclatency --min 400us -T do_sys_openat2 --summary "$D/g.dat"
expect_match "... counts the calls at least that long" '^# do_sys_openat2: 2 calls, .*min 415.817 us' \
	"$(cat "$OUT/last.out")"
expect_status "--json" 0 "$FTC" funclatency --json -T 'do_*' "$D/g.dat"
expect_match "... is JSON with the calls and the buckets" '^4 1426095 64 4$' "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["functions"] if x["func"] == "do_sys_openat2"][0]
print(f["calls"], f["total_ns"], len(f["hist"]), len(f["slowest"]))' "$OUT/last.out" 2>&1)"
expect_status "--heatmap" 0 "$FTC" funclatency --heatmap "$D/h.svg" -T do_sys_openat2 "$D/g.dat"
expect_match "... writes an SVG" '^<svg' "$(head -c 200 "$D/h.svg" | grep -o '<svg' | head -1)"
# --trees: the call tree of each call as long as --min, as the kernel drew it
expect_status "--trees --min 400us" 0 "$FTC" funclatency --trees --min 400us --summary \
	-T do_sys_openat2 "$D/g.dat"
cp "$OUT/last.out" "$D/trees.out"
expect_match "... a tree for each of the 2 calls that long" \
	'^# do_sys_openat2 in sh-94: 415.817 us, .*
# do_sys_openat2 in gzip-102: 438.840 us, ' "$(grep '^# do_sys_openat2 in' "$D/trees.out")"
# the first tree's lines are the dump's, from its "{" to its "}"
tr -d '\r' <"$FX/graph-orig-cpu.log" | sed -nE 's/^\[[ 0-9.]+\]  0\) (.*)$/\1/p' |
	sed -n '/^ *|  do_sys_openat2() {$/,/415.817 us  |  }$/p' | head -15 >"$D/tree.kernel"
sed -nE 's/^ +[0-9.]+ \|   0\) +sh-94 +\| (.*)$/\1/p' "$D/trees.out" >"$D/tree.ftc"
if [ "$(wc -l <"$D/tree.kernel")" -ge 10 ] && diff -b "$D/tree.kernel" "$D/tree.ftc" >"$D/tree.diff"; then
	pass "... the first is the kernel's own drawing of that call ($(wc -l <"$D/tree.ftc") lines)"
else
	fail "... the first is the kernel's own drawing of that call" "$(head -6 "$D/tree.diff" | tr '\n' '|')"
fi
expect_status "--trees with --json: exit 2" 2 "$FTC" funclatency --trees --json "$D/g.dat"
expect_status "no call of the glob: exit 0" 0 "$FTC" funclatency -T nosuch "$D/g.dat"
expect_match "... saying so" 'no call of nosuch' "$(cat "$OUT/last.err")"
expect_status "a window after the capture exits 3" 3 "$FTC" funclatency --from 999999999 "$D/g.dat"
expect_match "... saying where the capture's records are" \
	'no call record lies between --from 999999999\.000000000 and the end; the capture.s records run from [0-9]+\.[0-9]{9} to [0-9]+\.[0-9]{9}$' \
	"$(cat "$OUT/last.err")"
[ "$("$FTC" funclatency -T do_sys_openat2 --from 0 "$D/g.dat" 2>&1)" = \
  "$("$FTC" funclatency -T do_sys_openat2 "$D/g.dat" 2>&1)" ] && pass "--from 0: the whole capture" ||
	fail "--from 0: the whole capture" "the output differs"

# ---- refusals ----
setup "a capture without function events" "$FTC" import -q -o "$D/f.dat" "$FX/frozen.log" || finish
expect_status "a file without function events: exit 3" 3 "$FTC" funclatency "$D/f.dat"
expect_match "... naming what to record" 'no funcgraph_exit record .*-p function_graph -g FUNC' \
	"$(cat "$OUT/last.err")"
expect_status "a bad duration: exit 2" 2 "$FTC" funclatency --min 3parsecs "$D/g.dat"
expect_status "--slowest 17: exit 2" 2 "$FTC" funclatency --slowest 17 "$D/g.dat"
expect_status "live without -T: exit 2" 2 "$FTC" funclatency -a
expect_status "a file and -a: exit 2" 2 "$FTC" funclatency -T x -a "$D/g.dat"
expect_status "--probes with a file: exit 2" 2 "$FTC" funclatency --probes "$D/g.dat"
expect_status "--json with --summary: exit 2" 2 "$FTC" funclatency --json --summary "$D/g.dat"

# ---- live, on this kernel ----
if [ "$(id -u)" != 0 ] || [ ! -w "$TRACEFS/uprobe_events" ]; then
	skip "funclatency live" "needs root and uprobes"
	finish
fi
# A kernel function where neither function_graph nor kprobes works (this
# host): refused with both reasons, before anything is recorded.
if ! grep -qw function_graph "$TRACEFS/available_tracers" && [ ! -e "$TRACEFS/kprobe_events" ]; then
	expect_status "a kernel function on a kernel without function_graph or kprobes: exit 3" 3 \
		"$FTC" funclatency -T vfs_read -a
	expect_match "... giving both reasons" 'lacks or refuses function_graph \(.*\) and kprobes \(' \
		"$(cat "$OUT/last.err")"
fi
setup "build the target" cc -g -O0 -o "$D/target" "$TOP/tests/fixtures/funclat-target.c" || finish
knobs_save
expect_status "live: -T BINARY:FUNC -- COMMAND" 0 "$FTC" funclatency -T "$D/target:work" \
	--slowest 6 -- "$D/target"
cp "$OUT/last.out" "$D/live.out"
cp "$OUT/last.err" "$D/live.err"
# the program's own durations come first on standard output, one per line
grep -E '^[0-9]+$' "$D/live.out" >"$D/self.ns"
expect_match "... counts its 25 calls" '^# work: 25 calls, ' "$(cat "$D/live.out")"
slow=$(sed -nE 's/^  [0-9.]+  \S+-[0-9]+  ([0-9.]+) ms$/\1/p' "$D/live.out" | tr '\n' ' ')
expect_match "... the 5 slowest are the 25 ms sleeps, the 6th is not" \
	'^(2[5-9]|[3-9][0-9])\.[0-9]+ (2[5-9]|[3-9][0-9])\.[0-9]+ (2[5-9]|[3-9][0-9])\.[0-9]+ (2[5-9]|[3-9][0-9])\.[0-9]+ (2[5-9]|[3-9][0-9])\.[0-9]+ (1?[0-9])\.[0-9]+ $' \
	"$slow"
total=$(sed -nE 's/^# work: 25 calls, total ([0-9.]+) ms,.*/\1/p' "$D/live.out")
self=$(awk '{ s += $1 } END { printf "%.3f", s / 1e6 }' "$D/self.ns")
expect_match "... its total is the program's own, within 0.3 ms a call (ftc $total ms, program $self ms)" \
	'^ok$' "$(awk -v a="$total" -v b="$self" 'BEGIN { d = a - b; if (d < 0) d = -d;
		print (a != "" && d <= 25 * 0.3) ? "ok" : "off by " d }')"
expect "... and says nothing went unmatched" test ! -s "$D/live.err"
knobs_unchanged "ftc funclatency live"
finish
