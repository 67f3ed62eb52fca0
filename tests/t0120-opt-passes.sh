#!/bin/bash
# Golden tests of the optimisation passes (tests/ir/README.md): each
# tests/ir/DIR/NAME.ir, run through the passes DIR names (or those its
# `passes` file lists; `default`: the default pipeline) with validation and
# progress checks after each, prints exactly tests/ir/DIR/NAME.expect.
. "$(dirname "$0")/lib.sh"

for dir in "$TESTS"/ir/*/; do
	dir=${dir%/}
	group=$(basename "$dir")
	# a pass folder has expected outputs or a passes file (interp/ has neither)
	ls "$dir"/*.expect >/dev/null 2>&1 || [ -f "$dir/passes" ] || continue
	passes=$group
	[ -f "$dir/passes" ] && passes=$(cat "$dir/passes")
	opt=--passes=$passes
	[ "$passes" = default ] && opt=
	for f in "$dir"/*.ir; do
		[ -e "$f" ] || continue
		name=$group/$(basename "$f" .ir)
		test_expect "$name (${opt:-the default pipeline})" '
			$SHDB compile --emit=ir --validate-ir '"$opt"' "'"$f"'" >out &&
			test_cmp "'"${f%.ir}.expect"'" out
		'
	done
done

test_expect 'in pass folders, every input has its expected output and every output its input' '
	cd "$TESTS/ir" &&
	for f in */*.expect; do [ -f "${f%.expect}.ir" ] || { echo "no ${f%.expect}.ir"; exit 1; }; done &&
	for d in */; do
		ls $d*.expect >/dev/null 2>&1 || [ -f ${d}passes ] || continue
		for f in $d*.ir; do [ -f "${f%.ir}.expect" ] || { echo "no ${f%.ir}.expect"; exit 1; }; done
	done
'

test_done
