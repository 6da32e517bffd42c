#!/bin/sh
# The html report as a real browser draws it (issue 45): headless
# Chromium, its network closed, screenshots the page of a committed CSV
# (data/valkey-vs-redis.csv: two servers, two tests); the screenshot is not
# blank (python3 reads its pixels when installed, else its size says it),
# and the page's DOM as the browser built it holds the verdicts, the
# environment, the charts and the tables.  Skipped, saying why, without
# Chromium (CI installs Debian's chromium).
. "${RS_SRCDIR:-.}/tests/cli/tcase.sh"
: "${RSWEEP:?RSWEEP must point at the rsweep binary}"
top=${RS_SRCDIR:-.}
browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || { echo "SKIP: no chromium to draw the page (apt-get install chromium)"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/rsweep-test.XXXXXX")
trap 'st=$?; rm -rf "$T"; tcase_atexit "$st"' EXIT

# chrome ARGS...: the browser, headless, no sandbox (CI runs as root), a
# profile of its own, every host name unresolvable: the page must need none.
chrome() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/profile" --host-resolver-rules='MAP * ~NOTFOUND' \
		--proxy-server='http://127.0.0.1:9' "$@"
}

t_page() {
	"$RSWEEP" report --format html -o "$T/report.html" "$top/data/valkey-vs-redis.csv" \
		2>"$T/err" || fail "report: $(cat "$T/err")"
	chrome --screenshot="$T/shot.png" --window-size=1200,2000 "file://$T/report.html" \
		>"$T/chrome.log" 2>&1
	[ -s "$T/shot.png" ] || fail "no screenshot: $(tail -5 "$T/chrome.log")"
	if command -v python3 >/dev/null 2>&1; then
		colours=$(python3 - "$T/shot.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w, h, ct = 8, b'', 0, 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ct = struct.unpack('>IIBB', body[:10])
        assert depth == 8
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4, 0: 1, 4: 2}[ct]
raw, stride, prev, seen = zlib.decompress(idat), w * bpp, None, set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i] if prev else 0
        c = prev[i - bpp] if prev and i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    if y % 8 == 0:
        for x in range(0, stride, bpp * 4):
            seen.add(bytes(line[x:x + 3]))
print(len(seen))
PY
) || fail "the screenshot does not read as a PNG"
		# A blank page is one colour; text, tables and charts are hundreds.
		[ "$colours" -ge 50 ] || fail "the screenshot has $colours colours: blank?"
	else
		# Without python3: a blank 1200x2000 screenshot compresses to a few
		# kilobytes; this page's text and charts take far more.
		size=$(wc -c <"$T/shot.png")
		[ "$size" -ge 60000 ] || fail "the screenshot is $size bytes: blank?"
	fi
	chrome --dump-dom "file://$T/report.html" >"$T/dom.html" 2>"$T/chrome.log"
	for s in 'The answer' 'The environment' 'The charts' 'The tables' '<svg' 'valkey' \
		 'faster\|slower\|same\|cannot tell'; do
		grep -q "$s" "$T/dom.html" || fail "the page as drawn has no '$s'"
	done
}
tcase 'headless Chromium draws the page, offline, not blank, every section there' t_page

tcase_done
