#!/bin/bash
# shdb cmp on synthetic runs of 200,000 and 2,000,000 records before and after
# (10% changed; bench/gen-runs.c), as JSONL records and as Mesa shader-db logs:
# wall time and peak RSS, median of 3, beside mawk/awk merely summing one
# statistic (inst) over the same two files.  Issue 7's target: under 0.5 s and
# 150 MB at 200k records, linear scaling.  For scale, shaderdb-tools.md §5:
# report.py takes ~25 s and 1.35 GB on 200k (not run here: no python deps).
#
#	make bench                         (all benchmarks)
#	SIZES="200000" bash bench/10-cmp.sh   (one size; files are kept in bench/out)
set -u
cd "$(dirname "$0")"
SHDB=${SHDB:-../build/shdb}
GEN=${SHDB_BUILD:-../build}/benchbin/gen-runs
SIZES=${SIZES:-200000 2000000}
REPS=${REPS:-3}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "10-cmp: needs /usr/bin/time (apt-get install time)"; exit 1; }
[ -x "$GEN" ] || { echo "10-cmp: build $GEN first (make bench)"; exit 1; }

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# measure CMD...: "seconds kilobytes", medians of $REPS runs
measure() {
	local i t=() m=()
	for i in $(seq "$REPS"); do
		"$TIME" -f '%e %M' -o out/time.txt "$@" >/dev/null 2>out/stderr.txt ||
			{ echo "failed: $*" >&2; cat out/stderr.txt >&2; return 1; }
		read -r s k <out/time.txt
		t+=("$s")
		m+=("$k")
	done
	echo "$(printf '%s\n' "${t[@]}" | median) $(printf '%s\n' "${m[@]}" | median)"
}

# the files of one size and format, generated once
files() {
	local n=$1 fmt=$2 ext=$3 dir=out/$1
	mkdir -p "$dir"
	if [ ! -s "$dir/after.$ext" ] || [ gen-runs.c -nt "$dir/after.$ext" ]; then
		"$GEN" --records "$n" --format "$fmt" "$dir" || exit 1
	fi
	echo "$dir/before.$ext $dir/after.$ext"
}

mkdir -p out
printf '%-9s %-6s %9s %10s %10s %10s %8s\n' records input "MB each" "shdb s" "shdb MB" "awk s" "shdb/awk"
for n in $SIZES; do
	# format, extension, where inst is, and how many characters precede its value
	for f in 'jsonl jsonl "inst":[0-9]+ 7' 'mesa txt [0-9]+.inst, 0'; do
		read -r fmt ext pattern skip <<<"$f"
		read -r before after <<<"$(files "$n" "$fmt" "$ext")"
		read -r ts ks <<<"$(measure "$SHDB" cmp "$before" "$after")" || exit 1
		read -r ta ka <<<"$(measure awk -v re="$pattern" -v skip="$skip" \
			'match($0, re) { s += substr($0, RSTART + skip, RLENGTH - skip) + 0 } END { print s }' \
			"$before" "$after")" || exit 1
		awk -v n="$n" -v fmt="$fmt" -v bytes="$(stat -c %s "$before")" -v ts="$ts" -v ks="$ks" \
			-v ta="$ta" 'BEGIN { printf "%-9s %-6s %9.0f %10.2f %10.0f %10.2f %8.2f\n",
				n, fmt, bytes / 1e6, ts, ks / 1024, ta, ts / ta }'
	done
done
echo "(awk is $(readlink -f "$(command -v awk)"); $(nproc) CPUs; medians of $REPS runs)"
