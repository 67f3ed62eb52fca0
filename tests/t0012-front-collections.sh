#!/bin/bash
# Shader collections as users have them (tests/collections): files of
# several stages (libretro .slang, RetroArch .glsl), HLSL files of several
# entry points, GL that Mesa's compiler takes and glslang does not, Fossilize
# databases — through shdb compile, shdb run and shdb cmp.
. "$(dirname "$0")/lib.sh"

cp -r "$TESTS/collections/." . || exit 1
FOZ="perl $TESTS/foz-write.pl"
$FOZ --deflate --crc fossilize/app.foz fossilize/app.spec || exit 1

test_expect '.slang: each stage compiled, linked as one program, includes expanded' '
	$SHDB compile -t a630 slang/scanlines.slang >out 2>err &&
	printf "slang/scanlines.slang: vertex a630: ok\nslang/scanlines.slang: fragment a630: ok\n" >expect &&
	test_cmp expect out &&
	$SHDB compile --emit=ir slang/scanlines.slang >ir &&
	grep -q "name=\"vTexCoord\"" ir && ! grep -q "name=\"vUnused\"" ir
'

test_expect '.slang: stages that come from an included file' '
	$SHDB compile slang/blur.slang >out &&
	grep -q "blur.slang: vertex: ok" out && grep -q "blur.slang: fragment: ok" out
'

test_expect '.slang: messages keep the line of the file' '
	sed "s/tone(texture/tone(nosuch + texture/" slang/scanlines.slang >slang/bad.slang &&
	expect_status 1 $SHDB compile slang/bad.slang >out 2>err &&
	rm slang/bad.slang &&
	grep -q "^slang/bad.slang:34: error: .nosuch. : undeclared identifier" err &&
	grep -q "bad.slang: vertex: ok" out
'

test_expect '--stage selects among the stages of a file' '
	$SHDB compile --stage frag slang/scanlines.slang >out &&
	printf "slang/scanlines.slang: fragment: ok\n" >expect && test_cmp expect out &&
	$SHDB compile --stage fragment,vertex retroarch/scanline.glsl >out &&
	test $(wc -l <out) = 2
'

test_expect 'RetroArch .glsl: VERTEX and FRAGMENT, both stages' '
	for f in retroarch/scanline.glsl retroarch/crt-lite.glsl; do
		$SHDB compile -t a630 $f >out 2>err &&
		printf "$f: vertex a630: ok\n$f: fragment a630: ok\n" >expect &&
		test_cmp expect out || return 1
	done
'

test_expect 'HLSL: every entry point a program of its own, named by it' '
	$SHDB compile -I hlsl/includes hlsl/scene.hlsl >out 2>err &&
	cat >expect <<-EOF &&
	hlsl/scene.hlsl/VSMain: vertex: ok
	hlsl/scene.hlsl/PSMain: fragment: ok
	hlsl/scene.hlsl/Darken: compute: ok
	hlsl/scene.hlsl/Clear: compute: ok
	EOF
	test_cmp expect out &&
	$SHDB compile hlsl/particles.hlsl >out &&
	grep -q "particles.hlsl/Expand: geometry: ok" out &&
	test $(grep -c ": compute: ok" out) = 2 &&
	$SHDB compile hlsl/terrain.hlsl >out &&
	printf "hlsl/terrain.hlsl/Hull: tess_ctrl: ok\nhlsl/terrain.hlsl/Domain: tess_eval: ok\n" >expect &&
	test_cmp expect out
'

test_expect 'HLSL: -e several times, and --program' '
	$SHDB compile -I hlsl/includes -e PSMain -e Clear hlsl/scene.hlsl >out &&
	printf "hlsl/scene.hlsl/PSMain: fragment: ok\nhlsl/scene.hlsl/Clear: compute: ok\n" >expect &&
	test_cmp expect out &&
	$SHDB compile -I hlsl/includes --program Darken --stats hlsl/scene.hlsl >out &&
	grep -q "\"path\":\"hlsl/scene.hlsl/Darken\",\"stage\":\"compute\"" out
'

test_expect 'HLSL: a header found neither beside its includer nor in -I' '
	expect_status 1 $SHDB compile -e PSMain hlsl/scene.hlsl 2>err &&
	grep -q "cannot find include file \"fog.hlsli\"" err
'

test_expect 'GL: rectangles, shadow rectangles, 1D, inverse() in 1.40, sampler as a name' '
	for f in gl/rect.shader_test gl/names.shader_test; do
		$SHDB compile -t a630 $f >out 2>err &&
		grep -q "$f: fragment a630: ok" out || return 1
	done &&
	$SHDB compile -t a630 gl/inverse.vert >out && grep -q "inverse.vert: vertex a630: ok" out
'

test_expect 'GL: messages name the user'"'"'s call, not the rewritten one' '
	printf "#version 120\nuniform sampler2DRect r;\nvoid main()\n{\n\tgl_FragColor = texture2DRect(r, 1.0);\n}\n" >wrong.frag &&
	expect_status 1 $SHDB compile wrong.frag 2>err &&
	grep -q "^wrong.frag:5: error: .texture2DRect. : no matching overloaded function" err &&
	! grep -q "shdb_" err
'

test_expect 'Fossilize: each pipeline a program, records <database>/<pipeline hash>' '
	$SHDB compile -t a630 fossilize/app.foz >out 2>err &&
	sed "s/^/fossilize\/app.foz\//" >expect <<-EOF &&
	000000000000a1a1: vertex a630: ok
	000000000000a1a1: fragment a630: ok
	000000000000b2b2: vertex a630: ok
	000000000000b2b2: fragment a630: ok
	000000000000c3c3: compute a630: ok
	000000000000d4d4: vertex a630: ok
	000000000000d4d4: fragment a630: ok
	EOF
	test_cmp expect out
