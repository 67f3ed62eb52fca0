#!/bin/bash
# The ir3 simulator and the differential test (compiler/ir3/sim,
# compiler/exec): the final code of small shaders agrees with the
# interpreter on four generations; shdb run --verify-exec records it; and a
# scheduler, register allocator or legalizer broken on purpose
# (SHDB_IR3_BREAK, test only) is caught on real shaders.
. "$(dirname "$0")/lib.sh"

T=a306,a530,a630,a750

for f in "$TESTS"/sim/*.*; do
	name=$(basename "$f")
	test_expect "$name: the final code agrees with the interpreter on $T" '
		$SHDB compile -t $T --sim "$f" >out 2>err &&
		test $(grep -c ": sim: agrees with the interpreter" out) = 4
	'
done

test_expect '--sim=SEED prints the results of that seed' '
	$SHDB compile -t a630 --sim=5 "$TESTS/sim/mix.frag" >out &&
	grep -q "^; sim seed 5" out && grep -q "^status: ok" out
'

test_expect 'a shader the simulator cannot run says why' '
	cat >g.geom <<-\EOS &&
	#version 450
	layout(points, invocations = 32) in;
	layout(points, max_vertices = 256) out;
	void main() { gl_Position = gl_in[0].gl_Position; EmitVertex(); }
	EOS
	$SHDB compile -t a630 --sim g.geom >out &&
	grep -q "sim: cannot run: a geometry shader of more than 1024 output vertices" out
'

test_expect 'private memory past ldp/stp'"'"'s 13-bit offset field agrees (a5xx+)' '
	cat >pvt.comp <<-\EOS &&
	#version 450
	layout(local_size_x = 8) in;
	layout(std430, binding = 0) buffer B { int v[]; };
	void main()
	{
		int big[1200];
		for (int i = 0; i < 1200; i++)
			big[i] = i * v[0];
		big[70] = v[1];
		big[1100] = v[2];
		int j = v[3] & 1023;
		v[gl_LocalInvocationIndex + 4] = big[70] + big[1100] * 3 + big[j] + big[j + 150];
	}
	EOS
	$SHDB compile -t a530,a630,a750 --sim --disasm pvt.comp >out 2>err &&
	test $(grep -c ": sim: agrees with the interpreter" out) = 3 &&
	grep -q "stp.u32 p\[r[0-9.xyzw]*-3792\]" out
'

test_expect '64-bit SSBO atomics (a6xx+, the u64 type) agree; signed min/max are refused' '
	cat >a64.comp <<-\EOS &&
	#version 450
	#extension GL_EXT_shader_atomic_int64 : require
	#extension GL_ARB_gpu_shader_int64 : require
	layout(local_size_x = 4) in;
	layout(std430, binding = 0) buffer B { uint64_t v[8]; uint64_t outv[32]; };
	void main()
	{
		uint i = gl_LocalInvocationIndex;
		uint64_t d = v[7] + uint64_t(i) * 0x100000001ul;
		outv[i * 8 + 0] = atomicAdd(v[0], d);
		outv[i * 8 + 1] = atomicMin(v[1], d);
		outv[i * 8 + 2] = atomicMax(v[2], d);
		outv[i * 8 + 3] = atomicAnd(v[3], d);
		outv[i * 8 + 4] = atomicOr(v[4], d);
		outv[i * 8 + 5] = atomicXor(v[5], d);
		outv[i * 8 + 6] = atomicExchange(v[6], d);
		outv[i * 8 + 7] = atomicCompSwap(v[7], v[6], d);
	}
	EOS
	$SHDB compile -t a630,a750 --verify --sim --disasm a64.comp >out 2>err &&
	test $(grep -c ": sim: agrees with the interpreter" out) = 2 &&
	grep -q "atomic.b.cmpxchg.u64" out &&
	cat >s64.comp <<-\EOS &&
	#version 450
	#extension GL_EXT_shader_atomic_int64 : require
	#extension GL_ARB_gpu_shader_int64 : require
	layout(std430, binding = 0) buffer B { int64_t v; };
	void main() { atomicMax(v, -3l); }
	EOS
	! $SHDB compile -t a630 s64.comp >out 2>err &&
	grep -q "64-bit signed atomic min/max are not supported" err out
'

test_expect 'shdb run --verify-exec: every record agrees (exactly or with the lowered shader)' '
	mkdir in && cp "$TESTS"/sim/*.* in/ &&
	$SHDB run -q --verify-exec -t a630,a750 -o run in >/dev/null &&
	n=$(ls in | wc -l) &&
	test $(wc -l <run/stats.jsonl) = $((2 * n)) &&
	test $(grep -c "\"exec\":\"agree\(-lowered\)\?\"" run/stats.jsonl) = $((2 * n)) &&
	grep -q "\"verify_exec\": *4" run/run.json
'

test_expect 'SHDB_IR3_BREAK=nops: the simulator names a read made too early' '
	SHDB_IR3_BREAK=nops $SHDB compile -t a630 --sim "$TESTS/sim/mix.frag" >out 2>err;
	grep -q "sim: execution: seed" out
'

if [ ! -d "$SHDB_SHARED/corpus" ]; then
	test_skip 'real shaders agree; a broken RA, scheduler or legalize is caught' \
		'../shared/corpus is absent'
	test_done
	exit
fi
C=$SHDB_SHARED/corpus/SaschaWillems-Vulkan/shaders/glsl
REAL="$C/ssao/blur.frag $C/pbrtexture/pbrtexture.frag $C/radialblur/phongpass.frag
      $C/computenbody/particle_integrate.comp $C/deferred/deferred.frag"

# caught BREAK: how many of REAL the simulator finds wrong with SHDB_IR3_BREAK=$1
caught() {
	local n=0 f
	for f in $REAL; do
		SHDB_IR3_BREAK=$1 $SHDB compile -t a630 --sim "$f" 2>/dev/null |
			grep -q "sim: execution:" && n=$((n + 1))
	done
	echo $n
}

test_expect 'real shaders agree when nothing is broken' '
	for f in $REAL; do
		$SHDB compile -t a630 --sim "$f" >out 2>err || { cat out err; exit 1; }
		grep -q "sim: agrees" out || { cat out; exit 1; }
	done
'

for b in ra postsched nops; do
	test_expect "SHDB_IR3_BREAK=$b is caught on real shaders" '
		n=$(caught $b) && echo "# $b: $n of 5 caught" && test "$n" -ge 1
	'
done

test_done
