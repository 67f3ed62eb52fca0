#!/bin/bash
# make deps (.ci/deps): silent when everything is there, the exact apt-get line otherwise.
. "$(dirname "$0")/lib.sh"

test_expect 'with every dependency present it prints nothing and succeeds' '
	SHDB_DEPS_NO_INSTALL=1 "$SRCDIR/.ci/deps" >out 2>&1 && ! test -s out
'

# A PATH holding only the commands the script itself needs, so gnuplot,
# spirv-as, gcc… look missing.
test_expect 'missing tools give the exact apt-get line and a failure' '
	mkdir bin &&
	for c in bash id sort printf pkg-config cat; do ln -s "$(command -v $c)" bin/$c; done &&
	expect_status 1 env PATH="$PWD/bin" SHDB_DEPS_NO_INSTALL=1 "$SRCDIR/.ci/deps" 2>err &&
	grep -q "missing packages:.*gnuplot-nox" err &&
	grep -q "install them with:  sudo apt-get install -y .*gcc.*gnuplot-nox.*spirv-tools" err
'

test_done
