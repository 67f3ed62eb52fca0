#!/bin/bash
# The SPIR-V reader from the command line: --spec, per-shader errors naming
# the instruction and its word offset, damaged binaries, program linking.
. "$(dirname "$0")/lib.sh"

cat >spec.comp <<'EOF2'
#version 450
layout(local_size_x_id = 3) in;
layout(constant_id = 4) const int scale = 3;
layout(constant_id = 5) const bool twice = false;
layout(set = 0, binding = 0) buffer B { int v[]; };
void main() { v[gl_GlobalInvocationID.x] = twice ? 2 * scale : scale; }
EOF2

test_expect 'spec constants take their defaults' '
	$SHDB compile --emit=ir --passes=none spec.comp >out &&
	grep -q "workgroup_size=1,1,1" out && grep -q "load_const 3$" out
'

test_expect '--spec ID=VALUE overrides them, the workgroup size too' '
	$SHDB compile --emit=ir --passes=none --spec 3=64 --spec 4=-7 --spec 5=true spec.comp >out &&
	grep -q "workgroup_size=64,1,1" out &&
	grep -q "load_const -14$" out
'

cat >coop.spvasm <<'EOF2'
               OpCapability Shader
               OpCapability CooperativeMatrixNV
               OpExtension "SPV_NV_cooperative_matrix"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 32 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
    %uint_16 = OpConstant %uint 16
     %uint_3 = OpConstant %uint 3
        %mat = OpTypeCooperativeMatrixNV %float %uint_3 %uint_16 %uint_16
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
EOF2

test_expect 'an unsupported instruction: exit 1 and one message naming it and its word' '
	expect_status 1 $SHDB compile --emit=ir coop.spvasm >out 2>err &&
	grep -q "^coop.spvasm: error: word 51: OpTypeCooperativeMatrixNV: unsupported: OpTypeCooperativeMatrixNV$" err &&
	test ! -s out
'

test_expect 'the same in a --stats record, per shader' '
	expect_status 1 $SHDB compile --stats -t a630 coop.spvasm >out 2>/dev/null &&
	grep -q "\"status\":\"error\",\"message\":\"coop.spvasm: error: word 51: OpTypeCooperativeMatrixNV: unsupported" out
'

test_expect 'truncated and damaged binaries fail cleanly' '
	$SHDB compile --emit=spirv spec.comp >/dev/null &&
	spirv-as -o ok.spv coop.spvasm 2>/dev/null; true &&
	glslangValidator -V -o spec.comp.spv spec.comp >/dev/null &&
	size=$(stat -c %s spec.comp.spv) &&
	for cut in 20 64 200 $((size / 2)) $((size - 4)); do
		head -c $cut spec.comp.spv >cut.comp.spv &&
		timeout 20 $SHDB compile --emit=ir cut.comp.spv >/dev/null 2>err
		status=$?
		[ $status = 1 ] || { echo "cut at $cut: exit $status"; exit 1; }
		grep -q "^cut.comp.spv: error: " err || { cat err; exit 1; }
	done
'

cat >prog.shader_test <<'EOF2'
[require]
GLSL >= 4.50

[vertex shader]
#version 450
layout(location = 0) in vec4 p;
layout(location = 2) out vec4 kept;
layout(location = 5) out vec4 unread;
void main() { kept = p; unread = p * 2.0; gl_Position = p; }

[fragment shader]
#version 450
layout(location = 2) in vec4 kept;
layout(location = 7) in float nobody;
layout(location = 0) out vec4 c;
void main() { c = kept + nobody; }
EOF2

test_expect 'a program links: unread outputs go, locations are packed, every stage is printed' '
	$SHDB compile --emit=ir prog.shader_test >out 2>err &&
	grep -q "^; ---- vertex ----" out && grep -q "^; ---- fragment ----" out &&
	! grep -q "unread" out &&
	grep -q "^output 0 32x4 location=0 name=\"kept\"" out &&
	grep -q "^input 0 32x4 location=0 smooth name=\"kept\"" out &&
	grep -q "warning: fragment input .nobody. has no matching vertex output" err
'

test_expect 'a separable program keeps its interfaces' '
	sed "s/^GLSL >= 4.50$/GLSL >= 4.50\nSSO ENABLED/" prog.shader_test >sso.shader_test &&
	$SHDB compile --emit=ir sso.shader_test >out 2>/dev/null &&
	grep -q "location=5 name=\"unread\"" out
'

