#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The letter rule of ftc(1), "for trace-cmd users" and "for perf users": commands trace-cmd
# has take its letters with its meanings, stat, profile, sched, syscalls, kwork and
# funclatency take perf's letters and long names, block bcc's (a family of its own), and within one family a letter has two meanings only where the peer itself gives it
# two. Read from every command's options table (`ftc CMD --list-opts=table`) and checked
# against the peers' own usage texts (`trace-cmd CMD -h`, `perf CMD -h`).
. "$(dirname "$0")/../lib.sh"
REF=$TOP/tests/host/cli-letters.ref
D=$OUT/cli-letters; rm -rf "$D"; mkdir -p "$D"

# ftc command -> family:peer command ("trace-cmd:-" for an ftc-only trace-cmd-family one)
peer_of() {
	case "$1" in
	stat) echo perf:stat ;;
	profile) echo perf:record ;;
	sched) echo perf:sched ;;
	syscalls) echo perf:trace ;;
	kwork) echo perf:kwork ;;
	funclatency) echo perf:ftrace ;;
	block) echo bcc:biolatency ;;	# perf has none: bcc's biolatency -m, biosnoop
	status) echo trace-cmd:stat ;;
	start) echo trace-cmd:record ;;	# "trace-cmd start: uses same options as record"
	record|report|stop|restart|clear|extract|show|reset|snapshot|list|convert|split|listen)
		echo "trace-cmd:$1" ;;
	*) echo trace-cmd:- ;;
	esac
}

# The tables: "CMD FAMILY PEER SHORT LONG ARG" per option.
for c in $("$FTC" --list-cmds); do
	p=$(peer_of "$c")
	"$FTC" "$c" --list-opts=table | awk -F'\t' -v c="$c" -v f="${p%%:*}" -v p="${p#*:}" \
		'{ s = $1 == "-" ? "-" : substr($1, 2); l = $2 == "-" ? "-" : substr($2, 3);
		   print c, f, p, s, l, $3 }'
done >"$D/tables"
[ -s "$D/tables" ] && pass "every command's table is read" || fail "every command's table is read" "empty"

# Peer usage: "CMD LETTER" for trace-cmd, "CMD LETTER LONG" for perf.
have_tc=false; have_perf=false
if command -v trace-cmd >/dev/null; then
	have_tc=true
	for pc in $(awk '$2 == "trace-cmd" && $3 != "-" { print $3 }' "$D/tables" | sort -u); do
		# the letters of the synopsis ("[-p plugin]") and of the option lines
		trace-cmd "$pc" -h 2>&1 | grep -oE '(^|[ [])-[A-Za-z]\b' | tr -d ' [-' |
			sort -u | sed "s/^/$pc /"
	done >"$D/tc-letters"
fi
if command -v perf >/dev/null; then
	have_perf=true
	# perf sched's letters are its verbs': -s is latency's --sort and timehist's --summary
	for pc in stat record top trace "sched latency" "sched timehist" kwork "kwork report" \
		ftrace "ftrace latency"; do
		perf $pc -h 2>&1 | sed -nE "s/^ +-([A-Za-z]), --([a-z0-9-]+).*/${pc%% *} \1 \2/p"
	done >"$D/perf-letters"
fi

