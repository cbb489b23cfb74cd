# SPDX-License-Identifier: GPL-2.0-or-later
# ftc report's selections and outputs on a trace-cmd file: what a user
# selects is exactly what the full output holds for that selection; -F and -R
# agree with trace-cmd's; --json follows Documentation/report-json.md; --stat
# counts what the text shows; ftc dump lists what trace-cmd dump lists.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/report-lib.sh"

command -v trace-cmd >/dev/null || { skip "report-options" "trace-cmd is not installed"; finish; }
command -v python3 >/dev/null || { skip "report-options" "python3 is not installed"; finish; }
knobs_save
D=$OUT/report-options
rm -rf "$D"; mkdir -p "$D"
report_fixture "$D/x.dat" 4096 1500 || { fail "report-options: fixture" "trace-cmd extract failed"; finish; }
X=$D/x.dat
# trace-cmd extract also takes the top-level buffer's events: look at ours only.
I=$("$FTC" dump --buffers "$X" | sed -nE 's/^  buffer "(ftc-test-[^"]+)".*/\1/p')
[ -n "$I" ] || { fail "report-options: fixture" "no ftc-test instance in $X"; finish; }
"$FTC" report -t --no-header --instance "$I" "$X" >"$D/full" 2>"$D/err" || fail "report-options: full report" "$(cat "$D/err")"
total=$(wc -l <"$D/full")
[ "$total" -gt 1500 ] && pass "report-options: $total records" || fail "report-options: records" "only $total"

# sel NAME EXPECTED_FILE OPTIONS...: ftc's selection equals the expected lines.
sel() {
	local name=$1 want=$2; shift 2
	"$FTC" report -t --no-header --instance "$I" "$@" "$X" >"$D/got" 2>"$D/err"
	if [ ! -s "$want" ]; then fail "report-options: $name" "the expectation is empty"
	elif cmp -s "$want" "$D/got"; then pass "report-options: $name ($(wc -l <"$want") records)"
	else fail "report-options: $name" "$(diff "$want" "$D/got" | head -4)"; fi
}
grep -F ' [001] ' "$D/full" >"$D/want"; sel "--cpu 1" "$D/want" --cpu 1
pid=$(grep ': print: ' "$D/full" | head -1 | sed -E 's/^.*-([0-9]+) +\[.*$/\1/')
grep -E -- "-$pid +\[" "$D/full" >"$D/want"; sel "--pid $pid" "$D/want" --pid "$pid"
grep -E '^ +bash-[0-9]+ ' "$D/full" >"$D/want"; sel "--comm bash" "$D/want" --comm bash
grep -F ': sched_switch: ' "$D/full" >"$D/want"; sel "--event sched_switch" "$D/want" --event sched_switch
grep -E ': (sched_switch|sched_wakeup): ' "$D/full" >"$D/want"; sel "--event sched" "$D/want" --event sched
grep -F ': print: ' "$D/full" >"$D/want"; sel "--event ftrace:print" "$D/want" --event 'ftrace:pri*'
head -25 "$D/full" >"$D/want"; sel "--first 25" "$D/want" --first 25
tail -25 "$D/full" >"$D/want"; sel "--last 25" "$D/want" --last 25
from=$(sed -n 100p "$D/full" | sed -E 's/^.* ([0-9]+\.[0-9]+): .*$/\1/')
to=$(sed -n 300p "$D/full" | sed -E 's/^.* ([0-9]+\.[0-9]+): .*$/\1/')
awk -v a="$from" -v b="$to" '{ match($0, / [0-9]+\.[0-9]+: /); t = substr($0, RSTART + 1, RLENGTH - 3);
	split(t, p, "."); split(a, q, "."); split(b, r, ".");
	if ((p[1] > q[1] || (p[1] == q[1] && p[2] >= q[2])) && (p[1] < r[1] || (p[1] == r[1] && p[2] <= r[2]))) print }' \
	"$D/full" >"$D/want"
sel "--from $from --to $to" "$D/want" --from "$from" --to "$to"
expect_match "report-options: -t prints nanoseconds" ' [0-9]+\.[0-9]{9}: ' "$(head -1 "$D/full")"
expect_match "report-options: default prints microseconds" ' [0-9]+\.[0-9]{6}: ' \
	"$("$FTC" report --no-header --first 1 --instance "$I" "$X")"

