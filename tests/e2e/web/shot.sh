#!/usr/bin/env bash
# shot.sh OUT.png 'QUERY' [WIDTHxHEIGHT]
# Screenshot tests/e2e/web/onet.html?QUERY in headless Chromium (default
# window 1280x1024) and write OUT.truth.txt (from --dump-dom of the same URL):
#   line 1..:  "# key value" header lines (rows, cols, origin, pitch, tile, viewport)
#   then one board row per line, kinds separated by spaces, 0 = empty
# (the game's own kind ids; compare up to renaming).  OUT.truth.json keeps the raw JSON.
# Needs: chromium, python3, fonts-dejavu-core, fonts-noto-color-emoji (emoji style).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUT.png 'QUERY' [WIDTHxHEIGHT]" >&2; exit 2; }
out="$1"; query="$2"; size="${3:-1280x1024}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v chromium >/dev/null || { echo "shot.sh: chromium missing (apt-get install -y --no-install-recommends chromium)" >&2; exit 1; }
url="file://$here/onet.html?$query"
w="${size%x*}"; h="${size#*x}"
base="${out%.png}"
prof="$(mktemp -d)"
trap 'rm -rf "$prof"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
    --disable-background-networking --disable-component-update --disable-sync
    --hide-scrollbars --force-device-scale-factor=1 --window-size="$w,$h"
    --virtual-time-budget=2000)
chromium "${flags[@]}" --user-data-dir="$prof/a" --screenshot="$out" "$url" >/dev/null 2>"$prof/err" ||
    { cat "$prof/err" >&2; exit 1; }
[ -s "$out" ] || { echo "shot.sh: no screenshot written" >&2; cat "$prof/err" >&2; exit 1; }
chromium "${flags[@]}" --user-data-dir="$prof/b" --dump-dom "$url" 2>"$prof/err" >"$prof/dom.html" ||
    { cat "$prof/err" >&2; exit 1; }
python3 - "$prof/dom.html" "$base.truth.txt" "$base.truth.json" <<'EOF'
import html, json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<pre id="truth"[^>]*>(\{.*?)</pre>', dom, re.S)
if not m or not m.group(1).strip():
    sys.exit("shot.sh: no <pre id=truth> in the dumped DOM")
t = json.loads(html.unescape(m.group(1)))
open(sys.argv[3], "w").write(json.dumps(t) + "\n")
with open(sys.argv[2], "w") as f:
    for k in ("rows", "cols", "origin", "pitch", "tile", "viewport", "seed", "style"):
        v = t.get(k)
        f.write("# %s %s\n" % (k, " ".join(map(str, v)) if isinstance(v, list) else v))
    for row in t["grid"]:
        f.write(" ".join(map(str, row)) + "\n")
EOF
