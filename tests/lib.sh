# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for ftc's shell tests. Each test script sources this file,
# says what a user does, and asserts what they see. Results are lines
# "PASS name", "FAIL name: why", "SKIP name: why" that tests/run counts.

TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
FTC=${FTC:-$TOP/ftc}
TRACEFS=${TRACEFS:-/sys/kernel/tracing}
OUT=${OUT:-$TOP/tests/out}
# ftc report loads the build's plugins (plugins/, beside ./ftc): trace-cmd
# report loads them too, so that both print the same text.
export TRACEEVENT_PLUGIN_DIR=${TRACEEVENT_PLUGIN_DIR-$TOP/plugins}
mkdir -p "$OUT"
T_FAILED=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; T_FAILED=1; }
skip() { echo "SKIP $1: $2"; }

# expect NAME COMMAND...: COMMAND must succeed.
expect() {
	name=$1; shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "'$*' failed: $(echo "$out" | tail -3)"; fi
}

# setup NAME COMMAND...: a step the checks need (building, creating an
# instance, cleaning up), not a check: silent when COMMAND succeeds, so it
# is not counted as a pass; FAIL when it does not. Returns COMMAND's status.
setup() {
	name=$1; shift
	if out=$("$@" 2>&1); then return 0; fi
	fail "setup: $name" "'$*' failed: $(echo "$out" | tail -3)"
	return 1
}

# expect_status NAME STATUS COMMAND...: COMMAND must exit with STATUS.
expect_status() {
	name=$1; want=$2; shift 2
	"$@" >"$OUT/last.out" 2>"$OUT/last.err"; got=$?
	if [ "$got" = "$want" ]; then pass "$name"; else
		fail "$name" "'$*' exited $got, want $want: $(tail -3 "$OUT/last.err")"; fi
}

# expect_match NAME REGEX TEXT
expect_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then pass "$1"; else
		fail "$1" "no line matches /$2/ in: $(printf '%s' "$3" | head -5)"; fi
}

expect_nomatch() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		fail "$1" "unexpected /$2/ in: $(printf '%s\n' "$3" | grep -E -- "$2" | head -3)"
	else pass "$1"; fi
}

# A snapshot of every readable tracefs knob that a command could change,
# top level and instances, so tests can assert that nothing was left changed.
# Files that change by themselves (buffers' contents, statistics) are left out.
knobs_snapshot() {
	(
	cd "$TRACEFS" || exit 1
	for f in *; do
		[ -f "$f" ] || continue
		case "$f" in
		trace|trace_pipe|trace_marker|trace_marker_raw|saved_cmdlines|saved_tgids|\
		printk_formats|available_*|dyn_ftrace_total_info|error_log|uprobe_profile|\
		kprobe_profile|free_buffer|README|buffer_total_size_kb|touched_functions|\
		enabled_functions|snapshot|stack_trace|stack_trace_filter|per_cpu) continue ;;
		esac
		printf '%s=' "$f"; cat "$f" 2>/dev/null | head -c 4096 | tr '\n' ' '; echo
	done
	for f in options/*; do printf '%s=%s\n' "$f" "$(cat "$f" 2>/dev/null)"; done
	for c in per_cpu/cpu*; do printf '%s/buffer_size_kb=%s\n' "$c" "$(cat "$c/buffer_size_kb")"; done
	echo "instances=$(ls instances | tr '\n' ' ')"
	grep -r --include=enable --include=filter --include=trigger -v -e '^0$' -e '^none$' \
		-e '^# Available triggers' -e '^# traceon' events 2>/dev/null | sort
	)
}

knobs_save() { knobs_snapshot >"$OUT/knobs.$$.before"; }

# Other test runs' instances (ftc-* not named after this run) may come and
# go while a developer runs tests in parallel: they are left out. So are
# other runs' uprobes (probe definitions are global): a test's uprobe
# targets a binary under its own $OUT, so one on a binary elsewhere is
# another run's.
knobs_mine_only() {
	awk -v mine="ftc-test-$$-" -v out_dir="$OUT/" '/^instances=/ {
		out = "instances="
		n = split(substr($0, 11), names, " ")
		for (i = 1; i <= n; i++)
			if (index(names[i], mine) == 1 || names[i] !~ /^ftc/)
				out = out " " names[i]
		print out; next
	}
	/^(dynamic_events|uprobe_events)=/ {
		eq = index($0, "="); line = substr($0, 1, eq); keep = 1
		n = split(substr($0, eq + 1), w, " ")
		for (i = 1; i <= n; i++) {
			# a definition starts with its kind and name: p:GROUP/NAME
			if (w[i] ~ /^[a-z][0-9]*:[^=]*$/ && i < n && w[i + 1] ~ /^\//)
				keep = index(w[i + 1], out_dir) == 1
			else if (w[i] ~ /^[a-z][0-9]*:[^=]*$/)
				keep = 1
			if (keep) line = line w[i] " "
		}
		print line; next
	} { print }' "$1"
}

# The kernel sizes the top-level ring buffer lazily: until something traces
# there, buffer_size_kb reads "7 (expanded: 1408)" and every per_cpu size
# reads 7. The first enabled event (by anyone, ftc or trace-cmd) grows it to
# the promised size, rounded up to whole sub-buffers, and it never shrinks
# back. knobs_expanded BEFORE AFTER prints BEFORE as it would read after
# that one-way growth, but only when AFTER shows exactly it: the top level
# and every CPU at the promised size plus less than one sub-buffer. Any
# other size (a real leak, one CPU resized) still differs.
knobs_expanded() {
	awk -v after="$2" '
	BEGIN {
		sub_kb = 4
		while ((getline line < after) > 0) {
			if (line ~ /^buffer_subbuf_size_kb=/) { v = substr(line, 23); sub_kb = v + 0 }
			else if (line ~ /^buffer_size_kb=/) top = substr(line, 16)
			else if (line ~ /^per_cpu\/cpu[0-9]+\/buffer_size_kb=/) {
				ncpu++; v = line; sub(/^[^=]*=/, "", v); cpu[ncpu] = v
			}
		}
	}
	FNR == 1 { grown = 0 }
	/^buffer_size_kb=[0-9]+ \(expanded: [0-9]+\)/ {
		want = $0; sub(/^.*expanded: /, "", want); want += 0
		got = top; gsub(/ /, "", got)
		if (got ~ /^[0-9]+$/ && got + 0 >= want && got + 0 < want + sub_kb) {
			grown = 1
			for (i = 1; i <= ncpu; i++) if (cpu[i] + 0 != got + 0) grown = 0
		}
		if (grown) { unexpanded = $0; sub(/^buffer_size_kb=/, "", unexpanded)
			sub(/ .*/, "", unexpanded); print "buffer_size_kb=" top; next }
	}
	grown && /^per_cpu\/cpu[0-9]+\/buffer_size_kb=/ {
		v = $0; sub(/^[^=]*=/, "", v)
		if (v == unexpanded) { k = $0; sub(/=.*/, "", k); print k "=" got + 0; next }
	}
	{ print }' "$1"
}