# -F and -R against trace-cmd's own.
filt='sched_switch: prev_pid != 0 && next_prio < 130'
bash -c 'trace-cmd report -t -F "$1" "$2" >"$3" 2>/dev/null' _ "$filt" "$X" "$D/tc.F.txt" 2>/dev/null; tcst=$?
"$FTC" report -t -F "$filt" "$X" | report_normalize ftc | grep "^$I|" >"$D/ftc.F"
# trace-cmd 3.1.6 segfaults after the last record of -F on instance files,
# mid-line: compare what it printed completely.
if [ $tcst = 139 ]; then sed -i '$d' "$D/tc.F.txt"; fi
report_normalize tc <"$D/tc.F.txt" | grep "^$I|" >"$D/tc.F"
head -n "$(wc -l <"$D/tc.F")" "$D/ftc.F" >"$D/ftc.F.head"
[ "$(wc -l <"$D/tc.F")" -gt 20 ] && cmp -s "$D/tc.F" "$D/ftc.F.head" &&
	pass "report-options: -F matches trace-cmd -F ($(wc -l <"$D/tc.F") records$([ $tcst = 139 ] && echo ", trace-cmd crashed after them"))" ||
	fail "report-options: -F matches trace-cmd -F" "$(diff "$D/tc.F" "$D/ftc.F.head" | head -4)"
expect_nomatch "report-options: -F keeps only matching records" 'S ==> .*\[1[3-9][0-9]\]|^\S+: +\S+-0 ' "$(grep -F ': sched_switch: ' "$D/ftc.F" | cut -d'|' -f7)"
trace-cmd report -t -R "$X" | report_normalize tc >"$D/tc.R"
"$FTC" report -t -R "$X" | report_normalize ftc >"$D/ftc.R"
[ -s "$D/tc.R" ] && cmp -s "$D/tc.R" "$D/ftc.R" && pass "report-options: -R matches trace-cmd -R" ||
	fail "report-options: -R matches trace-cmd -R" "$(diff "$D/tc.R" "$D/ftc.R" | head -4)"
expect_status "report-options: bad filter is a usage error" 2 "$FTC" report -F 'sched_switch: (((' "$X"
expect_status "report-options: bad CPU list is a usage error" 2 "$FTC" report --cpu 1-x "$X"
expect_status "report-options: missing file fails" 1 "$FTC" report "$D/nosuch.dat"

# --stat counts what the text shows.
"$FTC" report --stat --instance "$I" "$X" >"$D/stat"
expect_match "report-options: --stat records" "^records: +$total$" "$(cat "$D/stat")"
n=$(grep -c ': sched_switch: ' "$D/full")
expect_match "report-options: --stat per event" "^  sched_switch +$n$" "$(cat "$D/stat")"
n1=$(grep -cF ' [001] ' "$D/full")
expect_match "report-options: --stat per CPU" "^$I +1 +$n1 " "$(cat "$D/stat")"
expect_match "report-options: --stat clock" "^clock: +local$" "$(cat "$D/stat")"

# --json: schema from the documentation, same records as the text.
"$FTC" report --json --instance "$I" "$X" >"$D/json"
python3 - "$TOP/Documentation/report-json.md" "$D/json" "$D/full" >"$D/json.check" 2>&1 <<'PY'
import json, re, sys
doc = open(sys.argv[1]).read()
schema = json.loads(re.search(r"## JSON Schema.*?```json\n(.*?)```", doc, re.S).group(1))
recs = [json.loads(l) for l in open(sys.argv[2])]
def check(v, s):
    """The subset of JSON Schema the document uses, when jsonschema is absent."""
    if "oneOf" in s:
        return sum(check(v, x) for x in s["oneOf"]) == 1
    if "const" in s and v != s["const"]:
        return False
    t = s.get("type")
    if t:
        ts = t if isinstance(t, list) else [t]
        ok = {"object": dict, "string": str, "array": list, "null": type(None)}
        if not any((x == "integer" and isinstance(v, int) and not isinstance(v, bool)) or
                   (x in ok and isinstance(v, ok[x])) for x in ts):
            return False
    if isinstance(v, (int,)) and "minimum" in s and v < s["minimum"]:
        return False
    if isinstance(v, dict):
        if any(k not in v for k in s.get("required", [])):
            return False
        for k, x in v.items():
            sub = s.get("properties", {}).get(k, s.get("additionalProperties"))
            if isinstance(sub, dict) and not check(x, sub):
                return False
    if isinstance(v, list) and "items" in s:
        return all(check(x, s["items"]) for x in v)
    return True
