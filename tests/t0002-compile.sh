#!/bin/bash
# shdb compile: options, exit codes and messages that hold whatever the front ends do.
. "$(dirname "$0")/lib.sh"

test_expect 'compile without a file is a usage error' '
	expect_status 2 $SHDB compile 2>err && grep -q "^usage: shdb compile" err
'

test_expect 'compile --help' '
	$SHDB compile --help | grep -q -- "--emit=spirv|ir"
'

test_expect 'an unknown target is a usage error' '
	echo "void main(){}" >x.frag &&
	expect_status 2 $SHDB compile -t a999 x.frag 2>err && grep -q "unknown target .a999." err
'

test_expect 'an unknown stage is a usage error' '
	expect_status 2 $SHDB compile --stage bogus x.frag 2>err && grep -q "unknown stage" err
'

test_expect 'a bad --spec is a usage error' '
	expect_status 2 $SHDB compile --spec 3 x.frag 2>err && grep -q "ID=VALUE" err &&
	expect_status 2 $SHDB compile --spec 3=abc x.frag 2>err && grep -q "not a number" err
'

test_expect 'a missing file fails with a located message and exit 1' '
	expect_status 1 $SHDB compile missing.frag 2>err &&
	grep -q "^missing.frag: error: cannot read" err
'

test_expect 'an unknown extension fails with a clear message' '
	echo x >notes.txt &&
	expect_status 1 $SHDB compile notes.txt 2>err &&
	grep -q "^notes.txt: error: unknown kind of input" err
'

test_expect 'a directory fails cleanly' '
	mkdir d.frag && expect_status 1 $SHDB compile d.frag 2>err && grep -q "Is a directory" err
'

test_expect '--stats prints a JSON record even for a failure' '
	expect_status 1 $SHDB compile --stats missing.frag >out 2>/dev/null &&
	grep -q "\"path\":\"missing.frag\",\"stage\":\"fragment\",\"target\":null,\"status\":\"error\"" out
'

test_done
