# SPDX-License-Identifier: GPL-2.0-or-later
# ftc report prints most events through print formats it compiles itself
# (libftc/format/format-compile.c); the text must be what libtraceevent
# prints, byte for byte. On real mixed captures (every event during disk,
# file and process work; a kmem-heavy one; the lab's function_graph traces
# when tests/out has them) the report is compared with cmp against the same
# report with FTC_FORMAT_TEP=1 (every record printed by libtraceevent), with
# and without plugins, and the compiled path must have printed most records
# (else the comparison proves nothing). The --no-plugins text is also
# compared with trace-cmd report -N, record by record.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/report-lib.sh"

command -v python3 >/dev/null || { skip "report-compiled" "python3 is not installed"; finish; }
D=$OUT/report-compiled
rm -rf "$D"; mkdir -p "$D"
knobs_save

# record NAME EVENTS... -- WORKLOAD: ftc record into a private instance.
record() {
	local name=$1 inst args=()
	inst=$(test_instance "$name")
	shift
	while [ "$1" != -- ]; do args+=(-e "$1"); shift; done
	shift
	timeout 300 "$FTC" record -q -B "$inst" -b 4096 "${args[@]}" -o "$D/$name.dat" -- \
		sh -c "$*" >"$D/$name.rec.log" 2>&1
	local st=$?
	[ -d "$TRACEFS/instances/$inst" ] && rmdir "$TRACEFS/instances/$inst" 2>/dev/null
	[ $st = 0 ] && [ -s "$D/$name.dat" ]
}

# same_text [-any] NAME FILE [REPORT OPTIONS]: compiled and libtraceevent
# text agree; most records compiled unless -any (function_graph records are
# laid out by ftc's graph code, not by print formats).
same_text() {
	local most=1 name file counts comp fb
	[ "$1" = -any ] && { most=0; shift; }
	name=$1 file=$2
	shift 2
	FTC_FORMAT_STATS=1 "$FTC" report "$@" "$file" >"$D/$name.ftc" 2>"$D/$name.stats" ||
		{ fail "report-compiled: $name: ftc report" "$(grep -v '^ftc format' "$D/$name.stats" | tail -2)"; return; }
	FTC_FORMAT_TEP=1 "$FTC" report "$@" "$file" >"$D/$name.tep" 2>"$D/$name.tep.err" ||
		{ fail "report-compiled: $name: ftc report (libtraceevent)" "$(tail -2 "$D/$name.tep.err")"; return; }
	counts=$(grep 'records compiled' "$D/$name.stats")
	comp=$(echo "$counts" | sed -E 's/.* ([0-9]+) records compiled.*/\1/')
	fb=$(echo "$counts" | sed -E 's/.* ([0-9]+) by libtraceevent$/\1/')
	# No line: no record went through a print format (all laid out as graphs).
	[ -z "$counts" ] && [ $most = 0 ] && comp=0 fb=0
	if [ -z "$comp" ] || [ -z "$fb" ] || { [ $most = 1 ] && [ "$comp" -le "$fb" ]; }; then
		fail "report-compiled: $name: most records compiled" "${counts:-no counts on stderr}"
		return
	fi
	if cmp -s "$D/$name.ftc" "$D/$name.tep"; then
		pass "report-compiled: $name: $(wc -l <"$D/$name.ftc") lines identical to libtraceevent's ($comp records compiled, $fb not)"
	else
		fail "report-compiled: $name: identical to libtraceevent's" \
			"$(diff "$D/$name.tep" "$D/$name.ftc" | head -4)"
	fi
}

# same_but_aliases A B: the lines agree, but for kernel symbols that share an
# address (_etext and __start_rodata): ftc's kallsyms resolver and
# trace-cmd's may name them differently, in either printing path.
same_but_aliases() {
	python3 - "$1" "$2" <<'PY'
import re, sys
a, b = open(sys.argv[1]).read().split("\n"), open(sys.argv[2]).read().split("\n")
sym = re.compile(r"^[A-Za-z_.][A-Za-z0-9_.]*(\+0x[0-9a-f]+)?$")
if len(a) != len(b):
    print("%d lines against %d" % (len(a), len(b))); sys.exit(1)
aliases = 0
for x, y in zip(a, b):
    if x == y:
        continue
    tx, ty = x.split(" "), y.split(" ")
    if len(tx) != len(ty) or any(p != q and not (sym.match(p) and sym.match(q))
                                 for p, q in zip(tx, ty)):
        print("< %s\n> %s" % (x[:200], y[:200])); sys.exit(1)
    aliases += 1
print("%d with another name for the same symbol address" % aliases)
PY
}

work_mixed='for i in 1; do tar cf '"$D"'/w.tar /usr/include/linux 2>/dev/null; sync; rm -f '"$D"'/w.tar; ls -lR /usr/share/doc >/dev/null 2>&1; /bin/true; done'
work_kmem='for i in $(seq 5); do cat /usr/include/*.h | sort >/dev/null; head -c 2000000 /dev/zero | gzip -c >/dev/null; done'

if record all all -- "$work_mixed"; then
	same_text all "$D/all.dat"
	same_text all-noplugins "$D/all.dat" --no-plugins
	same_text all-json "$D/all.dat" --no-plugins --json
	# libtraceevent itself, as trace-cmd runs it: the same info for every record.
	trace-cmd report -N "$D/all.dat" 2>/dev/null | report_normalize tc >"$D/all.tc.norm"
	report_normalize ftc <"$D/all-noplugins.ftc" >"$D/all.ftc.norm"
	if [ -s "$D/all.tc.norm" ] && out=$(same_but_aliases "$D/all.tc.norm" "$D/all.ftc.norm"); then
		pass "report-compiled: all: $(wc -l <"$D/all.tc.norm") records agree with trace-cmd report -N ($out)"
	else
		fail "report-compiled: all agrees with trace-cmd report -N" "$out"
	fi
else
	fail "report-compiled: ftc record -e all" "$(tail -2 "$D/all.rec.log")"
fi

if record kmem kmem sched:sched_switch sched:sched_wakeup -- "$work_kmem"; then
	same_text kmem "$D/kmem.dat"
	same_text kmem-noplugins "$D/kmem.dat" --no-plugins
else
	fail "report-compiled: ftc record -e kmem" "$(tail -2 "$D/kmem.rec.log")"
fi

# The lab's function_graph captures, when a lab run left them (or in LAB_DAT_DIR).
lab=0
for f in "${LAB_DAT_DIR:-$OUT}"/lab-*graph*.dat "${LAB_DAT_DIR:-$OUT}"/lab-g.dat; do
	[ -s "$f" ] || continue
	lab=1
	same_text -any "$(basename "$f" .dat)" "$f"
	same_text -any "$(basename "$f" .dat)-noplugins" "$f" --no-plugins
	same_text -any "$(basename "$f" .dat)-events" "$f" --graph-layout events
	same_text -any "$(basename "$f" .dat)-nograph" "$f" --no-graph
done
[ $lab = 1 ] || skip "report-compiled: lab function_graph traces" \
	"none in ${LAB_DAT_DIR:-$OUT} (run tests/lab first, or set LAB_DAT_DIR)"

knobs_unchanged "report-compiled"
finish
