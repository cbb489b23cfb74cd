# SPDX-License-Identifier: GPL-2.0-or-later
# ftc convert and ftc split against trace-cmd 3.1.6: a capture of two
# instances of ours (and perf samples in ftc_perf when perf is allowed) is
# converted to v6 and v7 with each compression, both ways, with some of its
# instances, and trace-cmd's own conversions are converted again; every
# file must print the very same report text as the original, through
# trace-cmd report and ftc report, and carry the same metadata. Split parts
# together must print the original's records, each once, and cut where
# trace-cmd split cuts (the same parts, record for record). Bad input gets
# a message and the documented exit code.
. "$(dirname "$0")/../lib.sh"

for t in trace-cmd python3; do
	command -v $t >/dev/null || { skip "convert-split" "$t is not installed"; finish; }
done
PROMOTE="$TOP/tests/interop/tracedat-promote.py"
FORGET="$TOP/tests/interop/tracedat-forget-comms.py"
INFLATE="$TOP/tests/interop/tracedat-inflate.py"
D=$OUT/convert-split.$$
rm -rf "$D"; mkdir -p "$D"
trap '[ "$T_FAILED" = 0 ] && rm -rf "$D"' EXIT
knobs_save
A=ftc-convsplit-a$$ B=ftc-convsplit-b$$

# --- The capture ----------------------------------------------------------
# Two instances of ours, a workload of about two seconds (for -s 1), perf
# samples beside them when perf_event_open allows a software clock.
work='for i in 1 2 3 4 5; do ls / /usr /usr/lib >/dev/null; sleep 0.45; done'
# Only the workload and its children (-F -c): the whole machine's events
# made the capture 100 times larger beside other work (578 K lines of
# report), and this test took 30 minutes instead of two.
record() {
	"$FTC" record -q -o "$D/orig.dat" -F -c -B "$A" -e sched -e syscalls -B "$B" \
		-e sched:sched_switch "$@" -- sh -c "$work" >"$D/record.log" 2>&1
}
if record --sample cpu-clock --freq 200; then
	perf=1
elif record; then
	perf=0
	skip "convert-split: the ftc_perf instance" "ftc record --sample fails here: $(tail -1 "$D/record.log")"
else
	fail "setup: ftc record into $A and $B" "$(tail -3 "$D/record.log")"
	finish
fi
for i in "$A" "$B"; do
	[ ! -d "$TRACEFS/instances/$i" ] || fail "ftc record removed its instance $i" "still there"
done

# tc FILE / ft FILE: the report text of each tool (stderr apart: it must be empty).
tc() { trace-cmd report -i "$1" 2>"$D/tc.err"; }
ft() { "$FTC" report "$1" 2>"$D/ft.err"; }
# Without plugins: a task the command lines lack is named by the plugins
# after the records printed before its own (see tcn below), and a file
# with some buffers only prints others before it.
tcN() { trace-cmd report -N -i "$1" 2>"$D/tc.err"; }
ftN() { "$FTC" report -N "$1" 2>"$D/ft.err"; }
tc "$D/orig.dat" >"$D/orig.tc" && ft "$D/orig.dat" >"$D/orig.ft" ||
	{ fail "setup: both tools read the capture" "$(cat "$D/tc.err" "$D/ft.err" | head -3)"; finish; }
n=$(grep -c "^$A:" "$D/orig.tc")
[ "$n" -gt 2000 ] && pass "the capture holds $n events of $A" ||
	fail "the capture holds events of $A" "$n (see $D/orig.tc)"
[ "$perf" = 0 ] || { grep -q 'ftc_perf:' "$D/orig.tc" && pass "the capture holds perf samples" ||
	fail "the capture holds perf samples" "none in $D/orig.tc"; }

# same_reports NAME FILE [NO_TC]: both tools print the original's text, byte for byte.
same_reports() {
	local name=$1 f=$2
	if ft "$f" >"$D/x.ft" && [ ! -s "$D/ft.err" ] && cmp -s "$D/x.ft" "$D/orig.ft"; then
		pass "$name: ftc report prints the original's text"
	else
		fail "$name: ftc report prints the original's text" \
			"$(cat "$D/ft.err" | head -2)$(diff "$D/orig.ft" "$D/x.ft" | head -4)"
	fi
	[ -n "${3:-}" ] && return
	if tc "$f" >"$D/x.tc" && [ ! -s "$D/tc.err" ] && cmp -s "$D/x.tc" "$D/orig.tc"; then
		pass "$name: trace-cmd report prints the original's text"
	else
		fail "$name: trace-cmd report prints the original's text" \
			"$(cat "$D/tc.err" | head -2)$(diff "$D/orig.tc" "$D/x.tc" | head -4)"
	fi
}

