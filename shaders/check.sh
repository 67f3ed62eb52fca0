#!/bin/bash
# Development check of the sample corpus with Debian's glslang-tools (not part of
# the build): every file must be accepted by `glslangValidator -V`; each
# .shader_test is split into its stages, which are compiled and linked together.
#
#	shaders/check.sh            from the repository root
set -u
cd "$(dirname "$0")"
command -v glslangValidator >/dev/null || { echo "apt-get install glslang-tools" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

check() {	# FILE...
	n=$((n + 1))
	if ! out=$(glslangValidator -V -o "$tmp/out.spv" "$@" 2>&1); then
		fail=$((fail + 1))
		echo "FAIL $*"
		echo "$out" | sed 's/^/    /'
	fi
}

# a .shader_test's sections into DIR/stage files
split_test() {
	awk -v dir="$2" '
		/^\[vertex shader\]/ { out = dir "/s.vert"; next }
		/^\[tessellation control shader\]/ { out = dir "/s.tesc"; next }
		/^\[tessellation evaluation shader\]/ { out = dir "/s.tese"; next }
		/^\[geometry shader\]/ { out = dir "/s.geom"; next }
		/^\[fragment shader\]/ { out = dir "/s.frag"; next }
		/^\[compute shader\]/ { out = dir "/s.comp"; next }
		/^\[/ { out = ""; next }
		out != "" { print > out }
	' "$1"
}

while IFS= read -r f; do
	case "$f" in
	*.shader_test)
		d="$tmp/$(basename "$f")"
		mkdir -p "$d" && split_test "$f" "$d"
		check "$d"/s.*
		;;
	*) check "$f" ;;
	esac
done < <(find . -type f ! -name '*.md' ! -name '*.sh' | sort)
echo "$((n - fail)) of $n accepted by glslang"
[ "$fail" = 0 ]
