#!/bin/bash
# Every program the tests, benchmarks, scripts and Makefile call comes from a
# package that installing .ci/packages (the list `make deps` installs) installs —
# a listed package or one it depends on, as binutils through gcc — or from a
# package that every Debian machine has (Essential, or of priority "required").  A test that
# starts calling a program nobody installs fails here, not on a newcomer's
# machine.  tests/deps-scan.pl finds the programs; one TAP line each.
. "$(dirname "$0")/lib.sh"

command -v dpkg-query >/dev/null || skip_all "not a Debian system (no dpkg-query)"

listed=$("$SRCDIR/.ci/deps" --list-all) || { echo "not ok 1 - .ci/deps --list-all"; exit 1; }
# what installing the list installed: the listed packages and their dependencies
perl "$SRCDIR/tests/deps-closure.pl" $listed >installs

# candidates PATH: the names dpkg may know PATH by (symlinks and the /usr merge)
candidates() {
	local r
	r=$(readlink -f "$1")
	printf '%s\n' "$1" "${1#/usr}" "$r" "${r#/usr}"
}

# owner PATH: the package that installed PATH, from the table "owners" (one
# dpkg-query -S for every program, made below)
owner() {
	local c
	for c in $(candidates "$1"); do
		awk -F': ' -v p="$c" '$2 == p && $1 !~ /,/ { sub(/:.*/, "", $1); print $1; f = 1; exit } END { exit !f }' owners &&
			return 0
	done
	return 1
}

# everywhere PKG: is PKG on every Debian machine?
everywhere() {
	dpkg-query -W -f='${Essential} ${Priority}\n' "$1" 2>/dev/null | grep -qE '^yes|required'
}

# the programs of the packages the list marks "optional" (installed for a goal of
# their own, `.ci/deps --with NAME`)
optional_cmds=$(sed -e 's/#.*//' "$SRCDIR/.ci/packages" |
	awk '$2 == "optional" { for (i = 3; i <= NF; i++) if ($i ~ /^cmd:/) print substr($i, 5) }')

check_program() {	# PROGRAM WHERE [optional]
	local prog=$1 where=$2 optional=${3:-} path pkg
	case "$prog" in
	/*) [ -x "$prog" ] && path=$prog ;;
	*) path=$(command -v "$prog") ;;
	esac
	if [ -z "${path:-}" ]; then
		# the installer itself may ask for what it does not need (sudo when not root)
		case "$optional:$where" in optional:.ci/*) echo "optional, not here"; return 0 ;; esac
		# an optional package's program, called after `command -v`: not here until asked for
		if [ "$optional" = optional ] && printf '%s\n' $optional_cmds | grep -qxF "$prog"; then
			echo "an optional package's, not here"
			return 0
		fi
		echo "$where calls $prog, which is not installed: add its package to .ci/packages"
		return 1
	fi
	pkg=$(owner "$path") || {
		echo "$where calls $prog ($path), which no Debian package installed"
		return 1
	}
	grep -qxF "$pkg" installs && return 0
	everywhere "$pkg" && return 0
	case "$optional:$where" in optional:.ci/*) return 0 ;; esac
	echo "$where calls $prog from the package $pkg, which .ci/packages does not install"
	return 1
}

perl "$SRCDIR/tests/deps-scan.pl" "$SRCDIR" >programs 2>scan-err || {
	cat scan-err
	echo "not ok 1 - tests/deps-scan.pl"
	exit 1
}

test_expect 'the scan finds the programs every script needs' '
	grep -q "^prove	" programs && grep -q "^gnuplot	" programs && grep -q "^spirv-as	" programs
'

# every program's possible paths, owned by which package: one query for all
while IFS=$'\t' read -r prog where optional; do
	case "$prog" in /*) p=$prog ;; *) p=$(command -v "$prog") ;; esac
	[ -n "$p" ] && candidates "$p"
done <programs | sort -u | xargs -r dpkg-query -S 2>/dev/null >owners

while IFS=$'\t' read -r prog where optional; do
	test_expect "$prog ($where) comes from what .ci/packages installs or every machine has" \
		"check_program '$prog' '$where' '$optional'"
done <programs

test_done
