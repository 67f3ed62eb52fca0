#!/bin/bash
# Our ir3 model against Mesa 24.3's ir3 (../shared/reference/mesa-ir3-dev.tsv):
# the corpus through `shdb run` for Mesa's seven GPUs, then per GPU and
# statistic the totals, the median per-shader ratio ours/Mesa and the share
# of shaders within ±10% (bench/mesa-compare.pl compare).  The run follows
# Mesa 24.3's rules (--mesa 24.3: on a7xx its longer delays and no aliases),
# as the reference was made with them.
#
#   MESA_COMPARE_RUN=DIR    where the run goes (default $SHDB_BUILD/mesa-compare)
#   MESA_COMPARE_REUSE=1    compare an existing run there instead of running
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHDB_SHARED:-../shared}
if [ ! -d "$SHARED/corpus" ] || [ ! -f "$SHARED/reference/mesa-ir3-dev.tsv" ]; then
	echo "skipped: no $SHARED/corpus or Mesa reference"
	exit 0
fi
out=${MESA_COMPARE_RUN:-${SHDB_BUILD:-build}/mesa-compare}
if [ -z "${MESA_COMPARE_REUSE:-}" ] || [ ! -f "$out/stats.jsonl" ]; then
	"${SHDB:-./shdb}" run -q --force --manifest "$SHARED/corpus/manifest.tsv" \
		--mesa 24.3 -t a306,a420,a530,a630,a660,a730,a740 -o "$out" "$SHARED/corpus"
fi
perl bench/mesa-compare.pl compare "$SHARED/corpus/manifest.tsv" \
	"$SHARED/reference/mesa-ir3-dev.tsv" "$out/stats.jsonl"
