#!/bin/bash
# Sources made to exhaust the compiler (issue 19): each gets a result or a
# located error, never a crash, in bounded time (README, "Bad input and
# limits").  The timeout is a hang guard, not a timing: what it guards takes
# seconds, the code it replaced crashed or took minutes.
. "$(dirname "$0")/lib.sh"

GUARD="timeout 300"

test_expect 'an expression of 100,000 terms (was a stack overflow in glslang)' '
	{ printf "#version 450\nlayout(location = 0) in float v;\nlayout(location = 0) out float o;\n"
	  printf "void main() { o = v"; for i in $(seq 99999); do printf "+v"; done; printf "; }\n"
	} >terms.frag &&
	$GUARD $SHDB compile --emit=spirv terms.frag >out 2>err; st=$?
	test $st = 0 || { test $st = 1 && grep -q "^terms.frag.*error: " err; }
'

test_expect '5,000 nested blocks: a located error' '
	{ printf "#version 450\nlayout(location = 0) out float o;\nvoid main() { float x = 1.0;"
	  for i in $(seq 5000); do printf "{"; done; printf "x += 1.0;"
	  for i in $(seq 5000); do printf "}"; done; printf " o = x; }\n"
	} >nest.frag &&
	expect_status 1 $GUARD $SHDB compile nest.frag 2>err &&
	grep -q "^nest.frag:[0-9]*: error: " err
'

test_expect 'a local array of 10^8 elements: a located error' '
	printf "%s\n" "#version 450" "layout(location = 0) in float v;" \
		"layout(location = 0) out float o;" \
		"void main() { float a[100000000]; a[int(v)] = v; o = a[1]; }" >arr.frag &&
	expect_status 1 $GUARD $SHDB compile -t a630 arr.frag 2>err &&
	grep -q "error: .*more than 2^24 elements" err
'

test_expect 'a loop of 10^9 iterations is not unrolled' '
	printf "%s\n" "#version 450" "layout(location = 0) in float v;" \
		"layout(location = 0) out float o;" \
		"void main() { float x = 0.0; for (int i = 0; i < 1000000000; i++) x += v; o = x; }" \
		>loop.frag &&
	$GUARD $SHDB compile -t a630 --stats loop.frag >out && grep -q "\"loops\":1" out
'

# bomb FILE USE ORDER: a fragment shader whose X30 doubles X29 … doubles X0
# (2^30 terms once expanded), defined bottom-up or top-down, used as USE
bomb() {
	{ printf "#version 450\nlayout(location = 0) in float v;\nlayout(location = 0) out float o;\n"
	  if [ "$3" = down ]; then
		for i in $(seq 30 -1 1); do echo "#define X$i (X$((i - 1)) + X$((i - 1)))"; done
		echo "#define X0 v"
	  else
		echo "#define X0 v"
		for i in $(seq 1 30); do echo "#define X$i (X$((i - 1)) + X$((i - 1)))"; done
	  fi
	  printf "void main() {\n\to = %s;\n}\n" "$2"
	} >"$1"
}

test_expect 'a macro bomb (X30 doubles X29 … X0): a located error at once, not a timeout' '
	bomb up.frag X30 up && bomb down.frag X30 down &&
	for f in up down; do
		expect_status 1 $GUARD $SHDB compile -t a630 $f.frag 2>err &&
		grep -q "^$f.frag:36: error: .*expand to more than [0-9]* tokens (macro .X30.)" err ||
			exit 1
	done
'

test_expect 'the same bomb through a function-like macro, and in an #if' '
	{ printf "#version 450\nlayout(location = 0) in float v;\nlayout(location = 0) out float o;\n"
	  echo "#define D(x) (x + x)"
	  printf "void main() {\n\to = "
	  for i in $(seq 30); do printf "D("; done; printf "v"
	  for i in $(seq 30); do printf ")"; done; printf ";\n}\n"
	} >fn.frag &&
	expect_status 1 $GUARD $SHDB compile -t a630 fn.frag 2>err &&
	grep -q "^fn.frag:6: error: .*expand to more than [0-9]* tokens (macro .D.)" err &&
	bomb if.frag "v" up && sed -i "s/^void main/#if X30 > 0\n#endif\nvoid main/" if.frag &&
	expect_status 1 $GUARD $SHDB compile -t a630 if.frag 2>err &&
	grep -q "^if.frag:35: error: an #if.s macros expand to more than" err