# version_is NAME FILE VERSION COMPRESSION: as ftc dump reads the head.
version_is() {
	local got
	got=$("$FTC" dump "$2" | awk '/^version:/ { v = $2 } /^compression:/ { c = $2 } END { print v, c }')
	[ "$got" = "$3 $4" ] && pass "$1: version $3, $4" || fail "$1: version $3, $4" "ftc dump: $got"
}

# --- ftc convert of ftc's file ----------------------------------------------
conv() {	# conv NAME ARGS...: ftc convert ARGS, which must succeed silently
	local name=$1
	shift
	if "$FTC" convert "$@" >"$D/conv.out" 2>"$D/conv.err" && [ ! -s "$D/conv.out" ] &&
	   [ ! -s "$D/conv.err" ]; then
		return 0
	fi
	fail "$name: ftc convert $*" "exit $?: $(cat "$D/conv.out" "$D/conv.err" | head -3)"
	return 1
}
conv "to v6" --file-version 6 -i "$D/orig.dat" -o "$D/v6.dat" &&
	{ version_is "to v6" "$D/v6.dat" 6 none; same_reports "to v6" "$D/v6.dat"; }
conv "to v7 none" --compression none "$D/orig.dat" "$D/v7n.dat" &&
	{ version_is "to v7 none" "$D/v7n.dat" 7 none; same_reports "to v7 none" "$D/v7n.dat"; }
conv "to v7 default" "$D/orig.dat" "$D/v7d.dat" &&
	{ version_is "to v7 default" "$D/v7d.dat" 7 zstd; same_reports "to v7 default" "$D/v7d.dat"; }
conv "to v7 any" --compression any -o "$D/v7a.dat" "$D/orig.dat" &&
	version_is "to v7 any" "$D/v7a.dat" 7 zstd
# Debian's trace-cmd 3.1.6 has no zlib: an independent inflater checks it.
if conv "to v7 zlib" --compression zlib "$D/orig.dat" "$D/v7z.dat"; then
	version_is "to v7 zlib" "$D/v7z.dat" 7 zlib
	same_reports "to v7 zlib" "$D/v7z.dat" no-trace-cmd
	# The same reader on the uncompressed conversion: every CPU, empty ones too.
	pages() { python3 "$INFLATE" "$1" | awk '/^buffer \x27/ { gsub(/[:\x27]/, ""); print $2, $4, $5 }'; }
	if python3 "$INFLATE" "$D/v7z.dat" >/dev/null 2>"$D/inflate.err"; then
		got=$(pages "$D/v7z.dat") want=$(pages "$D/v7n.dat")
		[ -n "$got" ] && [ "$got" = "$want" ] &&
			pass "to v7 zlib: an independent reader inflates every page of every CPU" ||
			fail "to v7 zlib: an independent reader inflates every page of every CPU" \
				"zlib: $(echo $got) / none: $(echo $want) (files in $D)"
	else
		fail "to v7 zlib: an independent reader inflates it" "$(cat "$D/inflate.err")"
	fi
fi
# Back the other way, and each compression into the other.
conv "v6 to v7" "$D/v6.dat" "$D/v6-v7.dat" && same_reports "v6 to v7" "$D/v6-v7.dat"
conv "v7 zlib to v6" --file-version 6 "$D/v7z.dat" "$D/z-v6.dat" && same_reports "v7 zlib to v6" "$D/z-v6.dat"
conv "v7 none to zlib" --compression zlib "$D/v7n.dat" "$D/n-z.dat" &&
	same_reports "v7 none to zlib" "$D/n-z.dat" no-trace-cmd

# The metadata: the options that say how to read the trace, the CPU stats
# of each instance, and every metadata section as trace-cmd dump prints it.
opts() {	# TRACECLOCK, UNAME, TRACEID as ftc dump shows them, offsets left out
	"$FTC" dump --options "$1" | awk '$3 ~ /^(TRACECLOCK|UNAME|TRACEID)$/ { $4 = $5 = ""; print }'
}
stats() {	# each instance's CPU stats
	"$FTC" dump --buffers "$1" | awk '/^  buffer/ { b = $2 } /^    cpu/ && b != "\"\"" {
		print b, $2, $(NF - 2), $(NF - 1), $NF }'
}
for f in v6 v7n v7d v7z; do
	[ -f "$D/$f.dat" ] || continue
	[ "$(opts "$D/$f.dat")" = "$(opts "$D/orig.dat")" ] && [ -n "$(opts "$D/orig.dat")" ] &&
		pass "$f: the clock, uname and trace id are the original's" ||
		fail "$f: the clock, uname and trace id are the original's" "$(opts "$D/$f.dat" | head -3)"
	[ "$(stats "$D/$f.dat")" = "$(stats "$D/orig.dat")" ] &&
		pass "$f: each instance's CPU stats are the original's" ||
		fail "$f: each instance's CPU stats are the original's" "$(diff <(stats "$D/orig.dat") <(stats "$D/$f.dat") | head -4)"
