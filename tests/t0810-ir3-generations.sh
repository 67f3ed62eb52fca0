#!/bin/bash
# The same real shaders on three generations of Adreno (a530, a630, a740):
# the differences targets.md §1 predicts must show in the code, not only in
# a hand-written golden.  Real SPIR-V from ../shared/corpus (Sascha Willems'
# PBR, SSAO, deferred, shadow-mapping and bloom samples).
. "$(dirname "$0")/lib.sh"

IR3=$($SHDB targets --names --family ir3 | paste -sd,)
need_corpus

C=$SHDB_SHARED/corpus/SaschaWillems-Vulkan/shaders/glsl
set -- $C/pbrtexture/*.spv $C/ssao/*.spv $C/deferred/*.spv $C/shadowmapping/*.spv $C/bloom/*.spv
FILES="$*"

# total of one statistic of --shaderdb over FILES on target $1
total() {
	local n=0 f x
	for f in $FILES; do
		x=$($SHDB compile -t $1 --shaderdb "$f" | sed -n "s/.* \([0-9]*\) $2,.*/\1/p") || return 1
		[ -n "$x" ] || { echo "# no $2 for $f on $1" >&2; return 1; }
		n=$((n + x))
	done
	echo $n
}

test_expect 'every shader compiles and verifies on a530, a630 and a740' '
	for f in $FILES; do
		$SHDB compile -t a530,a630,a740 --verify "$f" >/dev/null 2>err || { cat err; exit 1; }
	done
'

test_expect '(nopN) only from a6xx: none on a530, some on a630 and a740' '
	for f in $FILES; do $SHDB compile -t a530 --disasm "$f"; done >a5 &&
	for f in $FILES; do $SHDB compile -t a630 --disasm "$f"; done >a6 &&
	for f in $FILES; do $SHDB compile -t a740 --disasm "$f"; done >a7 &&
	! grep -q "(nop[0-9])" a5 && grep -q "(nop[0-9])" a6 && grep -q "(nop[0-9])" a7
'

test_expect 'a740 needs fewer nops in total than a630 (shorter a7xx delays)' '
	n6=$(total a630 nops) && n7=$(total a740 nops) &&
	echo "# nops: a630 $n6, a740 $n7" && test "$n7" -lt "$n6"
'

test_expect '--mesa 24.3: a740 back to the longer delays, without alias.tex; a630 unchanged' '
	n7=$(total a740 nops) && o7=$(total "a740 --mesa 24.3" nops) &&
	echo "# a740 nops: main $n7, 24.3 $o7" && test "$n7" -lt "$o7" &&
	for f in $FILES; do
		$SHDB compile -t a740 --mesa 24.3 --verify --disasm "$f" || exit 1
	done >a7-24 &&
	grep -q "^alias\.tex\|	alias\.tex" a7 && ! grep -q "alias\." a7-24 &&
	for f in $FILES; do $SHDB compile -t a630 --mesa 24.3 --disasm "$f"; done >a6-24 &&
	test_cmp a6 a6-24
'

test_expect '--mesa takes main or 24.3' '
	expect_status 2 $SHDB compile -t a740 --mesa 25.0 "${FILES%% *}" 2>err &&
	grep -q "\-\-mesa takes main or 24.3, not .25.0." err
'

test_expect 'all ir3 targets at once = each target alone (shared lowering)' '
	for f in $FILES; do
		$SHDB compile -t $IR3 --disasm --shaderdb "$f" 2>&1 | grep -v "^; ---- " >together
		for t in $($SHDB targets --names --family ir3); do
			$SHDB compile -t $t --disasm --shaderdb "$f" 2>&1
		done >alone
		test_cmp together alone || { echo "# $f"; exit 1; }
	done
'

test_done
