#!/bin/bash
# shdb cmp end to end: inputs of every kind, formats, options, --fail-on and
# exit statuses.  (Numbers: t0720 and the golden outputs of t0740.)
. "$(dirname "$0")/lib.sh"

R=$TESTS/golden/runs
L=$TESTS/golden/reportpy

test_expect 'two runs compare; exit 0' '
	$SHDB cmp $R/main $R/topic.jsonl >out 2>err &&
	grep -q "^inst .* helped$" out
'

test_expect 'a run directory, a .jsonl file and standard input are all runs' '
	$SHDB cmp --format=csv $R/main - <$R/topic.jsonl >a &&
	$SHDB cmp --format=csv $R/main/stats.jsonl $R/topic.jsonl >b &&
	test_cmp a b
'

test_expect 'two Mesa shader-db logs compare' '
	$SHDB cmp $L/fd-before.txt $L/fd-after.txt >out &&
	grep -q "^inst  *420  *407  *-3.10%" out
'

test_expect 'two fossilize CSVs compare, whatever the executable names' '
	printf "%s\n" "Database,Pipeline hash,Executable name,Instruction Count,VGPRs" \
		"a.foz,01,Mesh Shader,10,4" "a.foz,01,Fragment Shader,20,8" "b.foz,02,CS,5,2" >b.csv &&
	printf "%s\n" "Database,Pipeline hash,Executable name,Instruction Count,VGPRs" \
		"a.foz,01,Mesh Shader,9,4" "a.foz,01,Fragment Shader,20,9" "b.foz,02,CS,5,2" >a.csv &&
	$SHDB cmp b.csv a.csv >out &&
	grep -q "^inst  *35  *34  *-2.86%  *1  *0" out && grep -q "^VGPRs  *14  *15  *+7.14%  *0  *1" out
'

test_expect 'every format prints; JSON parses; CSV rows have the header'"'"'s width' '
	for f in text markdown json csv reportpy; do
		$SHDB cmp --format=$f $R/main $R/topic.jsonl >out.$f || exit 1
		test -s out.$f || exit 1
	done &&
	perl -MJSON::PP -e "local \$/; my \$j = decode_json(<STDIN>); exit !(\$j->{statistics}[0]{key} eq q(inst))" <out.json &&
	awk -F, "NR == 1 { n = NF } NF != n { exit 1 }" out.csv
'

