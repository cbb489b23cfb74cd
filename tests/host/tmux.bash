# SPDX-License-Identifier: GPL-2.0-or-later
# Terminal tests' helpers (sourced by top.sh and stream-tmux.sh; not a test:
# tests/run runs *.sh). Set S (server and session name) first.
# tm ARGS...: tmux on a server of our own: the default one is shared with
# whoever else uses tmux.
tm() { tmux -L "$S" "$@"; }
# tmux_cleanup: that server and its socket gone.
tmux_cleanup() {
	tm kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$S"
}
# wait_for TEXT_CMD REGEX [TRIES]: polls every 0.1 s (50 times) until the
# output of TEXT_CMD matches.
wait_for() {
	local i
	for i in $(seq 1 "${3:-50}"); do
		eval "$1" | grep -Eq -- "$2" && return 0
		sleep 0.1
	done
	return 1
}