# check TABLES REF TC PERF: prints one "VIOLATION ..." line per broken rule.
check() {
	python3 - "$@" <<'PY'
import sys
tables, ref, tc, perf = sys.argv[1:5]
peer_cmd = {}
rows = []
# ftc top's display letters are perf top's (ftc(1), "The letter rule"): the
# rest of its letters are ftc start's, in the trace-cmd family.
borrowed = {('top', 'd'): 'top', ('top', 'E'): 'top'}
for line in open(tables):
    c, fam, peer, s, l, arg = line.split()
    if (c, s) in borrowed:
        fam, peer = 'perf', borrowed[(c, s)]
    rows.append((c, fam, peer, s, l))
refs = {}
for line in open(ref):
    w = line.split()
    if not w or w[0].startswith('#'):
        continue
    refs[(w[0], w[1])] = (w[2], len(w) > 3 and w[3] == 'man')
tcl = set(tuple(l.split()) for l in open(tc)) if tc != '-' else None
perfl = {}
if perf != '-':
    for l in open(perf):
        pc, s, lg = l.split()
        perfl.setdefault((pc, s), set()).add(lg)
out = []
# 1: every reference letter exists in trace-cmd's usage (unless only in its man page)
if tcl is not None:
    peers = {r[0]: r[2] for r in rows}
    for (c, s), (lg, man) in refs.items():
        pc = peers.get(c)
        if pc and not man and (pc, s) not in tcl:
            out.append(f"ref '{c} -{s}': trace-cmd {pc} -h has no -{s}")
for c, fam, peer, s, l in rows:
    if s == '-':
        continue
    if fam == 'trace-cmd' and peer != '-':
        # 2: a trace-cmd letter keeps trace-cmd's meaning
        if (c, s) in refs and refs[(c, s)][0] != l:
            out.append(f"ftc {c} -{s} is --{l}; trace-cmd's -{s} is --{refs[(c, s)][0]} in ftc")
        elif (c, s) not in refs and tcl is not None and (peer, s) in tcl:
            out.append(f"ftc {c} -{s} (--{l}): trace-cmd {peer} has its own -{s}; "
                       f"give its meaning (and a line in cli-letters.ref) or another letter")
    if fam == 'perf' and perfl:
        # 3: perf's letters with perf's long names
        want = perfl.get((peer, s))
        if want and l not in want:
            out.append(f"ftc {c} -{s} is --{l}; perf {peer} -{s} is --{'/--'.join(sorted(want))}")
# 4: within a family a letter keeps one meaning, except where the peer has two
perf_peer = {c: peer for c, fam, peer, s, l in rows if fam == 'perf'}
by_letter = {}
for c, fam, peer, s, l in rows:
    if s != '-':
        by_letter.setdefault((fam, s), set()).add((c, l))
for (fam, s), uses in sorted(by_letter.items()):
    longs = {l for c, l in uses}
    if len(longs) < 2:
        continue
    peer_meanings = {lg for (rc, rs), (lg, man) in refs.items() if rs == s}
    for c, l in sorted(uses):
        if fam == 'trace-cmd':
            # the peer's own, or one of the meanings the peer gives the letter
            peer_own = (c, s) in refs or l in peer_meanings
        else:
            peer_own = l in perfl.get((perf_peer.get(c, 'record'), s), ())
        if not peer_own:
            out.append(f"{fam} family: -{s} means {sorted(longs)}; ftc {c} -{s} --{l} "
                       f"is not the peer's own")
# 5: one long name per thing: the retired synonyms stay retired
retired = {'plugin': 'tracer', 'limit-func': 'func', 'event-fork': 'children',
           'period': 'count', 'interval': 'interval-print', 'fields': 'format',
           'profile-samples': 'sample-profile'}
for c, fam, peer, s, l in rows:
    if l in retired:
        out.append(f"ftc {c} --{l}: ftc spells it --{retired[l]}")
print("\n".join("VIOLATION " + o for o in out))
PY
}

tc_file=-; $have_tc && tc_file=$D/tc-letters
perf_file=-; $have_perf && perf_file=$D/perf-letters
$have_tc || skip "letters against trace-cmd's usage" "trace-cmd is not installed"
$have_perf || skip "letters against perf's usage" "perf is not installed"
check "$D/tables" "$REF" "$tc_file" "$perf_file" >"$D/violations"
v=$(grep '^VIOLATION' "$D/violations")
[ -z "$v" ] && pass "no letter breaks the rule ($(wc -l <"$D/tables") options in $("$FTC" --list-cmds | wc -l) commands)" ||
	fail "no letter breaks the rule" "$(echo "$v" | head -8)"

# The checker must catch each kind of slip: plant one of each in a copy of the tables.
{
	cat "$D/tables"
	echo "snapshot trace-cmd snapshot Z clearall -"		# an ftc-only letter, fine alone
	echo "show trace-cmd show s pipe -"				# trace-cmd's -s with another meaning
	echo "boot-args trace-cmd - c colour -"			# a meaning of -c trace-cmd never gives it
	echo "stat perf stat t thread -"				# perf's -t is --tid
	echo "boot-args trace-cmd - - plugin TRACER"			# a retired synonym
} >"$D/planted"
check "$D/planted" "$REF" "$tc_file" "$perf_file" >"$D/planted.v"
expect_match "a trace-cmd letter with another meaning is caught" "ftc show -s is --pipe" "$(cat "$D/planted.v")"
expect_match "a letter with a third meaning in the family is caught" "ftc boot-args -c --colour is not the peer's own" "$(cat "$D/planted.v")"
$have_perf && expect_match "a perf letter with another long name is caught" "ftc stat -t is --thread; perf stat -t is --tid" "$(cat "$D/planted.v")"
expect_match "a retired long name is caught" "boot-args --plugin: ftc spells it --tracer" "$(cat "$D/planted.v")"
expect_nomatch "an ftc-only letter alone is not a violation" "clearall" "$(cat "$D/planted.v")"
finish
