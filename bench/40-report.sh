#!/bin/bash
# shdb report over a synthetic history (bench/gen-runs --history): 30 nightly runs of
# 20,000 records each (one target, drift, a regression in the last night, kept
# disassembly), then the same with two targets (40,000 records a run).  Wall time
# of the whole report, gnuplot's SVG and PNG charts included, and peak RSS; median
# of 3.  Issue 8's target: 30 runs x 20,000 shaders in under 10 s.
#
#	make bench                     (all benchmarks)
#	REPS=1 bash bench/40-report.sh (histories are kept in bench/out)
set -u
cd "$(dirname "$0")"
SHDB=${SHDB:-../build/shdb}
GEN=${SHDB_BUILD:-../build}/benchbin/gen-runs
REPS=${REPS:-3}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "40-report: needs /usr/bin/time (apt-get install time)"; exit 1; }
[ -x "$GEN" ] || { echo "40-report: build $GEN first (make bench)"; exit 1; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# history RUNS RECORDS TARGETS: generated once into bench/out
history() {
	local dir=out/history-$1x$2-${3//,/-}
	if [ ! -s "$dir/night-$(printf %03d "$1")/stats.jsonl" ] || [ gen-runs.c -nt "$dir" ]; then
		rm -rf "$dir"
		"$GEN" --history "$1" --records "$2" --targets "$3" --regress 2 --asm "$dir" || exit 1
	fi
	echo "$dir"
}

mkdir -p out
printf '%-5s %-9s %-10s %9s %8s %8s %7s\n' runs records targets "MB" "wall s" "RSS MB" pages
for case in "30 20000 a630" "30 20000 a630,a740"; do
	read -r runs records targets <<<"$case"
	dir=$(history "$runs" "$records" "$targets")
	t=() m=()
	for i in $(seq "$REPS"); do
		"$TIME" -f '%e %M' -o out/time.txt "$SHDB" report "$dir" -o out/report >/dev/null 2>out/stderr.txt ||
			{ echo "failed: shdb report $dir"; cat out/stderr.txt; exit 1; }
		read -r s k <out/time.txt
		t+=("$s")
		m+=("$k")
	done
	ntargets=$(tr , '\n' <<<"$targets" | wc -l)
	printf '%-5s %-9s %-10s %9.0f %8.2f %8.0f %7s\n' "$runs" "$((records * ntargets))" \
		"$targets" "$(du -sm "$dir" | cut -f1)" "$(printf '%s\n' "${t[@]}" | median)" \
		"$(( $(printf '%s\n' "${m[@]}" | median) / 1024 ))" "$(ls out/report/shaders | wc -l)"
done
echo "(records per run; MB of the history with its asm.pack files; $(nproc) CPUs; medians of $REPS runs)"
