#!/bin/bash
# The formats of tests/collections (files of several stages, HLSL of several
# entry points, GL that glslang alone rejects, a Fossilize database): per
# format, the share of units that reach the backend (valid IR after the
# optimisation loop) and the front end's time per unit, warm, on one worker
# (tests/corpus/check.c -c).  Then the same collection through shdb run for
# a630: records the backend compiled.
set -eu
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -r tests/collections/. "$dir/"
perl tests/foz-write.pl --deflate --crc "$dir/fossilize/app.foz" "$dir/fossilize/app.spec"
"$SHDB_BUILD/corpus-check" -j 1 -c "$dir" /nonexistent | sed '/only the collection/d'
"$SHDB" run -q -j 2 -t a630 -I "$dir/hlsl/includes" --exclude '^fossilize/[a-z]*\.(vert|frag|comp)$' -o "$dir/run" "$dir"
perl -ne '
	($p, $s) = /"path":"([^"]*)".*"status":"([a-z]*)"/ or next;
	$f = $p =~ /\.foz\// ? "fossilize" : $p =~ /\.hlsl/ ? "hlsl" : $p =~ /\.slang$/ ? "slang" :
	     $p =~ /^retroarch/ ? "retroarch glsl" : $p =~ /\.shader_test$/ ? "shader_test" : "glsl";
	$n{$f}++; $ok{$f}++ if $s eq "ok";
	END { printf "shdb run -t a630: %s\n", join(", ", map { "$_ $ok{$_}/$n{$_}" } sort keys %n) }
' "$dir/run/stats.jsonl"
