# SPDX-License-Identifier: GPL-2.0-or-later
# A user asks ftc report for a selection that can select nothing: a CPU the
# file lacks (exit 3, naming the file's CPUs), a window whose end comes
# before its start (exit 2), an option that does not apply to the chosen
# output (exit 2, naming both options). Before, each gave an empty or an
# unchanged report and exit 0. The table of which options go together also
# marks --help and drives completion (ftc report --list-opts WORDS...); ftc
# stream's --json has one too.
. "$(dirname "$0")/../lib.sh"
OUT="$OUT/report-select.$$"
mkdir -p "$OUT"
trap '[ "$T_FAILED" = 0 ] && rm -rf "$OUT"' EXIT

knobs_save
inst=$(test_instance rselect)
dat="$OUT/t.dat"
expect_status "record a small file" 0 "$FTC" record -B "$inst" -e sched:sched_switch \
	-e sched:sched_wakeup -o "$dat" -- sleep 0.2
ncpus=$("$FTC" report --stat "$dat" | awk '/^cpus:/ { print $2 }')
[ -n "$ncpus" ] && [ "$ncpus" -ge 1 ] || { fail "the file's CPU count" "'$ncpus'"; finish; }

# A CPU the file lacks: a name the file lacks, as an --event it lacks.
expect_status "--cpu $ncpus (the file has CPUs 0-$((ncpus - 1))) exits 3" 3 \
	"$FTC" report --cpu "$ncpus" "$dat"
expect_match "the message names the CPU and the file's CPUs" \
	"^ftc report: --cpu: .*t\.dat has no CPU $ncpus: it holds CPU" "$(cat "$OUT/last.err")"
expect_match "nothing is printed" '^$' "$(cat "$OUT/last.out")"
expect_status "--cpu 0,$((ncpus + 6)) exits 3 too" 3 "$FTC" report --cpu "0,$((ncpus + 6))" "$dat"
expect_status "--cpu 0 exits 0" 0 "$FTC" report --cpu 0 "$dat"
expect_status "--stat --cpu $ncpus exits 3" 3 "$FTC" report --stat --cpu "$ncpus" "$dat"

# A window that ends before it starts.
expect_status "--from 3 --to 2 exits 2" 2 "$FTC" report --from 3 --to 2 "$dat"
expect_match "the message names both ends" '--from 3\.0+ is after --to 2\.0+' \
	"$(cat "$OUT/last.err")"
expect_status "--from 2 --to 2 (one instant) exits 0" 0 "$FTC" report --from 2 --to 2 "$dat"

# expect_refused NAME ARGS... : exit 2, a message naming the two options.
expect_refused() {
	local name=$1 a=$2 b=$3
	shift 3
	expect_status "$name exits 2" 2 "$FTC" report "$@" "$dat"
	expect_match "$name: the message names $a and $b" "^ftc report: .*$a.* $b" \
		"$(cat "$OUT/last.err")"
}
expect_refused "--stat --first 3" --first --stat --stat --first 3
expect_refused "--limit without --sample-profile" --limit text --limit 3
expect_refused "--folded --limit" --limit --folded --folded --limit 3
expect_refused "--json --graph-proc" --graph-proc --json --json --graph-proc
expect_refused "--json -R" -R --json --json -R
expect_refused "--stat --ns" --ns --stat --stat --ns
expect_refused "--json --stat" --json --stat --json --stat
expect_refused "--stat --json" --stat --json --stat --json
expect_refused "--initcalls --cpu" --cpu --initcalls --initcalls --cpu 0
expect_refused "-e --cpu (as typed: -e)" --cpu -e -e --cpu 0
expect_refused "--sample-profile --event" --event --sample-profile --sample-profile \
	--event sched_switch
expect_refused "--first with --last" --first --last --first 1 --last 1
# What goes together still runs.
expect_status "--json --first 3 exits 0" 0 "$FTC" report --json --first 3 "$dat"
[ "$(wc -l <"$OUT/last.out")" = 3 ] && pass "--json --first 3 prints 3 records" ||
	fail "--json --first 3 prints 3 records" "$(wc -l <"$OUT/last.out") lines"
expect_status "--stat --cpu 0 --from 0 exits 0" 0 "$FTC" report --stat --cpu 0 --from 0 "$dat"
expect_status "--sample-profile --folded --limit 2: no samples (1), not a usage error" 1 \
	"$FTC" report --sample-profile --folded --limit 2 "$dat"
expect_status "--initcalls -t: no initcalls (1), not a usage error" 1 \
	"$FTC" report --initcalls -t "$dat"

# --help marks each option's outputs; completion offers only what goes.
help=$("$FTC" report --help)
expect_match "--help marks --first [text, --json]" '--first N .*\[text, --json\]' "$help"
expect_match "--help marks --limit [--sample-profile]" '--limit N .*\[--sample-profile\]' "$help"
opts=$("$FTC" report --list-opts --stat | tr '\n' ' ')
expect_match "--list-opts --stat offers --cpu" ' --cpu ' " $opts"
expect_nomatch "--list-opts --stat leaves out --first, --graph-proc and --json" \
	' (--first|--graph-proc|--json) ' " $opts"
opts=$("$FTC" report --list-opts | tr '\n' ' ')
expect_match "--list-opts alone offers --first and --json" ' --first .* --json ' " $opts"
# ftc stream reads the same kind of table: text or --json. Refused while
# parsing, before tracefs is touched (an instance of its own, should it not be).
si=$(test_instance rselect-stream)
for o in --raw --ns --graph-proc; do
	expect_status "stream --json $o exits 2" 2 "$FTC" stream -B "$si" --json $o -- true
	expect_match "stream --json $o: the message names both" "^ftc stream: $o does not apply to --json" \
		"$(cat "$OUT/last.err")"
done
expect_status "stream --compression without --record exits 2" 2 "$FTC" stream -B "$si" --compression zlib -- true
expect_match "the message names --compression and --record" '^ftc stream: --compression applies to the file --record writes' \
	"$(cat "$OUT/last.err")"
expect_status "stream --file-version without --record exits 2" 2 "$FTC" stream -B "$si" --file-version 6 -- true
knobs_unchanged "report-select"
finish
