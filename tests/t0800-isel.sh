#!/bin/bash
# shdb compile with the ir3 backend end to end: --stats, --disasm, --shaderdb,
# --verify on IR input, errors per shader, several targets at once.
. "$(dirname "$0")/lib.sh"

IR3=$($SHDB targets --names --family ir3 | paste -sd,)

IN=$TESTS/isel

test_expect '--stats prints one JSON record per target with the ir3 fields' '
	$SHDB compile -t a630,a740 --stats $IN/fs-varyings.ir >out &&
	test $(wc -l <out) = 2 &&
	grep -q "\"target\":\"a630\",\"status\":\"ok\"" out &&
	grep -q "\"target\":\"a740\",\"status\":\"ok\"" out &&
	for k in inst nops non_nops mov cov dwords last_baryf half full constlen cat0 cat7 stp ldp sstall ss systall sy waves loops; do
		grep -q "\"$k\":" out || exit 1
	done &&
	grep -q "\"time_us\":" out
'

test_expect '--shaderdb prints Mesa s line' '
	$SHDB compile -t a630 --shaderdb $IN/fs-loop.ir >out &&
	grep -Eq "^.*fs-loop.ir - FRAG shader: [0-9]+ inst, [0-9]+ nops, [0-9]+ non-nops, [0-9]+ mov, [0-9]+ cov, [0-9]+ dwords, [0-9]+ last-baryf, [0-9]+ last-helper, [0-9]+ half, [0-9]+ full, [0-9]+ constlen, ([0-9]+ cat[0-7], ){8}[0-9]+ stp, [0-9]+ ldp, [0-9]+ sstall, [0-9]+ \(ss\), [0-9]+ systall, [0-9]+ \(sy\), [0-9]+ waves, 1 loops$" out
'

test_expect '--disasm shows the ir3 assembly, (nopN) only from a6xx' '
	$SHDB compile -t a530 --disasm $IN/fs-tex-lighting.ir >a5 &&
	$SHDB compile -t a630 --disasm $IN/fs-tex-lighting.ir >a6 &&
	grep -q "^sam " a5 && grep -q "^(sy)" a5 && grep -q "(ss)" a5 && grep -q "^end$" a6 &&
	! grep -q "(nop[0-9])" a5 && grep -q "(nop[0-9])" a6
'

# declared FILE: the registers the listing's @in and @tex lines declare, one a line
declared() {
	sed -n "s/^@\(in\|tex\)(\([^)]*\)).*/\2/p" "$1" | sort -u
}

test_expect '--disasm opens with Mesa'\''s declarations (@in, @tex, @const) and closes with the outputs' '
	$SHDB compile -t a630 --disasm $SRCDIR/shaders/lighting/pbr.frag >fs &&
	grep -q "^@in(r0.x)	in0 (wrmask=0x3)	; ij_persp_pixel$" fs &&
	grep -q "^@tex(r[0-9]*\.[xyzw])	src=[0-9]*, samp=[0-9]*, tex=[0-9]*, wrmask=0xf, opc=sam	; in_uv.xy$" fs &&
	grep -q "^@const(c[0-9]*\.x)	0x[0-9a-f]\{8\}, 0x[0-9a-f]\{8\}, 0x[0-9a-f]\{8\}, 0x[0-9a-f]\{8\}$" fs &&
	grep -q "^; consts: c0.x-c[0-9]*.w ubo0\[[0-9]*:[0-9]*\], c[0-9]*.x-c[0-9]*.w preamble, c[0-9]*.x- immediates$" fs &&
	tail -2 fs | head -1 | grep -q "^; fragment: outputs: r[0-9]*\.[xyzw] (rt0.x out_color)$" &&
	tail -1 fs | grep -q "^; fragment: inputs: il 0-2 in_world_pos.xyz, il 4-6 in_normal.xyz, il 8-9 in_uv.xy$" &&
	awk "/^@/ && body { exit 1 } !/^[@;]/ { body = 1 }" fs &&
	$SHDB compile -t a630 --disasm $SRCDIR/shaders/post/fullscreen.vert >vs &&
	grep -q "^@in(r[0-9]*\.[xyzw])	in0	; vertex_id$" vs &&
	tail -1 vs | grep -q "^; vertex: outputs: .*(position)"
'

test_expect '--disasm: a prefetched texel is read, never written: its @tex line says where it comes from' '
	$SHDB compile -t a630 --disasm $SRCDIR/shaders/lighting/pbr.frag >fs &&
	declared fs >decl && grep -q "^r" decl &&
	grep -v "^[@;]" fs >body &&
	while read -r r; do
		grep -q "[ ,]$r\([, ]\|\$\)" body || { echo "$r is not read"; return 1; }
	done <decl
'

test_expect 'a7xx needs fewer nops than a6xx on the same shader' '
	n6=$($SHDB compile -t a630 --shaderdb $IN/alu-int.ir | sed "s/.* \([0-9]*\) nops.*/\1/") &&
	n7=$($SHDB compile -t a740 --shaderdb $IN/alu-int.ir | sed "s/.* \([0-9]*\) nops.*/\1/") &&
	test "$n7" -lt "$n6"
