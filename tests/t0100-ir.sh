#!/bin/bash
# .ir files as input of shdb compile: exact round trips of the golden files,
# located errors, pass pipelines and --print-after.
. "$(dirname "$0")/lib.sh"

for f in $(cd "$TESTS/ir" && find . -name '*.ir' | sort); do
	name=${f#./}
	f=$TESTS/ir/$name
	test_expect "round trip: $name reprints unchanged" '
		$SHDB compile --emit=ir --passes=none "'"$f"'" >out &&
		test_cmp "'"$f"'" out
	'
done

test_expect 'without --passes, --emit=ir prints the IR after the default pipeline' '
	$SHDB compile --emit=ir "$TESTS/ir/fs-if-loop.ir" >out &&
	$SHDB compile --emit=ir --passes=none "$TESTS/ir/fs-if-loop.ir" >none &&
	! test_cmp none out >/dev/null &&
	! grep -q "loop" out &&
	cp out out.ir &&
	$SHDB compile --emit=ir --validate-ir out.ir >again &&
	test_cmp out again
'

test_expect '--print-after names a pass of the default pipeline, once per round it runs' '
	$SHDB compile --emit=ir --print-after=opt_loop_unroll "$TESTS/ir/default/loop-sum.ir" >out &&
	grep -q "^# after opt_loop_unroll$" out &&
	test $(grep -c "^# after opt_loop_unroll" out) -ge 2 &&
	! grep -q "^# after opt_cse" out
'

test_expect 'a front-end-only result is ok' '
	$SHDB compile "$TESTS/ir/alu.ir" >out &&
	echo "$TESTS/ir/alu.ir: compute: ok" >expect &&
	test_cmp expect out
'

test_expect '--stats prints a record with a null target' '
	$SHDB compile --stats "$TESTS/ir/alu.ir" >out &&
	grep -q "\"stage\":\"compute\",\"target\":null,\"status\":\"ok\"" out
'

test_expect '--passes runs a custom pipeline' '
	cat >in.ir <<-\EOT &&
	shader fragment

	fn main {
	block b0:
		32     %7 = load_const 1
		32     %3 = iadd %7, %7
	}
	EOT
	$SHDB compile --emit=ir --passes=calc_reindex in.ir >out &&
	grep -q "%0 = load_const 1" out && grep -q "%1 = iadd %0, %0" out
'

test_expect '--print-after dumps the IR after a pass, then the result' '
	$SHDB compile --print-after=calc_reindex --passes=calc_reindex,calc_reindex in.ir >out &&
	grep -c "^shader fragment" out >n && echo 2 >expect && test_cmp expect n &&
	sed -n 1p out >first && echo "# after calc_reindex" >expect && test_cmp expect first &&
	grep -q "^# after calc_reindex: no progress$" out
'

test_expect '--print-after=all' '
	$SHDB compile --print-after=all --passes=calc_reindex "$TESTS/ir/tes.ir" >out &&
	grep -q "^# after calc_reindex: no progress$" out
'

test_expect 'an unknown pass is a usage error naming the known ones' '
	expect_status 2 $SHDB compile --passes=calc_reindex,opt_nothing in.ir 2>err &&
	grep -q "unknown pass .opt_nothing. (known passes: calc_reindex" err &&
	expect_status 2 $SHDB compile --print-after=bogus in.ir 2>err &&
	grep -q "unknown pass .bogus. in --print-after" err
'

test_expect '--validate-ir is accepted' '
	$SHDB compile --validate-ir --emit=ir --passes=none "$TESTS/ir/cs-shared.ir" >out &&
	test_cmp "$TESTS/ir/cs-shared.ir" out
'

test_expect 'a syntax error is located, exit status 1' '
	printf "shader fragment\n\nfn main {\nblock b0:\n\t32 %%0 = fadd %%1\n}\n" >bad.ir &&
	expect_status 1 $SHDB compile bad.ir 2>err &&
	echo "bad.ir:5:17: error: expected '"','"', got end of line" >expect &&
	test_cmp expect err
'

test_expect 'an invalid shader is located at its line, exit status 1' '
	printf "shader fragment\n\nfn main {\nblock b0:\n\t32 %%0 = load_const 1\n\t32 %%1 = fadd %%0, %%2\n\t32 %%2 = fadd %%0, %%0\n}\n" >bad.ir &&
	expect_status 1 $SHDB compile bad.ir 2>err &&
	grep -q "^bad.ir:6: error: .32 %1 = fadd %0, %2.: %2 does not dominate this use$" err
'

test_expect '--stats records the first error' '
	expect_status 1 $SHDB compile --stats bad.ir >out 2>/dev/null &&
	grep -q "\"status\":\"error\",\"message\":\"bad.ir:6: error:" out
'

test_expect 'a --stage that contradicts the file is an error' '
	expect_status 1 $SHDB compile --stage vertex "$TESTS/ir/tes.ir" 2>err &&
	grep -q "is a tess_eval shader, not vertex" err
'

test_expect 'an empty file is an error' '
	: >empty.ir &&
	expect_status 1 $SHDB compile empty.ir 2>err &&
	grep -q "^empty.ir:1:1: error: expected .shader., got end of file$" err
'

test_done
