#!/bin/bash
# The first inputs of a fuzz target's corpus: small files of its format from
# tests/ and, when it is there, ../shared/corpus (SHDB_SHARED), chosen the same
# way every time (sorted, every k-th, at most MAX_BYTES each).
#
#	fuzz/seeds.sh NAME DIR		copy NAME's seeds into DIR
set -eu
name=$1 dir=$2
corpus=${SHDB_SHARED:-../shared}/corpus
MAX_BYTES=16384
mkdir -p "$dir"

# copy FILE... (those small enough), named by a running number and their base name
n=0
copy() {
	local f
	for f in "$@"; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -le $MAX_BYTES ] || continue
		n=$((n + 1))
		cp "$f" "$dir/seed-$n-$(basename "$f")"
		chmod u+w "$dir/seed-$n-$(basename "$f")"
	done
}

# every k-th of the files under $1 named like $2, to about $3 files
sample() {
	local root=$1 pattern=$2 want=$3
	[ -d "$root" ] || return 0
	find "$root" -type f -name "$pattern" -size -$((MAX_BYTES / 1024))k | LC_ALL=C sort >"$dir/.list"
	local total k
	total=$(wc -l <"$dir/.list")
	k=$(((total + want - 1) / want))
	[ "$k" -ge 1 ] || k=1
	mapfile -t files < <(awk -v k="$k" 'NR % k == 1 || k == 1' "$dir/.list")
	rm -f "$dir/.list"
	[ ${#files[@]} -eq 0 ] || copy "${files[@]}"
}

case $name in
spirv)
	sample "$corpus" '*.spv' 150 ;;
ir)
	sample tests/ir '*.ir' 200 ;;
ir3)
	sample tests/ir3 '*.mir' 100 ;;
shader_test)
	sample shaders '*.shader_test' 50
	sample tests '*.shader_test' 50 ;;
source)
	sample tests/front '*.vert' 20
	sample tests/front '*.frag' 20
	for ext in frag vert comp geom tesc tese glsl hlsl rgen mesh; do
		sample "$corpus" "*.$ext" 20
	done ;;
manifest)
	if [ -f "$corpus/manifest.tsv" ]; then
		head -n 40 "$corpus/manifest.tsv" >"$dir/seed-manifest-head.tsv"
		awk 'NR == 1 || NR % 97 == 0' "$corpus/manifest.tsv" >"$dir/seed-manifest-sample.tsv"
	fi ;;
jsonl)
	head -n 30 tests/golden/runs/main/stats.jsonl >"$dir/seed-main.jsonl"
	head -n 30 tests/golden/runs/topic.jsonl >"$dir/seed-topic.jsonl" ;;
mesa)
	head -n 40 tests/golden/reportpy/fd-before.txt >"$dir/seed-fd-before.txt"
	head -n 40 tests/golden/reportpy/fd-after.txt >"$dir/seed-fd-after.txt" ;;
fossil | asm_pack | foz) ;;	# hand-made seeds only (tests/fuzz/NAME/)
*)
	echo "fuzz/seeds.sh: no seeds for '$name'" >&2 ;;
esac
