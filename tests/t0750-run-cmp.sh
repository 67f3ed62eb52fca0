#!/bin/bash
# shdb run -> shdb stats / shdb cmp: two runs made by the runner with a stand-in
# compiler (Mesa ir3 lines whose numbers depend on the path), compared.
. "$(dirname "$0")/lib.sh"

cat >cc.sh <<'CC'
#!/bin/sh
# cc.sh DELTA PATH: one ir3 shader-db line; inst grows by DELTA
n=$(printf '%s' "$2" | cksum | cut -c1-2)
echo "$2 - FRAG shader: $((n + $1)) inst, 3 nops, $((n + $1 - 3)) non-nops, 16 waves, 0 loops"
CC
chmod +x cc.sh
mkdir corpus && for i in 1 2 3 4 5 6; do echo "void main() {}" >corpus/s$i.frag; done

test_expect 'two runs by shdb run' '
	$SHDB run -j2 -t a630 --compiler "$TRASH/cc.sh 0 {path}" --compiler-preset ir3 corpus -o a >/dev/null 2>&1 &&
	$SHDB run -j2 -t a630 --compiler "$TRASH/cc.sh 2 {path}" --compiler-preset ir3 corpus -o b >/dev/null 2>&1 &&
	test -s a/stats.jsonl && test -s b/run.json
'

test_expect 'shdb stats reads a run folder, its label from run.json' '
	$SHDB stats -s a >out &&
	grep -q "^shdb stats: a (6 records: 6 ok)$" out && grep -q "^inst  *6 " out
'

test_expect 'shdb cmp: every shader is 2 instructions worse; the verdict says so' '
	$SHDB cmp a b >out &&
	grep -q "^records: 6 -> 6; in both 6 (6 ok in both), affected 6; lost 0, gained 0$" out &&
	grep -q "^inst .* 0  *6  HURT$" out && grep -q "Instructions are HURT\." out
'

test_expect 'and CI catches it' '
	expect_status 1 $SHDB cmp --fail-on "inst>+0.5%" a b >out 2>err &&
	grep -q "^shdb: fail-on .inst>+0.5%.: inst in shared programs changed by +" err &&
	$SHDB cmp --fail-on "inst>+0.5%" b b >out 2>err
'

test_done
