# SPDX-License-Identifier: GPL-2.0-or-later
# Damaged files: trace-cmd files cut at many offsets and with bytes flipped.
# ftc report must never crash or hang, must name the section and the offset
# of the damage, and must still print (only real) records from before it.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/interop/report-lib.sh"

command -v trace-cmd >/dev/null || { skip "report-damage" "trace-cmd is not installed"; finish; }
knobs_save
D=$OUT/report-damage
rm -rf "$D"; mkdir -p "$D"
report_fixture "$D/x7.dat" 64 400 || { fail "report-damage: fixture" "trace-cmd extract failed"; finish; }
trace-cmd convert -i "$D/x7.dat" -o "$D/x6.dat" --file-version 6 --compression none >/dev/null 2>&1 ||
	{ fail "report-damage: fixture" "trace-cmd convert failed"; finish; }

# check NAME FILE: runs ftc report; returns its status in $st, output in $D/o, errors in $D/e.
run() { timeout 20 "$FTC" report --no-header "$1" >"$D/o" 2>"$D/e"; st=$?; }
bad_run() {
	[ $st -ge 2 ] || grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$D/e"
}

# keys FILE: "TIMESTAMP EVENT" of each record line of a report.
keys() { awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $i, $(i + 1); break } }' "$1"; }

for f in x6 x7; do
	full=$D/$f.full
	"$FTC" report --no-header "$D/$f.dat" >"$full" 2>/dev/null
	size=$(stat -c %s "$D/$f.dat")
	data=$("$FTC" dump --buffers "$D/$f.dat" | awk '$1 == "cpu" && $6 > 0 { print $4; exit }')
	# v7: records come in whole chunks; once the first CPU's are all there, some print.
	whole=$("$FTC" dump --buffers "$D/$f.dat" | awk '$1 == "cpu" && $6 > 0 { print $4 + 4 + $6; exit }')
	crashes=0 unnamed=0 foreign=0 partial=0 cuts=0 need=0
	# 24 cuts over the whole file, 24 inside the event data.
	for i in $(seq 0 23) $(seq 100 123); do
		if [ "$i" -lt 100 ]; then cut=$((size * i / 24 + 7)); else cut=$((data + (size - data) * (i - 100) / 24 + 3)); fi
		[ $cut -lt "$size" ] || continue
		cuts=$((cuts + 1))
		head -c $cut "$D/$f.dat" >"$D/cut.dat"
		run "$D/cut.dat"
		if bad_run; then crashes=$((crashes + 1)); cp "$D/cut.dat" "$D/crash-$f-$cut.dat"; continue; fi
		[ $st = 1 ] && ! grep -qE 'offset [0-9]+|cut at [0-9]+ ' "$D/e" && unnamed=$((unnamed + 1))
		# Every printed record is a real one: its timestamp and event are the
		# full file's. A cut that lost the index numbers the CPUs in file
		# order, one that lost the strings prints no instance name, and one
		# that lost the closing options prints raw syscall arguments: the
		# same record, printed with less (the message says what is gone).
		[ -s "$D/o" ] && [ -n "$(grep -vxFf <(keys "$full") <(keys "$D/o") | head -1)" ] &&
			foreign=$((foreign + 1)) && cp "$D/cut.dat" "$D/foreign-$f-$cut.dat"
		[ "$i" -ge 100 ] && [ -s "$D/o" ] && partial=$((partial + 1))
		[ "$i" -ge 100 ] && [ "$cut" -ge "$whole" ] && need=$((need + 1))
	done
	[ $crashes = 0 ] && pass "report-damage: $f cut at $cuts offsets: no crash" ||
		fail "report-damage: $f cuts" "$crashes crashed (see $D/crash-*)"
	[ $unnamed = 0 ] && pass "report-damage: $f cuts: every error names an offset" ||
		fail "report-damage: $f cuts: errors name an offset" "$unnamed did not: $(head -2 "$D/e")"
	[ $foreign = 0 ] && pass "report-damage: $f cuts: only real records printed" ||
		fail "report-damage: $f cuts: only real records" "$foreign runs printed records not in the full output"
	# v7 indexes its data in options written after it: a cut loses the
	# index, and the reader finds the whole chunks in the buffer section.
	[ $f = x6 ] && need=18
	[ $partial -ge $need ] && pass "report-damage: $f cut in the data: records before the cut printed ($partial/24, $need wanted)" ||
		fail "report-damage: $f cut in the data: records before the cut printed" "only $partial of 24, $need wanted"
done

# A cut in the data names the buffer, the CPU and the offset.
head -c $(( $(stat -c %s "$D/x6.dat") - 5000 )) "$D/x6.dat" >"$D/cut.dat"
run "$D/cut.dat"
expect_match "report-damage: truncation message" "cut at [0-9]+ of [0-9]+ bytes" "$(cat "$D/e")"
[ $st = 1 ] && pass "report-damage: damaged file exits 1" || fail "report-damage: damaged file exits 1" "exit $st"

head -c $(( $(stat -c %s "$D/x7.dat") - 300 )) "$D/x7.dat" >"$D/cut.dat"
run "$D/cut.dat"
expect_match "report-damage: v7 cut before its buffer options says so" \
	"cut at [0-9]+ of at least [0-9]+ bytes: the index of its CPU data is gone; reading the [0-9]+ whole" \
	"$(cat "$D/e")"

# Flipped bytes: 100 positions, some in the metadata, most in the data.
crashes=0
for f in x6 x7; do
	size=$(stat -c %s "$D/$f.dat")
	for i in $(seq 1 50); do
		pos=$(( (i * 7919 * 7919 + i * 104729) % size ))
		cp "$D/$f.dat" "$D/flip.dat"
		printf "\\x$(printf %02x $(( (i * 37 + 1) % 256 )))" |
			dd of="$D/flip.dat" bs=1 seek=$pos conv=notrunc status=none
		run "$D/flip.dat"
		if bad_run; then crashes=$((crashes + 1)); cp "$D/flip.dat" "$D/crash-flip-$f-$pos.dat"; fi
	done
done
[ $crashes = 0 ] && pass "report-damage: 100 flipped bytes: no crash or hang" ||
	fail "report-damage: flipped bytes" "$crashes crashed or hung (see $D/crash-flip-*)"

# dump on a cut file names the broken section.
head -c 50000 "$D/x7.dat" >"$D/cut.dat"
"$FTC" dump "$D/cut.dat" >"$D/o" 2>"$D/e"
expect_match "report-damage: dump names the damaged section" "(section|options|strings).*offset [0-9]+" "$(cat "$D/e")"
knobs_unchanged "report-damage"
finish
