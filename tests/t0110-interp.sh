#!/bin/bash
# shdb compile --interp: the optimised IR run in the interpreter
# (compiler/ir/INTERP.md) on the random inputs of a seed.
. "$(dirname "$0")/lib.sh"

test_expect '--interp prints the inputs and the results' '
	$SHDB compile --interp=3 "$TESTS/ir/fs-if-loop.ir" >out &&
	grep -q "^; interp seed 3$" out &&
	grep -q "^input 0 lane 3: " out &&
	grep -q "^status: ok, [0-9]* steps$" out &&
	grep -q "^output 0 lane [0-3]: " out
'

test_expect 'a seed gives the same run every time' '
	$SHDB compile --interp=7 "$TESTS/ir/vs-transform.ir" >a &&
	$SHDB compile --interp=7 "$TESTS/ir/vs-transform.ir" >b &&
	test_cmp a b &&
	$SHDB compile --interp=8 "$TESTS/ir/vs-transform.ir" >c &&
	! cmp -s a c
'

test_expect '--interp without a seed uses seed 0' '
	$SHDB compile --interp "$TESTS/ir/tes.ir" >a &&
	$SHDB compile --interp=0 "$TESTS/ir/tes.ir" >b &&
	test_cmp a b
'

test_expect 'the default pipeline and --passes=none compute the same' '
	# the same results; not the same number of steps (optimised, fewer)
	$SHDB compile --interp=5 "$TESTS/ir/cs-shared.ir" >a &&
	$SHDB compile --interp=5 --passes=none "$TESTS/ir/cs-shared.ir" >b &&
	sed "s/, [0-9]* steps$//" a >a2 && sed "s/, [0-9]* steps$//" b >b2 &&
	test_cmp a2 b2
'

test_expect '--interp runs the final shader after --print-after dumps' '
	$SHDB compile --interp=2 --print-after=all --passes=calc_reindex "$TESTS/ir/gs-emit.ir" >out &&
	grep -q "^# after calc_reindex" out &&
	grep -q "^lane 0: emit_vertex stream 0$" out
'

test_expect '--interp takes a number' '
	expect_status 2 $SHDB compile --interp=x "$TESTS/ir/tes.ir" 2>err &&
	grep -q "takes a seed" err
'

test_done
