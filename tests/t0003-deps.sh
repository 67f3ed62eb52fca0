#!/bin/bash
# make deps (.ci/deps, reading the one list .ci/packages): silent when everything
# is there, the exact apt-get line otherwise.
. "$(dirname "$0")/lib.sh"

test_expect 'with every dependency present it prints nothing and succeeds' '
	SHDB_DEPS_NO_INSTALL=1 "$SRCDIR/.ci/deps" >out 2>&1 && ! test -s out
'

# A PATH holding only the commands the script itself needs, so gnuplot,
# spirv-as, gcc… look missing.
test_expect 'missing tools give the exact apt-get line and a failure' '
	mkdir bin &&
	for c in bash id sed awk dirname printf pkg-config cat; do ln -s "$(command -v $c)" bin/$c; done &&
	expect_status 1 env PATH="$PWD/bin" SHDB_DEPS_NO_INSTALL=1 "$SRCDIR/.ci/deps" 2>err &&
	grep -q "missing packages:.*gnuplot-nox" err &&
	grep -q "install them with:  sudo apt-get install -y .*gcc.*spirv-tools.*gnuplot-nox" err
'

test_expect 'the list names each package once with what shdb uses of it' '
	"$SRCDIR/.ci/deps" --list >list &&
	grep -qx glslang-tools list && grep -qx spirv-tools list && grep -qx libclang-rt-14-dev list &&
	test "$(sort list | uniq -d)" = ""
'

test_expect 'a missing command, library or file of the list is named by its package' '
	cat >packages <<-\LIST &&
	# a comment
	bash            cmd:bash
	no-such-tool    cmd:shdb-no-such-command
	no-such-lib     pc:shdb-no-such-module
	no-such-file    file:/nonexistent/shdb/*.h
	LIST
	expect_status 1 env SHDB_PACKAGES=packages SHDB_DEPS_NO_INSTALL=1 "$SRCDIR/.ci/deps" 2>err &&
	grep -qx "shdb: install them with:  sudo apt-get install -y no-such-tool no-such-lib no-such-file" err
'

test_expect 'an optional package is checked and installed only when asked for (--with)' '
	cat >packages <<-\LIST &&
	bash            cmd:bash
	no-such-opt     optional cmd:shdb-no-such-command
	LIST
	env SHDB_PACKAGES=packages SHDB_DEPS_NO_INSTALL=1 "$SRCDIR/.ci/deps" >out 2>&1 && ! test -s out &&
	expect_status 1 env SHDB_PACKAGES=packages SHDB_DEPS_NO_INSTALL=1 "$SRCDIR/.ci/deps" --with no-such-opt 2>err &&
	grep -qx "shdb: install them with:  sudo apt-get install -y no-such-opt" err &&
	env SHDB_PACKAGES=packages "$SRCDIR/.ci/deps" --list >list && test "$(cat list)" = bash &&
	env SHDB_PACKAGES=packages "$SRCDIR/.ci/deps" --list-all | grep -qx no-such-opt
'

test_expect 'a check of an unknown kind is an error, not a silent pass' '
	printf "pkg  bogus:x\n" >packages &&
	! env SHDB_PACKAGES=packages SHDB_DEPS_NO_INSTALL=1 "$SRCDIR/.ci/deps" 2>err &&
	grep -q "unknown check .bogus:x." err
'

test_expect 'make deps-list prints the same list, without what a machine is assumed to have' '
	make -s -C "$SRCDIR" deps-list >mk && "$SRCDIR/.ci/deps" --list >list && test_cmp list mk &&
	! grep -qx git list && "$SRCDIR/.ci/deps" --list-all | grep -qx git
'

test_done
