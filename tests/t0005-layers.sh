#!/bin/bash
# Which way the arrows point (README.md, Layout): no #include of the sources
# points up or sideways between layers (tests/layers.pl), and the checker
# itself catches one that does.  And targets are data: a backend asks named
# fields of its target, never the generation or the chip.
. "$(dirname "$0")/lib.sh"

test_expect 'every include of the sources points down the layers' '
	perl "$TESTS/layers.pl" "$SRCDIR"
'

test_expect 'an include pointing the wrong way is found and located' '
	mkdir -p tree/compiler/ir tree/compiler/ir3 tree/compiler/etna tree/stats tree/compiler/front &&
	echo "#include \"compiler/ir3/ir3.h\"" >tree/compiler/ir/bad.c &&
	echo "#include \"compiler/etna/etna.h\"" >tree/compiler/ir3/bad.c &&
	echo "#include \"compiler/compile.h\"" >tree/stats/bad.c &&
	echo "#include \"compiler/ir/ir.h\"" >tree/compiler/front/good.c &&
	expect_status 1 perl "$TESTS/layers.pl" tree >out &&
	grep -q "^compiler/ir/bad.c:1: ir includes backend" out &&
	grep -q "^compiler/ir3/bad.c:1: backend includes backend" out &&
	grep -q "^stats/bad.c:1: tools includes compile" out &&
	! grep -q good.c out
'

test_expect 'no pass tests the generation or the chip: only the target table sets them' '
	cd "$SRCDIR" &&
	! grep -rnE "(->|\.)(gen|chip_id)\b *[<>=!]=?|[<>]=? *[a-z_>.-]*(->|\.)(gen|chip_id)\b" \
		compiler/ir3 compiler/*.c compiler/*.h | grep -v "^compiler/ir3/ir3_targets.c:" &&
	! grep -rnE "(->|\.)(halti|model|revision)\b *[<>=!]=?|[<>]=? *[a-z_>.-]*(->|\.)(halti|model|revision)\b" \
		compiler/etna compiler/*.c compiler/*.h | grep -v "^compiler/etna/etna_targets.c:"
'

test_done
