#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ftc stream in a real terminal (a tmux pane of a private server): a known
# workload's getppid calls appear on the screen live, in order (entry,
# exit, entry, ...; time never going back) and counted right, a second
# batch after the first; Ctrl-C typed into the pane ends it with 0, its
# instance removed and tracefs as it was.
. "$(dirname "$0")/../lib.sh"

command -v tmux >/dev/null || { skip "stream tmux" "tmux is not installed"; finish; }
D=$(mktemp -d /tmp/ftc-stream-tmux.XXXXXX)
S=ftc-stream-tmux-$$
. "$(dirname "$0")/tmux.bash"
cleanup() {
	tmux_cleanup
	rm -rf "$D"
}
trap cleanup EXIT
knobs_save

# N getppid calls, then a pause: the task is still there when ftc stream
# asks /proc for its comm (--comm selects on it).
GEN=$D/stream-gp
printf '%s\n' '#include <stdlib.h>' '#include <sys/syscall.h>' '#include <unistd.h>' \
	'int main(int argc, char **argv)' \
	'{ long n = atol(argv[1]); for (long i = 0; i < n; i++) syscall(SYS_getppid);' \
	'  usleep(500000); return 0; }' >"$GEN.c"
setup "build the workload" cc -O2 -o "$GEN" "$GEN.c" || finish

eq() {	# NAME WANT GOT
	[ "$2" = "$3" ] && pass "$1" || fail "$1" "wanted $(echo $2 | head -c 80), got $(echo $3 | head -c 200)"
}
cap() { tm capture-pane -p -J -S - -t "$S"; }
# The getppid lines on the screen, as "enter"/"exit", in screen order.
calls() { cap | grep -oE 'sys_(enter|exit)_getppid' | sed 's/sys_//; s/_getppid//'; }
# How many lines of the screen go back in time.
backwards() {
	cap | grep getppid | grep -oE ' [0-9]+\.[0-9]+:' | tr -d ' :' |
		awk 'NR > 1 && $1 < last { n++ } { last = $1 } END { print n + 0 }'
}

i=$(test_instance tmux)
tm new-session -d -s "$S" -x 160 -y 60 "$FTC stream -B $i -e syscalls:sys_enter_getppid \
-e syscalls:sys_exit_getppid --comm stream-gp --window 100 2>$D/err; echo \$? >$D/status"
tm set-option -t "$S" remain-on-exit on >/dev/null
tm set-option -t "$S" history-limit 5000 >/dev/null
if ! wait_for "cat $TRACEFS/instances/$i/events/syscalls/sys_exit_getppid/enable 2>/dev/null" '^1'; then
	fail "tmux: ftc stream starts in a pane" "$(cap | tail -5; tail -3 "$D/err")"
	finish
fi
pass "tmux: ftc stream starts in a pane"

# Ready when a first call shows (tracing_on and the events are set before
# the readers run): one call at a time until one does.
for k in $(seq 1 25); do
	"$GEN" 1
	[ "$(calls | wc -l)" -ge 2 ] && break
done
base=$(calls | wc -l)
if [ "$base" -ge 2 ]; then
	pass "tmux: a first call shows"
else
	fail "tmux: a first call shows" "$(cap | tail -5; tail -3 "$D/err")"
	finish
fi
# since the warm-up
fresh() { calls | tail -n +$((base + 1)); }
"$GEN" 7
if wait_for "fresh | wc -l" '^14$'; then
	pass "tmux: 7 calls show as 14 lines"
else
	fail "tmux: 7 calls show as 14 lines" "$(fresh | wc -l) lines: $(cap | tail -5)"
fi
eq "tmux: entry, exit, entry, ... in order" \
	"$(printf 'enter\nexit\n%.0s' 1 2 3 4 5 6 7)" "$(fresh)"
"$GEN" 5
if wait_for "fresh | wc -l" '^24$'; then
	pass "tmux: a second batch of 5 follows live (24 lines)"
else
	fail "tmux: a second batch of 5 follows live (24 lines)" "$(fresh | wc -l) lines"
fi
eq "tmux: 12 entries, 12 exits, alternating" \
	"$(printf 'enter\nexit\n%.0s' $(seq 12))" "$(fresh)"
eq "tmux: the screen never goes back in time" 0 "$(backwards)"

tm send-keys -t "$S" C-c
if wait_for "cat $D/status 2>/dev/null" '^[0-9]+$'; then
	eq "tmux: Ctrl-C ends it with 0" 0 "$(cat "$D/status")"
else
	fail "tmux: Ctrl-C ends it with 0" "still running: $(cap | tail -3)"
fi
if [ -d "$TRACEFS/instances/$i" ]; then
	fail "tmux: its instance is removed" "$TRACEFS/instances/$i is still there"
	rmdir "$TRACEFS/instances/$i" 2>/dev/null
else
	pass "tmux: its instance is removed"
fi
knobs_unchanged "ftc stream in tmux"
finish
