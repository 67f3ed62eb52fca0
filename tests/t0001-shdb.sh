#!/bin/bash
# The shdb command itself: version, help, dispatch and exit codes.
. "$(dirname "$0")/lib.sh"

test_expect 'shdb --version prints the version and git description' '
	$SHDB --version >out &&
	grep -Eq "^shdb [0-9]+\.[0-9]+\.[0-9]+ \(.+\)$" out
'

test_expect 'shdb help lists every command' '
	$SHDB help >out &&
	for c in compile run stats cmp report targets help; do
		grep -q "^  $c " out || { echo "missing $c"; exit 1; }
	done
'

test_expect 'shdb --help is the same as shdb help' '
	$SHDB --help >a && $SHDB help >b && test_cmp a b
'

test_expect 'no command is a usage error' '
	expect_status 2 $SHDB 2>err && grep -q "usage:" err
'

test_expect 'an unknown command is a usage error with a clear message' '
	expect_status 2 $SHDB frobnicate 2>err &&
	grep -q "shdb: error: .frobnicate. is not a shdb command" err
'

test_expect 'an unknown global option is a usage error' '
	expect_status 2 $SHDB --frob 2>err && grep -q "unknown option" err
'

test_expect 'shdb help COMMAND shows that command'"'"'s usage' '
	$SHDB help targets >out && grep -q "^usage: shdb targets" out
'

test_expect 'shdb COMMAND --help exits 0 with usage on stdout' '
	$SHDB targets --help >out 2>err && grep -q "^usage: shdb targets" out && ! test -s err
'

test_expect 'a bad option to a command is a usage error' '
	expect_status 2 $SHDB targets --frob 2>err && grep -q "usage: shdb targets" err
'

test_expect 'a bad option: one usage line and where the help is, not the whole help' '
	for c in compile run stats cmp report targets; do
		expect_status 2 $SHDB $c --frob 2>err || exit 1
		grep -q "^shdb $c: unrecognized option .--frob.$" err &&
		grep -q "^usage: shdb $c " err &&
		grep -q "^see .shdb $c --help.$" err &&
		test "$(wc -l <err)" = 3 || { cat err; exit 1; }
	done
'

test_expect 'shdb help --help and shdb help help show shdb'"'"'s help' '
	$SHDB help >want &&
	$SHDB help --help >out && test_cmp want out &&
	$SHDB help help >out && test_cmp want out
'

test_expect 'shdb help of an unknown command is a usage error' '
	expect_status 2 $SHDB help nosuch 2>err && grep -q "not a shdb command" err
'

test_expect 'shdb targets lists the Adreno models' '
	$SHDB targets >out &&
	for t in a306 a420 a530 a618 a630 a660 a690 a730 a740 a750; do
		grep -q "^$t " out || { echo "missing $t"; exit 1; }
	done
'

test_expect 'shdb targets --names prints one name per line' '
	$SHDB targets --names >out && test "$(wc -l <out)" -ge 10 && ! grep -q " " out
'

test_expect 'a7xx has the shorter delays and (nopN) starts at a6xx' '
	$SHDB targets >out &&
	grep "^a730 " out | grep -q " 2/5/1 " &&
	grep "^a630 " out | grep -q " 3/6/2 " &&
	grep "^a530 " out | grep -Eq " 3/6/2 +no " &&
	grep "^a618 " out | grep -Eq " 3/6/2 +yes "
'

test_expect 'writing to a closed stdout is a failure, not silence' '
	expect_status 1 $SHDB targets >/dev/full 2>err && grep -q "cannot write" err
'

test_done
