#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cut and complete captures, ftc's and trace-cmd's, v7 zstd, v7 none, v6:
# - ftc restore leaves a complete file byte for byte as it was, and a cut
#   one too (it cannot finish it: it says what it found and what to try);
# - ftc report of a file cut at every section boundary and at random
#   offsets never crashes, says in one line where it was cut ("cut at N
#   of M bytes"), and prints for each CPU a prefix of the full file's
#   records: every record of the whole chunks, all of them when the cut
#   spares the CPU data.
. "$(dirname "$0")/../lib.sh"

D=$(mktemp -d /tmp/ftc-restore-cut.XXXXXX)
INST=$(test_instance restorecut)
cleanup() {
	{ echo 0 > "$TRACEFS/instances/$INST/tracing_on"; } 2>/dev/null
	rmdir "$TRACEFS/instances/$INST" 2>/dev/null
	[ -n "$KEEP" ] || rm -rf "$D"
}
trap cleanup EXIT
knobs_save
RANDOM_CUTS=${RANDOM_CUTS:-6}

# The records of a report, each as "[CPU] rest": comms may differ (a cut
# file lacks the command lines of its end), the records may not.
records() { grep -v '^#' | perl -ne 'print if s/^.*?\[(\d{3})\] /[$1] /'; }

workload='for i in $(seq 200); do ls / >/dev/null; done'
for v in zstd none v6; do
	case $v in
	zstd) opts="" ;;
	none) opts="--compression none" ;;
	v6) opts="--file-version 6" ;;
	esac
	# -F -c: the workload's events only, whatever else runs beside the test;
	# on one CPU, so that its data spans several chunks even when a busy
	# machine would spread it thin over both.
	if ! "$FTC" record -q -F -c -B "$INST" -e sched -e syscalls $opts -o "$D/ftc-$v.dat" \
		-- taskset -c 0 sh -c "$workload" 2>"$D/rec.err"; then
		fail "ftc record $v" "$(tail -2 "$D/rec.err")"
		finish
	fi
done
files="ftc-zstd ftc-none ftc-v6"
if command -v trace-cmd >/dev/null; then
	trace-cmd convert -i "$D/ftc-zstd.dat" -o "$D/tc-zstd.dat" --file-version 7 \
		--compression zstd >/dev/null 2>&1 &&
	trace-cmd convert -i "$D/ftc-zstd.dat" -o "$D/tc-none.dat" --file-version 7 \
		--compression none >/dev/null 2>&1 &&
	trace-cmd convert -i "$D/ftc-zstd.dat" -o "$D/tc-v6.dat" --file-version 6 \
		>/dev/null 2>&1 && files="$files tc-zstd tc-none tc-v6"
	[ -s "$D/tc-v6.dat" ] || fail "trace-cmd convert makes the peer's files" "see $D"
else
	skip "trace-cmd's files" "trace-cmd is not installed"
fi

# Section and CPU data boundaries as ftc dump lists them.
boundaries() {
	"$FTC" dump "$1" 2>/dev/null | grep -E '^ +(section|cpu) ' |
		perl -ne 'if (/offset\s+(\d+)\s+size\s+(\d+)/) { my ($o, $s) = ($1, $2);
			print join("\n", $o, $o + 16, $o + $s, $o + 4 + $s, $o + 16 + $s), "\n" }' |
		sort -nu
}

