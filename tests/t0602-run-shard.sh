#!/bin/bash
# shdb run --shard K/N and --merge: the merged shards are the single run, byte for byte
# apart from the timings.
. "$(dirname "$0")/lib.sh"

export SHDB_TEST_HOOKS=1
strip_time() { sed 's/,"time_us":[0-9]*//' "$1"; }

mkdir -p corpus/x corpus/y &&
# shaders that stop in the front end: one record per file
for i in $(seq 1 40); do echo "void main() { undeclared(); } // $i" >corpus/x/s$i.frag; done
for i in $(seq 1 20); do echo "void main() { undeclared(); } // $i" >corpus/y/v$i.vert; done
echo "SHDB-TEST-CRASH" >corpus/x/boom.comp
echo note >corpus/y/notes.txt

test_expect 'three shards split the files without overlap' '
	$SHDB run -q -t a630,a750 -o all corpus &&
	for k in 1 2 3; do $SHDB run -q -t a630,a750 --shard $k/3 -o shard$k corpus || exit 1; done &&
	cat shard1/stats.jsonl shard2/stats.jsonl shard3/stats.jsonl | cut -d\" -f4 | sort >paths &&
	cut -d\" -f4 all/stats.jsonl | sort >want && test_cmp want paths &&
	for k in 1 2 3; do test -s shard$k/stats.jsonl || exit 1; done &&
	grep -q "\"index\": 2" shard2/run.json && grep -q "\"other_shard_files\"" shard2/run.json
'

test_expect 'merged shards equal the single run' '
	$SHDB run --merge -o merged shard3 shard1 shard2 >out &&
	strip_time all/stats.jsonl >a && strip_time merged/stats.jsonl >b && test_cmp a b &&
	grep -q "\"status\": \"complete\"" merged/run.json &&
	grep -q "\"files\": 61" merged/run.json && grep -q "\"crash\": 1" merged/run.json &&
	grep -q "\"merged_from\"" merged/run.json && grep -q "^shdb run --merge: 3 runs, 61 records" out
'

test_expect 'the shard of a path is stable' '
	$SHDB run -q -t a630,a750 --shard 2/3 -o again corpus &&
	strip_time again/stats.jsonl >a && strip_time shard2/stats.jsonl >b && test_cmp a b
'

test_expect 'merge refuses a missing shard, a shard twice, or an unfinished run' '
	expect_status 2 $SHDB run --merge -o m1 shard1 shard3 2>err && grep -q "shard 2/3 is missing" err &&
	expect_status 2 $SHDB run --merge -o m2 shard1 shard1 shard2 shard3 2>err &&
	grep -q "given twice" err &&
	cp -r shard2 unfinished && sed -i "s/\"complete\"/\"interrupted\"/" unfinished/run.json &&
	expect_status 2 $SHDB run --merge -o m3 shard1 unfinished shard3 2>err &&
	grep -q "not a complete run" err &&
	test ! -e m1 && test ! -e m2 && test ! -e m3
'

test_expect 'merge refuses runs of other settings' '
	$SHDB run -q -t a630 --shard 1/2 -o other1 corpus && $SHDB run -q -t a750 --shard 2/2 -o other2 corpus &&
	expect_status 2 $SHDB run --merge -o m4 other1 other2 2>err && grep -q "different settings (.targets.)" err
'

test_expect 'merge refuses overlapping runs' '
	$SHDB run -q -t a630,a750 -o whole2 corpus &&
	expect_status 1 $SHDB run --merge -o m5 all whole2 2>err && grep -q "is in both" err &&
	test ! -e m5/stats.jsonl
'

test_done
