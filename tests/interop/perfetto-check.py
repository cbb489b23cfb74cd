# SPDX-License-Identifier: GPL-2.0-or-later
# perfetto-check.py DECODED RAW [FOLDED]: what protoc --decode printed of
# ftc convert --to perfetto's file (DECODED), against trace-cmd report -t -R
# of the same trace.dat (RAW) and, for perf samples, ftc report --folded
# (FOLDED). Prints one JSON object: every record trace-cmd printed must be
# one event of the Perfetto file on the same CPU at the same nanosecond with
# the same name (compact sched entries rebuilt from their deltas and intern
# table), and each field trace-cmd printed must have the value the Perfetto
# event carries; kernel symbols, call stacks and frames must resolve to
# interned entries defined before their use on their sequence; each perf
# counter reading one point of its event's counter track, the count since
# the reading before.
import collections
import json
import re
import sys

# Bracketed mappings of user space (the process's own pages), not the kernel's.
USER_SPECIAL = {"[unknown]", "[vdso]", "[vsyscall]", "[vvar]", "[heap]", "[stack]", "[uprobes]"}


def parse_text(path):
    """protoc's text format as nested lists of (key, value) pairs."""
    root = []
    stack = [root]
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line.endswith("{"):
                node = []
                stack[-1].append((line[:-1].strip(), node))
                stack.append(node)
            elif line == "}":
                stack.pop()
            else:
                key, _, val = line.partition(": ")
                stack[-1].append((key, unquote(val)))
    return root


