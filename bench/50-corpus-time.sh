#!/bin/bash
# Compile time per shader and target over ../shared/corpus, in process, one
# compile of every unit for every target: median and p90 of the whole
# pipeline (front end, optimisation, backend), of the same from SPIR-V in
# (glslang's time for GLSL and HLSL sources left out, as Mesa's figures
# start from SPIR-V), of the backend alone, in ms, and the median per unit
# of the SPIR-V-in time over glslang's for the same source; beside Mesa
# 24.3's figures for the same units (mesa-ir3-dev.tsv).
# Only units that compiled count.  A developer build (validation after every
# pass) is slower than a release build; Mesa's are release figures.
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHDB_SHARED:-../shared}
if [ ! -d "$SHARED/corpus" ]; then
	echo "skipped: no $SHARED/corpus"
	exit 0
fi
exec "$SHDB_BUILD/benchbin/corpus_time" "$SHARED/corpus" "$SHARED/corpus/manifest.tsv" \
	"$SHARED/reference/mesa-ir3-dev.tsv" ${CORPUS_TIME_TARGETS:-}
