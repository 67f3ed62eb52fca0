#!/bin/bash
# Compile time of the etnaviv model per shader and Vivante target over
# ../shared/corpus, in process (bench/corpus_time.c), beside Mesa 24.3's
# in-process figures for the same GPUs (mesa-etnaviv-dev.tsv: inproc_ms;
# it has no backend column).  A developer build validates the IR after
# every pass; Mesa's figures are a release build's, from SPIR-V in: build
# with CFLAGS='-g -DNDEBUG' and read the spirv_med column (glslang's time
# for GLSL and HLSL sources left out) to compare like with like.
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHDB_SHARED:-../shared}
if [ ! -d "$SHARED/corpus" ]; then
	echo "skipped: no $SHARED/corpus"
	exit 0
fi
exec "$SHDB_BUILD/benchbin/corpus_time" "$SHARED/corpus" "$SHARED/corpus/manifest.tsv" \
	"$SHARED/reference/mesa-etnaviv-dev.tsv" ${CORPUS_TIME_TARGETS:-gc2000,gc3000,gc7000}