'

test_expect 'half registers: a separate file on a5xx, merged from a6xx' '
	$SHDB compile -t a530 --shaderdb $IN/fs-half.ir | grep -q " [1-9][0-9]* half," &&
	$SHDB compile -t a630 --shaderdb $IN/fs-half.ir | grep -q " 0 half,"
'

test_expect '--verify passes on every golden for every ir3 target' '
	for f in $IN/*.ir; do
		case $f in *error-*) continue;; esac
		$SHDB compile -t $IR3 --verify $f >/dev/null 2>err || { cat err; exit 1; }
	done
'

# Targets equal in ir3_lowering_view share one lowered shader: compiling
# them together must give what compiling each alone gives.
test_expect 'every golden on all ir3 targets at once = each target alone' '
	for f in $IN/*.ir; do
		$SHDB compile -t $IR3 --disasm --shaderdb $f 2>&1 | grep -v "^; ---- " >together
		for t in $($SHDB targets --names --family ir3); do
			$SHDB compile -t $t --disasm --shaderdb $f 2>&1
		done >alone
		test_cmp together alone || { echo "# $f"; exit 1; }
	done
'

test_expect 'an unsupported op is a per-target error naming it, exit 1' '
	expect_status 1 $SHDB compile -t a630,a740 --stats $IN/error-fp64.ir >out 2>err &&
	grep -q "a630: 64-bit floating point is not supported (f2f64" err &&
	test $(grep -c "\"status\":\"error\"" out) = 2 &&
	grep -q "\"message\":\"64-bit floating point is not supported" out
'

test_expect 'shdb run records ir3 statistics for .ir inputs' '
	mkdir in && cp $IN/fs-loop.ir $IN/vs-transform.ir in/ &&
	$SHDB run -q -j1 -o res -t a630 in >/dev/null 2>&1 &&
	grep -q "\"inst\":" res/stats.jsonl
'

test_expect 'shdb run --verify runs both verifiers on every result' '
	mkdir vin && cp $IN/fs-loop.ir $IN/tcs.ir vin/ &&
	$SHDB run -q -j1 --verify -o vres -t a306,a630 vin >/dev/null 2>&1 &&
	test $(grep -c "\"status\":\"ok\"" vres/stats.jsonl) = 4 &&
	grep -q "\"verify\": true" vres/run.json
'

printf "#version 450\nlayout(location=0) out vec4 c;\nvoid main(){c=vec4(1.0);}\n" >x.frag
if $SHDB compile --emit=ir x.frag >/dev/null 2>err; then
	test_expect 'GLSL input compiles for a630' '
		$SHDB compile -t a630 --verify --shaderdb x.frag | grep -q "FRAG shader:"
	'
else
	test_skip 'GLSL input compiles for a630' "no front end to IR yet: $(head -1 err)"
fi

# The backend's passes are in the one pass registry: --print-after,
# --passes, --validate-ir and --time-passes work as for opt_dce.
test_expect '--print-after names a backend pass, an ir3 lowering or all' '
	$SHDB compile -t a630 --print-after=ir3_sched $IN/fs-loop.ir >out &&
	grep -q "^# ---- a630 backend ----$" out && grep -q "^; after ir3_sched$" out &&
	! grep -q "^; after ir3_ra$" out &&
	$SHDB compile -t a630 --print-after=lower_ir3_tex $IN/fs-tex-lighting.ir >out &&
	grep -q "^# after lower_ir3_tex" out &&
	$SHDB compile -t a740 --print-after=all $IN/fs-tex-lighting.ir >out &&
	for p in ir3_isel ir3_opt_cp ir3_sched ir3_ra ir3_postsched ir3_legalize opt_dce; do
		grep -q "^[#;] after $p\(: no progress\)\?$" out || { echo "no $p"; exit 1; }
	done
'

test_expect '--passes leaves out the optional backend passes it does not name' '
	$SHDB compile -t a630 --disasm --passes=none --verify $IN/fs-loop.ir >none &&
	$SHDB compile -t a630 --disasm --passes=ir3_sched,ir3_postsched,ir3_opt_cp,ir3_opt_cse,ir3_opt_dce --verify $IN/fs-loop.ir >backend &&
	! cmp -s none backend &&
	for f in $IN/*.ir; do
		case $f in *error-*) continue;; esac
		$SHDB compile -t a306,a630,a750 --validate-ir --verify --passes=none $f >/dev/null 2>err ||
			{ cat err; exit 1; }
	done
'

test_expect '--time-passes reports target-independent and backend passes' '
	$SHDB compile -t a630 --time-passes $IN/fs-loop.ir >/dev/null 2>err &&
	for p in opt_dce lower_ir3_alu ir3_isel ir3_sched ir3_ra ir3_legalize; do
		grep -q "^$p " err || { echo "no $p"; cat err; exit 1; }
	done
'

test_done
