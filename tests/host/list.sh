# SPDX-License-Identifier: GPL-2.0-or-later
# A user lists what tracefs offers: tracers, events with their fields,
# options, clocks, instances, filterable functions; one item per line, the
# same items tracefs itself shows, and nothing changed.
. "$(dirname "$0")/../lib.sh"
OUT=$OUT/list.$$; mkdir -p "$OUT"; trap 'rm -rf "$OUT"' EXIT

inst=$(test_instance list)
mkdir "$TRACEFS/instances/$inst" || { fail "make a test instance" "mkdir failed"; finish; }
echo global >"$TRACEFS/instances/$inst/trace_clock"
knobs_save

# Tracers: available_tracers, one per line.
got=$("$FTC" list -t); rc=$?
want=$(tr ' ' '\n' <"$TRACEFS/available_tracers" | grep .)
[ $rc = 0 ] && [ "$got" = "$want" ] && pass "-t lists available_tracers" ||
	fail "-t lists available_tracers" "rc=$rc got: $got"

# Clocks: trace_clock's words, the current one in brackets.
got=$("$FTC" list -C)
want=$(tr ' ' '\n' <"$TRACEFS/trace_clock" | grep .)
[ "$got" = "$want" ] && pass "-C lists trace_clock, current in brackets" ||
	fail "-C lists trace_clock, current in brackets" "$got"
got=$("$FTC" list -C --instance "$inst")
expect_match "--instance reads that instance's clock" '^\[global\]$' "$got"

# Instances.
got=$("$FTC" list -B)
expect_match "-B lists the test instance" "^$inst\$" "$got"
[ "$got" = "$(ls "$TRACEFS/instances" | sort)" ] && pass "-B lists exactly the instances" ||
	fail "-B lists exactly the instances" "$got"

# Events: every event of available_events, as system:event, sorted.
"$FTC" list -e >"$OUT/events"; rc=$?
[ $rc = 0 ] && pass "-e exits 0" || fail "-e exits 0" "exited $rc"
sort "$TRACEFS/available_events" >"$OUT/avail"
missing=$(comm -23 "$OUT/avail" "$OUT/events" | head -3)
[ -z "$missing" ] && pass "-e lists every event of available_events" ||
	fail "-e lists every event of available_events" "missing: $missing"
sort -c "$OUT/events" 2>/dev/null && pass "-e output is sorted" || fail "-e output is sorted" "not sorted"
got=$("$FTC" list -e no_such_event_xyz); rc=$?
[ $rc = 0 ] && [ -z "$got" ] && pass "-e with no match prints nothing, exits 0" ||
	fail "-e with no match prints nothing, exits 0" "rc=$rc $got"

# A REGEX selects as trace-cmd list's does (POSIX basic, case-insensitive,
# unanchored; SYSTEM:EVENT parts): the same events, sorted, but for the
# ftrace system's internal events, which trace-cmd adds and which cannot be
# enabled.
if command -v trace-cmd >/dev/null; then
	for re in sched '^sched_switch$' 'sched:sched_s' 'sched:' ':sched_sw' 'witch$' 'sched_s*' \
		  'x.*_exit$' 'irq:.*entry' '^irq$' 'SCHED:SWITCH' 'a\|b' '^[a-c]' 'sched_switch'; do
		want=$(trace-cmd list -e "$re" 2>&1 | grep -v '^ftrace:' | sort)
		got=$("$FTC" list -e "$re" 2>&1)
		[ -n "$got" ] && [ "$got" = "$want" ] &&
			pass "-e '$re' lists what trace-cmd list -e does ($(echo "$got" | wc -l))" ||
			fail "-e '$re' lists what trace-cmd list -e does" \
				"$(diff <(echo "$want") <(echo "$got") | head -4)"
	done
	# -R and -l: the event, its trigger or filter file as is, a blank line.
	paragraphs() { awk 'BEGIN { RS = ""; FS = "\n" } { $1 = $1; print }' | sort; }
	for o in -R -l; do
		got=$("$FTC" list -e '^sched_switch$' $o)
		want=$(trace-cmd list -e '^sched_switch$' $o)
		[ "$got" = "$want" ] && pass "-e REGEX $o shows what trace-cmd list does" ||
			fail "-e REGEX $o shows what trace-cmd list does" \
				"$(diff <(echo "$want") <(echo "$got") | head -4)"
		got=$("$FTC" list -e 'sched:wak' $o | paragraphs)
		want=$(trace-cmd list -e 'sched:wak' $o | paragraphs)
		[ -n "$got" ] && [ "$got" = "$want" ] &&
			pass "-e 'sched:wak' $o: trace-cmd's paragraphs ($(echo "$got" | wc -l) events)" ||
			fail "-e 'sched:wak' $o: trace-cmd's paragraphs" \
				"$(diff <(echo "$want") <(echo "$got") | head -4)"
	done
	# Options: trace-cmd's, sorted by name (trace-cmd prints the directory's order).
	[ "$("$FTC" list -o | sort)" = "$(trace-cmd list -o | sort)" ] &&
		pass "-o lists what trace-cmd list -o does" ||
		fail "-o lists what trace-cmd list -o does" \
			"$(diff <(trace-cmd list -o | sort) <("$FTC" list -o | sort) | head -4)"
	# Compressions: trace-cmd's, at the same library versions.
	got=$("$FTC" list -c)
	trace-cmd list -c | sed -n 's/^\t//p' >"$OUT/tc-comp"
	[ -s "$OUT/tc-comp" ] || fail "-c: trace-cmd lists compressions" "$(trace-cmd list -c 2>&1)"
	while read -r line; do
		expect_match "-c lists trace-cmd's '$line'" "^$line\$" "$got"
	done <"$OUT/tc-comp"
