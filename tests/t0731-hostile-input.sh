#!/bin/bash
# Input made to hurt shdb stats and shdb cmp (issue 19): huge records,
# numbers out of range, CSV headers with empty names, duplicate JSON keys.
# Each gets a located message or is read as it is, in bounded time.
. "$(dirname "$0")/lib.sh"

# A hang guard, not a timing: what is tested here takes a second or two (ten
# under the sanitizers); the quadratic code it replaced took minutes.
GUARD="timeout 180"

test_expect '200,000 distinct statistics in one JSONL record (columns found by hash)' '
	awk "BEGIN { printf \"{\\\"path\\\":\\\"a.frag\\\",\\\"stage\\\":\\\"fragment\\\",\\\"target\\\":\\\"a630\\\",\\\"status\\\":\\\"ok\\\",\\\"stats\\\":{\";
		for (i = 0; i < 200000; i++) printf \"%s\\\"s%d\\\":%d\", i ? \",\" : \"\", i, i;
		print \"}}\" }" >wide.jsonl &&
	$GUARD $SHDB stats --stat s199999,s7 wide.jsonl >out &&
	grep -q "^s199999 *1 *199999 " out && grep -q "^s7 *1 *7 " out
'

test_expect '200,000 statistics on one Mesa log line' '
	awk "BEGIN { printf \"shaders/a.shader_test - FRAG shader: \";
		for (i = 0; i < 200000; i++) printf \"%s%d st%d\", i ? \", \" : \"\", i, i;
		print \"\" }" >wide.log &&
	$GUARD $SHDB stats --stat st199999 wide.log >out &&
	grep -q "^st199999 *1 *199999 " out
'

test_expect 'a CSV header with empty names: an error, and the rows under it skipped' '
	printf "%s\n" "Database,,,," "a.foz,1,VS,10,3" "Database,Pipeline hash,Executable name,inst" \
		"b.foz,2,FS,7" >empty.csv &&
	expect_status 1 $SHDB stats empty.csv >out 2>err &&
	grep -q "^empty.csv:1: error: CSV header: column 2 has no name; the rows under it are skipped$" err &&
	grep -q "^shdb stats: empty.csv (1 records: 1 ok)" out &&
	grep -q "^inst *1 *7 " out
'

test_expect 'a CSV header naming a column twice: an error, its rows skipped' '
	printf "%s\n" "Database,Pipeline hash,Executable name,inst,inst" "a.foz,1,VS,10,3" >twice.csv &&
	expect_status 1 $SHDB stats twice.csv >out 2>err &&
	grep -q "^twice.csv:1: error: CSV header: columns 4 and 5 are both \"inst\"; the rows under it are skipped$" err &&
	grep -q "(0 records" out
'

test_expect 'a header without the key columns: the rows under it are skipped too' '
	printf "%s\n" "Database,Pipeline hash,Executable name,inst" "a.foz,1,VS,10" "Database,inst" \
		"b.foz,3" "Database,Pipeline hash,Executable name,inst" "c.foz,2,FS,7" >keys.csv &&
	expect_status 1 $SHDB stats keys.csv >out 2>err &&
	grep -q "^keys.csv:3: error: CSV header without" err &&
	grep -q "(2 records: 2 ok)" out && grep -q "^inst *2 *17 " out
'

test_expect 'a JSON key given twice, in a record or in its stats: a located error' '
	printf "%s\n" "{\"path\":\"a\",\"stage\":\"fragment\",\"stats\":{\"inst\":1,\"inst\":2}}" \
		"{\"path\":\"a\",\"path\":\"b\",\"stage\":\"fragment\",\"stats\":{}}" \
		"{\"path\":\"c\",\"stage\":\"fragment\",\"stats\":{\"inst\":1,\"x\":2}}" \
		"{\"path\":\"d\",\"stage\":\"fragment\",\"stats\":{\"x\":1,\"x\":2}}" >dup.jsonl &&
	expect_status 1 $SHDB stats dup.jsonl >out 2>err &&
	grep -q "^dup.jsonl:1:[0-9]*: error: malformed JSON: duplicate object key near .\"inst\".$" err &&
	grep -q "^dup.jsonl:2:[0-9]*: error: malformed JSON: duplicate object key near .\"path\".$" err &&
	grep -q "^dup.jsonl:4:[0-9]*: error: malformed JSON: duplicate object key near .\"x\".$" err &&
	grep -q "(1 records: 1 ok)" out
'

test_expect 'numbers out of range in JSONL: located errors, the values left out' '
	printf "%s\n" "{\"path\":\"a\",\"stage\":\"fragment\",\"stats\":{\"inst\":1e400,\"nops\":3}}" \
		"{\"path\":\"b\",\"stage\":\"fragment\",\"stats\":{\"inst\":-1}}" \
		"{\"path\":\"c\",\"stage\":\"fragment\",\"stats\":{\"inst\":18446744073709551616}}" \
		"{\"path\":\"d\",\"stage\":\"fragment\",\"stats\":{\"inst\":5},\"time_us\":1e300}" \
		>range.jsonl &&
	expect_status 1 $SHDB stats range.jsonl >out 2>err &&
	grep -q "^range.jsonl:1: error: statistic \"inst\" is inf, not a count from 0 to 2^53; left out$" err &&
	grep -q "^range.jsonl:2: error: statistic \"inst\" is -1, not a count" err &&
	grep -q "^range.jsonl:3: error: statistic \"inst\" is 1.84467e+19, not a count" err &&
	grep -q "^range.jsonl:4: error: time_us is 1e+300, not a count" err &&
	grep -q "^inst *1 *5 " out && grep -q "^nops *1 *3 " out && ! grep -qi nan out
'

test_expect 'shdb cmp --format=json of such input: exit 1 and valid JSON' '
	expect_status 1 $SHDB cmp --format=json range.jsonl range.jsonl >out 2>err &&
	perl -MJSON::PP -e "local \$/; decode_json(<STDIN>)" <out
'

test_expect 'the same in a Mesa log and a fossilize CSV' '
	printf "%s\n" "a.shader_test - FRAG shader: 1e400 inst, -1 nops, 4 waves" >range.log &&
	expect_status 1 $SHDB stats range.log >out 2>err &&
	grep -q "^range.log:1: error: statistic \"inst\" is inf" err &&
	grep -q "^range.log:1: error: statistic \"nops\" is -1" err &&
	grep -q "^waves *1 *4 " out &&
	printf "%s\n" "Database,Pipeline hash,Executable name,Stage duration (ns),inst" \
		"a.foz,1,VS,-5,1e999" "a.foz,2,VS,7,3" >range.csv &&
	expect_status 1 $SHDB stats range.csv >out 2>err &&
	grep -q "^range.csv:2: error: time_us is -0.005, not a count" err &&
	grep -q "^range.csv:2: error: statistic \"inst\" is inf" err &&
	grep -q "^inst *1 *3 " out
'

test_done