test_expect 'the default pipeline of a SPIR-V input starts with lower_vars_to_ssa' '
	cat >v.frag <<-\EOT &&
	#version 450
	layout(location = 0) in float x;
	layout(location = 0) out float y;
	void main() { float t = x; if (t > 0.0) t *= 2.0; y = t; }
	EOT
	$SHDB compile --emit=ir v.frag >out &&
	! grep -q "local" out &&
	$SHDB compile --emit=ir --passes=none v.frag >raw &&
	grep -q "@store_local" raw
'

# An ubershader's shape: a switch of 300 cases, each breaking from inside an
# if, in a loop, around calls that return early from nested loops.
gen_ubershader() {
	echo "#version 450"
	echo "layout(location = 0) flat in int sel;"
	echo "layout(location = 1) in float v;"
	echo "layout(location = 0) out vec4 color;"
	echo "float f(float x) { for (int i = 0; i < 3; i++) { for (int j = 0; j < 3; j++) { if (x > float(i + j)) return float(j); } if (x < 0.0) return -x; } return x; }"
	echo "void main() { color = vec4(0.0); for (int it = 0; it < 2; it++) { switch (sel + it) {"
	for i in $(seq 0 299); do
		echo "case $i: if (v > $i.5) break; if (v < -$i.0) { color.x += f(v); break; } color.y += f(v * $i.0); break;"
	done
	echo "default: break; } } }"
}

test_expect 'hundreds of early exits in one shader: no fixed limit' '
	gen_ubershader >uber.frag &&
	$SHDB compile --validate-ir uber.frag >out 2>err &&
	grep -q "uber.frag: fragment: ok" out
'

# issue 19: GCC 12's object-size check misjudged the table lookup of OpAny/OpAll
# and stopped the sanitizer build (make SANITIZE=1 check runs this with it)
test_expect 'all() and any() of vectors of 2, 3 and 4 components compile' '
	cat >x.frag <<-\EOT &&
	#version 450
	layout(location = 0) in vec2 a;
	layout(location = 0) out vec4 o;
	void main() { o = all(greaterThan(a, vec2(0.5))) ? vec4(1.0) : vec4(0.0); }
	EOT
	$SHDB compile -t a630 x.frag >out &&
	cat >y.frag <<-\EOT &&
	#version 450
	layout(location = 0) in vec4 a;
	layout(location = 0) out vec4 o;
	void main() {
		o = vec4(all(lessThan(a.xyz, vec3(0.5))), any(greaterThan(a, vec4(0.5))),
			 any(equal(a.xy, a.zw)), all(notEqual(a, a.wzyx)));
	}
	EOT
	$SHDB compile -t a630 --stats y.frag >out &&
	grep -q "\"status\":\"ok\"" out
'

# Determinants and inverses are built as Mesa's vtn_glsl450.c builds them;
# whatever the form, inverse(m) * (m * v) must give v back.
cat >inverse.frag <<'EOF2'
#version 450
layout(location = 0) in vec4 a;
layout(location = 1) in vec4 b;
layout(location = 2) in vec4 c;
layout(location = 3) in vec4 d;
layout(location = 0) out vec4 o4;
layout(location = 1) out vec4 o32;
void main() {
	vec4 v = vec4(1.0, 2.0, 3.0, 4.0);
	mat4 m4 = mat4(a, b, c, d) + mat4(4.0);
	mat3 m3 = mat3(a.xyz, b.xyz, c.xyz) + mat3(3.0);
	mat2 m2 = mat2(a.xy, b.xy) + mat2(2.0);
	o4 = inverse(m4) * (m4 * v);
	o32 = vec4(inverse(m3) * (m3 * v.xyz), (inverse(m2) * (m2 * v.xy)).y + determinant(m2) * 0.0);
}
EOF2

test_expect 'inverse(m) * (m * v) is v for 4x4, 3x3 and 2x2 matrices (interpreter)' '
	for seed in 1 2 3 4 5; do
		$SHDB compile --interp=$seed inverse.frag || return 1
	done >out &&
	awk "/^output [01] lane/ && !/nan|inf/ { for (i = 6; i <= NF; i += 2) { x = substr(\$i, 2) + 0;
			want = (\$2 == 1 && i == 12) ? 2 : (i - 4) / 2;
			if (x - want > 1e-3 * want || want - x > 1e-3 * want) bad++; n++ } }
			END { exit !(n >= 64 && !bad) }" out || { grep ^output out; false; }
'

test_done
