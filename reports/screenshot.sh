#!/bin/bash
# reports/screenshot.sh PAGE.html OUT.png [WIDTH HEIGHT]: the page as headless
# Chromium draws it (scripts on, the inline SVG and gnuplot's charts in place),
# WIDTH x HEIGHT pixels (default 1280 x 6000: a report's index from top to
# bottom), for looking at a report by eye.  Chromium is an optional package of
# .ci/packages: `make report-screenshot` installs it (.ci/deps --with chromium)
# and shoots the nightly demo's report; nothing in `make check` needs it.
set -eu
page=${1:?usage: screenshot.sh PAGE.html OUT.png [WIDTH HEIGHT]}
out=${2:?usage: screenshot.sh PAGE.html OUT.png [WIDTH HEIGHT]}
width=${3:-1280} height=${4:-6000}
if ! command -v chromium >/dev/null; then
	echo "screenshot.sh: chromium is not installed (.ci/deps --with chromium installs it)" >&2
	exit 1
fi
[ -f "$page" ] || { echo "screenshot.sh: no page '$page'" >&2; exit 1; }
abs=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
rm -f "$out"
# root has no sandbox; a profile of our own, so no user's settings or cache
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
	--window-size="$width,$height" --screenshot="$out" "file://$abs" 2>"$profile/log" || {
	cat "$profile/log" >&2
	exit 1
}
[ -s "$out" ] || { cat "$profile/log" >&2; echo "screenshot.sh: no $out" >&2; exit 1; }
echo "$out: $page at ${width}x$height"
