# SPDX-License-Identifier: GPL-2.0-or-later
# The reader's fuzz target against the one before the work on its speed
# (FTC_FUZZ_BASE, default 2783afe): both built from git, both fed the
# current seeds for the same number of executions with libFuzzer's fixed
# seed, alternating; executions per CPU second (medians) and their ratio.
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
	# shellcheck disable=SC2046
	clang -std=gnu11 -D_GNU_SOURCE -g "$3" -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -DFTC_VERSION='"fuzz"' $(find "$1/libftc" -type d | sed 's/^/-I/') -I"$1/cmd" \
		$(pkg-config --cflags libtracefs libtraceevent) -o "$2" \
		"$1/tests/fuzz/reader-fuzz.c" $(ls "$1/cmd/parse-guard.c" 2>/dev/null) $(find "$1/libftc" -name '*.c') \
		$(pkg-config --libs libtracefs libtraceevent libdw libelf zlib libzstd) -lpthread -lm
}

git -C "$TOP" worktree add --detach -f "$B/base" "$BASE" >/dev/null 2>&1 ||
	{ echo "fuzz bench: cannot check out $BASE"; exit 0; }
build "$B/base" "$B/base-fuzz" -O1 && build "$B/base" "$B/base-fuzz-O2" -O2 &&
	build "$TOP" "$B/new-fuzz" -O2 ||
	{ git -C "$TOP" worktree remove -f "$B/base"; echo "fuzz bench: build failed"; exit 0; }

# run BINARY ASAN_OPTIONS LEAKS: prints executions per CPU second. The
# base stops at the first crash it still had: the executions are counted.
run() {
	local c=$B/corpus t=$B/time l=$B/log n
	rm -rf "$c"; mkdir -p "$c"; cp "$SEEDS"/s*.dat "$c/"
	ASAN_OPTIONS=$2 LSAN_OPTIONS="suppressions=$B/base/tests/fuzz/lsan.supp:print_suppressions=0" \
		/usr/bin/time -o "$t" -f '%U %S' "$1" -runs="$EXECS" -seed=1 -detect_leaks="$3" \
		-max_len=262144 -print_final_stats=1 -artifact_prefix="$B/" "$c" >"$l" 2>&1
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$l")
	[ -n "$n" ] || n=$(grep -oE '^#[0-9]+' "$l" | tail -1 | tr -d '#')
	# After a crash time(1) adds a "Command exited" line before the times.
	tail -1 "$t" | awk -v n="${n:-0}" '{ printf "%.0f\n", n / ($1 + $2) }'
}

: >"$B/old"; : >"$B/old-new-settings"; : >"$B/new"
for _ in $(seq "$RUNS"); do
	run "$B/base-fuzz" "" 1 >>"$B/old"
	run "$B/base-fuzz-O2" "$NEW_ASAN" 0 >>"$B/old-new-settings"
	run "$B/new-fuzz" "$NEW_ASAN" 0 >>"$B/new"
done
old=$(median <"$B/old"); mid=$(median <"$B/old-new-settings"); new=$(median <"$B/new")
echo "fuzz target, $EXECS executions from the seeds, exec per CPU second (median of $RUNS):"
printf '  %-44s %8s\n' "base $BASE, its own settings" "$old" \
	"base $BASE, today's settings" "$mid" "today's target and settings" "$new"
echo "  today / base: $(ratio "$new" "$old")x (settings alone: $(ratio "$mid" "$old")x," \
	"code: $(ratio "$new" "$mid")x)"
git -C "$TOP" worktree remove -f "$B/base" >/dev/null 2>&1
