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

test_done
