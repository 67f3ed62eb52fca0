#!/bin/bash
# shdb run --compiler: any command per shader, statistics read with PCRE2 patterns, and
# the ir3 preset for Mesa's shader-db lines.  A shell script stands in for the compiler.
. "$(dirname "$0")/lib.sh"

strip_time() { sed 's/,"time_us":[0-9]*//' "$1"; }

cat >fake-ir3 <<'SH'
#!/bin/sh
# fake-ir3 FILE TARGET: Mesa ir3 shader-db lines, the instruction count from the size
f=$1 t=$2
case "$f" in
*crash*) kill -SEGV $$ ;;
*bad*) echo "compiling $f"; echo "$f:3: error: syntax error"; exit 1 ;;
*hang*) if [ "$t" = a630 ]; then sleep 60 & echo $! >"$HANG_PID"; wait; fi ;;
*silent*) exit 0 ;;
esac
n=$(wc -c <"$f")
[ "$t" = a750 ] && n=$((n - 1))
echo "$f - VERT shader: $n inst, 2 nops, $((n - 2)) non-nops, 1 mov, 0 cov, 10 dwords, 0 last-baryf, 0 last-helper, 0 half, 3 full, 4 constlen, 2 cat0, 1 cat1, 3 cat2, 0 cat3, 0 cat4, 0 cat5, 0 cat6, 0 cat7, 0 stp, 0 ldp, 0 sstall, 1 (ss), 0 systall, 0 (sy), 16 waves, 0 loops, 0 preamble-inst, 0 early-preamble"
echo "$f - BVERT shader: 5 inst, 1 nops"
echo "$f - FRAG shader: 7 inst, 1 nops, 6 non-nops, 2 (ss), 1 (sy), 12 waves"
SH
chmod +x fake-ir3
export HANG_PID=$PWD/hang.pid

mkdir corpus && echo "0123456789" >corpus/a.shader_test && echo "01234" >corpus/b.shader_test &&
echo x >corpus/bad.shader_test && echo x >corpus/crash.shader_test &&
echo x >corpus/silent.shader_test
CC="$PWD/fake-ir3 {file} {target}"

test_expect 'the ir3 preset reads Mesa lines, per stage and per target' '
	$SHDB run -o out -t a630,a750 --compiler "$CC" --compiler-preset ir3 corpus >summary &&
	grep -q "^{\"path\":\"a.shader_test\",\"stage\":\"vertex\",\"target\":\"a630\",\"status\":\"ok\",\"message\":\"\",\"stats\":{\"inst\":11,\"nops\":2,\"non_nops\":9,.*\"ss\":1,\"systall\":0,\"sy\":0,\"waves\":16,\"loops\":0,\"preamble_inst\":0,\"early_preamble\":0}" out/stats.jsonl &&
	grep -q "^{\"path\":\"a.shader_test\",\"stage\":\"vertex\",\"target\":\"a750\",.*\"inst\":10," out/stats.jsonl &&
	grep -q "^{\"path\":\"a.shader_test\",\"stage\":\"fragment\",\"target\":\"a630\",.*{\"inst\":7,\"nops\":1,\"non_nops\":6,\"ss\":2,\"sy\":1,\"waves\":12}" out/stats.jsonl &&
	! grep -q BVERT out/stats.jsonl &&
	grep -Eq "^target +inst +nops +non_nops" summary && grep -Eq "^a630 +31 +6 +25 " summary
'

test_expect 'records come stage first, then target' '
	grep "\"a.shader_test\"" out/stats.jsonl | cut -d\" -f8,12 >order &&
	printf "%s\n" vertex\"a630 vertex\"a750 fragment\"a630 fragment\"a750 >want && test_cmp want order
'

test_expect 'a failing compiler is an error record with its message' '
	grep -q "\"bad.shader_test\",\"stage\":\"none\",\"target\":\"a630\",\"status\":\"error\",\"message\":\"corpus/bad.shader_test:3: error: syntax error\"" out/stats.jsonl
'

test_expect 'a compiler killed by a signal is a crash record' '
	grep -q "\"crash.shader_test\",.*\"target\":\"a750\",\"status\":\"crash\",\"message\":\"compiler command killed by SIGSEGV\"" out/stats.jsonl
'

test_expect 'no statistics in the output is an error' '
	grep -q "\"silent.shader_test\",.*\"status\":\"error\",\"message\":\"no statistics in the compiler.s output\"" out/stats.jsonl
'

test_expect 'the same records whatever -j' '
	$SHDB run -q -j1 -o j1 -t a630,a750 --compiler "$CC" --compiler-preset ir3 corpus &&
	strip_time out/stats.jsonl >a && strip_time j1/stats.jsonl >b && test_cmp a b
'

test_expect 'a hang on one target: a timeout for it, the others still compile, its processes go' '
	mkdir hang && echo x >hang/hang.shader_test &&
	$SHDB run -q -o h --timeout 3 -t a306,a630,a750 --compiler "$CC" --compiler-preset ir3 hang &&
	grep -q "\"target\":\"a630\",\"status\":\"timeout\",\"message\":\"timed out after 3 s (phase compiler)\"" h/stats.jsonl &&
	grep -q "\"target\":\"a306\",\"status\":\"ok\"" h/stats.jsonl &&
	grep -q "\"target\":\"a750\",\"status\":\"ok\"" h/stats.jsonl &&
	pid=$(cat hang.pid) &&
	# gone, or a zombie waiting for a PID 1 that does not reap (containers);
	# on a loaded machine the kill may take a moment to be delivered: up to 5 s
	gone() { [ ! -e /proc/$pid ] || grep -q "^[0-9]* ([^)]*) Z" /proc/$pid/stat; } &&
	for i in $(seq 50); do gone && break; sleep 0.1; done &&
	gone
'

test_expect '--stat-pattern: named groups are statistics' '
	cat >other-cc <<-\SH &&
	#!/bin/sh
	echo "stage=fragment instructions=42 registers=7"
	echo "stage=vertex instructions=12 registers=3"
	SH
	chmod +x other-cc &&
	$SHDB run -q -o pat -t mali-g78 --compiler "./other-cc {file}" \
		--stat-pattern "stage=(?<stage>\\w+) instructions=(?<inst>\\d+) registers=(?<regs>\\d+)" corpus/a.shader_test &&
	grep -q "\"stage\":\"vertex\",\"target\":\"mali-g78\",\"status\":\"ok\",\"message\":\"\",\"stats\":{\"inst\":12,\"regs\":3}" pat/stats.jsonl &&
	grep -q "\"stage\":\"fragment\",.*{\"inst\":42,\"regs\":7}" pat/stats.jsonl
'

test_expect 'a command without {target} takes one label at most; options need --compiler' '
	expect_status 2 $SHDB run -q -o x -t a,b --compiler "./other-cc {file}" corpus 2>err &&
	grep -q "at most one -t label" err &&
	expect_status 2 $SHDB run -q -o x --compiler-preset ir3 corpus 2>err && grep -q "need --compiler" err &&
	expect_status 2 $SHDB run -q -o x --compiler cc --compiler-preset nv corpus 2>err &&
	grep -q "unknown compiler preset" err
'

test_done