def unquote(v):
    if v.startswith('"') and v.endswith('"'):
        return bytes(v[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode(
            "utf-8", "replace")
    return v


def get(node, key, default=None):
    for k, v in node:
        if k == key:
            return v
    return default


def getall(node, key):
    return [v for k, v in node if k == key]


def number(v):
    v = v.strip()
    if v.lower().startswith(("0x", "-0x")):
        return int(v, 16)
    return int(v, 10)


class Perfetto:
    def __init__(self, root):
        self.events = []  # (cpu, ts, name, {field: value})
        self.lost_bundles = 0
        self.lost_at = []  # "CPU TS": the first event of each bundle after a loss
        self.errors = []
        self.ksyms = {}
        self.samples = []  # (tid, pid, [frame names root first])
        self.threads = {}
        self.interned = {"function_names": {}, "frames": {}, "callstacks": {},
                         "mapping_paths": {}, "mappings": {}}
        self.system_info = None
        self.tracks = {}  # uuid -> name
        self.counters = collections.defaultdict(list)  # name -> [(ts, value)]
        for _, packet in root:
            self.packet(packet)

    def packet(self, p):
        seq = int(get(p, "trusted_packet_sequence_id", "0"))
        interned = get(p, "interned_data")
        if interned is not None:
            self.intern(seq, interned)
        bundle = get(p, "ftrace_events")
        if bundle is not None:
            if seq != 1:
                self.errors.append("an ftrace bundle on sequence %d" % seq)
            self.bundle(bundle)
        if get(p, "perf_sample") is not None:
            self.sample(seq, get(p, "perf_sample"))
        if get(p, "process_tree") is not None:
            for t in getall(get(p, "process_tree"), "threads"):
                self.threads[int(get(t, "tid"))] = get(t, "name", "")
        if get(p, "system_info") is not None:
            self.system_info = get(p, "system_info")
        td = get(p, "track_descriptor")
        if td is not None:
            self.tracks[get(td, "uuid")] = get(td, "name")
        te = get(p, "track_event")
        if te is not None:
            name = self.tracks.get(get(te, "track_uuid"))
            if name is None or get(te, "type") != "TYPE_COUNTER":
                self.errors.append("a track event before its counter track: %r" % te)
            else:
                self.counters[name].append((int(get(p, "timestamp")),
                                            float(get(te, "double_counter_value", "0"))))

    def intern(self, seq, node):
        for k, v in node:
            if seq == 1 and k == "kernel_symbols":
                self.ksyms[int(get(v, "iid"))] = get(v, "str")
            elif seq == 2 and k in self.interned:
                self.interned[k][int(get(v, "iid"))] = v
            else:
                self.errors.append("interned %s on sequence %d" % (k, seq))

    def bundle(self, b):
        cpu = int(get(b, "cpu"))
        first = len(self.events)
        for ev in getall(b, "event"):
            self.event(cpu, ev)
        cs = get(b, "compact_sched")
        if cs is not None:
            self.compact(cpu, cs)
        if get(b, "lost_events") == "true":
            self.lost_bundles += 1
            self.lost_at.append("%d %d" % (cpu, min(e[1] for e in self.events[first:])))

    def event(self, cpu, ev):
        ts = int(get(ev, "timestamp"))
        for k, v in ev:
            if k in ("timestamp", "pid"):
                continue
            if k == "generic":
                fields = {get(f, "name"): next(x for n, x in f if n != "name")
                          for f in getall(v, "field")}
                self.events.append((cpu, ts, get(v, "event_name"), fields))
            else:
                fields = dict(v)
                for sym in ("func", "function"):
                    if sym in fields:
                        iid = int(fields[sym])
                        if iid not in self.ksyms:
                            self.errors.append("%s %s: kernel symbol %d not interned before"
                                               % (k, sym, iid))
                        fields[sym] = None  # an interned id, not trace-cmd's address
                self.events.append((cpu, ts, k, fields))

    def compact(self, cpu, cs):
        table = getall(cs, "intern_table")

        def rebuild(name, prefix, cols):
            deltas = [int(x) for x in getall(cs, prefix + "timestamp")]
            arrays = {c: getall(cs, prefix + c) for c in cols}
            for c, a in arrays.items():
                if len(a) != len(deltas):
                    self.errors.append("compact %s: %d %s for %d timestamps"
                                       % (name, len(a), c, len(deltas)))
                    return
            ts = 0
            for i, d in enumerate(deltas):
                ts += d
                f = {c: arrays[c][i] for c in cols}
                comm = "next_comm_index" if name == "sched_switch" else "comm_index"
                idx = int(f.pop(comm))
                f["next_comm" if name == "sched_switch" else "comm"] = table[idx]
                f.pop("common_flags", None)
                self.events.append((cpu, ts, name, f))

        rebuild("sched_switch", "switch_", ["prev_state", "next_pid", "next_prio",
                                             "next_comm_index"])
        rebuild("sched_waking", "waking_", ["pid", "target_cpu", "prio", "comm_index",
                                            "common_flags"])

    def sample(self, seq, s):
        it = self.interned
        frames = []
        cs = get(s, "callstack_iid")
        if cs is not None:
            stack = it["callstacks"].get(int(cs))
            if stack is None:
                self.errors.append("callstack %s not interned before its sample" % cs)
                return
            for fid in getall(stack, "frame_ids"):
                fr = it["frames"].get(int(fid))
                if fr is None:
                    self.errors.append("frame %s not interned" % fid)
                    return
                fn = it["function_names"].get(int(get(fr, "function_name_id")))
                mp = it["mappings"].get(int(get(fr, "mapping_id")))
                path = mp and it["mapping_paths"].get(int(get(mp, "path_string_ids", "0")))
                if fn is None or mp is None or path is None:
                    self.errors.append("frame %s: its name or mapping is not interned" % fid)
                    return
                # folded stacks mark the kernel's frames as perf does; the
                # kernel's mappings are [kernel.kallsyms] and [MODULE], and
                # the user's bracketed ones are the kernel's own pages
                name = get(path, "str")
                kernel = name.startswith("[") and name not in USER_SPECIAL
                frames.append(get(fn, "str") + ("_[k]" if kernel else ""))
        self.samples.append((int(get(s, "tid")), int(get(s, "pid")), frames))


# trace-cmd right-aligns the instance names: leading blanks before one
RAW = re.compile(r"^\s*(?:(\S+):\s+)?.+?-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\w+):\s*(.*)$")
FIELD = re.compile(r"(?:^|\s)(\w+)=")


def raw_records(path, counters=None):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = RAW.match(line.rstrip("\n"))
            if not m:
                continue
            inst, _, cpu, sec, ns, name, rest = m.groups()
            keys = list(FIELD.finditer(rest))
            fields = {}
            for i, k in enumerate(keys):
                end = keys[i + 1].start() if i + 1 < len(keys) else len(rest)
                fields[k.group(1)] = rest[k.end():end].strip()
            if inst == "ftc_perf":
                if name == "counter" and counters is not None:
                    counters.append((int(sec) * 10**9 + int(ns), fields))
                continue
            out.append((int(cpu), int(sec) * 10**9 + int(ns), name, fields))
    return out


def same_value(pf, tc):
    if pf is None:
        return True
    pf = pf.rstrip("\n")  # print's buf: trace-cmd leaves out the line's end
    if tc.startswith("ARRAY[") or pf.startswith("{"):
        return True  # arrays: printed differently by each, not compared
    try:
        a = number(pf)
    except ValueError:
        return pf == tc
    if re.match(r"^[A-Za-z_][\w.]*$", tc) and not re.match(r"^[0-9a-fA-F]+$", tc):
        return True  # an address trace-cmd printed as its symbol (print's ip)
    # trace-cmd -R prints some unsigned 64-bit fields in hex without 0x
    # (funcgraph_exit's calltime and rettime)
    for base in (0, 16):
        try:
            b = number(tc) if base == 0 else int(tc, 16)
        except ValueError:
            continue
        if a in (b, b - 2**64) or a - 2**64 == b or (a & 0xffffffff) == b:
            return True
    return False


def compare(pf, raw):
    by_key = collections.defaultdict(list)
    for cpu, ts, name, fields in pf.events:
        by_key[(cpu, ts, name)].append(fields)
    missing, mismatches, compared = [], [], 0
    for cpu, ts, name, fields in raw:
        cands = by_key.get((cpu, ts, name))
        if not cands:
            missing.append("%d %d %s" % (cpu, ts, name))
            continue
        got = cands.pop(0)
        for k, v in got.items():
            if k not in fields:
                continue
            compared += 1
            if not same_value(v, fields[k]):
                mismatches.append("%d %d %s %s: perfetto %r, trace-cmd %r"
                                  % (cpu, ts, name, k, v, fields[k]))
    extra = ["%d %d %s (%d more)" % (k + (len(v),)) for k, v in by_key.items() if v]
    return missing, extra, mismatches, compared


def counter_tracks(pf, readings):
    """Every reading a point of its track: the scaled count since the one before."""
    want = collections.defaultdict(list)
    last = collections.defaultdict(float)
    for ts, f in readings:
        v, ena, run = (number(f.get(k, "0")) for k in ("value", "enabled", "running"))
        if run and run < ena:
            v = v * ena / run
        name = f.get("name", "?") + " (per interval)"
        want[name].append((ts, v - last[name]))
        last[name] = v
    bad = []
    for name in set(want) | set(pf.counters):
        got = pf.counters.get(name, [])
        if len(got) != len(want[name]) or any(
                a[0] != b[0] or abs(a[1] - b[1]) > 1e-6 * max(1.0, abs(b[1]))
                for a, b in zip(got, want[name])):
            bad.append("%s: %d points, %d readings" % (name, len(got), len(want[name])))
    return sum(len(v) for v in want.values()), bad


def folded(pf):
    count = collections.Counter()
    for tid, pid, frames in pf.samples:
        comm = pf.threads.get(tid) or pf.threads.get(pid) or str(tid)
        count[";".join([comm] + frames)] += 1
    return count


def main():
    pf = Perfetto(parse_text(sys.argv[1]))
    readings = []
    raw = raw_records(sys.argv[2], readings)
    missing, extra, mismatches, compared = compare(pf, raw)
    names = collections.Counter(n for _, _, n, _ in pf.events)
    res = {
        "records": len(raw), "events": len(pf.events), "missing": len(missing),
        "extra": len(extra), "fields_compared": compared, "mismatches": len(mismatches),
        "examples": (missing[:3] + extra[:3] + mismatches[:3]),
        "errors": pf.errors[:5], "lost_bundles": pf.lost_bundles,
        "lost_at": sorted(pf.lost_at),
        "samples": len(pf.samples), "names": dict(names),
        "release": get(get(pf.system_info or [], "utsname", []), "release"),
        "threads": len(pf.threads),
    }
    res["readings"], res["counter_errors"] = counter_tracks(pf, readings)
    if len(sys.argv) > 3:
        want = collections.Counter()
        with open(sys.argv[3]) as f:
            for line in f:
                stack, _, n = line.rstrip("\n").rpartition(" ")
                want[stack] += int(n)
        got = folded(pf)
        res["folded_equal"] = got == want
        res["folded_diff"] = [k for k in set(got) | set(want) if got[k] != want[k]][:3]
    print(json.dumps(res))


main()
