# SPDX-License-Identifier: GPL-2.0-or-later
# A user presses TAB: bash completion offers ftc's commands, each command's
# own options, and live tracefs values (events, clocks, instances).
. "$(dirname "$0")/../lib.sh"

PATH=$(dirname "$FTC"):$PATH
. "$TOP/bash-completion/ftc"

complete_words() {	# complete_words WORD... : completes the last word
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_ftc
	printf '%s\n' "${COMPREPLY[@]}"
}

cmds=$("$FTC" --list-cmds)
got=$(complete_words ftc "")
for c in $cmds; do
	expect_match "TAB after ftc offers $c" "^$c\$" "$got"
done
for c in $cmds; do
	got=$(complete_words ftc "$c" --he)
	expect_match "TAB on 'ftc $c --he' offers --help" '^--help$' "$got"
done
if [ -r "$TRACEFS/trace_clock" ]; then
	got=$(complete_words ftc "$(echo "$cmds" | head -1)" -C gl)
	expect_match "TAB after -C offers the kernel's clocks" '^global$' "$got"
	got=$(complete_words ftc "$(echo "$cmds" | head -1)" -e sched:sched_sw)
	expect_match "TAB after -e offers events" '^sched:sched_switch$' "$got"
else
	skip "completion of tracefs values" "tracefs is not mounted"
fi
finish