test_expect 'colour: never by default off a terminal, always on request' '
	$SHDB cmp $R/main $R/topic.jsonl >plain &&
	! grep -q "$(printf "\033")" plain &&
	$SHDB cmp --color=always $R/main $R/topic.jsonl >color &&
	grep -q "$(printf "\033\\[32m")" color &&
	$SHDB cmp --color=never $R/main $R/topic.jsonl >never && test_cmp plain never
'

test_expect '--changes-only with nothing changed says so' '
	$SHDB cmp -c $R/main $R/main >out && grep -q "^No changes\.$" out &&
	$SHDB cmp -c --format=reportpy $L/fd-before.txt $L/fd-before.txt >out &&
	grep -q "^No changes\.$" out
'

test_expect '--fail-on: a crossed total threshold exits 1 with a one-line reason' '
	expect_status 1 $SHDB cmp --fail-on "full>+10%" $R/main $R/topic.jsonl >out 2>err &&
	test "$(grep -c "fail-on" err)" = 1 &&
	grep -q "^shdb: fail-on .full>+10%.: full in shared programs changed by +14.52% (62 -> 71)$" err
'

test_expect '--fail-on: not crossed exits 0' '
	$SHDB cmp --fail-on "inst>+0.5%" --fail-on "waves<-5%" $R/main $R/topic.jsonl >out 2>err &&
	! grep -q fail-on err
'

test_expect '--fail-on: per shader, and counts' '
	expect_status 1 $SHDB cmp --fail-on "shader:full>=+30%" $R/main $R/topic.jsonl >out 2>err &&
	grep -q "app1/b.comp compute a740: full changed by +38.89% (18 -> 25)" err &&
	$SHDB cmp --fail-on "shader:full>+40%" $R/main $R/topic.jsonl >out 2>err &&
	expect_status 1 $SHDB cmp --fail-on "crashing>0" --fail-on "lost>5" $R/main $R/topic.jsonl >out 2>err &&
	grep -q "fail-on .crashing>0.: 1 crashing" err && ! grep -q "lost>5" err
'

test_expect '--fail-on checks its statistic whatever -m compares' '
	expect_status 1 $SHDB cmp -m inst --fail-on "shader:full>=+2" $R/main $R/topic.jsonl >out 2>err &&
	grep -q "fail-on .shader:full>=+2.: app1/b.comp compute a740: full changed by +7" err &&
	! grep -q "^full " out &&
	expect_status 1 $SHDB cmp -s -m inst --fail-on "full>+10%" $R/main $R/topic.jsonl >out 2>err &&
	grep -q "full in shared programs changed by +14.52%" err &&
	expect_status 2 $SHDB cmp -m inst --fail-on "nosuch>1" $R/main $R/topic.jsonl >out 2>err &&
	grep -q "no statistic .nosuch. in both runs" err
'

test_expect '--fail-on in JSON output' '
	$SHDB cmp --format=json --fail-on "inst<0" $R/main $R/topic.jsonl >out 2>err;
	perl -MJSON::PP -e "local \$/; my \$j = decode_json(<STDIN>);
		exit !(\$j->{fail_on}[0]{crossed} && \$j->{fail_on}[0]{threshold} eq q(inst<0))" <out
'

test_expect 'usage errors exit 2' '
	expect_status 2 $SHDB cmp $R/main 2>err && grep -q "^usage: shdb cmp" err &&
	expect_status 2 $SHDB cmp --format=yaml $R/main $R/topic.jsonl 2>err &&
	grep -q "unknown format" err &&
	expect_status 2 $SHDB cmp --fail-on "inst=3" $R/main $R/topic.jsonl 2>err &&
	grep -q "is not a threshold" err &&
	expect_status 2 $SHDB cmp --fail-on "bogus>1" $R/main $R/topic.jsonl 2>err &&
	grep -q "no statistic .bogus." err &&
	expect_status 2 $SHDB cmp --stat bogus $R/main $R/topic.jsonl 2>err &&
	grep -q "statistic .bogus. is in neither run" err &&
	expect_status 2 $SHDB cmp --top -1 $R/main $R/topic.jsonl 2>err &&
	expect_status 2 $SHDB cmp --color=sometimes $R/main $R/topic.jsonl 2>err
'

test_expect 'shdb cmp --help' '
	$SHDB cmp --help >out && grep -q -- "--fail-on" out && grep -q -- "--format" out
'

test_expect 'a statistic in one run only is a warning, not an error' '
	$SHDB cmp $R/main $R/topic.jsonl >out 2>err &&
	grep -q "warning: statistics only in after (.*topic.jsonl): preamble_inst" err &&
	grep -q "note: statistics only in after: preamble_inst" out
'

# matched FILE: the JSON comparison's count of shaders in both runs
matched() {
	perl -MJSON::PP -e "local \$/; print decode_json(<STDIN>)->{matched}" <"$1"
}

test_expect '--stage, --target, --include and --exclude filter both runs' '
	$SHDB cmp --format=json --target a740 --stage fragment $R/main $R/topic.jsonl >out &&
	test "$(matched out)" = 2 &&
	$SHDB cmp --format=json $R/main $R/topic.jsonl >out && test "$(matched out)" = 11
'

test_expect '--include and --exclude are shdb run'\''s: PCRE2 searched anywhere in the path' '
	$SHDB cmp --format=json --exclude "^app1/" --exclude "/g\.vert\$" $R/main $R/topic.jsonl >out &&
	test "$(matched out)" = 4 &&
	$SHDB cmp --format=json --include "^app1/" $R/main $R/topic.jsonl >out &&
	test "$(matched out)" = 6 &&
	$SHDB cmp --format=json --include "^app1/" --include "vert" --exclude "b\.comp" $R/main $R/topic.jsonl >out &&
	test "$(matched out)" = 5 &&
	expect_status 2 $SHDB cmp --exclude "*/g.vert" $R/main $R/topic.jsonl 2>err &&
	grep -q "^shdb: error: --exclude .\*/g.vert.: quantifier does not follow a repeatable item at offset 0" err
'

test_expect '--sort abs: the lists by absolute change (report-fossil.py'\''s --abs-changes)' '
	$SHDB cmp -m inst $R/main $R/topic.jsonl 2>/dev/null | grep -A2 "^  most helped:" | tail -1 >rel &&
	grep -q "app1/a.frag fragment a630 *40  -> 36 (-10.00%)" rel &&
	$SHDB cmp --sort abs -m inst $R/main $R/topic.jsonl 2>/dev/null >out &&
	grep -A2 "^  most helped (by absolute change):" out | tail -1 >abs &&
	grep -q "app1/b.comp compute a630 *200  -> 185 (-7.50%)" abs &&
	expect_status 2 $SHDB cmp --sort size $R/main $R/topic.jsonl 2>err &&
	grep -q "sort takes rel or abs" err
'

test_expect 'stp and ldp say what they count: spills and scratch' '
	printf "{\"path\":\"a.comp\",\"stage\":\"compute\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{\"stp\":%d,\"ldp\":%d}}\n" 0 0 >p0.jsonl &&
	printf "{\"path\":\"a.comp\",\"stage\":\"compute\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{\"stp\":%d,\"ldp\":%d}}\n" 4 8 >p1.jsonl &&
	$SHDB cmp --format=markdown p0.jsonl p1.jsonl >out &&
	grep -q "^| STP comps (spills, scratch) (\`stp\`) | 0 | 4 |" out &&
	grep -q "^| LDP comps (reloads, scratch) (\`ldp\`) | 0 | 8 |" out
'

