# SPDX-License-Identifier: GPL-2.0-or-later
# The reader's fuzz target against the one before the work on its speed
# (FTC_FUZZ_BASE, default 2783afe): both built from git. First per
# execution: the same inputs (what today's target keeps from a fixed-seed
# run, less any that stop either side) executed once each by both. Then
# fuzzing: both fed the current seeds for the same number of executions
# with libFuzzer's fixed seed. Alternating; executions per CPU second
# (medians) and their ratio.
# Each side runs with its own tests/fuzz/run settings (the base checked
# leaks on every input, with full ASan malloc stacks, built at -O1); the
# base is also run with today's settings and -O2, which splits the gain
# between code and settings.
# The seeds must exist (tests/fuzz/run makes them). Not a test.
#   EXECS=N (20000) RUNS=N (3)
set -u
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-3}
EXECS=${EXECS:-20000}
BASE=${FTC_FUZZ_BASE:-2783afe}
B=$OUT/fuzz
SEEDS=$TOP/build/fuzz/seeds
NEW_ASAN="detect_leaks=0:malloc_context_size=0:quarantine_size_mb=16:max_malloc_fill_size=0"

command -v clang >/dev/null || { echo "fuzz bench: clang is not installed"; exit 0; }
ls "$SEEDS"/s*.dat >/dev/null 2>&1 || { echo "fuzz bench: no seeds in $SEEDS (run tests/fuzz/run once)"; exit 0; }
git -C "$TOP" cat-file -e "$BASE^{commit}" 2>/dev/null ||
	{ echo "fuzz bench: commit $BASE is not in this clone"; exit 0; }
rm -rf "$B"; mkdir -p "$B"

# build SRC_TREE OUT OPT: the fuzz target as that tree's tests/fuzz/run
# builds it (the base at -O1, today's at -O2).
build() {
	local gen=
	# A tree with scripts/gen-syscalls has its syscall names generated.
	if [ -x "$1/scripts/gen-syscalls" ]; then
		gen=$2-syscall-names.c
		"$1/scripts/gen-syscalls" >"$gen" || return 1
	fi
	# shellcheck disable=SC2046,SC2086
	clang -std=gnu11 -D_GNU_SOURCE -g "$3" -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -DFTC_VERSION='"fuzz"' $(find "$1/libftc" -type d | sed 's/^/-I/') -I"$1/cmd" \
		$(pkg-config --cflags libtracefs libtraceevent) -o "$2" \
		"$1/tests/fuzz/reader-fuzz.c" $(ls "$1/cmd/parse-guard.c" 2>/dev/null) $(find "$1/libftc" -name '*.c') $gen \
		$(pkg-config --libs libtracefs libtraceevent libdw libelf zlib libzstd) -lpthread -lm
}

git -C "$TOP" worktree add --detach -f "$B/base" "$BASE" >/dev/null 2>&1 ||
	{ echo "fuzz bench: cannot check out $BASE"; exit 0; }
build "$B/base" "$B/base-fuzz" -O1 && build "$B/base" "$B/base-fuzz-O2" -O2 &&
	build "$TOP" "$B/new-fuzz" -O2 ||
	{ git -C "$TOP" worktree remove -f "$B/base"; echo "fuzz bench: build failed"; exit 0; }

LSAN="suppressions=$B/base/tests/fuzz/lsan.supp:print_suppressions=0"

