#!/bin/bash
# make nightly-demo: two small histories of six "nights" over the bundled corpus
# (shaders/), each rendered by shdb report.
#
#  corpus/   shdb's own compiler on shaders/ and tests/ir/, targets a630 and a740,
#            --keep-asm; nights 3 and 6 are built with --passes none (no
#            optimisation), the others with the default pipeline: the unoptimised
#            code nearly doubles inst and nops, so night 6 is a regression against
#            night 5 first seen in night 3; the IR files the backend refuses
#            (64-bit floats, 64-bit integer division) show as failures grouped by
#            message.
#  standin/  the same corpus through a stand-in compiler (shdb run --compiler): a
#            shell script printing Mesa ir3 shader-db lines and a made-up listing
#            whose numbers drift a little each night and regress some shaders in
#            nights 3 and 6, so the report always has trends (one whose y axis is
#            not from 0), alerts and disassembly diffs to show.
# Every night is of one commit, so the charts name the runs by label.  The
# reports are made from the source folder, where the runs' paths start: the
# shader pages show their sources.
#
#	reports/nightly-demo.sh OUTDIR      (SHDB: the shdb binary)
set -eu
out=${1:?usage: nightly-demo.sh OUTDIR}
SHDB=${SHDB:-./shdb}
src=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out"
mkdir -p "$out/corpus/history" "$out/standin/history"
out=$(cd "$out" && pwd)

cat >"$out/standin/cc.sh" <<'CC'
#!/bin/sh
# cc.sh NIGHT PATH TARGET: a stand-in for Mesa's shader-db run on one file
night=$1 path=$2 target=$3
h=$(printf '%s %s' "$path" "$target" | cksum | cut -d' ' -f1)
inst=$((20 + h % 90)) nops=$((3 + h % 11)) ss=$((h % 4)) full=$((4 + h % 13))
# a little better most nights: one instruction fewer for a seventh of the files each time
k=2
while [ $k -le "$night" ]; do [ $((h % 7)) = $((k % 7)) ] && inst=$((inst - 1)); k=$((k + 1)); done
# nights 3 and 6: a scheduling regression in a fifth of the files
if { [ "$night" = 3 ] || [ "$night" = 6 ]; } && [ $((h % 5)) = 0 ]; then
	inst=$((inst + 4)) nops=$((nops + 3)) ss=$((ss + 1))
fi
echo "$path - FRAG shader: $inst inst, $nops nops, $((inst - nops)) non-nops, 0 mov, 0 cov, $((inst * 2)) dwords, 0 last-baryf, 0 last-helper, 0 half, $full full, 8 constlen, $nops cat0, 0 cat1, $((inst - nops)) cat2, 0 cat3, 0 cat4, 0 cat5, 0 cat6, 0 cat7, 0 stp, 0 ldp, $((ss * 6)) sstall, $ss (ss), 0 systall, 1 (sy), 16 waves, 0 loops"
i=0
while [ $i -lt "$inst" ]; do
	if [ $i -lt "$nops" ]; then echo "nop"; elif [ $i = "$nops" ] && [ "$ss" -gt 0 ]; then echo "(ss)mad.f32 r0.x, r0.y, c$i.x, r1.x"; else echo "add.f r$((i % 24)).x, r$(((i * 7) % 24)).y, c$((h % 64)).x"; fi
	i=$((i + 1))
done
echo "end"
CC
chmod +x "$out/standin/cc.sh"

cd "$src"
for night in 1 2 3 4 5 6; do
	case $night in 3|6) passes="--passes none" opt=noopt ;; *) passes="" opt=opt ;; esac
	echo "night $night: bundled corpus, shdb's compiler ($opt); stand-in compiler"
	"$SHDB" run -q -j2 -t a630,a740 --keep-asm $passes --label "night-$night-$opt" \
		-o "$out/corpus/history/night-$night" shaders/ tests/ir/
	"$SHDB" run -q -j2 -t a630,a740 --keep-asm --label "night-$night" \
		--compiler "$out/standin/cc.sh $night {path} {target}" --compiler-preset ir3 \
		-o "$out/standin/history/night-$night" shaders/
done
status=0
for h in corpus standin; do
	"$SHDB" report "$out/$h/history" -o "$out/$h/report" || status=1
done
echo "open $out/corpus/report/index.html (shdb's compiler)"
echo " and $out/standin/report/index.html (stand-in compiler)"
exit $status
