#!/bin/bash
# Our etnaviv model against Mesa 24.3's etnaviv (../shared/reference/
# mesa-etnaviv-dev.tsv): the corpus through `shdb run` for Mesa's three
# GPUs, then per GPU and statistic the totals, the median per-shader ratio
# ours/Mesa, the share of shaders within ±10%, and the compile time per
# unit against Mesa's in-process figure (bench/mesa-compare.pl compare);
# then per GPU what compiled and why the rest failed (coverage).
#
#   ETNA_COMPARE_RUN=DIR    where the run goes (default $SHDB_BUILD/etna-compare)
#   ETNA_COMPARE_REUSE=1    compare an existing run there instead of running
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHDB_SHARED:-../shared}
if [ ! -d "$SHARED/corpus" ] || [ ! -f "$SHARED/reference/mesa-etnaviv-dev.tsv" ]; then
	echo "skipped: no $SHARED/corpus or Mesa reference"
	exit 0
fi
out=${ETNA_COMPARE_RUN:-${SHDB_BUILD:-build}/etna-compare}
if [ -z "${ETNA_COMPARE_REUSE:-}" ] || [ ! -f "$out/stats.jsonl" ]; then
	"${SHDB:-./shdb}" run -q --force --manifest "$SHARED/corpus/manifest.tsv" \
		-t gc2000,gc3000,gc7000 -o "$out" "$SHARED/corpus"
fi
perl bench/mesa-compare.pl compare "$SHARED/corpus/manifest.tsv" \
	"$SHARED/reference/mesa-etnaviv-dev.tsv" "$out/stats.jsonl"
MIN_SHARE=0 perl bench/mesa-compare.pl coverage "$SHARED/corpus/manifest.tsv" \
	"$SHARED/reference/mesa-etnaviv-dev.tsv" "$out/stats.jsonl" || true
