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
got=$("$FTC" list -e 'sched:sched_s*')
want=$(grep '^sched:sched_s' "$OUT/avail")
[ "$got" = "$want" ] && pass "-e with a system:event glob" || fail "-e with a system:event glob" "$got"
got=$("$FTC" list -e sched)
want=$(grep '^sched:' "$OUT/avail")
[ "$got" = "$want" ] && pass "-e with a system name" || fail "-e with a system name" "$(echo "$got" | head -3)"
got=$("$FTC" list -e sched_switch)
[ "$got" = "sched:sched_switch" ] && pass "-e with an event name" || fail "-e with an event name" "$got"
got=$("$FTC" list -e no_such_event_xyz); rc=$?
[ $rc = 0 ] && [ -z "$got" ] && pass "-e with no match prints nothing, exits 0" ||
	fail "-e with no match prints nothing, exits 0" "rc=$rc $got"

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

# Filterable functions: listed where readable, a clear refusal where not.
if head -c 1 "$TRACEFS/available_filter_functions" >/dev/null 2>&1; then
	expect_status "-f exits 0 where readable" 0 "$FTC" list -f 'vfs_*'
	expect_match "-f lists vfs_ functions" '^vfs_' "$(cat "$OUT/last.out")"
else
	err=$(cat "$TRACEFS/available_filter_functions" 2>&1 >/dev/null | sed 's/.*: //')
	expect_status "-f exits 3 where the kernel refuses" 3 "$FTC" list -f 'vfs_*'
	expect_match "-f names the file and the kernel's error" \
		"available_filter_functions: $err" "$(cat "$OUT/last.err")"
fi

# Mistakes.
expect_status "a GLOB without -e or -f exits 2" 2 "$FTC" list -t sched
expect_status "two GLOBs exit 2" 2 "$FTC" list -e sched irq
expect_status "--instance of a missing instance exits 3 (as stop and show)" 3 "$FTC" list -o --instance no-such-instance-$$

knobs_unchanged "ftc list"
[ "$(cat "$TRACEFS/instances/$inst/trace_clock" | grep -o '\[[^]]*\]')" = "[global]" ] &&
	pass "the instance's clock is left" || fail "the instance's clock is left" "$(cat "$TRACEFS/instances/$inst/trace_clock")"
rmdir "$TRACEFS/instances/$inst"
finish
