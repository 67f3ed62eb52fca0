#!/bin/bash
# shdb stats end to end: inputs of every kind, formats, options, --fail-on.
. "$(dirname "$0")/lib.sh"

R=$TESTS/golden/runs
L=$TESTS/golden/reportpy

test_expect 'a run: status counts, groups by target and stage, the worst shaders' '
	$SHDB stats $R/main >out &&
	grep -q "^shdb stats: main (12 records: 11 ok, 1 error)$" out &&
	grep -q "^a630 fragment: 5 records (4 ok, 1 error)$" out &&
	grep -q "^worst shaders by inst:" out &&
	grep -q "^ *200  app1/b.comp compute a630$" out
'

test_expect 'failing shaders are listed with their messages' '
	$SHDB stats $R/main >out &&
	grep -q "^failures (1 of 12 records):$" out &&
	grep -q "^ *error  *app2/d.frag fragment a630  *d.frag:3:1: error: unsupported: 64-bit float$" out &&
	$SHDB stats --format=markdown $R/main >md &&
	grep -q "| error | \`app2/d.frag fragment a630\` | d.frag:3:1: error: unsupported: 64-bit float |" md &&
	$SHDB stats --format=json $R/main >j &&
	perl -MJSON::PP -e "local \$/; my \$f = decode_json(<STDIN>)->{failures};
		exit !(@\$f == 1 && \$f->[0]{status} eq q(error) && \$f->[0]{path} eq q(app2/d.frag))" <j &&
	$SHDB stats -S vertex $R/main >out && ! grep -q "^failures" out
'

test_expect 'a Mesa log and a fossilize CSV are runs too' '
	$SHDB stats -s $L/fd-before.txt >out && grep -q "^inst  *7  *530 " out &&
	printf "%s\n" "Database,Pipeline hash,Executable name,Instruction Count" "a.foz,1,VS,10" \
		"a.foz,1,FS,30" >s.csv &&
	$SHDB stats --by stage s.csv >out && grep -q "^FS: 1 records" out &&
	grep -q "^inst  *2  *40  *20.00 " out
'

test_expect 'every format prints; JSON parses; CSV rows have the header'"'"'s width' '
	for f in text markdown json csv; do
		$SHDB stats --format=$f --histogram $R/main >out.$f && test -s out.$f || exit 1
	done &&
	perl -MJSON::PP -e "local \$/; my \$j = decode_json(<STDIN>);
		exit !(\$j->{all}{records} == 12 && \$j->{top}[0]{value} == 200)" <out.json &&
	awk -F, "NR == 1 { n = NF } NF != n { exit 1 }" out.csv &&
	grep -q "^| Instructions (.inst.) |" out.markdown
'

test_expect 'percentiles and means are computed over ok records only' '
	$SHDB stats --format=json -m inst --by none $R/main >out &&
	perl -MJSON::PP -e "local \$/; my \$s = decode_json(<STDIN>)->{all}{statistics}[0];
		exit !(\$s->{count} == 11 && \$s->{total} == 777 && \$s->{median} == 40 && \$s->{max} == 200)" <out
'

test_expect '--fail-on: status counts, totals, one shader' '
	expect_status 1 $SHDB stats --fail-on "error>0" $R/main >out 2>err &&
	grep -q "^shdb: fail-on .error>0.: 1 records with status error$" err &&
	$SHDB stats --fail-on "crash>0" --fail-on "inst>1000" $R/main >out 2>err && ! test -s err &&
	expect_status 1 $SHDB stats --fail-on "shader:full>=20" $R/main >out 2>err &&
	grep -q "fail-on .shader:full>=20.: app1/b.comp compute: full = 20" err &&
	expect_status 2 $SHDB stats --fail-on "inst>+1%" $R/main 2>err &&
	grep -q "without %" err
'

