#!/bin/bash
# Compile time per shader and target over ../shared/corpus, in process, one
# compile of every unit for every target: median and p90 of the whole
# pipeline (front end, optimisation, backend) and of the backend alone, in
# ms, beside Mesa 24.3's figures for the same units (mesa-ir3-dev.tsv).
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
