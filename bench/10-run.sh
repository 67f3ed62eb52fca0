#!/bin/bash
# shdb run on ../shared/corpus: files per second with -j1 and -j2, the speed-up,
# and the runner's own cost per file against compile_file() called in a loop in
# one process (build/benchbin/run_direct) over the same files and targets.
#
#	make bench
#	SHDB=./shdb SHDB_BUILD=build SHDB_SHARED=../shared bash bench/10-run.sh
#
# Every target (-t all, the default); no manifest, so both sides compile each
# file with the same default options.  Each figure is the median of 3 runs;
# CPU is user + system time of the run and all its workers (bash's `time`).
set -u
: "${SHDB:=$(cd "$(dirname "$0")/.." && pwd)/shdb}"
: "${SHDB_BUILD:=$(cd "$(dirname "$0")/.." && pwd)/build}"
: "${SHDB_SHARED:=$(cd "$(dirname "$0")/../.." && pwd)/shared}"
corpus=$SHDB_SHARED/corpus
direct=$SHDB_BUILD/benchbin/run_direct
if [ ! -d "$corpus" ]; then
	echo "skipped: $corpus is absent"
	exit 0
fi
[ -x "$direct" ] || { echo "skipped: $direct is not built (make bench builds it)"; exit 0; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# CMD...: prints "wall cpu" in seconds
measure() {
	local TIMEFORMAT='%R %U %S'
	{ time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ printf "%s %.3f\n", $1, $2 + $3 }'
}
# 3 runs of CMD...: the run with the median wall time
median3() {
	for r in 1 2 3; do measure "$@"; done | sort -g | sed -n 2p
}

read -r w1 c1 < <(median3 "$SHDB" run -q --force -j 1 -o "$out/j1" "$corpus")
read -r w2 c2 < <(median3 "$SHDB" run -q --force -j 2 -o "$out/j2" "$corpus")
files=$(sed -n 's/^ *"files": \([0-9]*\),/\1/p' "$out/j1/run.json")
records=$(sed -n 's/^ *"records": \([0-9]*\),/\1/p' "$out/j1/run.json")
cut -d'"' -f4 "$out/j1/stats.jsonl" | uniq >"$out/list"
read -r wd cd < <(median3 "$direct" "$corpus" "$out/list")

awk -v f="$files" -v rec="$records" -v w1="$w1" -v c1="$c1" -v w2="$w2" -v c2="$c2" \
    -v wd="$wd" -v cd="$cd" 'BEGIN {
	printf "corpus: %d files, %d records, every target\n", f, rec;
	printf "%-34s %8s %10s %12s\n", "", "wall s", "files/s", "CPU us/file";
	printf "%-34s %8.3f %10.0f %12.1f\n", "shdb run -j1", w1, f / w1, c1 * 1e6 / f;
	printf "%-34s %8.3f %10.0f %12.1f\n", "shdb run -j2", w2, f / w2, c2 * 1e6 / f;
	printf "%-34s %8.3f %10.0f %12.1f\n", "compile_file loop, one process", wd, f / wd, cd * 1e6 / f;
	printf "speed-up -j2 over -j1: %.2fx\n", w1 / w2;
	printf "runner overhead per file: %.1f us CPU, %.1f us wall at -j1\n",
	       (c1 - cd) * 1e6 / f, (w1 - wd) * 1e6 / f;
}'
