# SPDX-License-Identifier: GPL-2.0-or-later
# A user opens the flame graph that `ftc profile --flamegraph` drew in a
# browser: headless Chromium parses it as SVG, finds the hot function's box
# with its tooltip, and renders a picture that is not blank.
. "$(dirname "$0")/../lib.sh"

browser=$(command -v chromium || command -v chromium-browser)
[ -n "$browser" ] || { skip "flame graph in a browser" "chromium is not installed (scripts/install-deps installs it)"; finish; }
command -v cc >/dev/null || { skip "flame graph in a browser" "no C compiler"; finish; }

build_hot "$OUT/fg-hot" || { fail "build" "cc failed"; finish; }
svg=$OUT/fg.svg
expect "ftc profile --flamegraph writes an SVG" "$FTC" profile -g -F 500 --flamegraph "$svg" -- "$OUT/fg-hot" 1

# Chromium as root needs --no-sandbox; a private profile keeps runs apart.
chrome() { timeout 60 "$browser" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$OUT/chromium-profile" "$@" 2>"$OUT/chromium.err"; }

dom=$(chrome --dump-dom "file://$svg")
expect_match "the browser parsed the document as SVG" '<svg' "$dom"
expect_match "the browser sees boxes" '<rect' "$dom"
expect_match "the hot function has a box with a tooltip" '<title>[^<]*hot_function' "$dom"

png=$OUT/fg.png
rm -f "$png"
chrome --screenshot="$png" --window-size=1200,700 "file://$svg" >/dev/null
if [ -s "$png" ]; then
	pass "the browser rendered a screenshot"
	# Count distinct colours in the decoded picture: a blank or failed
	# render has one or two.
	colours=$(python3 - "$png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
pos, idat, w, h, bpp = 8, b'', 0, 0, 4
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        bpp = {2: 3, 6: 4}.get(ctype, 4)
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp + 1
# Filter bytes make exact colours approximate; sample unfiltered rows' bytes.
seen = set()
for y in range(0, h, 7):
    row = raw[y * stride + 1:(y + 1) * stride]
    for x in range(0, len(row) - bpp, bpp * 5):
        seen.add(row[x:x + 3])
print(len(seen))
PY
)
	[ "${colours:-0}" -ge 8 ] && pass "the picture is not blank ($colours colour samples)" ||
		fail "the picture is not blank" "only ${colours:-0} distinct colour samples"
else
	fail "the browser rendered a screenshot" "$(tail -3 "$OUT/chromium.err")"
fi
finish
