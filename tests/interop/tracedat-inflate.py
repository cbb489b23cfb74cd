#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An independent reader of trace.dat v7 (Python's struct and zlib, none of
ftc's code), for the compression Debian's trace-cmd cannot read (zlib):
walks the section chain as trace-cmd 3.1 does (header to header, unbroken to
the end of the file), inflates every compressed section and every chunk of
every CPU of every buffer, checks each inflated size against the one stored
beside it and each ring-buffer page header, and prints one line per buffer
and CPU, then the trace_marker texts found in the pages, in page order.

    tracedat-inflate.py FILE [MARKER_REGEX]

Exit 1 with a message naming the offset on the first inconsistency."""
import re
import struct
import sys
import zlib


def die(msg):
    print("tracedat-inflate: " + msg, file=sys.stderr)
    sys.exit(1)


def inflate(blob, where):
    try:
        return zlib.decompress(blob)
    except zlib.error as e:
        die("%s: cannot inflate: %s" % (where, e))


def main():
    path = sys.argv[1]
    mark = re.compile((sys.argv[2] if len(sys.argv) > 2 else r"[\w-]+-[0-9]+").encode())
    d = open(path, "rb").read()
    if d[:10] != b"\x17\x08\x44tracing" or d[10:12] != b"7\0":
        die("%s: not a trace.dat v7" % path)
    endian = "<" if d[12] == 0 else ">"
    page = struct.unpack(endian + "I", d[14:18])[0]
    p = 18
    comp_end = d.index(b"\0", p)
    comp = d[p:comp_end].decode()
    p = d.index(b"\0", comp_end + 1) + 1
    if comp not in ("zlib", "none"):
        die("%s: compression %s: this checker reads zlib and none only" % (path, comp))
    first_opts = struct.unpack(endian + "Q", d[p:p + 8])[0]
    p += 8

    # The section chain, header to header, to the end of the file.
    sections = {}
    while p < len(d):
        if p + 16 > len(d):
            die("section header at %d runs past the end (%d)" % (p, len(d)))
        sid, flags, _desc, size = struct.unpack(endian + "HHiQ", d[p:p + 16])
        if p + 16 + size > len(d):
            die("section %d at %d: size %d runs past the end" % (sid, p, size))
        sections[p] = (sid, flags, size)
        if flags & 1 and sid != 3:
            csize, usize = struct.unpack(endian + "II", d[p + 16:p + 24])
            if csize + 8 != size:
                die("section %d at %d: csize %d + 8 != size %d" % (sid, p, csize, size))
            if len(inflate(d[p + 24:p + 24 + csize], "section %d at %d" % (sid, p))) != usize:
                die("section %d at %d: inflates to a size other than %d" % (sid, p, usize))
        p += 16 + size
    if first_opts not in sections:
        die("the first options section (%d) is not on the chain" % first_opts)

    # BUFFER options, through the linked options sections.
    buffers, off, seen = [], first_opts, set()
    while off:
        if off in seen or off not in sections or sections[off][0] != 0:
            die("options link %d is not an options section on the chain" % off)
        seen.add(off)
        q, end, nxt = off + 16, off + 16 + sections[off][2], 0
        while q + 6 <= end:
            oid, osize = struct.unpack(endian + "HI", d[q:q + 6])
            body = d[q + 6:q + 6 + osize]
            if oid == 0:
                nxt = struct.unpack(endian + "Q", body[:8])[0]
                break
            if oid == 3:
                name_end = body.index(b"\0", 8)
                clock_end = body.index(b"\0", name_end + 1)
                r = clock_end + 1
                _sub, n = struct.unpack(endian + "II", body[r:r + 8])
                r += 8
                cpus = [struct.unpack(endian + "IQQ", body[r + 20 * i:r + 20 * i + 20]) for i in range(n)]
                buffers.append((body[8:name_end].decode(), cpus))
            q += 6 + osize
        off = nxt

    found = []
    for name, cpus in buffers:
        for cpu, doff, dsize in cpus:
            data, first = b"", ""
            if comp == "zlib":
                count = struct.unpack(endian + "I", d[doff:doff + 4])[0]
                q, total = doff + 4, 0
                for k in range(count):
                    csize, usize = struct.unpack(endian + "II", d[q:q + 8])
                    if not first:
                        first = ", first chunk at %d (%d bytes)" % (q, csize)
                    chunk = inflate(d[q + 8:q + 8 + csize], "buffer '%s' cpu %d chunk %d at %d"
                                    % (name, cpu, k, q))
                    if len(chunk) != usize or usize % page:
                        die("buffer '%s' cpu %d chunk %d at %d: %d bytes, stored %d, page %d"
                            % (name, cpu, k, q, len(chunk), usize, page))
                    data += chunk
                    total += 8 + csize
                    q += 8 + csize
                if total != dsize:
                    die("buffer '%s' cpu %d: chunks take %d bytes, the option says %d"
                        % (name, cpu, total, dsize))
            else:
                data = d[doff:doff + dsize]
            pages = len(data) // page
            for i in range(pages):
                commit = struct.unpack(endian + "Q", data[i * page + 8:i * page + 16])[0]
                if (commit & ((1 << 27) - 1)) > page - 16:
                    die("buffer '%s' cpu %d page %d: commit %d beyond the page"
                        % (name, cpu, i, commit & ((1 << 27) - 1)))
                length = commit & ((1 << 27) - 1)
                found += mark.findall(data[i * page + 16:i * page + 16 + length])
            print("buffer '%s' cpu %d: %d pages%s" % (name, cpu, pages, first))
    for m in found:
        print(m.decode())


main()