done

# --- trace-cmd's conversions: the same files, and ftc converts them ---------
tcconv() { trace-cmd convert -i "$D/orig.dat" "$@" >"$D/tcconv.log" 2>&1; }
if tcconv -o "$D/tc6.dat" --file-version 6 && tcconv -o "$D/tc7n.dat" --compression none &&
   tcconv -o "$D/tc7z.dat" --compression zstd; then
	# what trace-cmd dump prints of each metadata section, section headers left out
	for part in --headers --ftrace-events --systems --events --kallsyms --printk --cmd-lines; do
		for pair in "v6 tc6" "v7d tc7z"; do
			set -- $pair
			if cmp -s <(trace-cmd dump $part -i "$D/$1.dat" 2>&1 | grep -v '^[[:space:]]*\[Section') \
				  <(trace-cmd dump $part -i "$D/$2.dat" 2>&1 | grep -v '^[[:space:]]*\[Section'); then
				pass "$1: trace-cmd dump $part prints what it prints of trace-cmd's own conversion"
			else
				fail "$1: trace-cmd dump $part prints what it prints of trace-cmd's own conversion" \
					"$(diff <(trace-cmd dump $part -i "$D/$1.dat" 2>&1) <(trace-cmd dump $part -i "$D/$2.dat" 2>&1) | head -3)"
			fi
		done
	done
	for f in tc6 tc7n tc7z; do
		same_reports "trace-cmd's $f (sanity)" "$D/$f.dat"
		conv "trace-cmd's $f to v7" -i "$D/$f.dat" "$D/$f-v7.dat" &&
			same_reports "trace-cmd's $f to v7" "$D/$f-v7.dat"
		conv "trace-cmd's $f to v6" --file-version 6 "$D/$f.dat" "$D/$f-v6.dat" &&
			same_reports "trace-cmd's $f to v6" "$D/$f-v6.dat"
	done
else
	fail "setup: trace-cmd convert" "$(tail -3 "$D/tcconv.log")"
fi

# --- -B: only the instances named -----------------------------------------
# The records of the buffers kept are the original's lines of those buffers.
only() {	# only FILE PATTERN: record lines of the original's report whose buffer matches
	grep -E "^ *($2):" "$1"
}
buffers() { "$FTC" dump --buffers "$1" | awk '/^  buffer/ { printf "%s%s", s, $2; s = " " }'; }
tcN "$D/orig.dat" >"$D/orig.tcN"; ftN "$D/orig.dat" >"$D/orig.ftN"
if conv "-B $A" -B "$A" "$D/orig.dat" "$D/onlyA.dat"; then
	[ "$(buffers "$D/onlyA.dat")" = "\"\" \"$A\"" ] &&
		pass "-B $A: the file lists $A and a top buffer without CPUs only" ||
		fail "-B $A: the file lists $A only" "$(buffers "$D/onlyA.dat")"
	cmp -s <(tcN "$D/onlyA.dat" | grep -v '^cpus=') <(only "$D/orig.tcN" "$A") &&
		pass "-B $A: trace-cmd report prints the original's $A records, and only them" ||
		fail "-B $A: trace-cmd report prints the original's $A records" \
			"$(diff <(only "$D/orig.tcN" "$A") <(tcN "$D/onlyA.dat") | head -3)"
	cmp -s <(ftN "$D/onlyA.dat" | grep -v '^#') <(only "$D/orig.ftN" "$A") &&
		pass "-B $A: ftc report prints the original's $A records, and only them" ||
		fail "-B $A: ftc report prints the original's $A records" \
			"$(diff <(only "$D/orig.ftN" "$A") <(ftN "$D/onlyA.dat" | grep -v '^#') | head -3)"
