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

test_expect 'Mesa logs from a run: shdb stats --format=shaderdb, one target at a time; compile labels each target' '
	mkdir -p mc && cp $SRCDIR/shaders/lighting/blinn.frag $SRCDIR/shaders/lighting/toon.frag \
		$SRCDIR/shaders/compute/histogram.comp mc/ &&
	$SHDB run -q -j2 -t a630,a750 -o mr mc &&
	for t in a630 a750; do
		$SHDB stats --format=shaderdb --target $t mr >$t.log &&
		(cd mc && for f in blinn.frag histogram.comp toon.frag; do
			$SHDB compile -t $t --shaderdb $f || exit 1
		done) >$t.want &&
		test_cmp $t.want $t.log || exit 1
	done &&
	$SHDB cmp -s --target a750 a750.log mr >out 2>err &&
	grep -q "in both 3 (3 ok in both), affected 0; lost 0, gained 0" out &&
	expect_status 2 $SHDB stats --format=shaderdb mr >out 2>err &&
	grep -q "records of 2 targets: choose one with --target" err &&
	(cd mc && $SHDB compile -t a630,a750 --shaderdb blinn.frag) >both &&
	{ echo "; ---- fragment a630 ----"; grep "^blinn.frag" a630.want;
	  echo "; ---- fragment a750 ----"; grep "^blinn.frag" a750.want; } >want &&
	test_cmp want both &&
	head -n 2 both >one && $SHDB stats -s one >out 2>err && grep -q "^all: 1 records" out &&
	! test -s err
'

test_done
