#!/bin/bash
# make ir3-check, make etna-check: every unit of ../shared/corpus through one
# backend family's targets (shdb targets --family), with both verifiers,
# then per target how many of the units that reached the backend compiled
# and why the others failed, grouped (bench/mesa-compare.pl coverage).
# For ir3, whose final code the simulator runs, also the differential test
# (shdb run --verify-exec: the final code against the IR interpreter) and
# what it found, every unit it cannot run counted under its reason
# (tests/corpus/exec-table.pl).
# Fails when a target compiles less than 99% of the units Mesa 24.3
# compiles for it (../shared/reference/mesa-ir3-dev.tsv,
# mesa-etnaviv-dev.tsv), on any verifier failure, crash, hang or internal
# error, on any unit whose final code differs from the interpreter, when
# EXEC_MIN_SHARE is set and fewer of the units of the stages the simulator
# models agree, or when the run fails.
#
#	tests/corpus/backend-check.sh ir3|etna
#
#   CHECK_RUN=DIR        where the run goes (default $SHDB_BUILD/FAMILY-check)
#   EXEC_MIN_SHARE=F     require that share of agreement (exec-table.pl)
set -eu
cd "$(dirname "$0")/../.."
family=${1:?usage: backend-check.sh ir3|etna}
exec_opt=()
case $family in
ir3) tsv=mesa-ir3-dev.tsv exec_opt=(--verify-exec) ;;
etna) tsv=mesa-etnaviv-dev.tsv ;;
*) echo "backend-check.sh: unknown family '$family'" >&2; exit 2 ;;
esac
SHARED=${SHDB_SHARED:-../shared}
if [ ! -d "$SHARED/corpus" ]; then
	echo "skipped: no $SHARED/corpus"
	exit 0
fi
SHDB=${SHDB:-./shdb}
out=${CHECK_RUN:-${SHDB_BUILD:-build}/$family-check}
targets=$("$SHDB" targets --names --family "$family" | paste -sd,)
# A hang is what the timeout is for, not a slow unit on a loaded machine: the
# slowest (graphicsfuzz stable_pillars.frag on a420, 8 s alone) passed 30 s
# under a load of 8.  120 s, as the sanitizer corpus run.
"$SHDB" run -q --force --verify "${exec_opt[@]}" --timeout 120 \
	--manifest "$SHARED/corpus/manifest.tsv" -t "$targets" -o "$out" "$SHARED/corpus"
rc=0
perl bench/mesa-compare.pl coverage "$SHARED/corpus/manifest.tsv" \
	"$SHARED/reference/$tsv" "$out/stats.jsonl" || rc=1
if [ ${#exec_opt[@]} -gt 0 ]; then
	perl tests/corpus/exec-table.pl "$out/stats.jsonl" || rc=1
fi
exit $rc
