#!/bin/bash
# Bad input never crashes shdb stats or shdb cmp: each problem gets a clear
# "file:line: error|warning: ..." and the rest of the input is still used.
# Errors (a line that cannot be read) end with exit status 1, warnings
# (duplicates, different statistics, empty runs) do not.
. "$(dirname "$0")/lib.sh"

R=$TESTS/golden/runs

test_expect 'malformed JSON lines: located errors, the other records compared, exit 1' '
	{ head -n 3 $R/topic.jsonl; echo "{\"path\":\"x\",\"stage\":"; echo "not json at all";
	  echo "{\"path\":\"y\",\"stage\":\"vertex\",\"stats\":{\"inst\":\"lots\"}}";
	  tail -n +4 $R/topic.jsonl; } >bad.jsonl &&
	expect_status 1 $SHDB cmp $R/main bad.jsonl >out 2>err &&
	grep -q "^bad.jsonl:4:20: error: malformed JSON: " err &&
	grep -q "^bad.jsonl:5:[0-9]*: error: malformed JSON: " err &&
	grep -q "^bad.jsonl:6: warning: statistic \"inst\" is a string, not a number; ignored$" err &&
	grep -q "^inst  *625  *589 " out
'

test_expect 'a truncated file: the cut record is an error' '
	head -c 1000 $R/topic.jsonl >cut.jsonl &&
	expect_status 1 $SHDB stats cut.jsonl >out 2>err &&
	grep -q "^cut.jsonl:6: error: truncated record: the file ends inside it$" err &&
	grep -q "^shdb stats: cut.jsonl (5 records" out
'

test_expect 'duplicate records: a warning naming both lines; the last one counts' '
	{ cat $R/topic.jsonl; head -n 1 $R/main/stats.jsonl; } >dup.jsonl &&
	$SHDB cmp --format=json $R/main dup.jsonl >out 2>err &&
	grep -q "^dup.jsonl:13: warning: duplicate record for app1/a.frag fragment a630 (first at line 1); keeping the last$" err &&
	perl -MJSON::PP -e "local \$/; my \$j = decode_json(<STDIN>);
		exit !(\$j->{after}{duplicates} == 1 && \$j->{after}{records} == 12)" <out
'

test_expect 'many bad lines: the first 20 are shown, the rest counted' '
	for i in $(seq 30); do echo "{oops"; done >many.jsonl &&
	expect_status 1 $SHDB stats many.jsonl >out 2>err &&
	test "$(grep -c "error: malformed JSON" err)" = 20 &&
	grep -q "^many.jsonl: error: 10 more errors not shown$" err
'

test_expect 'empty runs: a warning, an empty report, exit 0' '
	: >empty.jsonl && mkdir emptyrun && : >emptyrun/stats.jsonl &&
	echo "Database,Pipeline hash,Executable name,Instructions" >empty.csv &&
	echo "nothing here - but no shader line" >empty.txt &&
	$SHDB stats empty.jsonl >out 2>err && grep -q "^empty.jsonl: warning: no records$" err &&
	$SHDB cmp emptyrun $R/main >out 2>err && grep -q "warning: no records" err &&
	grep -q "lost 0, gained 12" out &&
	$SHDB cmp empty.csv empty.csv >out 2>err && grep -q "No changes" out &&
	$SHDB cmp --format=json empty.txt empty.jsonl >out 2>err &&
	perl -MJSON::PP -e "local \$/; decode_json(<STDIN>)" <out
'

test_expect 'what cannot be read at all: exit 1 with the reason' '
	expect_status 1 $SHDB stats nosuch.jsonl 2>err &&
	grep -q "^shdb: error: cannot read .nosuch.jsonl.: No such file or directory$" err &&
	expect_status 1 $SHDB cmp nosuch.jsonl nosuch.jsonl 2>err &&
	grep -q "^shdb: error: cannot read .nosuch.jsonl.: No such file or directory$" err &&
	mkdir notarun && expect_status 1 $SHDB cmp notarun $R/main 2>err &&
	grep -q "cannot read .notarun/stats.jsonl." err &&
	printf "hello\nworld\n" >what && expect_status 1 $SHDB stats what 2>err &&
	grep -q "cannot tell what .what. is" err
'

test_expect 'binary garbage: errors, no crash' '
	perl -e "srand(7); print map { chr(int rand 256) } 1 .. 20000" >garbage.jsonl &&
	expect_status 1 $SHDB stats garbage.jsonl >out 2>err &&
	grep -q "^garbage.jsonl:[0-9]*:[0-9]*: error: malformed JSON" err
'

test_expect 'UTF-8 paths are read, escaped or not; other bytes are an error' '
	printf "{\"path\":\"caf\303\251.frag\",\"stage\":\"vertex\",\"stats\":{\"inst\":1}}\n" >utf8.jsonl &&
	printf "{\"path\":\"caf\\\\u00e9.frag\",\"stage\":\"vertex\",\"stats\":{\"inst\":2}}\n" >escaped.jsonl &&
	$SHDB cmp --format=json utf8.jsonl escaped.jsonl >out &&
	perl -MJSON::PP -e "local \$/; exit !(decode_json(<STDIN>)->{matched} == 1)" <out &&
	printf "{\"path\":\"caf\351.frag\",\"stage\":\"vertex\"}\n" >latin1.jsonl &&
	expect_status 1 $SHDB stats latin1.jsonl >out 2>err &&
	grep -q "^latin1.jsonl:1:[0-9]*: error: malformed JSON: unable to decode byte 0xe9" err
'

test_expect 'a huge line (4 MB path) is read' '
	perl -e "print q({\"path\":\"), q(a) x 4000000, qq(\",\"stage\":\"vertex\",\"stats\":{\"inst\":7}}\n)" >huge.jsonl &&
	$SHDB stats -s huge.jsonl >out && grep -q "^inst  *1  *7 " out
'

test_expect 'a bad run.json is a warning; the records are still read' '
	mkdir badmeta && cp $R/main/stats.jsonl badmeta/ && echo "{nope" >badmeta/run.json &&
	$SHDB stats -s badmeta >out 2>err &&
	grep -q "^badmeta/run.json:1:[0-9]*: warning: .*; metadata ignored$" err && grep -q "12 records" out
'

test_expect 'bad CSV rows: located errors; bad cells: warnings' '
	printf "%s\n" "1,2,3" "Database,Pipeline hash,Executable name,Instructions" "a,1,VS,10" \
		"a,2,VS" "a,3,FS,many" >bad.csv &&
	expect_status 1 $SHDB stats bad.csv >out 2>err &&
	grep -q "^bad.csv:1: error: a CSV row before any header line$" err &&
	grep -q "^bad.csv:4: error: row of 3 fields under a header of 4 (line 2)$" err &&
	grep -q "^bad.csv:5: warning: \"Instructions\" is \"many\", not a number; ignored$" err
'

test_expect 'different statistic sets in the two runs: reported, compared on what is shared' '
	$SHDB cmp $TESTS/golden/reportpy/fd-before.txt $R/topic.jsonl >out 2>err &&
	grep -q "warning: statistics only in before (.*fd-before.txt): non_nops, mov, cov" err &&
	grep -q "lost 7, gained 12" out
'

test_done
