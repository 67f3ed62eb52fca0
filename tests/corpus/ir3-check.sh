#!/bin/bash
# make ir3-check: every unit of ../shared/corpus through the ir3 backend for
# every ir3 target, with both verifiers and the differential test (the final
# code in the simulator against the IR interpreter, shdb run
# --verify-exec), then per target how many of the units that reached the
# backend compiled and why the others failed, grouped (bench/mesa-compare.pl
# coverage), and what the differential test found, every unit it cannot
# run counted under its reason (tests/corpus/exec-table.pl).  Fails when a
# target compiles less than 99% of the units Mesa 24.3 compiles for it
# (mesa-ir3-dev.tsv), on any verifier failure, crash, hang or internal
# error, on any unit whose final code differs from the interpreter, when
# EXEC_MIN_SHARE is set and fewer of the units of the stages the simulator
# models agree, or when the run fails.
#
#   IR3_CHECK_RUN=DIR    where the run goes (default $SHDB_BUILD/ir3-check)
#   EXEC_MIN_SHARE=F     require that share of agreement (exec-table.pl)
set -eu
cd "$(dirname "$0")/../.."
SHARED=${SHDB_SHARED:-../shared}
if [ ! -d "$SHARED/corpus" ]; then
	echo "skipped: no $SHARED/corpus"
	exit 0
fi
SHDB=${SHDB:-./shdb}
out=${IR3_CHECK_RUN:-${SHDB_BUILD:-build}/ir3-check}
targets=$("$SHDB" targets --names --family ir3 | paste -sd,)
# A hang is what the timeout is for, not a slow unit on a loaded machine: the
# slowest (graphicsfuzz stable_pillars.frag on a420, 8 s alone) passed 30 s
# under a load of 8.  120 s, as the sanitizer corpus run.
"$SHDB" run -q --force --verify --verify-exec --timeout 120 \
	--manifest "$SHARED/corpus/manifest.tsv" -t "$targets" -o "$out" "$SHARED/corpus"
rc=0
perl bench/mesa-compare.pl coverage "$SHARED/corpus/manifest.tsv" \
	"$SHARED/reference/mesa-ir3-dev.tsv" "$out/stats.jsonl" || rc=1
perl tests/corpus/exec-table.pl "$out/stats.jsonl" || rc=1
exit $rc
