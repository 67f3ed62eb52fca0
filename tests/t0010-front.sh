#!/bin/bash
# The front ends through `shdb compile --emit=spirv`: GLSL (Vulkan, GL-style,
# legacy), HLSL, SPIR-V assembly and binaries, .shader_test programs.
. "$(dirname "$0")/lib.sh"

# no_sanitizer_report FILE: no ASan/UBSan/LSan report in FILE (SANITIZE=1 builds)
no_sanitizer_report() {
	! grep -E 'Sanitizer|runtime error:' "$1"
}

cat >vk.frag <<'EOF'
#version 450
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = texture(tex, uv); }
EOF

cat >gl.frag <<'EOF'
#version 330
uniform sampler2D tex;
uniform float scale;
in vec2 uv;
out vec4 color;
void main() { color = texture(tex, uv) * scale; }
EOF

cat >legacy.frag <<'EOF'
uniform sampler2D tex;
varying vec2 uv;

void main()
{
	gl_FragColor = texture2D(tex, uv) * undefined_here;
}
EOF

cat >ps.hlsl <<'EOF'
Texture2D tex : register(t0);
SamplerState smp : register(s0);
float4 PSMain(float2 uv : TEXCOORD0) : SV_Target { return tex.Sample(smp, uv); }
EOF

cat >min.spvasm <<'EOF'
; a fragment shader writing one constant colour
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main" %out
               OpExecutionMode %main OriginUpperLeft
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

cat >prog.shader_test <<'EOF'
[require]
GLSL >= 1.30

[fragment shader]
#version 130
in vec4 color;
void main()
{
	gl_FragColor = color;
}

[vertex shader]
#version 130
in vec4 position;
out vec4 color;
void main()
{
	color = position;
	gl_Position = position;
}

[test]
draw rect -1 -1 2 2
EOF

test_expect 'Vulkan GLSL compiles to SPIR-V 1.3' '
	$SHDB compile --emit=spirv vk.frag >out 2>err &&
	grep -q "^; Version: 1.3" out &&
	grep -q "OpEntryPoint Fragment %main \"main\"" out &&
	grep -q "OpDecorate %tex Binding 0" out && no_sanitizer_report err
'

test_expect 'GL-style GLSL compiles with automatic locations and bindings' '
	$SHDB compile --emit=spirv gl.frag >out 2>err &&
	grep -q "OpDecorate %uv Location" out && grep -q "gl_DefaultUniformBlock" out &&
	no_sanitizer_report err
'

test_expect '--glsl-mode=vulkan refuses GL-style GLSL with a located message' '
	expect_status 1 $SHDB compile --glsl-mode=vulkan gl.frag 2>err &&
	grep -q "^gl.frag:[0-9]*: error: " err
'

test_expect 'legacy GLSL compiles, and its messages keep the user'"'"'s lines' '
	expect_status 1 $SHDB compile legacy.frag 2>err &&
	grep -q "^legacy.frag:6: error: .undefined_here. : undeclared identifier" err &&
	sed "s/ \* undefined_here//" legacy.frag >fixed.frag &&
	$SHDB compile --emit=spirv fixed.frag >out &&
	grep -q "OpSource GLSL 140" out
'

test_expect 'g-truc'"'"'s .cont and .eval are tessellation control and evaluation' '
	printf "%s\n" "#version 400 core" "layout(vertices = 3) out;" \
		"void main() { gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;" \
		"  gl_TessLevelInner[0] = 1.0; gl_TessLevelOuter[0] = 1.0; }" >t.cont &&
	printf "%s\n" "#version 400 core" "layout(triangles) in;" \
		"void main() { gl_Position = gl_in[0].gl_Position * gl_TessCoord.x; }" >t.eval &&
	$SHDB compile --emit=spirv t.cont | grep -q "OpEntryPoint TessellationControl" &&
	$SHDB compile --emit=spirv t.eval | grep -q "OpEntryPoint TessellationEvaluation"
'

test_expect 'HLSL: --stage and -e name the entry point' '
	$SHDB compile --stage frag -e PSMain --emit=spirv ps.hlsl >out 2>err &&
	grep -q "OpEntryPoint Fragment %PSMain \"PSMain\"" out && no_sanitizer_report err
'

test_expect 'HLSL: an entry point that is not there is an error' '
	expect_status 1 $SHDB compile --stage frag -e nowhere ps.hlsl 2>err &&
	grep -q "^ps.hlsl: error: entry point .nowhere. not found" err
'

test_expect 'HLSL: without -e, the entry point its conventional name gives' '
	$SHDB compile ps.hlsl >out 2>err && grep -q "^ps.hlsl: fragment: ok" out
'

test_expect 'HLSL in a .frag file is recognised' '
	cp ps.hlsl ps.frag && $SHDB compile -e PSMain ps.frag >out &&
	grep -q "ps.frag: fragment: ok" out
'