fi
if [ "$perf" = 1 ] && conv "-B $B -B ftc_perf" -B ftc_perf -B "$B" --file-version 6 "$D/orig.dat" "$D/onlyBp.dat"; then
	cmp -s <(tcN "$D/onlyBp.dat" | grep -v '^cpus=') <(only "$D/orig.tcN" "$B|ftc_perf") &&
		pass "-B $B -B ftc_perf (v6): trace-cmd report prints their records, and only them" ||
		fail "-B $B -B ftc_perf (v6): trace-cmd report prints their records" \
			"$(diff <(only "$D/orig.tcN" "$B|ftc_perf") <(tcN "$D/onlyBp.dat") | head -3)"
	cmp -s <(ftN "$D/onlyBp.dat" | grep -v '^#') <(only "$D/orig.ftN" "$B|ftc_perf") &&
		pass "-B $B -B ftc_perf (v6): ftc report -N prints their records, and only them" ||
		fail "-B $B -B ftc_perf (v6): ftc report prints their records" \
			"$(diff <(only "$D/orig.ftN" "$B|ftc_perf") <(ftN "$D/onlyBp.dat" | grep -v '^#') | head -3)"
fi
expect_status "-B an instance the file lacks: exit 3" 3 "$FTC" convert -B nosuch "$D/orig.dat" "$D/nosuch.dat"
expect_match "-B an instance the file lacks: the message names it" "has no instance 'nosuch'" "$(cat "$OUT/last.err")"
[ ! -e "$D/nosuch.dat" ] && pass "-B an instance the file lacks: no file is made" ||
	fail "-B an instance the file lacks: no file is made" "$D/nosuch.dat exists"
expect_status "-B top of a file of instances only: exit 1" 1 "$FTC" convert -B top "$D/orig.dat" "$D/top.dat"
expect_match "-B top of a file of instances only: says why" "no CPU data" "$(cat "$OUT/last.err")"

# --- ftc split --------------------------------------------------------------
# trace-cmd 3.1 splits the top-level buffer only: a copy of the capture whose
# top-level buffer is $A (tracedat-promote.py), kept alone by ftc convert -B top.
if python3 "$PROMOTE" "$D/v6.dat" "$D/promoted.dat" "$A" 2>"$D/promote.err" &&
   conv "-B top of the promoted file" -B top --file-version 6 "$D/promoted.dat" "$D/top6.dat" &&
   conv "-B top to v7" -B top "$D/promoted.dat" "$D/top7.dat"; then
	m=$(tc "$D/top6.dat" | grep -vc '^cpus=')
	[ "$m" = "$n" ] || fail "setup: the top-level copy holds $A's records" "$m of $n"
else
	fail "setup: a file whose top buffer holds the events" "$(cat "$D/promote.err")"
fi

# body FILE: trace-cmd report's records (its "cpus=" line apart)
body() { tc "$1" | grep -v '^cpus='; }
counts() { for f in "$@"; do body "$f" | wc -l; done | tr '\n' ' '; }
# once_at START: the records, a second copy of one at START left out.
# trace-cmd 3.1.6 can write the first event at START twice (ftc-split(1)):
# CI's run of 40c395d had 394 records in its part, ftc 393, the one
# more a record at START printed twice.
once_at() {
	awk -v t="$1:" '{ at = 0; for (i = 1; i <= NF; i++) if ($i == t) at = 1 }
		at && seen[$0]++ { next } { print }'
}

# vs_tracecmd NAME INPUT OPTS...: ftc split and trace-cmd split make the same
# parts, each printing (through trace-cmd report) the same records. With
# START set, trace-cmd's parts print a record at START once.
vs_tracecmd() {
	local name=$1 in=$2 dir f
	shift 2
	dir=$D/split-$(echo "$name" | tr -c 'a-z0-9\n' _)
	mkdir -p "$dir/tc" "$dir/ftc"
	(cd "$dir/tc" && trace-cmd split -i "$in" -o part "$@" >../tc.log 2>&1)
	if ! (cd "$dir/ftc" && "$FTC" split -i "$in" -o part "$@" >../ftc.log 2>&1); then
		fail "$name: ftc split" "$(cat "$dir/ftc.log")"
		return
	fi
	local names_tc names_ftc
	names_tc=$(cd "$dir/tc" && ls part.* 2>/dev/null | tr '\n' ' ')
	names_ftc=$(cd "$dir/ftc" && ls part.* 2>/dev/null | tr '\n' ' ')
	[ -n "$names_ftc" ] && [ "$names_tc" = "$names_ftc" ] &&
		pass "$name: the parts are named as trace-cmd names them ($(echo $names_ftc | wc -w): $(echo $names_ftc | cut -c1-40))" ||
		fail "$name: the parts are named as trace-cmd names them" "trace-cmd: $names_tc; ftc: $names_ftc"
	local ct cf
	for f in $names_tc; do
		body "$dir/tc/$f" | once_at "${START:-none}" >"$dir/tc/$f.body"
	done
	ct=$(cd "$dir/tc" && for f in $names_tc; do wc -l <"$f.body"; done | tr '\n' ' ')
	cf=$(cd "$dir/ftc" && counts part.*)
	[ "$ct" = "$cf" ] && pass "$name: records per part as trace-cmd split's ($cf)" ||
		fail "$name: records per part as trace-cmd split's" "trace-cmd: $ct; ftc: $cf"
	local same=0 total=0
	for f in $names_ftc; do
		total=$((total + 1))
		cmp -s "$dir/tc/$f.body" <(body "$dir/ftc/$f") && same=$((same + 1))
	done
	[ "$same" = "$total" ] && pass "$name: each part prints trace-cmd's part's records" ||
		fail "$name: each part prints trace-cmd's part's records" "$same of $total alike (see $dir)"
}

