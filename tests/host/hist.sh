# SPDX-License-Identifier: GPL-2.0-or-later
# A user asks for a histogram of an event: ftc hist sets a hist trigger,
# prints the kernel's table and removes it. Here the command line's
# mistakes, and what a kernel without hist triggers (this host's) makes
# of it: exit 3, the event's trigger file and CONFIG_HIST_TRIGGERS named,
# nothing written, no instance made, no output file, no journal left.
# Where the kernel has them, a short real run in a private instance; the
# lab (tests/lab/hist.sh) checks the tables themselves.
. "$(dirname "$0")/../lib.sh"
OUT=$OUT/hist.$$; mkdir -p "$OUT"; trap 'rm -rf "$OUT"' EXIT
export FTC_JOURNAL_DIR=$OUT/journal

inst=$(test_instance hist)
ev=sched:sched_switch
knobs_save

# --help fits 100 columns; --list-opts feeds completion.
"$FTC" hist --help >"$OUT/help"; rc=$?
wide=$(awk 'length > 100' "$OUT/help")
[ $rc = 0 ] && [ -z "$wide" ] && pass "--help exits 0 and fits 100 columns" ||
	fail "--help exits 0 and fits 100 columns" "rc=$rc: $wide"
opts=$("$FTC" hist --list-opts)
for o in --event -e --key --value --sort --filter -f --instance -B --size --duration --raw \
	 --show --output -o --quiet -q; do
	expect_match "--list-opts offers $o" "^$o\$" "$opts"
done

# usage_error NAME PATTERN ARGS...: exit 2, the message matches PATTERN.
usage_error() {
	name=$1 pat=$2; shift 2
	expect_status "$name exits 2" 2 "$FTC" hist "$@"
	expect_match "$name: says why" "$pat" "$(cat "$OUT/last.err")"
}
usage_error "no -e" "give the event with -e SYSTEM:EVENT" --key prev_pid
usage_error "no --key" "give the keys to count by with --key" -e $ev
usage_error "--show with --key" "--show .* takes no --key" --show -e $ev --key prev_pid
usage_error "--show with a command" "--show .* takes no a COMMAND" --show -e $ev -- true
usage_error "--duration with a command" "--duration or a COMMAND, not both" \
	-e $ev --key prev_pid --duration 1 -- true
usage_error "a field the event lacks" \
	"--key 'no_such_field': sched:sched_switch has no field 'no_such_field'" \
	-e $ev --key prev_pid,no_such_field
usage_error "a value the event lacks" "--value 'nope': sched:sched_switch has no field" \
	-e $ev --key prev_pid --value nope
usage_error "an unknown key type" "unknown key type '.bogus' \\(sym, sym-offset" \
	-e $ev --key prev_pid.bogus
usage_error "buckets without a size" "unknown key type '.buckets='" -e $ev --key prev_pid.buckets=
usage_error "a sort key that is no key" "--sort 'prev_prio': not hitcount, nor one of the keys" \
	-e $ev --key prev_pid --sort prev_prio
usage_error "three sort keys" "two keys at most" \
	-e $ev --key prev_pid,next_pid --sort hitcount,prev_pid,next_pid
usage_error "a size the kernel refuses" "--size '64': not a size the kernel takes" \
	-e $ev --key prev_pid --size 64
usage_error "a size past 2^17" "--size '131073'" -e $ev --key prev_pid --size 131073
usage_error "an empty list item" "--key 'prev_pid,': an empty item" -e $ev --key prev_pid,
usage_error "an event glob of several" "matches [0-9]+ events .*give SYSTEM:EVENT" \
	-e 'sched:sched_sw*' --key prev_pid
usage_error "a zero duration" "--duration '0': not a duration" -e $ev --key prev_pid --duration 0
expect_status "an event that does not exist exits 3" 3 "$FTC" hist -e no_such:event --key x
expect_match "an event that does not exist: says so" "event 'no_such:event': no event matches" \
	"$(cat "$OUT/last.err")"

hist_file=$TRACEFS/events/sched/sched_switch/hist
if [ ! -e "$hist_file" ]; then
	# The refusal, with everything that would have changed something.
	expect_status "no hist triggers here: exits 3" 3 "$FTC" hist -e $ev \
		--key prev_pid.execname --value prev_prio --sort hitcount.descending \
		-f 'prev_pid > 0' -B "$inst" -o "$OUT/table" -- true
	err=$(cat "$OUT/last.err")
	expect_match "the refusal names the instance's trigger file" \
		"^ftc hist: $TRACEFS/instances/$inst/events/sched/sched_switch/trigger: " "$err"
	expect_match "the refusal names CONFIG_HIST_TRIGGERS" "without CONFIG_HIST_TRIGGERS" "$err"
	[ "$(wc -l <"$OUT/last.err")" = 1 ] && pass "the refusal is one line" ||
		fail "the refusal is one line" "$err"
	[ ! -e "$TRACEFS/instances/$inst" ] && pass "the refusal makes no instance" ||
		fail "the refusal makes no instance" "instances/$inst exists"
	[ ! -e "$OUT/table" ] && pass "the refusal writes no output file" ||
		fail "the refusal writes no output file" "$OUT/table exists"
	expect_status "no hist triggers at the top level: exits 3" 3 "$FTC" hist -e $ev --key prev_pid
	expect_match "the top level's trigger file is named" \
		"^ftc hist: $TRACEFS/events/sched/sched_switch/trigger: .*CONFIG_HIST_TRIGGERS" \
		"$(cat "$OUT/last.err")"
	expect_status "--show without hist triggers exits 3" 3 "$FTC" hist --show -e $ev
	expect_match "--show names the trigger file and the option" \
		"sched_switch/trigger: .*CONFIG_HIST_TRIGGERS" "$(cat "$OUT/last.err")"
	expect_status "--duration without hist triggers exits 3 at once" 3 \
		timeout 5 "$FTC" hist -e $ev --key prev_pid --duration 30
else
	# This kernel has them: a short run in a private instance.
	expect_status "a histogram of sched_switch for 0.5 s exits 0" 0 "$FTC" hist -q \
		-B "$inst" -e $ev --key prev_pid --duration 0.5
	expect_match "its table has the kernel's totals" '^    Hits: [0-9]+$' "$(cat "$OUT/last.out")"
	[ ! -e "$TRACEFS/instances/$inst" ] && pass "the instance made for it is removed" ||
		fail "the instance made for it is removed" "instances/$inst is left"
fi
left=$(ls "$FTC_JOURNAL_DIR" 2>/dev/null)
[ -z "$left" ] && pass "no journal is left behind" || fail "no journal is left behind" "$left"
knobs_unchanged "ftc hist"
finish
