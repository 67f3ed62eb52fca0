#!/bin/bash
# make san-corpus: the sanitizer build (ASan + UBSan, build-san/) on real
# shaders, not only the tests: a sample of ../shared/corpus (shard 1 of
# SAN_CORPUS_SHARDS by shdb run's hash of the path: the same files every
# time) through a few targets with both verifiers.  Any sanitizer report
# ends the worker, which gives a crash record: the run fails when a record
# is a crash or a timeout, naming the files and what the sanitizer said.
#
#   SAN_CORPUS_SHARDS=N   1/N of the corpus (default 4; 1: all of it)
#   SAN_CORPUS_TARGETS    the targets (default a306,a530,a630,a740)
set -eu
cd "$(dirname "$0")/../.."
SHARED=${SHDB_SHARED:-../shared}
if [ ! -d "$SHARED/corpus" ]; then
	echo "skipped: no $SHARED/corpus"
	exit 0
fi
shards=${SAN_CORPUS_SHARDS:-4}
targets=${SAN_CORPUS_TARGETS:-a306,a530,a630,a740}
out=${SHDB_BUILD:-build-san}/san-corpus
mkdir -p "$out"
shard=()
[ "$shards" -gt 1 ] && shard=(--shard "1/$shards")
# workers stop at the first report (-fno-sanitize-recover) and print it on stderr
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
"${SHDB:-build-san/shdb}" run -q --force --verify --timeout 120 "${shard[@]}" \
	--manifest "$SHARED/corpus/manifest.tsv" -t "$targets" -o "$out/run" "$SHARED/corpus" \
	2>"$out/stderr" || { cat "$out/stderr"; exit 1; }
bad=$(grep -c '"status":"\(crash\|timeout\)"' "$out/run/stats.jsonl" || true)
files=$(grep -c . "$out/run/stats.jsonl")
reports=$(grep -c 'runtime error\|Sanitizer' "$out/stderr" || true)
echo "san-corpus: shard 1/$shards of the corpus, targets $targets: $files records," \
     "$bad crashes or timeouts, $reports sanitizer lines on stderr"
if [ "$bad" -gt 0 ] || [ "$reports" -gt 0 ]; then
	grep '"status":"\(crash\|timeout\)"' "$out/run/stats.jsonl" |
		sed 's/^{"path":"\([^"]*\)".*"target":\([^,]*\),"status":"\([a-z]*\)","message":"\([^"]*\)".*/\1 (\2): \3: \4/'
	grep -B2 -A12 'runtime error\|ERROR: .*Sanitizer' "$out/stderr" | head -n 200
	exit 1
fi
