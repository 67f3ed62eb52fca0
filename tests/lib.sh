# TAP helpers for shell tests of the shdb command.  Source it first:
#
#	. "$(dirname "$0")/lib.sh"
#	test_expect 'shdb prints its version' '$SHDB --version | grep -q "^shdb "'
#	test_done
#
# Each test body runs in a subshell in the script's own scratch directory
# ($TRASH), with `set -e`-free &&-chains as in git's test suite.  Tests that
# need ../shared/corpus call `need_corpus` first: it skips the whole file when
# the corpus is absent.

: "${SHDB:=$(cd "$(dirname "$0")/.." && pwd)/shdb}"
: "${SHDB_SHARED:=$(cd "$(dirname "$0")/.." && pwd)/../shared}"
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
TESTS=$SRCDIR/tests
export SHDB SHDB_SHARED SRCDIR TESTS
export LC_ALL=C

test_count=0
test_failed=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/shdb-test.XXXXXX")
trap 'rm -rf "$TRASH"' EXIT
cd "$TRASH" || exit 1

# test_expect TITLE BODY: run BODY (shell code); it passes when it exits 0.
test_expect() {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TRASH/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out" | head -n 40
	fi
}

# test_skip TITLE REASON
test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

# skip_all REASON: skip the whole file.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

need_corpus() {
	[ -d "$SHDB_SHARED/corpus" ] || skip_all "../shared/corpus is absent"
}

# expect_status N CMD...: run CMD, succeed when it exits with status N.
expect_status() {
	want=$1
	shift
	"$@"
	got=$?
	[ "$got" = "$want" ] || { echo "exit status $got, expected $want: $*"; return 1; }
}

# test_cmp EXPECTED ACTUAL: compare files, showing a diff on mismatch.
test_cmp() {
	diff -u "$1" "$2"
}

test_done() {
	echo "1..$test_count"
	[ "$test_failed" = 0 ]
}