# same_lines SORT A B: A and B hold the same lines, in the same order unless SORT is "sort".
same_lines() {
	if [ "$1" = sort ]; then cmp -s <(sort "$2") <(sort "$3"); else cmp -s "$2" "$3"; fi
}

# tcn FILE: trace-cmd report without plugins. With them, a task that the
# file's command lines lack is named after the sched_switch and
# sched_wakeup records printed before its line (libtraceevent's
# sched_switch plugin registers their comms, and the first one stays):
# the same record then prints "sh-PID" in the whole file and "<...>-PID"
# or "ls-PID" in a part that starts after the task's fork. The kernel's
# saved_cmdlines loses tasks when many come and go (a busy machine), and
# the union checks failed then with the records all there: each line must
# depend on its record and the file's metadata only. ftc report's plugins
# do the same (ftc report -N for its check).
tcn() { trace-cmd report -N -i "$1" 2>"$D/tc.err"; }

# union NAME SORT FILES...: the parts' records together are the original's
# (in $D/ref.tc, from tcn), each once.
union() {
	local name=$1 sort=$2 f
	shift 2
	local bad=0
	for f in "$@"; do
		tcn "$f" >"$D/part.tc"
		[ -s "$D/tc.err" ] && bad=$((bad + 1))
		grep -v '^cpus=' "$D/part.tc"
	done >"$D/union.tc"
	[ "$bad" = 0 ] && pass "$name: trace-cmd report opens every part ($#) without a word on stderr" ||
		fail "$name: trace-cmd report opens every part" "$bad complained: $(head -2 "$D/tc.err")"
	grep -v '^cpus=' "$D/ref.tc" >"$D/ref.tc.body"
	same_lines "$sort" "$D/union.tc" "$D/ref.tc.body" && pass "$name: the parts hold the original's records, each once (trace-cmd report -N)" ||
		fail "$name: the parts hold the original's records, each once (trace-cmd report -N)" \
			"$(wc -l <"$D/union.tc") lines, $(grep -vc '^cpus=' "$D/ref.tc") in the original"
	# ftc report -R -N: raw fields, as a perf sample's symbol needs its mmap
	# in the same part, and no plugin: ftc's reader names tasks as tcn's does
	for f in "$@"; do "$FTC" report -R -N "$f" | grep -v '^#'; done >"$D/union.ft"
	grep -v '^#' "$D/ref.ftR" >"$D/ref.ftR.body"
	same_lines "$sort" "$D/union.ft" "$D/ref.ftR.body" && pass "$name: the parts hold the original's records, each once (ftc report -R -N)" ||
		fail "$name: the parts hold the original's records, each once (ftc report -R -N)" \
			"$(wc -l <"$D/union.ft") lines, $(grep -vc '^#' "$D/ref.ftR") in the original"
}