test_expect '--fail-on checks its statistic whatever -m shows' '
	expect_status 1 $SHDB stats -s -m inst --fail-on "shader:full>=20" $R/main >out 2>err &&
	grep -q "fail-on .shader:full>=20.: app1/b.comp compute: full = 20" err &&
	! grep -q "^full " out &&
	expect_status 1 $SHDB stats -m inst --fail-on "full>1" $R/main >out 2>err &&
	grep -q "fail-on .full>1.: total full is" err &&
	expect_status 2 $SHDB stats -m inst --fail-on "nosuch>1" $R/main >out 2>err &&
	grep -q "nosuch" err
'

test_expect '-S takes a stage in any spelling: FRAG, frag or fragment' '
	$SHDB stats -s -S fragment $R/main >want 2>err &&
	grep -q "^all: 7 records" want &&
	for s in FRAG frag; do
		$SHDB stats -s -S $s $R/main >out 2>err && test_cmp want out && ! test -s err || exit 1
	done &&
	$SHDB stats -s -S fragment $TESTS/golden/reportpy/fd-before.txt >want &&
	$SHDB stats -s -S FRAG $TESTS/golden/reportpy/fd-before.txt >out && test_cmp want out &&
	grep -q "^all: [1-9][0-9]* records" out
'

test_expect '--include and --exclude: PCRE2 on the path, as shdb run and shdb cmp' '
	records() { perl -MJSON::PP -e "local \$/; print decode_json(<STDIN>)->{all}{records}" <"$1"; } &&
	$SHDB stats --format=json --include "^app1/" --include "g\.vert\$" $R/main >out &&
	test "$(records out)" = 7 &&
	$SHDB stats --format=json --exclude "\.frag\$" $R/main >out && test "$(records out)" = 5 &&
	expect_status 2 $SHDB stats --include "(" $R/main 2>err &&
	grep -q "^shdb: error: --include .(.: missing closing parenthesis" err
'

test_expect 'the worst shaders, or --best (report-fossil.py'\''s --worst and --best): by which way is better' '
	$SHDB stats -m waves --top 2 $R/main >out &&
	grep -A3 "^worst shaders by waves:" out | tail -2 | awk "{ print \$1 }" | tr "\n" " " >w &&
	test "$(cat w)" = "8 8 " &&
	$SHDB stats --best -m waves --top 1 $R/main >out &&
	grep -A2 "^best shaders by waves:" out | tail -1 | grep -q "^ *16 " &&
	$SHDB stats --best -m inst --top 1 $R/main >out &&
	grep -A2 "^best shaders by inst:" out | tail -1 | grep -q "^ *12  app2/f.frag fragment a630$" &&
	$SHDB stats --best -m inst --format=json $R/main >out &&
	perl -MJSON::PP -e "local \$/; my \$j = decode_json(<STDIN>); exit !(\$j->{top_order} eq q(best) && \$j->{top}[0]{value} == 12)" <out
'

test_expect 'percentiles are values some shader has: counts stay integers' '
	$SHDB stats -s -S fragment $R/main >out &&
	grep -q "^nops " out &&
	awk "/^statistic/ { on = 1; next } on && NF == 9 && (\$6 ~ /\\./ || \$7 ~ /\\./ || \$8 ~ /\\./) { print; bad = 1 } END { exit bad }" out
'

test_expect 'usage errors exit 2' '
	expect_status 2 $SHDB stats 2>err && grep -q "^usage: shdb stats" err &&
	expect_status 2 $SHDB stats --by app $R/main 2>err &&
	expect_status 2 $SHDB stats --format=reportpy $R/main 2>err &&
	expect_status 2 $SHDB stats -m nosuch $R/main 2>err && grep -q "statistic .nosuch. is not in" err
'

test_expect 'records written by shdb compile --stats are read' '
	printf "#version 450\nvoid main() {}\n" >x.frag &&
	{ $SHDB compile --stats --target a630 x.frag >r.jsonl 2>/dev/null; test -s r.jsonl; } &&
	$SHDB stats r.jsonl >out 2>err && ! grep -q "error:" err &&
	grep -q "^shdb stats: r.jsonl (1 records: " out
'

test_expect 'shdb stats --help' '
	$SHDB stats --help >out && grep -q -- "--histogram" out
'

test_done