'

test_expect 'macros that stay small compile: X10 of the bomb, a bomb never used' '
	bomb ten.frag X10 up && $GUARD $SHDB compile -t a630 ten.frag >out && grep -q ": ok$" out &&
	bomb unused.frag v down && $GUARD $SHDB compile -t a630 unused.frag >out && grep -q ": ok$" out
'

test_expect 'a macro bomb used in an included header is located in the header' '
	mkdir -p inc && { echo "#define X0 v"
	  for i in $(seq 1 30); do echo "#define X$i (X$((i - 1)) + X$((i - 1)))"; done
	  echo "float big(float v) { return X30; }"; } >inc/h.glsl &&
	printf "%s\n" "#version 450" "#extension GL_GOOGLE_include_directive : require" \
		"layout(location = 0) in float v;" "layout(location = 0) out float o;" \
		"#include \"h.glsl\"" "void main() { o = big(v); }" >inc/main.frag &&
	expect_status 1 $GUARD $SHDB compile -t a630 inc/main.frag 2>err &&
	grep -q "^inc/h.glsl:32: error: .*(macro .X30.)" err
'

# IR text, without glslang: 40,000 ifs in a row, each flattened by
# opt_peephole_select; each cf_remove moved every instruction before it
# (20,000: 0.45 s of CPU now, over 36 s before)
test_expect '40,000 ifs in a row through the optimisation passes' '
	{ printf "shader fragment\n\ninput 0 32 location=0 smooth name=\"v\"\noutput 0 32 location=0\n\n"
	  printf "fn main {\nblock b0:\n\t32     %%0 = load_const 0\n\t32     %%1 = @load_input %%0 base=0 component=0\n"
	  awk "BEGIN { v = 1; b = 1; n = 2
		for (i = 0; i < 40000; i++) {
			printf \"\\t1      %%%d = flt %%1, %%%d\\n\", n, v
			printf \"\\tif %%%d {\\n\\tblock b%d:\\n\\t\\t32     %%%d = fadd %%%d, %%1\\n\", n, b, n + 1, v
			printf \"\\t} else {\\n\\tblock b%d:\\n\\t}\\n\", b + 1
			printf \"block b%d:\\n\\t32     %%%d = phi b%d: %%%d, b%d: %%%d\\n\", b + 2, n + 2, b, n + 1, b + 1, v
			v = n + 2; n += 3; b += 3
		}
		printf \"\\t@store_output %%%d, %%0 base=0 component=0 write_mask=x\\n}\\n\", v }"
	} >ifs.ir &&
	$GUARD $SHDB compile --emit=ir --passes=opt_peephole_select,opt_dce ifs.ir >out &&
	! grep -q "if %" out && test "$(grep -c bcsel out)" = 40000
'

# opt_copy_prop_mem collected a loop's writes with a walk that walked each
# nested loop twice: 2^depth walks (22 levels took 14 s, 60 would not end)
test_expect '60 nested loops storing to a buffer' '
	{ printf "%s\n" "#version 450" "layout(local_size_x = 1) in;" \
		"layout(std430, binding = 0) buffer B { int n; float d[]; };" "void main() {"
	  for i in $(seq 60); do printf "for (int i$i = 0; i$i < n; i$i++) {\n"; done
	  printf "d[i60] = d[i1] + 1.0;\n"
	  for i in $(seq 60); do printf "}\n"; done; printf "}\n"
	} >deep.comp &&
	$GUARD $SHDB compile -t a630 --stats deep.comp >out && grep -q "\"loops\":60" out
'

test_done
