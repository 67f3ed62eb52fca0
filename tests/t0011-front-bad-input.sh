#!/bin/bash
# Bad input to the front ends: each file gets a clear error (exit 1, a
# message naming it), never a crash, a hang or a sanitizer report.
. "$(dirname "$0")/lib.sh"

# fails_cleanly FILE PATTERN [OPTIONS…]: exit 1 within 20 s, stderr matches
# PATTERN, no sanitizer report.
fails_cleanly() {
	file=$1 pattern=$2
	shift 2
	timeout 20 $SHDB compile "$@" "$file" >/dev/null 2>err
	status=$?
	[ $status = 1 ] || { echo "exit status $status for $file"; cat err; return 1; }
	grep -q -- "$pattern" err || { echo "no '$pattern' in:"; cat err; return 1; }
	! grep -E 'Sanitizer|runtime error:' err
}

# survives FILE [OPTIONS…]: exit 0 or 1, no sanitizer report.
survives() {
	file=$1
	shift
	timeout 20 $SHDB compile "$@" "$file" >/dev/null 2>err
	status=$?
	[ $status -le 1 ] || { echo "exit status $status for $file"; cat err; return 1; }
	! grep -E 'Sanitizer|runtime error:' err
}

cat >min.spvasm <<'EOF'
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main" %out
               OpExecutionMode %main OriginUpperLeft
               OpName %main "main"
               OpDecorate %out Location 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
       %vec4 = OpTypeVector %float 4
    %ptr_out = OpTypePointer Output %vec4
        %out = OpVariable %ptr_out Output
        %one = OpConstant %float 1
      %white = OpConstantComposite %vec4 %one %one %one %one
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpStore %out %white
               OpReturn
               OpFunctionEnd
EOF
spirv-as -o good.frag.spv min.spvasm || exit 1

test_expect 'a GLSL syntax error is located' '
	printf "#version 450\nvoid main()\n{\n\tfloat x = ;\n}\n" >syntax.frag &&
	fails_cleanly syntax.frag "^syntax.frag:4: error: .*syntax error"
'

test_expect 'a missing include is located' '
	printf "#version 450\n\n#include \"nowhere.glsl\"\nvoid main() {}\n" >inc.frag &&
	fails_cleanly inc.frag "^inc.frag:3: error: cannot find include file \"nowhere.glsl\""
'

test_expect 'empty files of every kind' '
	for f in e.frag e.hlsl e.spv e.spvasm e.shader_test e.asm.comp; do
		: >$f && fails_cleanly $f "^$f: error: empty file" --stage frag || return 1
	done
'

test_expect 'blank GLSL is empty too' '
	printf "\n  \n\t\n" >blank.vert && fails_cleanly blank.vert "^blank.vert: error: empty file"
'

test_expect 'binary garbage named .frag' '
	head -c 4096 /dev/urandom >garbage.frag && printf "\0" >>garbage.frag &&
	fails_cleanly garbage.frag "^garbage.frag:[0-9]*: error: not a text file"
'

test_expect 'printable garbage named .frag' '
	head -c 3000 /dev/urandom | tr -c "a-zA-Z0-9(){};=+ \n" "x" >text.frag &&
	fails_cleanly text.frag "^text.frag:[0-9]*: error: "
'

test_expect 'a huge source is refused at once' '
	{ echo "#version 450"; echo "void main() {"; yes "float a = 1.0;" | head -n 100000; echo "}"; } >huge.frag &&
	fails_cleanly huge.frag "^huge.frag: error: source too large"
'

test_expect 'deep nesting does not overflow the stack' '
	{ printf "#version 450\nvoid main() { float x = "; head -c 50000 /dev/zero | tr "\0" "("; printf 1; head -c 50000 /dev/zero | tr "\0" ")"; printf ";\n}\n"; } >deep.frag &&
	fails_cleanly deep.frag "^deep.frag:[0-9]*: error: "
'

