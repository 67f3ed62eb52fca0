#!/bin/bash
# The differential test's cost (compiler/ir3/sim): per shader and target, the
# simulator's and the interpreter's time over every 10th unit of
# ../shared/corpus (SIM_BENCH_STEP), for a306, a530, a630 and a750
# (SIM_BENCH_TARGETS), beside the whole compile with the test.
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHDB_SHARED:-../shared}
if [ ! -d "$SHARED/corpus" ]; then
	echo "skipped: no $SHARED/corpus"
	exit 0
fi
exec "$SHDB_BUILD/benchbin/sim" "$SHARED/corpus" "$SHARED/corpus/manifest.tsv" \
	"${SIM_BENCH_TARGETS:-a306,a530,a630,a750}" "${SIM_BENCH_STEP:-10}"