test_expect '-D defines reach the preprocessor' '
	printf "#version 450\nlayout(location = 0) out vec4 o;\nvoid main() { o = vec4(K); }\n" >d.frag &&
	expect_status 1 $SHDB compile d.frag 2>/dev/null &&
	$SHDB compile -D K=0.5 d.frag >/dev/null &&
	expect_status 1 $SHDB compile -D 1bad d.frag 2>err && grep -q "not a macro name" err
'

test_expect '-I finds headers, and GL_GOOGLE_include_directive is implied' '
	mkdir -p inc &&
	printf "vec4 shade() { return vec4(1.0); }\n" >inc/shade.glsl &&
	printf "#version 450\n#include \"shade.glsl\"\nlayout(location = 0) out vec4 o;\nvoid main() { o = shade(); }\n" >i.frag &&
	expect_status 1 $SHDB compile i.frag 2>err &&
	grep -q "^i.frag:2: error: cannot find include file \"shade.glsl\"" err &&
	$SHDB compile -I inc i.frag >/dev/null
'

test_expect 'SPIR-V assembly assembles and disassembles' '
	$SHDB compile --emit=spirv min.spvasm >out 2>err &&
	grep -q "OpEntryPoint Fragment %[0-9]* \"main\"" out &&
	grep -q "OpStore %[0-9]* %[0-9]*" out && no_sanitizer_report err
'

test_expect 'the disassembly assembles again (spirv-as) into a binary shdb reads' '
	$SHDB compile --emit=spirv vk.frag >vk.spvasm &&
	spirv-as --preserve-numeric-ids -o vk.frag.spv vk.spvasm &&
	$SHDB compile --emit=spirv vk.frag.spv >out &&
	grep -q "OpEntryPoint Fragment" out
'

test_expect 'a big-endian SPIR-V binary is read the same' '
	spirv-as -o min.spv min.spvasm &&
	perl -e "local \$/; \$_ = <STDIN>; print pack(\"N*\", unpack(\"V*\", \$_))" <min.spv >be.spv &&
	$SHDB compile --emit=spirv --stage frag be.spv >be.out &&
	$SHDB compile --emit=spirv --stage frag min.spv >le.out &&
	test_cmp le.out be.out
'

test_expect 'a binary'"'"'s stage comes from its entry point when the name says nothing' '
	$SHDB compile min.spv >out && grep -q "min.spv: fragment: ok" out
'

test_expect '--validate runs spirv-val and reports its message' '
	sed "s/OpStore %out %white/OpStore %white %white/" min.spvasm >bad.spvasm &&
	$SHDB compile bad.spvasm >/dev/null &&
	expect_status 1 $SHDB compile --validate bad.spvasm 2>err &&
	grep -q "^bad.spvasm: error: spirv-val: " err &&
	$SHDB compile --validate vk.frag >/dev/null
'

test_expect '.shader_test: every stage printed, labelled, in pipeline order' '
	$SHDB compile --emit=spirv prog.shader_test >out 2>err &&
	grep "^; ---- " out >labels &&
	printf "; ---- vertex ----\n; ---- fragment ----\n" >expect &&
	test_cmp expect labels && no_sanitizer_report err
'

test_expect '.shader_test: a failing stage fails the file, the others still compile' '
	sed "s/gl_FragColor = color;/gl_FragColor = nope;/" prog.shader_test >bad.shader_test &&
	expect_status 1 $SHDB compile bad.shader_test >out 2>err &&
	grep -q "bad.shader_test: vertex: ok" out &&
	grep -q "bad.shader_test: fragment: error" out &&
	grep -q "^bad.shader_test:9: error: .nope. : undeclared identifier" err
'

test_expect '.shader_test: ARB assembly is reported unsupported' '
	printf "[vertex program]\n!!ARBvp1.0\nEND\n[fragment shader]\n#version 110\nvoid main() { gl_FragColor = vec4(1.0); }\n" >arb.shader_test &&
	expect_status 1 $SHDB compile arb.shader_test >out 2>err &&
	grep -q "arb.shader_test: vertex: error" out && grep -q "arb.shader_test: fragment: ok" out &&
	grep -q "^arb.shader_test:1:1: error: unsupported: ARB assembly" err
'

test_expect '.shader_test: legacy stages keep the file'"'"'s line numbers' '
	printf "[vertex shader]\nvoid main()\n{\n\tgl_Position = ftransform() + oops;\n}\n" >old.shader_test &&
	expect_status 1 $SHDB compile old.shader_test 2>err &&
	grep -q "^old.shader_test:4: error: .oops. : undeclared identifier" err
'

test_expect 'the SPIR-V reader turns what the front end made into IR' '
	$SHDB compile --emit=ir vk.frag >ir &&
	grep -q "^shader fragment" ir && grep -q "@store_output" ir
'

test_expect '--stats records carry the front end'"'"'s message' '
	expect_status 1 $SHDB compile --stats legacy.frag >out 2>/dev/null &&
	grep -q "\"status\":\"error\",\"message\":\"legacy.frag:6: error:" out
'

test_done
