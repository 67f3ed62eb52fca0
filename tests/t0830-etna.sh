#!/bin/bash
# shdb compile with the etnaviv backend end to end: the targets, --stats,
# --shaderdb in Mesa's etnaviv line, --disasm in etnaviv's syntax, --verify
# on every golden of tests/etna and on real shaders, the targets together as
# alone, its passes in the one registry (--print-after, --time-passes),
# stages etnaviv has not refused by name, shdb run records.
. "$(dirname "$0")/lib.sh"

IN=$TESTS/etna

test_expect 'shdb targets lists GC2000, GC3000 and GC7000 in the etna family' '
	$SHDB targets >out &&
	grep -q "^gc2000 *etna *0 " out && grep -q "^gc3000 *etna *2 " out &&
	grep -q "^gc7000 *etna *5 " out &&
	test "$($SHDB targets --names --family etna | tr "\n" " ")" = "gc2000 gc3000 gc7000 " &&
	! $SHDB targets --names --family ir3 | grep -q gc
'

test_expect '--stats prints one JSON record per target with the etnaviv fields' '
	$SHDB compile -t gc2000,gc7000 --stats $IN/fs-texture.ir >out &&
	test $(wc -l <out) = 2 &&
	for k in instructions temps immediates loops nops texture; do
		grep -q "\"$k\":" out || exit 1
	done
'

test_expect '--shaderdb prints Mesa s etnaviv line' '
	$SHDB compile -t gc3000 --shaderdb $IN/fs-loop.ir >out &&
	grep -Eq "^.*fs-loop.ir - FRAG shader: [0-9]+ instructions, [0-9]+ temps, [0-9]+ immediates, 1 loops, 0 nops, 0 texture$" out
'

test_expect '--disasm speaks etnaviv assembly' '
	$SHDB compile -t gc7000 --disasm $IN/fs-tex-lod.ir >out &&
	grep -Eq "^texldl +t[0-9]+, tex0\.[xyzw]{4}, t[0-9]+\.[xyzw]{4}, t[0-9]+\.[xyzw]{4}, void$" out
'

test_expect '--verify passes on every golden for every Vivante target' '
	for f in $IN/*.ir; do
		case $f in *error-*) continue;; esac
		$SHDB compile -t gc2000,gc3000,gc7000 --verify $f >/dev/null 2>err || { cat err; exit 1; }
	done
'

test_expect 'every golden on the three targets at once = each target alone' '
	for f in $IN/*.ir; do
		$SHDB compile -t gc2000,gc3000,gc7000 --disasm --shaderdb $f 2>&1 |
			grep -v "^; ---- " >together
		for t in gc2000 gc3000 gc7000; do
			$SHDB compile -t $t --disasm --shaderdb $f 2>&1
		done >alone
		test_cmp together alone || { echo "# $f"; exit 1; }
	done
'

test_expect 'its passes are in the registry: --print-after dumps the machine IR, --time-passes times them' '
	$SHDB compile -t gc3000 --emit=ir --print-after=etna_isel $IN/fs-if-phi.ir >out &&
	grep -q "^# ---- gc3000 backend ----" out && grep -q "^; after etna_isel" out &&
	grep -q "^	cmp.lt %[0-9]*\.x___" out &&
	$SHDB compile -t gc3000 --emit=ir --print-after=etna_ra $IN/fs-if-phi.ir >out &&
	grep -q "^cmp.lt  *t[0-9]*\.x___" out &&
	$SHDB compile -t gc2000 --emit=ir --print-after=lower_etna_int_to_float $IN/fs-loop.ir >out &&
	grep -q "^# after lower_etna_int_to_float" out &&
	$SHDB compile -t gc7000 --time-passes $IN/fs-loop.ir >/dev/null 2>err &&
	for p in lower_etna_alu etna_isel etna_ra etna_finish; do grep -q "$p" err || exit 1; done
'

test_expect 'shdb targets --family takes ir3 or etna, nothing else' '
	$SHDB targets --family ir3 >out && ! grep -q "^gc" out && grep -q "^a630 " out &&
	expect_status 2 $SHDB targets --family nv50 2>err && grep -q "unknown family .nv50." err
'

test_expect 'a stage etnaviv has not is a named error' '
	expect_status 1 $SHDB compile -t gc7000 $TESTS/isel/tcs.ir >out 2>err &&
	grep -q "etnaviv has no tess_ctrl stage" err
'

test_expect 'shdb run records the etnaviv statistics' '
	mkdir in && cp $IN/fs-loop.ir $IN/vs-transform.ir in/ &&
	$SHDB run -q -j1 --verify -o res -t gc2000,gc7000 in >/dev/null 2>&1 &&
	test $(grep -c "\"status\":\"ok\"" res/stats.jsonl) = 4 &&
	grep -q "\"instructions\":" res/stats.jsonl
'

test_expect 'bit scans through LEADZERO, ldexp by the exponent field (HALTI2+); HALTI0 refuses them' '
	for t in gc3000 gc7000; do
		$SHDB compile -t $t --verify --disasm $TESTS/ir/lower_find_msb/basic.ir >out &&
		test $(grep -c "^leadzero\.u32 " out) = 3 &&
		$SHDB compile -t $t --verify --disasm $TESTS/ir/lower_ldexp/basic.ir >out &&
		grep -q "^lshift\.s32 .*, 23$" out || exit 1
	done &&
	expect_status 1 $SHDB compile -t gc2000 $TESTS/ir/lower_find_msb/basic.ir 2>err &&
	grep -q "on a pre-HALTI2 GPU" err
'

test_expect 'a table of 2,048 constants read at a dynamic index: refused in bounded time' '
	# its 2,048 initialising stores name their element (they once each
	# became 2,048 selects: 4M, minutes); the timeout is a hang guard
	{ printf "#version 450\nlayout(location = 0) in flat int i;\n"
	  printf "layout(location = 0) out float o;\nconst float t[2048] = float[2048]("
	  for k in $(seq 2047); do printf "%d.0," $k; done
	  printf "0.5);\nvoid main() { o = t[i] + t[i + 1]; }\n"
	} >table.frag &&
	expect_status 1 timeout 300 $SHDB compile -t gc3000 table.frag >out 2>err &&
	grep -q "uniform file full" err
'

if [ -n "${SHDB_SHARED:-}" ] && [ -d "$SHDB_SHARED/corpus" ]; then
	C=$SHDB_SHARED/corpus/SaschaWillems-Vulkan/shaders/glsl
	test_expect 'real shaders compile and verify on the three Vivante GPUs' '
		for f in $C/pbrbasic/*.spv $C/texture/*.spv $C/bloom/colorpass.*.spv; do
			$SHDB compile -t gc2000,gc3000,gc7000 --verify "$f" >/dev/null 2>err ||
				{ cat err; exit 1; }
		done
	'
	test_expect 'a UBO matrix: uniforms on GC2000, LOADs on GC3000 and GC7000' '
		f=$C/pbrbasic/pbr.vert.spv &&
		$SHDB compile -t gc2000 --disasm "$f" >g2 && $SHDB compile -t gc7000 --disasm "$f" >g7 &&
		! grep -q "^load" g2 && grep -q "^load\.u32" g7
	'
else
	test_skip 'real shaders compile and verify on the three Vivante GPUs' 'no ../shared/corpus'
	test_skip 'a UBO matrix: uniforms on GC2000, LOADs on GC3000 and GC7000' 'no ../shared/corpus'
fi

test_done