test_expect 'a .shader_test header without its ]' '
	printf "[vertex shader\nvoid main() {}\n" >open.shader_test &&
	fails_cleanly open.shader_test "^open.shader_test:1:1: error: section header without"
'

test_expect 'a .shader_test without shaders' '
	printf "[require]\nGLSL >= 1.10\n" >none.shader_test &&
	fails_cleanly none.shader_test "^none.shader_test: error: no shader section"
'

test_expect 'an empty .shader_test section' '
	printf "[vertex shader]\n\n[fragment shader]\n#version 110\nvoid main() { gl_FragColor = vec4(1.0); }\n" >hole.shader_test &&
	fails_cleanly hole.shader_test "^hole.shader_test:1:1: error: empty vertex shader section"
'

test_expect 'SPIR-V assembly with a typo is located' '
	sed "s/OpReturn/OpRetrun/" min.spvasm >typo.spvasm &&
	fails_cleanly typo.spvasm "^typo.spvasm:18:[0-9]*: error: "
'

test_expect 'a binary that is not SPIR-V' '
	printf "not spirv at all!!!!" >text.spv &&
	fails_cleanly text.spv "^text.spv: error: not a SPIR-V module (magic number"
'

test_expect 'every truncation of a module fails cleanly' '
	size=$(wc -c <good.frag.spv) && n=1 &&
	while [ $n -lt $size ]; do
		head -c $n good.frag.spv >cut.frag.spv &&
		fails_cleanly cut.frag.spv "^cut.frag.spv: error: " || return 1
		n=$((n + 1))
	done
'

# flip SEED COUNT IN OUT: COUNT bits of IN flipped (chosen by SEED) into OUT
flip() {
	perl -e '
		my ($seed, $count, $in, $out) = @ARGV;
		srand($seed);
		open(my $f, "<:raw", $in) or die; local $/; my $d = <$f>; close $f;
		for (1 .. $count) {
			my $bit = int(rand(8 * length($d)));
			vec($d, $bit, 1) ^= 1;
		}
		open(my $o, ">:raw", $out) or die; print $o $d; close $o;
	' "$@"
}

test_expect 'bit-flipped modules never crash, with or without --validate' '
	for seed in $(seq 1 60); do
		flip $seed $((seed % 4 + 1)) good.frag.spv flipped.frag.spv &&
		survives flipped.frag.spv --emit=spirv &&
		survives flipped.frag.spv --validate || return 1
	done
'

test_expect 'bit-flipped real modules from the corpus never crash' '
	[ -d "$SHDB_SHARED/corpus" ] || { echo "# corpus absent"; return 0; }
	set -- $(find "$SHDB_SHARED/corpus/SaschaWillems-Vulkan" -name "*.spv" | sort | head -n 12) &&
	for m in "$@"; do
		for seed in 1 2 3; do
			flip $seed 3 "$m" real.spv &&
			survives real.spv --emit=spirv &&
			survives real.spv --validate || return 1
		done
		head -c $(( $(wc -c <"$m") / 2 )) "$m" >half.spv &&
		fails_cleanly half.spv "^half.spv: error: " || return 1
	done
'

# ---- files of several stages, several entry points, Fossilize databases ----

cat >two.slang <<'EOF'
#version 450
#pragma stage vertex
layout(location = 0) in vec4 p;
void main() { gl_Position = p; }
#pragma stage fragment
layout(location = 0) out vec4 c;
void main() { c = vec4(1.0); }
EOF

test_expect '.slang: a #pragma stage naming no stage is located' '
	sed "s/stage fragment/stage fragmnet/" two.slang >typo.slang &&
	fails_cleanly typo.slang "^typo.slang:5: error: #pragma stage .fragmnet.: not a stage" &&
	sed "s/stage fragment/stage/" two.slang >bare.slang &&
	fails_cleanly bare.slang "^bare.slang:5: error: #pragma stage needs a stage name"
'

