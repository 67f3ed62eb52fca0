#!/bin/bash
# Golden outputs of shdb stats and shdb cmp in every format: each case of
# tests/golden/cases runs on the runs in tests/golden/runs and must print
# exactly tests/golden/NAME.out.  SHDB_UPDATE_GOLDEN=1 rewrites them.
. "$(dirname "$0")/lib.sh"

G=$TESTS/golden
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	name=${line%%:*}
	args=${line#*: }
	if [ -n "$SHDB_UPDATE_GOLDEN" ]; then
		mkdir -p "$G/$(dirname "$name")"
		(cd "$G/runs" && eval "\$SHDB $args" >"$G/$name.out" 2>/dev/null)
	fi
	test_expect "$name: shdb $args" '
		(cd "$G/runs" && eval "\$SHDB $args" >"$TRASH/out" 2>/dev/null)
		test_cmp "$G/$name.out" "$TRASH/out"
	'
done <"$G/cases"

test_done