for f in $files; do
	src="$D/$f.dat"
	size=$(stat -c %s "$src")
	"$FTC" report "$src" 2>/dev/null | records > "$D/full.txt"
	total=$(wc -l < "$D/full.txt")
	[ "$total" -gt 1000 ] || fail "$f: the full report has records" "$total"
	for c in $(cut -c2-4 "$D/full.txt" | sort -u); do
		grep "^\[$c\]" "$D/full.txt" > "$D/full.$c"
	done

	# --- restore leaves a complete file as it is ---
	cp "$src" "$D/r.dat"
	out=$("$FTC" restore "$D/r.dat" 2>&1); st=$?
	if cmp -s "$src" "$D/r.dat"; then
		pass "$f: restore leaves the complete file byte for byte as it was"
	else
		fail "$f: restore leaves the complete file byte for byte as it was" \
			"$(cmp "$src" "$D/r.dat" | head -1); $out"
	fi
	case $f in
	*-v6) ;;
	*) [ $st = 0 ] && expect_match "$f: restore says it is complete" "complete already" "$out" ;;
	esac
	[ $st -lt 128 ] || fail "$f: restore does not crash" "status $st"
	ls -a "$D" | grep -q '\.restore-' && fail "$f: restore leaves no temporary file" \
		"$(ls -a "$D" | grep restore-)"

	# --- cuts ---
	cuts=$(boundaries "$src" | awk -v s="$size" '$1 > 0 && $1 < s')
	for _ in $(seq "$RANDOM_CUTS"); do
		cuts="$cuts $(( (RANDOM * 32768 + RANDOM) % (size - 1) + 1 ))"
	done
	data_end=$(boundaries "$src" | tail -1)
	n=0 crashed="" noline="" notprefix="" restored="" short=""
	for at in $cuts; do
		n=$((n + 1))
		head -c "$at" "$src" > "$D/cut.dat"
		"$FTC" report "$D/cut.dat" > "$D/cut.out" 2> "$D/cut.err"; st=$?
		[ $st -lt 128 ] && [ $st -ne 0 ] || crashed="$crashed $at:$st"
		got=$(records < "$D/cut.out" | tee "$D/cut.txt" | wc -l)
		# One line on stderr saying where; v6 cut inside its metadata says what ran short.
		if ! { [ "$(wc -l < "$D/cut.err")" = 1 ] && grep -qE "cut at $at (of|bytes)" "$D/cut.err"; }; then
			noline="$noline $at"
			# kept for a look: seen once, in 1 of 33 cuts, not reproduced since
			cp "$D/cut.dat" "$OUT/restore-cut-$f-$at.dat"
			cp "$D/cut.err" "$OUT/restore-cut-$f-$at.err"
		fi
		for c in $(cut -c2-4 "$D/cut.txt" | sort -u); do
			k=$(grep -c "^\[$c\]" "$D/cut.txt")
			head -n "$k" "$D/full.$c" 2>/dev/null | cmp -s - <(grep "^\[$c\]" "$D/cut.txt") ||
				notprefix="$notprefix $at:CPU$c"
		done
		# A cut past the CPU data spares every record.
		if [ "$at" -ge "$data_end" ] 2>/dev/null || { [ "$at" -ge "$((size - 200))" ] && [ "$got" != "$total" ]; }; then
			[ "$got" = "$total" ] || short="$short $at:$got/$total"
		fi
		cp "$D/cut.dat" "$D/cut0.dat"
		"$FTC" restore "$D/cut.dat" > /dev/null 2>&1; st=$?
		[ $st -lt 128 ] || crashed="$crashed restore@$at:$st"
		cmp -s "$D/cut.dat" "$D/cut0.dat" || restored="$restored $at"
	done
	[ -z "$crashed" ] && pass "$f: report and restore of $n cuts exit 1, never crash" ||
		fail "$f: report and restore of $n cuts exit 1, never crash" "$crashed"
	[ -z "$noline" ] && pass "$f: each cut's report says in one line where it was cut" ||
		fail "$f: each cut's report says in one line where it was cut" \
			"at$noline (the cut and its stderr: $OUT/restore-cut-$f-*): $(head -c 300 "$OUT/restore-cut-$f-${noline##* }.err")"
	[ -z "$notprefix" ] && pass "$f: each cut's records are a prefix of the full file's, per CPU" ||
		fail "$f: each cut's records are a prefix of the full file's, per CPU" "$notprefix"
	[ -z "$short" ] && pass "$f: a cut after the CPU data loses no record" ||
		fail "$f: a cut after the CPU data loses no record" "$short"
	[ -z "$restored" ] && pass "$f: restore leaves each cut file as it was" ||
		fail "$f: restore leaves each cut file as it was" "$restored"
done

# The v7 cut of the issue: whole chunks of a cut in CPU data are printed
# (in the middle of the CPU with the most data: the workload's).
at=$("$FTC" dump "$D/ftc-zstd.dat" | awk '$1 == "cpu" && $6 > most { most = $6; at = $4 + int($6 / 2) }
	END { print at }')
head -c "$at" "$D/ftc-zstd.dat" > "$D/half.dat"
got=$("$FTC" report "$D/half.dat" 2>"$D/half.err" | records | wc -l)
[ "$got" -gt 100 ] && pass "v7 zstd cut in a CPU's data: its whole chunks are printed ($got records)" ||
	fail "v7 zstd cut in a CPU's data: its whole chunks are printed" "$got records; $(cat "$D/half.err")"
expect_match "v7 zstd cut in a CPU's data: the line says where" "cut at $at of at least [0-9]+ bytes" \
	"$(cat "$D/half.err")"
out=$("$FTC" restore "$D/half.dat" 2>&1)
expect_match "restore of a cut file says what it found" "cut at .*whole chunks" "$out"
expect_match "restore of a cut file says what to try" "ftc convert .*half.dat NEW.dat" "$out"
"$FTC" convert "$D/half.dat" "$D/half-new.dat" >/dev/null 2>&1
got2=$("$FTC" report "$D/half-new.dat" 2>/dev/null | records | wc -l)
[ "$got2" = "$got" ] && pass "ftc convert of the cut file keeps its $got records" ||
	fail "ftc convert of the cut file keeps its $got records" "$got2"
knobs_unchanged restore-cut
finish