else
	skip "-e, -R, -l, -o, -c against trace-cmd list" "trace-cmd is not installed"
fi
got=$("$FTC" list -e 'sched:sched_switch$')
[ "$got" = "sched:sched_switch" ] && pass "-e with SYSTEM:EVENT regex parts" ||
	fail "-e with SYSTEM:EVENT regex parts" "$got"
got=$("$FTC" list -e 'SCHED:^SCHED_SWITCH$')
[ "$got" = "sched:sched_switch" ] && pass "-e REGEX is case-insensitive" ||
	fail "-e REGEX is case-insensitive" "$got"
got=$("$FTC" list -e 'sched:')
want=$(grep '^sched:' "$OUT/avail")
[ "$got" = "$want" ] && pass "-e 'SYSTEM:' lists the systems' events" ||
	fail "-e 'SYSTEM:' lists the systems' events" "$(echo "$got" | head -3)"
got=$("$FTC" list -e 'sched_s*')
want=$(awk -F: '$1 ~ /sched_/ || $2 ~ /sched_/' "$OUT/avail")
[ "$got" = "$want" ] && pass "-e 'sched_s*' is a regex (sched_, then any s), not a glob" ||
	fail "-e 'sched_s*' is a regex (sched_, then any s), not a glob" \
		"$(diff <(echo "$want") <(echo "$got") | head -3)"

# Fields: the format file's own fields, parsed by libtraceevent.
fmt=$TRACEFS/events/sched/sched_switch/format
want=$(sed -n 's/^\tfield:\(.*\);\toffset:\([0-9]*\);\tsize:\([0-9]*\);\tsigned:\([0-9]*\);$/\1 \2 \3 \4/p' "$fmt" |
	grep -v ' common_')
got=$("$FTC" list -e -F sched:sched_switch | sed -n 's/^\t\(.*\);\toffset:\([0-9]*\);\tsize:\([0-9]*\);\tsigned:\([0-9]*\);$/\1 \2 \3 \4/p')
[ -n "$want" ] && [ "$got" = "$want" ] && pass "-F shows sched_switch's fields as its format file" ||
	fail "-F shows sched_switch's fields as its format file" "got: $(echo "$got" | head -3) want: $(echo "$want" | head -3)"
got=$("$FTC" list -F 'sched:sched_switch' 2>&1 | head -1)
[ "$got" = "sched:sched_switch" ] && pass "-F alone implies -e, options after the glob work" ||
	fail "-F alone implies -e, options after the glob work" "$got"
# libtraceevent 1.7.1 leaks 2 bytes parsing an empty __print_symbolic() (kvm's
# kvm_inj_exception): an ASan build would fail on that library's leak, not ftc's.
LSAN_OPTIONS=suppressions=$TOP/tests/lsan.supp:print_suppressions=0 "$FTC" list -e -F >"$OUT/all-fields" 2>"$OUT/fields.err"; rc=$?
[ $rc = 0 ] && pass "-e -F parses every event's format" ||
	fail "-e -F parses every event's format" "rc=$rc: $(head -3 "$OUT/fields.err")"

# Options, as trace_options takes them.
got=$("$FTC" list -o)
want=$(for f in "$TRACEFS"/options/*; do n=${f##*/}; [ "$(cat "$f")" = 1 ] && echo "$n" || echo "no$n"; done)
[ "$got" = "$want" ] && pass "-o lists options as name/noname" || fail "-o lists options as name/noname" "$(diff <(echo "$got") <(echo "$want") | head -3)"

# Everything, with headers.
got=$("$FTC" list)
for h in tracers events options clocks instances; do
	expect_match "no selector lists $h under a header" "^# $h\$" "$got"
done