test_expect '-S takes a stage in any spelling on both sides' '
	for s in FRAG fragment frag; do
		$SHDB cmp --format=json -S $s $R/main $R/topic.jsonl >out 2>err &&
		perl -MJSON::PP -e "local \$/; my \$j = decode_json(<STDIN>); exit !(\$j->{matched} == 6)" <out || exit 1
	done
'

test_expect 'a Mesa shader-db log meets a shdb run: FRAG is fragment, the run'"'"'s one target is the log'"'"'s' '
	mkdir -p logc && cp $SRCDIR/shaders/lighting/blinn.frag $SRCDIR/shaders/lighting/toon.frag logc/ &&
	(cd logc && for f in blinn.frag toon.frag; do $SHDB compile -t a630 --shaderdb $f || exit 1; done) >ir3.log &&
	$SHDB run -q -j1 -o all logc >/dev/null 2>&1 &&
	$SHDB cmp --target a630 ir3.log all >out 2>err &&
	grep -q "in both 2 (2 ok in both), affected 0; lost 0, gained 0" out &&
	$SHDB cmp ir3.log all >out 2>err &&
	grep -q "name no target and all has several: choose the one to compare with --target" err
'

test_expect 'a Mesa log meets a run of several targets once --target picks one, front-end failures and all' '
	mkdir -p logm && cp $SRCDIR/shaders/lighting/blinn.frag $SRCDIR/shaders/lighting/toon.frag logm/ &&
	printf "#version 450\nvoid main() { syntax error }\n" >logm/bad.frag &&
	(cd logm && for f in blinn.frag toon.frag; do $SHDB compile -t a630 --shaderdb $f || exit 1; done) >m.log &&
	$SHDB run -q -j1 -t a630,a750 -o multi logm >/dev/null 2>&1 &&
	$SHDB cmp -s -m inst --target a630 m.log multi >out 2>err &&
	grep -q "in both 2 (2 ok in both), affected 0; lost 0, gained 1" out &&
	! grep -q warning err &&
	$SHDB cmp -s -m inst --target a750 multi m.log >out 2>err &&
	grep -q "in both 2 (2 ok in both), affected .; lost 1, gained 0" out &&
	$SHDB cmp -s -m inst m.log multi >out 2>err &&
	grep -q "name no target and multi has several" err
'

# stp appearing in five shaders: report.py counts each change from 0 as a
# relative change of 0; shdb keeps its verdict but does not print 0% … 0%.
from_zero_runs() {
	for i in 1 2 3 4 5 6; do
		printf "{\"path\":\"s%d.frag\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{\"inst\":%d,\"stp\":0}}\n" $i $((10 * i))
	done >before.jsonl &&
	for i in 1 2 3 4 5 6; do
		printf "{\"path\":\"s%d.frag\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{\"inst\":%d,\"stp\":%d}}\n" $i $((10 * i)) $((i < 6 ? 4 * i : 0))
	done >after.jsonl
}

test_expect 'a statistic whose every change starts from 0: relative figures n/a, verdict kept' '
	from_zero_runs &&
	$SHDB cmp --stat stp before.jsonl after.jsonl >out &&
	grep -q "rel n/a (all from 0)" out &&
	grep -q "%-change n/a (all from 0)" out &&
	grep -q "are HURT" out &&
	$SHDB cmp --stat stp --format=markdown before.jsonl after.jsonl >md &&
	grep -q "| +[0-9.]* … +[0-9.]* (%-change n/a: all from 0) | HURT |" md &&
	$SHDB cmp --stat stp --format=json before.jsonl after.jsonl >j &&
	perl -MJSON::PP -e "local \$/; my \$s = decode_json(<STDIN>)->{statistics}[0];
		exit !(\$s->{ci95}{rel_undefined} && \$s->{hurt}{rel_undefined})" <j &&
	$SHDB cmp --stat stp --format=reportpy before.jsonl after.jsonl >rp &&
	grep -q "stp %-change: 0.00% 0.00%" rp
'

# Four small shaders grow by 1 (+10%), a large one shrinks by 30 (-3%): the
# %-change interval lies above 0, the value interval contains it.
test_expect 'markdown shows the interval the verdict rests on, and why it is inconclusive' '
	for i in 1 2 3 4; do
		printf "{\"path\":\"s%d.frag\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{\"inst\":10}}\n" $i >>vb.jsonl
		printf "{\"path\":\"s%d.frag\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{\"inst\":11}}\n" $i >>va.jsonl
	done &&
	echo "{\"path\":\"big.frag\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{\"inst\":1000}}" >>vb.jsonl &&
	echo "{\"path\":\"big.frag\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{\"inst\":970}}" >>va.jsonl &&
	$SHDB cmp --format=markdown vb.jsonl va.jsonl >md &&
	grep -q "| 95% CI of mean change: value (%-change) | Verdict |" md &&
	grep -q "| -[0-9.]* … +[0-9.]* (+[0-9.]*% … +[0-9.]*%) | inconclusive (value CI contains 0) |" md
'

test_done
