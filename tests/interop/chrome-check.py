# SPDX-License-Identifier: GPL-2.0-or-later
# chrome-check.py JSON RAW [FOLDED]: ftc convert --to chrome's file (JSON)
# against trace-cmd report -t -R of the same trace.dat (RAW) and ftc report
# --folded (FOLDED). Prints one JSON object of what differs: each CPU's
# lane slices (what ran from one sched_switch to the next), each
# function_graph call (its exit record: the name, the start and the
# duration), each trace_marker line as a begin, end, counter or instant
# event, the perf samples' stacks, each perf counter reading as the count
# since the one before, the lost-event instants, and a name for every
# thread used.
import collections
import json
import re
import sys

# trace-cmd right-aligns the instance names: leading blanks before one
RAW = re.compile(r"^\s*(?:(\S+):\s+)?.+?-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\w+):\s*(.*)$")
FIELD = re.compile(r"(?:^|\s)(\w+)=")
LANES_PID = 2147483647


def fields_of(rest):
    keys = list(FIELD.finditer(rest))
    out = {}
    for i, k in enumerate(keys):
        end = keys[i + 1].start() if i + 1 < len(keys) else len(rest)
        out[k.group(1)] = rest[k.end():end].strip()
    return out


def ns(us):
    """A JSON time in microseconds, three decimals, as nanoseconds."""
    return int(round(float(us) * 1000))


def expected(raw_path):
    lanes, calls, markers, readings = [], [], [], []
    last_switch = {}
    with open(raw_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = RAW.match(line)
            if not m:
                continue
            inst, pid, cpu, sec, nsec, name, rest = m.groups()
            ts, cpu, pid = int(sec) * 10**9 + int(nsec), int(cpu), int(pid)
            if inst == "ftc_perf":
                if name == "counter":
                    readings.append((ts, fields_of(rest)))
                continue
            if name == "sched_switch":
                fl = fields_of(rest)
                if cpu in last_switch and int(fl["prev_pid"]) > 0:
                    lanes.append((cpu, fl["prev_comm"], last_switch[cpu], ts - last_switch[cpu]))
                last_switch[cpu] = ts
            elif name == "funcgraph_exit":
                fl = fields_of(rest)
                dur = int(fl["rettime"], 16) - int(fl["calltime"], 16)
                calls.append((pid, fl["func"], ts - dur, dur))
            elif name == "print":
                text = rest[rest.find("buf=") + 4:] if "buf=" in rest else ""
                markers.append((pid, ts, text.rstrip()))
    return lanes, calls, markers, readings


def marker_event(pid, ts, text):
    if text.startswith("B|") and text.count("|") >= 2:
        return ("B", text.split("|", 2)[2], ts, pid)
    if text == "E" or text.startswith("E|"):
        return ("E", "", ts, pid)
    if text.startswith("C|") and text.count("|") >= 3:
        _, _, name, value = text.split("|", 3)
        try:
            float(value)
            return ("C", name, ts, pid)
        except ValueError:
            pass
    return ("i", text, ts, pid)


def main():
    doc = json.load(open(sys.argv[1]))
    ev = doc["traceEvents"]
    lanes, calls, markers, readings = expected(sys.argv[2])
    got_lanes = sorted((e["tid"], e["name"], ns(e["ts"]), ns(e["dur"])) for e in ev
                       if e.get("cat") == "sched" and e["ph"] == "X")
    got_calls = sorted((e["tid"], e["name"], ns(e["ts"]), ns(e["dur"])) for e in ev
                       if e.get("cat") == "function_graph")
    got_markers = sorted((e["ph"], e["name"], ns(e["ts"]), e["tid"]) for e in ev
                         if e.get("cat") == "marker")
    want_markers = sorted(marker_event(*m) for m in markers)
    res = {
        "events": len(ev),
        "lanes": len(got_lanes), "lanes_equal": got_lanes == sorted(lanes),
        "calls": len(got_calls), "calls_equal": got_calls == sorted(calls),
        "markers": len(got_markers), "markers_equal": got_markers == want_markers,
        "marker_phases": dict(collections.Counter(m[0] for m in got_markers)),
        "lost": sum(1 for e in ev if e.get("cat") == "lost"),
    }
    diffs = []
    for name, a, b in (("lane", got_lanes, sorted(lanes)), ("call", got_calls, sorted(calls)),
                       ("marker", got_markers, want_markers)):
        diffs += ["%s: ftc %r" % (name, x) for x in sorted(set(a) - set(b))][:2]
        diffs += ["%s: trace-cmd %r" % (name, x) for x in sorted(set(b) - set(a))][:2]
    # counters: the count since the reading before, per event
    last = collections.defaultdict(float)
    want_c = []
    for ts, fl in readings:
        v, ena, run = (int(fl.get(k, "0"), 0) for k in ("value", "enabled", "running"))
        if run and run < ena:
            v = v * ena / run
        want_c.append((fl.get("name", "?"), ts, v - last[fl.get("name", "?")]))
        last[fl.get("name", "?")] = v
    got_c = [(e["name"], ns(e["ts"]), e["args"]["count"]) for e in ev if e.get("cat") == "perf"]
    res["readings"] = len(got_c)
    res["readings_equal"] = len(got_c) == len(want_c) and all(
        a[0] == b[0] and a[1] == b[1] and abs(a[2] - b[2]) <= 1e-6 * max(1, abs(b[2]))
        for a, b in zip(got_c, want_c))
    samples = [e for e in ev if e.get("cat") == "sample"]
    res["samples"] = len(samples)
    if len(sys.argv) > 3:
        want = collections.Counter()
        with open(sys.argv[3]) as f:
            for line in f:
                stack, _, n = line.rstrip("\n").rpartition(" ")
                want[stack.split(";", 1)[1] if ";" in stack else ""] += int(n)
        got = collections.Counter(e["args"]["stack"] for e in samples)
        res["stacks_equal"] = got == want
    named = {(e["pid"], e["tid"]) for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    used = {(e["pid"], e["tid"]) for e in ev if e["ph"] != "M"}
    res["unnamed_threads"] = len(used - named)
    res["diffs"] = diffs
    print(json.dumps(res))


main()