test_expect '.slang: no #pragma stage at all' '
	grep -v "pragma stage" two.slang >none.slang &&
	fails_cleanly none.slang "^none.slang: error: no .#pragma stage. line"
'

test_expect 'a stage the file does not have' '
	fails_cleanly two.slang "^two.slang: error: the file has no geometry stage (it has vertex, fragment)" --stage geom &&
	printf "[vertex shader]\n#version 130\nvoid main() { gl_Position = vec4(0.0); }\n" >v.shader_test &&
	fails_cleanly v.shader_test "^v.shader_test: error: the program has no fragment stage" --stage frag
'

test_expect '.slang cut short anywhere fails cleanly or compiles' '
	n=$(wc -c <two.slang) &&
	for k in $(seq 0 23 $n); do
		head -c $k two.slang >cut.slang && survives cut.slang || return 1
	done
'

test_expect 'HLSL: an entry point whose stage nothing tells' '
	printf "float4 helper(float4 x) : SV_Target { return x; }\n" >h.hlsl &&
	fails_cleanly h.hlsl "use --stage" -e helper &&
	timeout 20 $SHDB compile -e helper --stage frag h.hlsl >/dev/null
'

cat >m.vert <<'EOF'
#version 450
void main() { gl_Position = vec4(1.0); }
EOF
glslangValidator -V -o m.vert.spv m.vert >/dev/null || exit 1
printf "module 11 m.vert.spv\ngraphics 22 vertex=11\ngraphics 33 vertex=44\nraw 6 55 {not json\nlibrary 66 77\nlibrary 77 66\n" >db.spec
perl "$TESTS/foz-write.pl" --crc db.foz db.spec || exit 1

test_expect 'Fossilize: not a database, an unknown version' '
	head -c 100 /dev/urandom >junk.foz &&
	fails_cleanly junk.foz "^junk.foz: error: not a Fossilize database" &&
	{ head -c 15 db.foz; printf "\011"; tail -c +17 db.foz; } >v9.foz &&
	fails_cleanly v9.foz "^v9.foz: error: Fossilize database version 9"
'

test_expect 'Fossilize: a missing module, bad JSON, a library cycle: per pipeline' '
	timeout 20 $SHDB compile db.foz >out 2>err; test $? = 1 &&
	grep -q "db.foz/0000000000000022: vertex: ok" out &&
	grep -q "^db.foz: error: pipeline 0000000000000033, vertex stage: its shader module 0000000000000044 is not in the database" err &&
	grep -q "^db.foz: error: pipeline 0000000000000055: bad JSON" err &&
	grep -q "^db.foz: error: pipeline 0000000000000066: pipeline libraries nested more than 8 deep" err
'

test_expect 'Fossilize: a damaged payload fails its CRC, a cut one is dropped' '
	perl -e "local \$/; \$_ = <STDIN>; substr(\$_, 100, 1) ^= chr(1); print" <db.foz >crc.foz &&
	fails_cleanly crc.foz "CRC does not match" &&
	head -c $(( $(wc -c <db.foz) - 20 )) db.foz >cut.foz &&
	survives cut.foz
'

test_expect 'Fossilize: a deflated payload that does not inflate' '
	perl "$TESTS/foz-write.pl" --deflate z.foz db.spec &&
	perl -e "local \$/; \$_ = <STDIN>; substr(\$_, 90, 4) = \"zzzz\"; print" <z.foz >bad.foz &&
	fails_cleanly bad.foz "does not inflate"
'

test_expect 'Fossilize: bytes flipped anywhere and cuts at any length never crash' '
	for seed in $(seq 1 40); do
		flip $seed $((seed % 3 + 1)) db.foz flipped.foz && survives flipped.foz || return 1
	done &&
	n=$(wc -c <db.foz) &&
	for k in $(seq 0 37 $n); do
		head -c $k db.foz >cut.foz && survives cut.foz || return 1
	done
'

test_done
