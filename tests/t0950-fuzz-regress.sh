#!/bin/bash
# The fuzz targets (fuzz/) without libFuzzer, on their regression inputs:
# every file of tests/fuzz/NAME/ — hand-made seeds, and each input that once
# crashed, leaked or tripped a sanitizer, kept as it was found.  Under
# `make SANITIZE=1 check` the sanitizers watch them too.
. "$(dirname "$0")/lib.sh"

[ -n "${SHDB_BUILD:-}" ] && [ -d "$SHDB_BUILD/fuzz-run" ] ||
	skip_all "no fuzz runners: run through make check (SHDB_BUILD/fuzz-run)"

for src in "$SRCDIR"/fuzz/fuzz_*.c; do
	name=${src##*/fuzz_}
	name=${name%.c}
	test_expect "fuzz target $name: its regression inputs" '
		[ -d "$TESTS/fuzz/'"$name"'" ] &&
		"$SHDB_BUILD/fuzz-run/'"$name"'" "$TESTS/fuzz/'"$name"'" >out 2>&1 ||
		{ tail -n 30 out; false; }
	'
done

test_done
