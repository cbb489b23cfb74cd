# SPDX-License-Identifier: GPL-2.0-or-later
# zlib captures, checked by a reader that is not ftc's: Debian's trace-cmd
# 3.1.6 is built without zlib, so tracedat-inflate.py (Python's zlib and
# struct) walks the v7 section chain as trace-cmd does, inflates every
# section and chunk, checks the stored sizes and page headers, and lists the
# marker texts in the pages; they must be exactly what was written, and what
# ftc report prints. A flipped byte inside a chunk must be caught.
. "$(dirname "$0")/../lib.sh"

command -v python3 >/dev/null || { skip "record-zlib" "python3 is not installed"; finish; }
CHECK="$TOP/tests/interop/tracedat-inflate.py"
D=$OUT/record-zlib.$$
rm -rf "$D"; mkdir -p "$D"
trap '[ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save
N=3000

# zmarks NAME FILE OPTS...: ftc record of N markers "NAME-i" into FILE.
zmarks() {
	local name=$1 file=$2 inst
	shift 2
	inst=$(test_instance zlib$RANDOM)
	expect_status "$name: ftc record exits 0" 0 "$FTC" record -q -B "$inst" -o "$file" "$@" \
		-- sh -c "for i in \$(seq $N); do echo $name-\$i > $TRACEFS/instances/$inst/trace_marker; done"
}

# same_marks NAME FILE: the independent reader and ftc report both see NAME-1..N once each.
same_marks() {
	local name=$1 file=$2 want theirs ours
	want=$(seq "$N" | sed "s/^/$name-/")
	if ! python3 "$CHECK" "$file" "$name-[0-9]+" >"$D/$name.check" 2>"$D/$name.err"; then
		fail "$name: an independent reader inflates every section and chunk" "$(cat "$D/$name.err")"
		return
	fi
	pass "$name: an independent reader inflates every section and chunk ($(grep -c '^buffer' "$D/$name.check") CPUs)"
	theirs=$(grep "^$name-" "$D/$name.check" | sort -t- -k2 -n)
	[ "$theirs" = "$want" ] && pass "$name: it finds the $N markers, each once" ||
		fail "$name: it finds the $N markers, each once" "$(echo "$theirs" | wc -l) found"
	ours=$("$FTC" report "$file" | grep -o "tracing_mark_write: $name-[0-9]*" | sed 's/^tracing_mark_write: //')
	[ "$ours" = "$want" ] && pass "$name: ftc report prints the same markers in order" ||
		fail "$name: ftc report prints the same markers" "$(echo "$ours" | wc -l) printed"
}

zmarks zlib "$D/zlib.dat" --compression zlib
same_marks zlib "$D/zlib.dat"
zmarks none "$D/none.dat" --compression none
same_marks none "$D/none.dat"

# A flipped byte in the middle of the busiest CPU's first chunk: the
# independent reader must refuse it (so its passes above mean something),
# and ftc report must name the damage and still print what came before.
set -- $(sort -t: -k2 -n -r <(grep -o 'pages, first chunk at [0-9]* ([0-9]*' "$D/zlib.check" |
	awk '{ print $5 ":" substr($6, 2) }') | head -1 | tr ':' ' ')
if [ $# = 2 ]; then
	# The byte's complement: whatever it was, it changes.
	python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[int(sys.argv[3])] ^= 0xff
open(sys.argv[2], "wb").write(d)' "$D/zlib.dat" "$D/bad.dat" $(( $1 + 8 + $2 / 2 ))
	expect_status "damaged chunk: the independent reader refuses it" 1 \
		python3 "$CHECK" "$D/bad.dat" "zlib-[0-9]+"
	"$FTC" report "$D/bad.dat" >"$D/bad.out" 2>"$D/bad.err"
	expect_match "damaged chunk: ftc report names the damage" "bad.dat: .*(chunk|inflate|zlib|corrupt|damage)" \
		"$(cat "$D/bad.err")"
else
	fail "damaged chunk: a chunk to damage" "no chunk listed in $D/zlib.check"
fi
knobs_unchanged "record-zlib"
finish