'

test_expect 'Fossilize: the pipeline'"'"'s specialization constants reach the shader' '
	ir="$SHDB compile --emit=ir --stage frag fossilize/app.foz" &&
	$ir --program 000000000000a1a1 >with &&
	$ir --program 000000000000b2b2 >without &&
	! test_cmp with without >/dev/null &&
	$ir --program 000000000000a1a1 --spec 0=2 >over &&
	test_cmp without over
'

test_expect 'Fossilize: stored payloads and base64 modules read the same' '
	$FOZ --base64 plain.foz fossilize/app.spec &&
	$SHDB compile --stats -t a630 fossilize/app.foz |
		sed "s/\"time_us\":[0-9]*//;s/fossilize.app.foz//" >a &&
	$SHDB compile --stats -t a630 plain.foz | sed "s/\"time_us\":[0-9]*//;s/plain.foz//" >b &&
	test_cmp a b
'

test_expect 'shdb run: a job per program, named and sorted as records' '
	mkdir col && cp -r "$TESTS/collections/." col/ && cp fossilize/app.foz col/fossilize/ &&
	$SHDB run -q -j 2 -t a630 -I "$TRASH/hlsl/includes" --exclude "^fossilize/[a-z]*\.(vert|frag|comp)" \
		-o run col &&
	sed -n "s/^{\"path\":\"\([^\"]*\)\",\"stage\":\"\([a-z_]*\)\".*\"status\":\"\([a-z]*\)\".*/\1 \2 \3/p" \
		run/stats.jsonl >got &&
	cat >expect <<-EOF &&
	fossilize/app.foz/000000000000a1a1 vertex ok
	fossilize/app.foz/000000000000a1a1 fragment ok
	fossilize/app.foz/000000000000b2b2 vertex ok
	fossilize/app.foz/000000000000b2b2 fragment ok
	fossilize/app.foz/000000000000c3c3 compute ok
	fossilize/app.foz/000000000000d4d4 vertex ok
	fossilize/app.foz/000000000000d4d4 fragment ok
	gl/inverse.vert vertex ok
	gl/names.shader_test vertex ok
	gl/names.shader_test fragment ok
	gl/rect.shader_test vertex ok
	gl/rect.shader_test fragment ok
	hlsl/particles.hlsl/Expand geometry ok
	hlsl/particles.hlsl/Simulate compute ok
	hlsl/particles.hlsl/SortStep compute ok
	hlsl/scene.hlsl/Clear compute ok
	hlsl/scene.hlsl/Darken compute ok
	hlsl/scene.hlsl/PSMain fragment ok
	hlsl/scene.hlsl/VSMain vertex ok
	hlsl/terrain.hlsl/Domain tess_eval ok
	hlsl/terrain.hlsl/Hull tess_ctrl ok
	retroarch/crt-lite.glsl vertex ok
	retroarch/crt-lite.glsl fragment ok
	retroarch/scanline.glsl vertex ok
	retroarch/scanline.glsl fragment ok
	slang/blur.slang vertex ok
	slang/blur.slang fragment ok
	slang/scanlines.slang vertex ok
	slang/scanlines.slang fragment ok
	slang/sharpen.slang vertex ok
	slang/sharpen.slang fragment ok
	EOF
	test_cmp expect got
'

test_expect 'shdb cmp lines the records up with fossilize-replay'"'"'s statistics' '
	cat >replay.csv <<-EOF &&
	Database,Pipeline type,Pipeline hash,PSO wall duration (ns),PSO duration (ns),Stage duration (ns),Executable name,Subgroup size,Instruction Count
	fossilize/app.foz,GRAPHICS,000000000000a1a1,1,1,1,VS,64,20
	fossilize/app.foz,GRAPHICS,000000000000a1a1,1,1,1,FS,64,70
	fossilize/app.foz,COMPUTE,000000000000c3c3,1,1,1,CS,64,30
	EOF
	$SHDB cmp replay.csv run >out 2>/dev/null &&
	grep -q "in both 3 " out
'

test_expect 'shdb run: --include picks pipelines and entry points by their record path' '
	$SHDB run -q -j 2 -t a630 -I "$TRASH/hlsl/includes" --include "c3c3|PSMain" -o sel col &&
	test $(grep -c . sel/stats.jsonl) = 2
'

test_expect 'a manifest: entry points and stages as comma lists, paired' '
	printf "path\tkind\tstages\tentry\nhlsl/scene.hlsl\thlsl\tvert,comp\tVSMain,Clear\nretroarch/scanline.glsl\tglsl\tfrag\t\n" >col/manifest.tsv &&
	$SHDB run -q -j 2 -t a630 -I "$TRASH/hlsl/includes" --manifest col/manifest.tsv \
		--include "scene.hlsl|scanline.glsl" -o man col &&
	test $(grep -c "scene.hlsl/" man/stats.jsonl) = 2 &&
	grep -q "scene.hlsl/Clear\",\"stage\":\"compute\"" man/stats.jsonl &&
	grep -q "\"path\":\"retroarch/scanline.glsl\",\"stage\":\"fragment\"" man/stats.jsonl &&
	! grep -q "\"path\":\"retroarch/scanline.glsl\",\"stage\":\"vertex\"" man/stats.jsonl
'

test_done