# knobs_unchanged NAME: fails and shows the diff when a knob differs.
knobs_unchanged() {
	knobs_snapshot >"$OUT/knobs.$$.after"
	if d=$(diff <(knobs_expanded "$OUT/knobs.$$.before" "$OUT/knobs.$$.after" | knobs_mine_only /dev/stdin) \
		    <(knobs_mine_only "$OUT/knobs.$$.after")); then
		pass "$1: tracefs left as found"
	else
		fail "$1: tracefs left as found" "$(echo "$d" | head -10)"
	fi
}

# instance_knobs DIR: every knob of one instance, as text, for before/after
# comparisons (knobs_snapshot covers the top level).
instance_knobs() {
	(
	cd "$1" || exit 1
	for f in *; do
		[ -f "$f" ] || continue
		case "$f" in trace|trace_pipe|trace_marker*|error_log|buffer_total_size_kb|free_buffer|\
			     set_ftrace*|available_*|snapshot) continue ;; esac
		printf '%s=%s\n' "$f" "$(head -c 4096 "$f" 2>/dev/null | tr '\n' ' ')"
	done
	for f in options/*; do printf '%s=%s\n' "$f" "$(cat "$f")"; done
	grep -r --include=enable --include=filter --include=trigger -v -e '^0$' -e '^none$' \
		-e '^# Available triggers' -e '^# traceon' events 2>/dev/null | sort
	)
}

# build_hot DEST: the profiling tests' CPU-bound program (tests/fixtures/hot.c:
# "DEST SECS [EXIT_CODE] [kernel]", its time in hot_function).
build_hot() { cc -g -O1 -fno-omit-frame-pointer -o "$1" "$TOP/tests/fixtures/hot.c"; }

# A private instance name for this test run.
test_instance() { echo "ftc-test-$$-$1"; }

# recording_started INST FILE: waits (up to 10 s) until ftc record has
# written FILE's head and turned INST's tracing on; a new instance starts
# with tracing on, which ftc turns off until the head is written.
recording_started() {
	local _
	for _ in $(seq 1 100); do
		[ -s "$2" ] && [ "$(cat "$TRACEFS/instances/$1/tracing_on" 2>/dev/null)" = 1 ] && return
		sleep 0.1
	done
}

# instances_remove NAME...: tracing off, then the instance gone (a test's cleanup).
instances_remove() {
	local i
	for i in "$@"; do
		{ echo 0 > "$TRACEFS/instances/$i/tracing_on"; } 2>/dev/null
		rmdir "$TRACEFS/instances/$i" 2>/dev/null
	done
}

# mid_gap FILE: a time (SECONDS.MICROSECONDS) in the middle of a capture
# with no record within a microsecond of it, so that trace-cmd's rounded
# microseconds and ftc's nanoseconds put every record on the same side.
mid_gap() {
	"$FTC" report -t "$1" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		v = substr($i, 1, length($i) - 1); sub(/\./, "", v); t[++n] = v; break } }
		END { for (k = int(n / 2); k < n; k++) if (t[k + 1] - t[k] >= 3000) {
			b = int(t[k] / 1000) + 2; printf "%d.%06d\n", int(b / 1000000), b % 1000000; exit } }'
}

finish() { exit $T_FAILED; }