bad = [r for r in recs if not check(r, schema)]
assert not bad, "not valid: %s" % bad[:1]
try:
    # jsonschema is slow: the reference validator checks a sample.
    import jsonschema
    for r in recs[:300] + [r for r in recs if r["type"] == "lost"]:
        jsonschema.validate(r, schema)
    print("validated, sample also with jsonschema")
except ImportError:
    print("validated with the built-in checker")
# Not vacuous: a broken record fails.
assert not check({"type": "event", "ts": "x"}, schema)
text = [l for l in open(sys.argv[3])]
ev = [r for r in recs if r["type"] == "event"]
assert len(ev) == len(text), (len(ev), len(text))
for r, l in zip(ev, text):
    m = re.search(r"-(\d+) +\[(\d+)\] \S+ +(\d+)\.(\d+): (\S+): (.*)$", l)
    assert m, l
    assert r["pid"] == int(m.group(1)) and r["cpu"] == int(m.group(2)), l
    assert r["ts"] == int(m.group(3)) * 10**9 + int(m.group(4)), l
    assert r["event"] == m.group(5) and r["info"] == m.group(6), (r, l)
sw = [r for r in ev if r["event"] == "sched_switch"]
assert sw and all(isinstance(r["fields"]["next_pid"], int) and isinstance(r["fields"]["prev_comm"], str) for r in sw)
pr = [r for r in ev if r["event"] == "print"]
assert pr and all(r["fields"]["buf"].startswith("marker ") for r in pr)
print("ok", len(recs))
PY
if grep -q '^ok ' "$D/json.check"; then pass "report-options: --json valid against the documented schema, same records as text ($(head -1 "$D/json.check"))"
else fail "report-options: --json" "$(tail -3 "$D/json.check")"; fi

# ftc dump lists the sections trace-cmd dump lists, at the same offsets.
trace-cmd dump --sections "$X" 2>/dev/null | sed -nE 's/^\s*\[Section +([0-9]+) @ ([0-9]+).*/\1 \2/p' >"$D/tc.sec"
"$FTC" dump --sections "$X" | sed -nE 's/^ +section ([0-9]+) .* offset ([0-9]+) .*/\1 \2/p' >"$D/ftc.sec"
[ -s "$D/tc.sec" ] && cmp -s "$D/tc.sec" "$D/ftc.sec" && pass "report-options: dump sections match trace-cmd dump ($(wc -l <"$D/tc.sec"))" ||
	fail "report-options: dump sections match trace-cmd dump" "$(diff "$D/tc.sec" "$D/ftc.sec" | head -4)"
"$FTC" dump "$X" >"$D/dump"
expect_match "report-options: dump version" '^version: 7$' "$(cat "$D/dump")"
expect_match "report-options: dump compression" '^compression: zstd ' "$(cat "$D/dump")"
expect_match "report-options: dump buffer" '^  buffer "ftc-test-[^"]+" clock local page 4096 cpus 2' "$(cat "$D/dump")"
expect_match "report-options: dump CPUCOUNT" 'option 8  CPUCOUNT .* 2$' "$(cat "$D/dump")"
trace-cmd convert -i "$X" -o "$D/x6.dat" --file-version 6 --compression none >/dev/null 2>&1
expect_match "report-options: dump v6" '^version: 6$' "$("$FTC" dump "$D/x6.dat")"
expect_match "report-options: dump v6 blocks" 'section 19 kallsyms +offset [0-9]+ +size [1-9]' "$("$FTC" dump "$D/x6.dat")"
knobs_unchanged "report-options"
finish
