# SPDX-License-Identifier: GPL-2.0-or-later
# Every option that takes a value, of every command, gets values no user
# means: empty, 64 KiB long, bytes that are not UTF-8, -1 and a number too
# big for 64 bits. Each call ends within 2 s (ASan included), without a
# crash, with an exit code of ftc(1) (0, 1, 2, 3) and a message when it
# fails. Empty values, and text given to a numeric option, are usage
# errors (2). tracefs is left as found and no instance appears.
. "$(dirname "$0")/../lib.sh"

I=$(test_instance fuzz)
T=$(mktemp -d "$OUT/cli-fuzz.XXXXXX")
trap 'rm -rf "$T"' EXIT
# outputs named by the values (stat -o -1) land here, not in the tree
cd "$T" || exit 1
printf 'not a trace.dat\n' >"$T/tiny.dat"
long=$(head -c 65536 /dev/zero | tr '\0' a)
values=("" "$long" $'\xff\xfe\x80' -1 99999999999999999999)
names=(empty long non-utf8 minus-one huge)

# The options a command must run with so that it ends at once and touches
# nothing global: a private instance that does not exist, a workload that
# exits, an output in the temp dir, a file that is not a trace.
base() {
	case $1 in
	start|status|stop|restart|clear|show|snapshot|marker|check) echo "-B $I" ;;
	record) echo "-B $I -o $T/r.dat" ;;
	extract) echo "-B $I -o $T/x.dat" ;;
	*) ;;
	esac
}
tail_args() {
	case $1 in
	record|stat|profile) echo "-- true" ;;
	report|dump|restore) echo "$T/tiny.dat" ;;
	marker) echo "x" ;;
	*) ;;
	esac
}

# Exclusions, each with its reason.
excluded() {
	case "$1 $2" in
	# a valid-looking NAME creates a real instance, and -1 is a valid name
	"start --instance"|"record --instance") return 0 ;;
	# without -B these act on the top-level buffer or every instance
	"reset --instance"|"stop --instance"|"restart --instance"|"clear --instance") return 0 ;;
	esac
	return 1
}

numeric() {
	case $1 in N|KB|USECS|SECS|HZ|MS|PAGES|PERIOD|CPU|SECONDS) return 0 ;; esac
	return 1
}

knobs_save
ls "$TRACEFS/instances" | sort >"$T/inst.before"
bad=0
for c in $("$FTC" --help | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }'); do
	"$FTC" "$c" --help | sed -nE 's/^  +(-[A-Za-z], )?--([a-z-]+) ([A-Z][^ ]*).*/\2 \3/p' >"$T/opts"
	while read -r opt arg; do
		excluded "$c" "--$opt" && continue
		for i in "${!values[@]}"; do
			v=${values[$i]}
			what="ftc $c --$opt ${names[$i]}"
			# shellcheck disable=SC2046
			timeout -s KILL 2 "$FTC" "$c" $(base "$c") "--$opt" "$v" $(tail_args "$c") \
				>/dev/null 2>"$T/err" </dev/null
			rc=$?
			err=$(head -c 300 "$T/err" | tr -d '\0')
			if [ $rc -ge 128 ]; then
				fail "$what" "killed or crashed (exit $rc, 137 is the 2 s limit): $err"
			elif [ $rc -gt 3 ]; then
				fail "$what" "exit $rc is not in ftc(1)'s table: $err"
			elif [ $rc != 0 ] && [ -z "$err" ]; then
				fail "$what" "exit $rc without a message"
			elif [ -z "$v" ] && { [ $rc != 2 ] || ! grep -q -- "--$opt" "$T/err"; }; then
				fail "$what" "an empty value must be a usage error naming --$opt (exit $rc: $err)"
			elif numeric "$arg" && [ $i -le 2 ] && [ $rc != 2 ]; then
				fail "$what" "$arg is a number: text must be a usage error (exit $rc: $err)"
			else
				continue
			fi
			bad=$((bad + 1))
		done
	done <"$T/opts"
done
[ $bad = 0 ] && pass "every option survives empty, long, non-UTF-8, -1 and huge values"
ls "$TRACEFS/instances" | sort >"$T/inst.after"
d=$(comm -13 "$T/inst.before" "$T/inst.after" | grep -v '^ftc-' ) || true
[ -z "$d" ] && pass "no instance was created" || fail "no instance was created" "$d"
knobs_unchanged "argument fuzz"
finish
