#!/bin/bash
# make records-diff BASE=COMMIT: the records of the whole corpus (every unit,
# every target, as `shdb run -t all --manifest`) made by this tree and by
# COMMIT, compared line by line with time_us stripped.  For a change that
# should not change any result (a refactoring): it fails and shows the first
# differences when any record differs.
#
# COMMIT is built once in a scratch worktree (removed afterwards); its
# records are kept in $SHDB_BUILD/records-diff/COMMIT.jsonl and reused.
# A timeout record depends on the machine's load, not on the code: such
# lines are counted and shown, and the comparison leaves them out.
#
#   RECORDS_DIFF_JOBS=N   workers for the runs (default: the number of cores)
set -eu
cd "$(dirname "$0")/../.."
SHARED=${SHDB_SHARED:-../shared}
BUILD=${SHDB_BUILD:-build}
SHDB=${SHDB:-./shdb}
if [ -z "${BASE:-}" ]; then
	echo "usage: make records-diff BASE=COMMIT" >&2
	exit 2
fi
if [ ! -d "$SHARED/corpus" ]; then
	echo "skipped: no $SHARED/corpus"
	exit 0
fi
base=$(git rev-parse --verify "$BASE^{commit}")
out=$(realpath -m "$BUILD/records-diff")
mkdir -p "$out"
jobs=${RECORDS_DIFF_JOBS:-$(nproc)}
manifest=$(realpath "$SHARED/corpus/manifest.tsv")
corpus=$(realpath "$SHARED/corpus")

# The records of one shdb binary, without time_us, into $2.
records() {
	local dir="$out/run-$$"
	"$1" run -q --force -j "$jobs" -t all --manifest "$manifest" -o "$dir" "$corpus"
	sed -E 's/,"time_us":[0-9]+\}$/}/' "$dir/stats.jsonl" >"$2"
	rm -rf "$dir"
}

if [ ! -s "$out/$base.jsonl" ]; then
	wt="$out/tree-$base"
	rm -rf "$wt"
	git worktree prune
	git worktree add --detach "$wt" "$base" >/dev/null
	trap 'git worktree remove --force "$wt" 2>/dev/null || true' EXIT
	echo "building $base in $wt"
	make -C "$wt" -j"$jobs" shdb >/dev/null
	records "$wt/shdb" "$out/$base.jsonl.tmp"
	mv "$out/$base.jsonl.tmp" "$out/$base.jsonl"
	git worktree remove --force "$wt"
	trap - EXIT
fi
records "$SHDB" "$out/head.jsonl"

timeouts=$(cat "$out/$base.jsonl" "$out/head.jsonl" | grep -c '"status":"timeout"' || true)
if [ "$timeouts" != 0 ]; then
	echo "timeout records (left out of the comparison):"
	grep -h '"status":"timeout"' "$out/$base.jsonl" "$out/head.jsonl" | cut -c1-200
fi
# A timed-out record and its counterpart are dropped by their (path, stage, target).
keys=$(grep -h '"status":"timeout"' "$out/$base.jsonl" "$out/head.jsonl" |
	sed -E 's/,"status".*//' | sort -u || true)
strip() {
	if [ -n "$keys" ]; then
		grep -vF -f <(printf '%s\n' "$keys") "$1"
	else
		cat "$1"
	fi
}
n=$(wc -l <"$out/head.jsonl")
if diff -u <(strip "$out/$base.jsonl") <(strip "$out/head.jsonl") >"$out/diff"; then
	echo "records-diff: $n records, identical to $base (time_us aside)"
	exit 0
fi
echo "records-diff: the records differ from $base ($(grep -c '^[-+]{' "$out/diff") lines); the first:"
head -40 "$out/diff"
exit 1