if [ -f "$D/top6.dat" ]; then
	vs_tracecmd "-e 2000 -r" "$D/top6.dat" -e 2000 -r
	vs_tracecmd "-s 1 -r" "$D/top6.dat" -s 1 -r
	vs_tracecmd "-m 300 -r" "$D/top7.dat" -m 300 -r
	vs_tracecmd "-e 1500 -c -r" "$D/top6.dat" -e 1500 -c -r
	vs_tracecmd "-u 250000 -c -r (v7)" "$D/top7.dat" -u 250000 -c -r
	vs_tracecmd "-e 3000 (one part)" "$D/top7.dat" -e 3000
	# START and END from the trace's own times: the 30th and the 3000th records
	t1=$(body "$D/top6.dat" | sed -n 30p | grep -oE '[0-9]+\.[0-9]{6}:' | tr -d :)
	t2=$(body "$D/top6.dat" | sed -n 3000p | grep -oE '[0-9]+\.[0-9]{6}:' | tr -d :)
	# trace-cmd 3.1.6 can write the first event at START twice: ftc's part
	# is checked against the original's events from START to END instead.
	mkdir -p "$D/range" && (cd "$D/range" && "$FTC" split -i "$D/top6.dat" -o r "$t1" "$t2" 2>/dev/null)
	trace-cmd report -t -i "$D/top6.dat" 2>/dev/null | awk -v a="$t1" -v b="$t2" '
		function ns(t) { split(t, p, "."); return p[1] * 1e9 + substr(p[2] "000000000", 1, 9) }
		!/^cpus=/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			t = ns(substr($i, 1, length($i) - 1)); if (t >= ns(a) && t <= ns(b)) print; break } }' >"$D/range.want"
	trace-cmd report -t -i "$D/range/r.1" 2>/dev/null | grep -v '^cpus=' >"$D/range.got"
	[ -s "$D/range.want" ] && cmp -s "$D/range.want" "$D/range.got" &&
		pass "START END: one part, the original's $(wc -l <"$D/range.got") events from START to END" ||
		fail "START END: one part, the original's events from START to END" \
			"$(wc -l <"$D/range.got") of $(wc -l <"$D/range.want"): $(diff "$D/range.want" "$D/range.got" | head -3)"
	START=$t2 vs_tracecmd "-e 500 -r START" "$D/top6.dat" -e 500 -r "$t2"

	tcn "$D/top6.dat" >"$D/ref.tc"; "$FTC" report -R -N "$D/top6.dat" >"$D/ref.ftR"
	union "-e 2000 -r" keep "$D"/split-_e_2000__r/ftc/part.*
	union "-e 1500 -c -r" sort "$D"/split-_e_1500__c__r/ftc/part.*
	# -p counts the file's pages (trace-cmd packs pages anew and counts
	# those: a part can end a record apart, see ftc-split(1))
	mkdir -p "$D/pages" && (cd "$D/pages" && "$FTC" split -i "$D/top6.dat" -o p -p 4 -r 2>/dev/null)
	max=$(for f in "$D"/pages/p.*; do "$FTC" dump --buffers "$f" | awk '/^    cpu/ { print $6 / 4096 }'; done |
		sort -n | tail -1)
	[ -n "$max" ] && [ "$max" -le 4 ] && [ "$max" -ge 3 ] &&
		pass "-p 4 -r: each part holds up to 4 pages of each CPU ($(ls "$D/pages" | wc -l) parts)" ||
		fail "-p 4 -r: each part holds up to 4 pages of each CPU" "up to $max"
	union "-p 4 -r" sort "$D"/pages/p.*

	# The same, made certain: a copy whose command lines name no task, cut
	# at the exec of a task whose fork the first part holds (the whole
	# file, through plugins, names it after its fork; the second part
	# cannot). The parts still hold the very records.
	if python3 "$FORGET" "$D/top6.dat" "$D/nocomm.dat" 2>"$D/forget.err"; then
		set -- $(trace-cmd report -N -t -i "$D/nocomm.dat" 2>/dev/null | awk '
			/ sched_wakeup_new: / { for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) born[substr($i, 5)] = 1 }
			/ sys_exit_execve: / && match($0, /-[0-9]+ +\[/) {
				p = substr($0, RSTART + 1, RLENGTH - 1); sub(/ .*/, "", p)
				if (p in born) { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
					print p, substr($i, 1, length($i) - 1); exit } } }')
	fi
	if [ $# = 2 ]; then
		# report -t prints nanoseconds: the first part ends 1 ns before
		before=$(awk -v t="$2" 'BEGIN { split(t, p, "."); ns = p[2] - 1; s = p[1]
			if (ns < 0) { ns += 1000000000; s-- } printf "%d.%09d", s, ns }')
		mkdir -p "$D/exec" && (cd "$D/exec" && "$FTC" split -i "$D/nocomm.dat" -o a 0 "$before" &&
			"$FTC" split -i "$D/nocomm.dat" -o b "$2") 2>"$D/exec.err"
		tcn "$D/nocomm.dat" >"$D/ref.tc"; "$FTC" report -R -N "$D/nocomm.dat" >"$D/ref.ftR"
		union "cut at pid $1's exec, no task in the command lines" keep "$D/exec/a.1" "$D/exec/b.1"
	else
		fail "setup: a copy without task names, cut at an exec" "$(cat "$D/forget.err") pid and time: $*"
	fi
fi

# Every buffer of ftc's capture, perf samples included: v7 zstd parts of v7 zstd.
all=$(grep -vc '^cpus=' "$D/orig.tc")
mkdir -p "$D/multi" && (cd "$D/multi" && "$FTC" split -i "$D/orig.dat" -o m -e $((all / 4)) -r 2>"$D/multi.err")
tcn "$D/orig.dat" >"$D/ref.tc"; "$FTC" report -R -N "$D/orig.dat" >"$D/ref.ftR"
set -- "$D"/multi/m.*
if [ -f "$1" ] && { [ "$#" = 4 ] || [ "$#" = 5 ]; }; then
	pass "-e $((all / 4)) -r of the capture: $# parts"
else
	fail "-e $((all / 4)) -r of the capture: 4 or 5 parts" "$#: $(cat "$D/multi.err")"
fi
version_is "a part of a v7 zstd file" "$1" 7 zstd
union "-e $((all / 4)) -r of the capture (every instance)" keep "$@"
mkdir -p "$D/multi6" && (cd "$D/multi6" && "$FTC" split -i "$D/v6.dat" -o m -m 400 -c -r 2>"$D/multi6.err")
version_is "a part of a v6 file" "$D/multi6/m.0001" 6 none
union "-m 400 -c -r of the v6 copy (every instance)" sort "$D"/multi6/m.*

# Without a size: one part from START to END, named OUT.1; -o defaults to the input's name.
cp "$D/orig.dat" "$D/whole.dat"
expect_status "no size: exit 0" 0 "$FTC" split -i "$D/whole.dat"
[ -f "$D/whole.dat.1" ] && [ ! -e "$D/whole.dat.2" ] && pass "no size, no -o: one part, INPUT.1" ||
	fail "no size, no -o: one part, INPUT.1" "$(ls "$D" | grep whole)"
same_reports "no size: the one part" "$D/whole.dat.1"

# --- Bad input --------------------------------------------------------------
for c in convert split; do
	out=$D/bad.$c
	[ $c = convert ] && args=("$D/none.dat" "$out") || args=(-i "$D/none.dat" -o "$out")
	expect_status "$c of a missing file: exit 1" 1 "$FTC" $c "${args[@]}"
	expect_match "$c of a missing file: names it" "none\.dat: cannot open: No such file" "$(cat "$OUT/last.err")"
done
# v7 keeps its index at the end: cut short inside the metadata, nothing can
# be located; cut in the CPU data (where a capture's size puts 3/4 of it),
# the whole chunks before the cut are kept, as report prints them.
head -c $(( $(stat -c %s "$D/orig.dat") * 3 / 4 )) "$D/orig.dat" >"$D/cut7.dat"
expect_status "convert of a v7 file cut short: exit 1" 1 "$FTC" convert "$D/cut7.dat" "$D/cut7c.dat"
expect_match "convert of a v7 file cut short: says where" "cut7\.dat: cut at [0-9]+ of" "$(cat "$OUT/last.err")"
if grep -q 'inside its metadata' "$OUT/last.err"; then
	[ ! -e "$D/cut7c.dat" ] && pass "convert of a v7 file cut in its metadata: no file is left" ||
		fail "convert of a v7 file cut in its metadata: no file is left" "$D/cut7c.dat exists"
else
	"$FTC" report -R -N "$D/cut7.dat" 2>/dev/null | grep -v '^#' >"$D/cut7.ft"
	[ -s "$D/cut7.ft" ] && cmp -s "$D/cut7.ft" <("$FTC" report -R -N "$D/cut7c.dat" 2>/dev/null | grep -v '^#') &&
		pass "convert of a v7 file cut in its data keeps the records report reads there" ||
		fail "convert of a v7 file cut in its data keeps the records report reads there" \
			"$(wc -l <"$D/cut7.ft") lines read; $(head -2 "$OUT/last.err")"
fi
expect_status "split of a v7 file cut short: exit 1" 1 "$FTC" split -i "$D/cut7.dat" -o "$D/cut7s" -e 1000 -r
# v6 keeps it at the start: cut in the data, the records before the cut are kept.
# The cut goes through A's fullest CPU: it went through CPU 0 until a CI run
# where both reports of the cut file were empty, as they are when the
# workload ran on CPU 1 alone (a cut past an empty CPU 0, in CPU 1's first
# page, leaves no whole page before it).
set -- $("$FTC" dump --buffers "$D/v6.dat" | awk -v a="\"$A\"" '$1 == "buffer" { b = $2 }
	b == a && $1 == "cpu" && $6 > size { off = $4; size = $6 } END { print off, size }')
head -c $(( $1 + $2 / 2 + 1234 )) "$D/v6.dat" >"$D/cut6.dat"
expect_status "convert of a v6 file cut short: exit 1" 1 "$FTC" convert --file-version 6 "$D/cut6.dat" "$D/cut6c.dat"
expect_match "convert of a v6 file cut short: names the damage" "cut6\.dat: .*truncated" "$(cat "$OUT/last.err")"
"$FTC" report -R "$D/cut6.dat" 2>/dev/null | grep -v '^#' >"$D/cut6.ft"
[ -s "$D/cut6.ft" ] && cmp -s "$D/cut6.ft" <("$FTC" report -R "$D/cut6c.dat" 2>/dev/null | grep -v '^#') &&
	pass "convert of a v6 file cut short: the new file holds the $(wc -l <"$D/cut6.ft") records before the cut" ||
	fail "convert of a v6 file cut short: the new file holds the records before the cut" \
		"$(diff "$D/cut6.ft" <("$FTC" report -R "$D/cut6c.dat" 2>&1 | grep -v '^#') | head -3)"
body "$D/cut6c.dat" >/dev/null && [ ! -s "$D/tc.err" ] && pass "convert of a v6 file cut short: trace-cmd reads the new file" ||
	fail "convert of a v6 file cut short: trace-cmd reads the new file" "$(head -2 "$D/tc.err")"
expect_status "split of a v6 file cut short: exit 1" 1 "$FTC" split -i "$D/cut6.dat" -o "$D/cut6s" -e 5000 -r
cmp -s "$D/cut6.ft" <(for f in "$D"/cut6s.*; do "$FTC" report -R "$f" 2>/dev/null | grep -v '^#'; done) &&
	pass "split of a v6 file cut short: the parts hold the records before the cut" ||
	fail "split of a v6 file cut short: the parts hold the records before the cut" "see $D/cut6s.*"
# Not a trace.dat at all.
printf 'not a trace\n' >"$D/text.dat"
expect_status "convert of a text file: exit 1" 1 "$FTC" convert "$D/text.dat" "$D/text-c.dat"
expect_match "convert of a text file: says so" "text\.dat: not a trace\.dat" "$(cat "$OUT/last.err")"

# Bad values: exit 2, the option and the value named.
bad_value() {	# bad_value WHAT REGEX ARGS... (expect_status sets $name)
	local what=$1 re=$2
	shift 2
	expect_status "$what: exit 2" 2 "$FTC" "$@"
	expect_match "$what: the message says what is wrong" "$re" "$(cat "$OUT/last.err")"
}
bad_value "split -s abc" "-s 'abc': not a number of seconds" split -i "$D/orig.dat" -s abc
bad_value "split -s 0" "-s '0': .*above 0" split -i "$D/orig.dat" -s 0
bad_value "split -s -1" "-s '-1'" split -i "$D/orig.dat" -s -1
bad_value "split -e 0" "-e '0': not a number above 0" split -i "$D/orig.dat" -e 0
bad_value "split -s 1 -e 5" "-s is given already" split -i "$D/orig.dat" -s 1 -e 5
bad_value "split with START not a time" "START 'soon' is not a time" split -i "$D/orig.dat" soon
bad_value "split with END before START" "END 5 is before START 6" split -i "$D/orig.dat" 6 5
bad_value "convert --file-version 5" "--file-version '5': not a trace.dat version" convert --file-version 5 "$D/orig.dat" "$D/x.dat"
bad_value "convert --compression lz4" "--compression 'lz4': not a compression" convert --compression lz4 "$D/orig.dat" "$D/x.dat"
bad_value "convert v6 with zstd" "version 6 has no compression" convert --file-version 6 --compression zstd "$D/orig.dat" "$D/x.dat"
bad_value "convert without an output" "name the file to write" convert "$D/orig.dat"
[ ! -e "$D/x.dat" ] && pass "bad values: no file is made" || fail "bad values: no file is made" "$D/x.dat exists"
# Nothing from START to END; the input as the output.
expect_status "split after the last event: exit 1" 1 "$FTC" split -i "$D/orig.dat" -o "$D/late" 99999999
expect_match "split after the last event: says so" "no event at or after START" "$(cat "$OUT/last.err")"
[ ! -e "$D/late.1" ] && pass "split after the last event: no file is made" || fail "split after the last event: no file is made" "$D/late.1"
sum=$(md5sum <"$D/v7n.dat")
expect_status "convert onto its input: exit 1" 1 "$FTC" convert "$D/v7n.dat" "$D/v7n.dat"
expect_match "convert onto its input: says so" "is the file being read" "$(cat "$OUT/last.err")"
[ "$(md5sum <"$D/v7n.dat")" = "$sum" ] && pass "convert onto its input: the input is untouched" ||
	fail "convert onto its input: the input is untouched" "it changed"

for i in "$A" "$B"; do
	[ ! -d "$TRACEFS/instances/$i" ] || fail "no instance of ours is left" "$i"
done
knobs_unchanged "convert-split"
finish
