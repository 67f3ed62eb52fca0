#!/bin/bash
# shdb run --manifest: per-file kind, stage and mode from a TSV (the format of
# ../shared/corpus/manifest.tsv), wherever the run starts inside the corpus.
. "$(dirname "$0")/lib.sh"

mkdir -p corpus/o-r/shaders &&
printf "repo\tcommit\tpath\tkind\tstages\tglsl_version\tunits\tunits_compiled\tglslang_mode\tlicense\tnote\n" >corpus/manifest.tsv &&
row() { printf "o/r\tc0ffee\tshaders/%s\t%s\t%s\t\t1\t1\t%s\tMIT\t\n" "$@" >>corpus/manifest.tsv; } &&
row a.frag hlsl frag hlsl-vk11 &&
row b.cont glsl tesc incext+vkrelaxed &&
row inc.glsl include/other "" "" &&
row data.json include/other "" "" &&
row main.vert glsl vert vk13 &&
for f in a.frag b.cont inc.glsl data.json main.vert x.hlsl; do echo "// $f" >corpus/o-r/shaders/$f; done

test_expect 'the manifest gives the kind, the stage and what is not a shader' '
	$SHDB run -q -o out --manifest corpus/manifest.tsv corpus 2>err &&
	grep -q "\"o-r/shaders/a.frag\",\"stage\":\"fragment\",.*\"message\":\"o-r/shaders/a.frag: error: entry point .main. not found\"" out/stats.jsonl &&
	grep -q "\"o-r/shaders/b.cont\",\"stage\":\"tess_ctrl\",.*Linking tessellation control stage: Missing entry point" out/stats.jsonl &&
	grep -q "\"o-r/shaders/inc.glsl\",.*\"status\":\"skipped\",\"message\":\"not a shader: the manifest.s kind .include/other.\"" out/stats.jsonl &&
	! grep -q data.json out/stats.jsonl &&
	grep -q "\"o-r/shaders/x.hlsl\",.*\"status\":\"skipped\",\"message\":\"HLSL needs a stage" out/stats.jsonl &&
	grep -q "\"manifest\": \"[0-9a-f]*\"" out/run.json
'

test_expect 'without the manifest, the extension decides' '
	$SHDB run -q -o bare corpus &&
	grep -q "\"o-r/shaders/a.frag\".*Linking fragment stage: Missing entry point" bare/stats.jsonl &&
	grep -q "\"o-r/shaders/b.cont\",\"stage\":\"tess_ctrl\"" bare/stats.jsonl &&
	! grep -q "data.json" bare/stats.jsonl
'

test_expect 'a run of a subfolder finds its rows' '
	$SHDB run -q -o sub --manifest corpus/manifest.tsv corpus/o-r/shaders &&
	grep -q "^{\"path\":\"a.frag\",\"stage\":\"fragment\",.*entry point .main. not found" sub/stats.jsonl &&
	grep -q "^{\"path\":\"b.cont\",\"stage\":\"tess_ctrl\"" sub/stats.jsonl
'

test_expect 'a named file finds its row' '
	$SHDB run -q -o named --manifest corpus/manifest.tsv corpus/o-r/shaders/b.cont &&
	grep -q "^{\"path\":\"corpus/o-r/shaders/b.cont\",\"stage\":\"tess_ctrl\"" named/stats.jsonl
'

test_expect '--stage gives HLSL its stage' '
	$SHDB run -q -o hlsl --stage vert corpus/o-r/shaders/x.hlsl &&
	grep -q "\"stage\":\"vertex\",.*entry point .main. not found" hlsl/stats.jsonl
'

test_expect 'a bad manifest is a usage error' '
	printf "file\tkind\n" >bad.tsv &&
	expect_status 2 $SHDB run -q -o x --manifest bad.tsv corpus 2>err && grep -q "no .path. column" err &&
	expect_status 2 $SHDB run -q -o x --manifest missing.tsv corpus 2>err && grep -q "cannot read" err
'

if [ -d "$SHDB_SHARED/corpus" ]; then
test_expect 'the shared corpus manifest: HLSL sources named .frag are HLSL' '
	$SHDB run -q -t a630 -o shared --manifest "$SHDB_SHARED/corpus/manifest.tsv" \
		--include "^SaschaWillems-Vulkan/shaders/hlsl/(base|deferred)/" "$SHDB_SHARED/corpus" &&
	grep -c . shared/stats.jsonl >n && echo 16 >want && test_cmp want n &&
	grep -q "\"SaschaWillems-Vulkan/shaders/hlsl/base/textoverlay.frag\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\"" shared/stats.jsonl &&
	grep -q "\"SaschaWillems-Vulkan/shaders/hlsl/base/textoverlay.frag.spv\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\"" shared/stats.jsonl
'
else
test_skip 'the shared corpus manifest' '../shared/corpus is absent'
fi

test_done
