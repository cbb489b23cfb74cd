# SPDX-License-Identifier: GPL-2.0-or-later
# ftc list -f REGEX prints what trace-cmd list -f prints, line for line, on
# a kernel that lets both read available_filter_functions (the host
# refuses it): the host's trace-cmd runs in the guest through its own
# dynamic loader and libraries. A module (loop) gives lines with a
# " [loop]" tag that a REGEX can match. Also -e REGEX, -e -R on an event
# that holds a hist trigger, -o and -c side by side.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lab.bash"

NAME="lab list-functions"
TC=$(command -v trace-cmd)
if [ -z "$TC" ]; then
	skip "$NAME" "trace-cmd is not installed"
	finish
fi
D=$OUT/lab-list-functions.d
rm -rf "$D" && mkdir -p "$D/tc" || finish
# trace-cmd and the libraries it loads, files rather than links
for f in "$TC" $(ldd "$TC" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }'); do
	cp -L "$f" "$D/tc/$(basename "$f")" || { fail "$NAME: copy $f" "cp failed"; finish; }
done
ld=$(cd "$D/tc" && ls ld-linux* 2>/dev/null | head -1)
if [ -z "$ld" ]; then
	skip "$NAME" "no dynamic loader found in 'ldd $TC'"
	finish
fi
echo "$ld" >"$D/tc/loader"
files=("$D/tc=/lab/tc")
MODS=$("$TOP/scripts/lab-kernel" --modules 2>/dev/null) && files+=("$MODS=/lab/mod")

LAB_TIMEOUT=120 lab_run list-functions - "${files[@]}" <<'EOF' || finish
tc() { /lab/tc/"$(cat /lab/tc/loader)" --library-path /lab/tc /lab/tc/trace-cmd "$@"; }
[ -f /lab/mod/loop.ko ] && insmod /lab/mod/loop.ko
echo "loop lines=$(grep -c '\[loop\]$' /sys/kernel/tracing/available_filter_functions)"
# same WHAT FILE1 FILE2: one line saying whether they are equal
same() {
	if cmp -s "$2" "$3"; then echo "same $1 $(wc -l <"$2")"
	else echo "differ $1 trace-cmd $(wc -l <"$2") ftc $(wc -l <"$3")"; diff "$2" "$3" | head -4; fi
}
echo "== functions"
for re in vfs_r '^ksys_' 'READ$' 'do_sys_open' '^schedule$' 'x.*y.*z' '\[loop\]$' 'LOOP_' \
	  'a\|b' '^[0-9]'; do
	tc list -f "$re" >/tmp/tc.txt
	ftc list -f "$re" >/tmp/ftc.txt
	same "-f '$re'" /tmp/tc.txt /tmp/ftc.txt
done
tc list -f >/tmp/tc.txt
ftc list -f >/tmp/ftc.txt
same "-f" /tmp/tc.txt /tmp/ftc.txt
grep -i 'vfs_r' /sys/kernel/tracing/available_filter_functions >/tmp/grep.txt
ftc list -f vfs_r >/tmp/ftc.txt
same "grep -i vfs_r" /tmp/grep.txt /tmp/ftc.txt
echo "== events"
for re in 'sched:wak' 'irq' 'kmem:kmalloc$'; do
	tc list -e "$re" | grep -v '^ftrace:' | sort >/tmp/tc.txt
	ftc list -e "$re" >/tmp/ftc.txt
	same "-e '$re'" /tmp/tc.txt /tmp/ftc.txt
done
echo 'hist:keys=common_pid.execname' >>/sys/kernel/tracing/events/kmem/kmalloc/trigger
tc list -e 'kmem:kmalloc$' -R >/tmp/tc.txt
ftc list -e 'kmem:kmalloc$' -R >/tmp/ftc.txt
same "-e -R with a hist trigger" /tmp/tc.txt /tmp/ftc.txt
cat /tmp/ftc.txt
echo "== options"
tc list -o | sort >/tmp/tc.txt
ftc list -o | sort >/tmp/ftc.txt
same "-o" /tmp/tc.txt /tmp/ftc.txt
tc list -c | sed -n 's/^\t//p' >/tmp/tc.txt
ftc list -c | grep -F -f /tmp/tc.txt >/tmp/ftc.txt
same "-c" /tmp/tc.txt /tmp/ftc.txt
echo "== end"
EOF

f=$(lab_section functions)
expect_match "$NAME: the loop module's functions are there" '^loop lines=[1-9]' "$(cat "$LAB_OUTPUT")"
# REGEX and how many lines it must find: + some, 1 exactly, * any
while read -r want re; do
	line=$(printf '%s\n' "$f" | grep -F -- "-f '$re' ")
	n=${line##* }
	case "$line" in
	"same "*) ;;
	*) fail "$NAME: -f '$re' prints what trace-cmd list -f does" "${line:-no result}"; continue ;;
	esac
	if [ "$want" = + ] && [ "$n" -lt 1 ] || [ "$want" = 1 ] && [ "$n" != 1 ]; then
		fail "$NAME: -f '$re' prints what trace-cmd list -f does" "$n lines, want $want"
	else
		pass "$NAME: -f '$re' prints what trace-cmd list -f does ($n lines)"
	fi
done <<'LIST'
+ vfs_r
+ ^ksys_
+ READ$
+ do_sys_open
1 ^schedule$
* x.*y.*z
+ \[loop\]$
+ LOOP_
+ a\|b
* ^[0-9]
LIST
expect_match "$NAME: -f alone prints what trace-cmd list -f does, all of it" '^same -f [0-9]{4,}$' "$f"
expect_match "$NAME: -f vfs_r is grep -i vfs_r of the file" '^same grep -i vfs_r [1-9]' "$f"
e=$(lab_section events)
expect_match "$NAME: -e 'sched:wak' as trace-cmd" "^same -e 'sched:wak' [1-9]" "$e"
expect_match "$NAME: -e irq as trace-cmd" "^same -e 'irq' [1-9]" "$e"
expect_match "$NAME: -e -R shows the hist trigger as trace-cmd" '^same -e -R with a hist trigger' "$e"
expect_match "$NAME: -e -R shows the hist trigger" '^hist:keys=common_pid.execname:vals=hitcount' "$e"
o=$(lab_section options)
expect_match "$NAME: -o as trace-cmd" '^same -o [1-9]' "$o"
expect_match "$NAME: -c names trace-cmd's compressions" '^same -c [1-9]' "$o"
finish
