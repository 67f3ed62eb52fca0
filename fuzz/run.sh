#!/bin/bash
# Run libFuzzer targets one after the other (`make fuzz FUZZ_S=N`):
#
#	fuzz/run.sh BINDIR STATE SECONDS NAME...
#
# Each target BINDIR/NAME runs for SECONDS on its corpus STATE/NAME (seeded by
# fuzz/seeds.sh the first time; kept, so time adds up across runs) plus the
# regression inputs tests/fuzz/NAME/, with fuzz/dict/NAME.dict when there is
# one.  A crash, leak, timeout or sanitizer report is kept in
# STATE/crashes/NAME/ and fails the run (after the other targets ran).  Each
# run appends a line to STATE/log.tsv: date, target, seconds asked, CPU
# seconds used, executions, coverage (edges), features, corpus files, result;
# `fuzz/run.sh --totals STATE` sums them per target.
set -u
if [ "${1:-}" = --totals ]; then
	awk -F'\t' 'NR > 1 { cpu[$2] += $4; ex[$2] += $5; cov[$2] = $6; ft[$2] = $7; n[$2] = $8
			     if ($9 != "ok") bad[$2]++ }
		   END { printf "%-12s %10s %14s %8s %8s %8s %s\n", "target", "cpu_s", "execs",
			 "cov", "ft", "corpus", "failed_runs"
			 for (t in cpu) printf "%-12s %10.0f %14d %8d %8d %8d %d\n", t, cpu[t], ex[t],
			 cov[t], ft[t], n[t], bad[t] }' "$2/log.tsv" | sort
	exit 0
fi
bindir=$1 state=$2 seconds=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
log=$state/log.tsv
mkdir -p "$state"
[ -f "$log" ] || printf "date\ttarget\tseconds\tcpu_s\texecs\tcov\tft\tcorpus\tresult\n" >"$log"
failed=()
for name in "$@"; do
	corpus=$state/$name crashes=$state/crashes/$name
	mkdir -p "$corpus" "$crashes"
	if [ -z "$(ls -A "$corpus")" ]; then
		(cd "$here" && fuzz/seeds.sh "$name" "$corpus")
	fi
	args=(-max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -max_len=65536
	      -print_final_stats=1 -artifact_prefix="$crashes/")
	[ -f "$here/fuzz/dict/$name.dict" ] && args+=(-dict="$here/fuzz/dict/$name.dict")
	dirs=("$corpus")
	[ -d "$here/tests/fuzz/$name" ] && dirs+=("$here/tests/fuzz/$name")
	out=$state/$name.last.log
	echo "fuzz: $name for ${seconds}s ($(ls "$corpus" | wc -l) inputs)"
	/usr/bin/time -f '%U %S' -o "$state/.time.$name" "$bindir/$name" "${args[@]}" "${dirs[@]}" \
		>"$out" 2>&1
	rc=$?
	cpu=$(awk '{ print $1 + $2 }' "$state/.time.$name" 2>/dev/null | tail -n 1)
	execs=$(sed -n 's/^stat::number_of_executed_units: //p' "$out" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$out" | tail -n 1 | cut -d' ' -f2)
	ft=$(grep -o 'ft: [0-9]*' "$out" | tail -n 1 | cut -d' ' -f2)
	result=ok
	if [ $rc -ne 0 ]; then
		result="failed($rc)"
		failed+=("$name")
		echo "fuzz: $name FAILED (exit $rc); its log: $out; inputs kept in $crashes/" >&2
		grep -m 5 -E 'ERROR|SUMMARY|fuzz check failed|runtime error|Test unit written' "$out" >&2
	fi
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$(date -u +%FT%TZ)" "$name" "$seconds" \
		"${cpu:-0}" "${execs:-0}" "${cov:-0}" "${ft:-0}" "$(ls "$corpus" | wc -l)" \
		"$result" >>"$log"
	echo "fuzz: $name: ${execs:-0} executions, cov ${cov:-0}, ft ${ft:-0}, ${cpu:-0} CPU s"
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz: failed: ${failed[*]}" >&2
	exit 1
fi
echo "fuzz: $# targets, no crash"
