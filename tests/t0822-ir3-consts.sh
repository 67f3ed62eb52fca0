#!/bin/bash
# The const file (compiler/ir3/lower_ir3_large_constants.c,
# ir3_nir_analyze_ubo_ranges.c), by Mesa's rules: a local array that only
# ever holds constants, stored in one block that dominates its loads, is
# constant data (nir_opt_large_constants) — glslang copies a const array
# into a new local inside the loop that indexes it, and the copies share
# one place; the data is pushed into the const file up to the stage's
# size (ir3_max_const: 512 vec4 for a fragment shader on a6xx), not the
# "safe" size of a variant recompiled to fit a pipeline.
. "$(dirname "$0")/lib.sh"

# table FILE N: a fragment shader reading a const int[N] table at dynamic
# indices in a loop, twice (two copies in glslang's SPIR-V)
table() {
	{ printf "#version 450\nlayout(location = 0) flat in int i;\nlayout(location = 0) out vec4 o;\n"
	  printf "const int t[%d] = int[%d](" "$2" "$2"
	  seq -s, 1 "$2" | tr -d '\n'
	  printf ");\nvoid main() {\n\tint s = 0;\n\tfor (int k = clamp(i, 0, %d); k < %d; k++) {\n" "$2" "$2"
	  printf "\t\tif (t[k] > i)\n\t\t\ts += t[k / 2];\n\t}\n\to = vec4(float(s));\n}\n"
	} >"$1"
}

stat() {
	sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"
}

test_expect 'a const array indexed in a loop is constant data, one copy for both reads' '
	table t64.frag 64 &&
	$SHDB compile -t a630 --verify --stats t64.frag >out &&
	test "$(stat stp <out)" = 0 && test "$(stat cat6 <out)" = 0 &&
	test "$(stat constlen <out)" -ge 64 && test "$(stat constlen <out)" -lt 128
'

test_expect 'constant data larger than the safe size is pushed up to the stage size' '
	table t300.frag 300 &&
	$SHDB compile -t a630 --verify --stats t300.frag >out &&
	test "$(stat cat6 <out)" = 0 && test "$(stat constlen <out)" -ge 300 &&
	table t600.frag 600 &&
	$SHDB compile -t a630 --verify --stats t600.frag >out &&
	test "$(stat stp <out)" = 0 && test "$(stat cat6 <out)" -gt 0
'

# (not t600: the interpreter runs the front end's IR, where each iteration
# copies the table, 360,000 stores: past its step limit)
test_expect 'the simulator agrees with the interpreter on them' '
	for f in t64 t300; do
		$SHDB compile -t a306,a530,a630,a750 --sim $f.frag >out 2>&1 &&
		test "$(grep -c ": sim: agrees with the interpreter$" out)" = 4 ||
			{ grep ": sim: " out; exit 1; }
	done
'

test_done