# Per execution on identical inputs: what today's target keeps from its own
# fixed-seed run is replayed once through each (libFuzzer -runs=0 runs every
# input of the corpus once and stops; no mutation, no corpus writes). Inputs
# that stop a side (a crash or leak the base still had) are set aside for
# both sides first. Prints the number of inputs kept.
R=$B/replay
make_replay_set() {
	local bin art i
	rm -rf "$R"; mkdir -p "$R"; cp "$SEEDS"/s*.dat "$R/"
	ASAN_OPTIONS=$NEW_ASAN "$B/new-fuzz" -runs="$((EXECS * 5))" -seed=1 -detect_leaks=0 \
		-max_len=262144 "$R" >/dev/null 2>&1
	for i in "$R"/*; do mv -f "$i" "$R/$(sha1sum <"$i" | cut -d' ' -f1)" 2>/dev/null; done
	for bin in "base-fuzz  1" "base-fuzz-O2 0" "new-fuzz 0"; do
		set -- $bin
		for i in $(seq 200); do
			rm -f "$B"/crash-* "$B"/leak-* "$B"/oom-* "$B"/timeout-*
			ASAN_OPTIONS=$([ "$2" = 1 ] || echo "$NEW_ASAN") LSAN_OPTIONS=$LSAN \
				"$B/$1" -runs=0 -detect_leaks="$2" -max_len=262144 -timeout=10 \
				-rss_limit_mb=2048 -artifact_prefix="$B/" "$R" >"$B/replay.log" 2>&1 && break
			art=$(ls "$B"/crash-* "$B"/leak-* "$B"/oom-* "$B"/timeout-* 2>/dev/null | head -1)
			[ -n "$art" ] || break
			# libFuzzer names corpus files by the SHA-1 of their content.
			rm -f "$R/$(sha1sum <"$art" | cut -d' ' -f1)"
		done
	done
	ls "$R" | wc -l
}

# replay BINARY ASAN_OPTIONS LEAKS: executions per CPU second over the set,
# replayed 5 times (time(1) counts in hundredths of a second).
replay() {
	local t=$B/time n
	n=$(( $(ls "$R" | wc -l) * 5 ))
	# shellcheck disable=SC2016
	ASAN_OPTIONS=$2 LSAN_OPTIONS=$LSAN /usr/bin/time -o "$t" -f '%U %S' sh -c \
		'for i in 1 2 3 4 5; do "$0" -runs=0 -detect_leaks="$1" -max_len=262144 "$2"; done' \
		"$1" "$3" "$R" >"$B/log" 2>&1
	tail -1 "$t" | awk -v n="$n" '{ printf "%.0f\n", n / ($1 + $2) }'
}

# compare FN PREFIX TITLE: FN (replay or run) for the three sides, RUNS
# times alternating, then the medians and ratios under TITLE.
compare() {
	local fn=$1 p=$B/$2 old mid new
	: >"$p-old"; : >"$p-mid"; : >"$p-new"
	for _ in $(seq "$RUNS"); do
		$fn "$B/base-fuzz" "" 1 >>"$p-old"
		$fn "$B/base-fuzz-O2" "$NEW_ASAN" 0 >>"$p-mid"
		$fn "$B/new-fuzz" "$NEW_ASAN" 0 >>"$p-new"
	done
	old=$(median <"$p-old"); mid=$(median <"$p-mid"); new=$(median <"$p-new")
	echo "$3, exec per CPU second (median of $RUNS):"
	printf '  %-44s %8s\n' "base $BASE, its own settings" "$old" \
		"base $BASE, today's settings" "$mid" "today's target and settings" "$new"
	echo "  today / base: $(ratio "$new" "$old")x (settings alone: $(ratio "$mid" "$old")x," \
		"code: $(ratio "$new" "$mid")x)"
}

# run BINARY ASAN_OPTIONS LEAKS: prints executions per CPU second. The
# base stops at the first crash it still had: the executions are counted.
run() {
	local c=$B/corpus t=$B/time l=$B/log n
	rm -rf "$c"; mkdir -p "$c"; cp "$SEEDS"/s*.dat "$c/"
	ASAN_OPTIONS=$2 LSAN_OPTIONS=$LSAN /usr/bin/time -o "$t" -f '%U %S' "$1" -runs="$EXECS" -seed=1 -detect_leaks="$3" \
		-max_len=262144 -print_final_stats=1 -artifact_prefix="$B/" "$c" >"$l" 2>&1
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$l")
	[ -n "$n" ] || n=$(grep -oE '^#[0-9]+' "$l" | tail -1 | tr -d '#')
	# After a crash time(1) adds a "Command exited" line before the times.
	tail -1 "$t" | awk -v n="${n:-0}" '{ printf "%.0f\n", n / ($1 + $2) }'
}

compare replay replay "per execution: the same $(make_replay_set) inputs executed once each"
compare run fuzz "fuzzing: $EXECS executions from the seeds (mutation and corpus included; a side
that stops at a crash is counted to there)"
git -C "$TOP" worktree remove -f "$B/base" >/dev/null 2>&1