# Triggers and filters of an instance (our own): its files, as they read.
ev=$TRACEFS/instances/$inst/events/sched/sched_switch
echo 'traceoff if prev_pid == 1' >"$ev/trigger"
echo 'prev_pid > 1' >"$ev/filter"
got=$("$FTC" list -R '^sched_switch$' --instance "$inst")
want=$(printf 'sched:sched_switch\n%s\n' "$(cat "$ev/trigger")")
[ "$got" = "$want" ] && expect_match "-R alone implies -e, reads the instance's trigger file" \
	'^traceoff:unlimited if prev_pid == 1$' "$got" ||
	fail "-R alone implies -e, reads the instance's trigger file" "$got"
got=$("$FTC" list -e -l '^sched_switch$' --instance "$inst")
[ "$got" = "$(printf 'sched:sched_switch\nprev_pid > 1')" ] &&
	pass "-l reads the instance's filter file" || fail "-l reads the instance's filter file" "$got"
echo '!traceoff' >>"$ev/trigger"
echo 0 >"$ev/filter"

# Compressions: the ones ftc writes, each with its library's version.
"$FTC" list -c >"$OUT/comp"; rc=$?
[ $rc = 0 ] && [ "$(cut -d, -f1 "$OUT/comp" | tr '\n' ' ')" = "zstd zlib " ] &&
	pass "-c lists zstd and zlib" || fail "-c lists zstd and zlib" "rc=$rc: $(cat "$OUT/comp")"
expect_match "-c gives each library's version" '^zstd, [0-9]+\.[0-9]+\.[0-9]+$' "$(cat "$OUT/comp")"
for alg in $(cut -d, -f1 "$OUT/comp"); do
	if "$FTC" record -q -B "$inst" -e sched:sched_switch --compression "$alg" \
		-o "$OUT/$alg.dat" -- true >/dev/null 2>"$OUT/rec.err" &&
	   "$FTC" report "$OUT/$alg.dat" >/dev/null 2>>"$OUT/rec.err"; then
		pass "-c: ftc writes and reads a $alg trace.dat"
	else
		fail "-c: ftc writes and reads a $alg trace.dat" "$(tail -2 "$OUT/rec.err")"
	fi
done

# Filterable functions: listed where readable, a clear refusal where not.
if head -c 1 "$TRACEFS/available_filter_functions" >/dev/null 2>&1; then
	expect_status "-f exits 0 where readable" 0 "$FTC" list -f '^vfs_'
	expect_match "-f lists vfs_ functions" '^vfs_' "$(cat "$OUT/last.out")"
	want=$(grep -i 'VFS_READ' "$TRACEFS/available_filter_functions")
	[ "$("$FTC" list -f 'VFS_READ')" = "$want" ] && pass "-f REGEX as grep -i finds it" ||
		fail "-f REGEX as grep -i finds it" "differs from grep -i VFS_READ"
else
	err=$(cat "$TRACEFS/available_filter_functions" 2>&1 >/dev/null | sed 's/.*: //')
	expect_status "-f exits 3 where the kernel refuses" 3 "$FTC" list -f '^vfs_'
	expect_match "-f names the file and the kernel's error" \
		"available_filter_functions: $err" "$(cat "$OUT/last.err")"
	if command -v trace-cmd >/dev/null; then
		trace-cmd list -f '^vfs_' >/dev/null 2>&1
		[ $? != 0 ] && pass "-f: trace-cmd list -f is refused here too" ||
			fail "-f: trace-cmd list -f is refused here too" "trace-cmd read the list"
	fi
fi

# Mistakes.
expect_status "a REGEX without -e or -f exits 2" 2 "$FTC" list -t sched
expect_status "two REGEXes exit 2" 2 "$FTC" list -e sched irq
expect_status "a REGEX that does not compile exits 2" 2 "$FTC" list -e 'sched_\('
expect_match "a REGEX that does not compile: says why" \
	"^ftc list: 'sched_.*': not a regular expression .*: Unmatched" "$(cat "$OUT/last.err")"
expect_status "a bad -f REGEX exits 2, before the kernel is asked" 2 "$FTC" list -f '[vfs'
expect_status "--instance of a missing instance exits 3 (as stop and show)" 3 "$FTC" list -o --instance no-such-instance-$$
expect_status "--module of a module not loaded exits 3" 3 "$FTC" list --module ftc-no-such-module
expect_match "--module of a module not loaded: says so" \
	"^ftc list: --module ftc-no-such-module: no such module is loaded" "$(cat "$OUT/last.err")"
expect_status "--module with -t exits 2" 2 "$FTC" list --module ftc-no-such-module -t

knobs_unchanged "ftc list"
[ "$(cat "$TRACEFS/instances/$inst/trace_clock" | grep -o '\[[^]]*\]')" = "[global]" ] &&
	pass "the instance's clock is left" || fail "the instance's clock is left" "$(cat "$TRACEFS/instances/$inst/trace_clock")"
rmdir "$TRACEFS/instances/$inst"
finish
