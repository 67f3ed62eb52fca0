#!/bin/bash
# shdb run --keep-asm: each result's disassembly in DIR/asm.pack (with --compiler,
# the command's output), in the records' order; --force without it removes a
# stale pack; --resume cuts a torn entry; --merge joins the shards' packs.
# --passes reaches the compiler and the settings.
. "$(dirname "$0")/lib.sh"

cat >cc.sh <<'CC'
#!/bin/sh
# cc.sh PATH TARGET: an ir3 line and a made-up listing
echo "$1 - FRAG shader: 7 inst, 1 nops, 6 non-nops, 16 waves"
echo "mov.f32f32 r0.x, c0.x ; $1 on $2"
echo "end"
CC
chmod +x cc.sh
mkdir corpus && for i in 1 2 3 4 5; do echo "void main() {}" >corpus/s$i.frag; done
CC="$TRASH/cc.sh {path} {target}"
PACK=$TESTS/asm-pack.pl

test_expect 'a pack entry per record, the command output as its text' '
	$SHDB run -q -j2 -t a630,a740 --keep-asm --compiler "$CC" --compiler-preset ir3 corpus -o r &&
	perl $PACK r/asm.pack >entries &&
	test $(wc -l <entries) = 10 &&
	cut -d"\"" -f4,8,12 r/stats.jsonl | tr "\"" "\t" >keys &&
	cut -f1-3 entries >pack-keys && test_cmp keys pack-keys &&
	perl $PACK r/asm.pack s3.frag fragment a740 >text &&
	printf "s3.frag - FRAG shader: 7 inst, 1 nops, 6 non-nops, 16 waves\nmov.f32f32 r0.x, c0.x ; s3.frag on a740\nend\n" >expect &&
	test_cmp expect text &&
	grep -q "\"keep_asm\": true" r/run.json
'

test_expect 'without --keep-asm no pack; --force removes a stale one' '
	$SHDB run -q -j2 -t a630 --compiler "$CC" --compiler-preset ir3 corpus -o plain &&
	! test -e plain/asm.pack && ! grep -q keep_asm plain/run.json &&
	$SHDB run -q --force -j2 -t a630,a740 --compiler "$CC" --compiler-preset ir3 corpus -o r &&
	! test -e r/asm.pack
'

test_expect '--resume cuts a torn entry and completes the pack' '
	$SHDB run -q -j2 -t a630 --keep-asm --compiler "$CC" --compiler-preset ir3 corpus -o full &&
	$SHDB run -q -j2 -t a630 --keep-asm --compiler "$CC" --compiler-preset ir3 corpus -o cut &&
	head -n 2 full/stats.jsonl >cut/stats.jsonl &&
	size=$(stat -c %s cut/asm.pack) && head -c $((size * 2 / 3)) full/asm.pack >cut/asm.pack &&
	sed -i "s/\"complete\"/\"running\"/" cut/run.json &&
	$SHDB run -q -j2 -t a630 --keep-asm --compiler "$CC" --compiler-preset ir3 --resume corpus -o cut &&
	perl $PACK cut/asm.pack >resumed.all && sort -u resumed.all >resumed &&
	perl $PACK full/asm.pack >whole &&
	test_cmp whole resumed &&
	expect_status 2 $SHDB run -q -j2 -t a630 --compiler "$CC" --compiler-preset ir3 --resume corpus -o cut 2>err &&
	grep -q "setting .keep_asm. differs" err
'

test_expect '--merge joins the packs of the shards' '
	for k in 1 2; do
		$SHDB run -q -j2 -t a630 --keep-asm --shard $k/2 --compiler "$CC" --compiler-preset ir3 corpus -o sh$k || return 1
	done &&
	$SHDB run -q --merge -o merged sh1 sh2 &&
	perl $PACK merged/asm.pack >m.all && sort m.all >m && sort whole >f && test_cmp f m
'

test_expect 'our own compiler: an entry for each ok record (none until the backend lands)' '
	$SHDB run -q -j2 -t a630 --keep-asm $TESTS/ir -o own &&
	perl $PACK own/asm.pack >entries &&
	test $(wc -l <entries) = $(grep -c "\"status\":\"ok\"" own/stats.jsonl)
'

test_expect '--passes reaches the settings; a bad pass name is a usage error' '
	$SHDB run -q -j2 -t a630 --passes none $TESTS/ir -o nopt &&
	grep -q "\"passes\": \"none\"" nopt/run.json &&
	expect_status 2 $SHDB run -q --passes no_such_pass $TESTS/ir -o bad 2>err &&
	grep -q "no_such_pass" err &&
	expect_status 2 $SHDB run -q --passes none --compiler "$CC" corpus -o bad2 2>err &&
	grep -q "passes is for shdb" err
'

test_expect '--mesa 24.3 reaches the compiler and the settings; not with --compiler' '
	$SHDB run -q -j2 -t a740 --mesa 24.3 $TESTS/ir -o m243 &&
	grep -q "\"mesa\": \"24.3\"" m243/run.json &&
	$SHDB run -q -j2 -t a740 $TESTS/ir -o mmain &&
	! grep -q "\"mesa\"" mmain/run.json &&
	sed "s/,\"time_us\":[0-9]*//" m243/stats.jsonl >a && sed "s/,\"time_us\":[0-9]*//" mmain/stats.jsonl >b &&
	! cmp -s a b &&
	expect_status 2 $SHDB run -q --mesa 24.3 --compiler "$CC" corpus -o bad3 2>err &&
	grep -q "mesa is for shdb" err
'

test_done
