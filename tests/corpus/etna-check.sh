#!/bin/bash
# make etna-check: every unit of ../shared/corpus through the etnaviv backend
# for every Vivante target, with both verifiers, then per target how many of
# the units that reached the backend compiled and why the others failed,
# grouped (bench/mesa-compare.pl coverage against mesa-etnaviv-dev.tsv).
# Fails when a target compiles less than 99% of the units Mesa 24.3
# compiles for it, on any verifier failure, crash, hang or internal error,
# or when the run fails.
#
#   ETNA_CHECK_RUN=DIR    where the run goes (default $SHDB_BUILD/etna-check)
set -eu
cd "$(dirname "$0")/../.."
SHARED=${SHDB_SHARED:-../shared}
if [ ! -d "$SHARED/corpus" ]; then
	echo "skipped: no $SHARED/corpus"
	exit 0
fi
SHDB=${SHDB:-./shdb}
out=${ETNA_CHECK_RUN:-${SHDB_BUILD:-build}/etna-check}
targets=$("$SHDB" targets --names --family etna | paste -sd,)
"$SHDB" run -q --force --verify --manifest "$SHARED/corpus/manifest.tsv" \
	-t "$targets" -o "$out" "$SHARED/corpus"
exec perl bench/mesa-compare.pl coverage "$SHARED/corpus/manifest.tsv" \
	"$SHARED/reference/mesa-etnaviv-dev.tsv" "$out/stats.jsonl"
