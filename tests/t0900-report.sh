#!/bin/bash
# shdb report on a synthetic history (bench/gen-runs --history: two targets, drift,
# a regression in the last night that had been seen three nights before, kept
# disassembly): the page is well-formed, every chart is drawn, the numbers and
# alerts are shdb cmp's, the detail pages show the disassembly diff, and the same
# history gives the same bytes.
. "$(dirname "$0")/lib.sh"

GEN=${SHDB_BUILD:-$SRCDIR/build}/benchbin/gen-runs
[ -x "$GEN" ] || skip_all "no $GEN (make check builds it)"
command -v xmllint >/dev/null || skip_all "no xmllint (libxml2-utils)"
command -v gnuplot >/dev/null || skip_all "no gnuplot"

# well_formed FILE: strict XML, and HTML with no error but libxml2's unknown HTML5 tags
well_formed() {
	xmllint --noout "$1" || return 1
	xmllint --html --noout "$1" 2>&1 | grep "parser error" |
		grep -v "Tag \(header\|main\|section\|figure\|figcaption\|details\|summary\) invalid" >errs
	! test -s errs || { cat errs; return 1; }
}

test_expect 'a history of six nights' '
	"$GEN" --history 6 --records 400 --targets a630,a740 --regress 5 --asm hist &&
	test -d hist/night-006
'

test_expect 'shdb report renders it' '
	$SHDB report hist -o out >stdout 2>stderr &&
	grep -q "^shdb report: 6 runs, [1-9][0-9]* alerts (" stdout && ! test -s stderr &&
	test -s out/index.html && test -s out/summary.md && test -e out/.shdb-report
'

test_expect 'the pages are well-formed HTML (and XML)' '
	well_formed out/index.html &&
	for f in out/shaders/*.html; do well_formed "$f" || { echo "$f"; return 1; }; done &&
	test $(ls out/shaders | wc -l) -gt 10
'

test_expect 'every chart: each image the page shows, as SVG and PNG' '
	grep -o "src=\"charts/[^\"]*\.svg\"" out/index.html | sed "s/src=\"//; s/\"//" >charts &&
	test $(wc -l <charts) = 15 &&
	for t in t1-a630 t2-a740; do
		for c in inst nops full spill sync waves dist; do grep -qx "charts/$t-$c.svg" charts || return 1; done
	done &&
	while read -r svg; do
		xmllint --noout "out/$svg" && grep -q "<svg" "out/$svg" || return 1
		png=out/${svg%.svg}.png
		test "$(head -c 8 "$png" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a || { echo "$png"; return 1; }
	done <charts &&
	! ls out/charts/*.log 2>/dev/null
'

test_expect 'the numbers are shdb cmp'\''s: all targets, and each target with its lists' '
	$SHDB cmp --format=json hist/night-005 hist/night-006 >all.json &&
	perl $TESTS/report-vs-cmp.pl out/index.html "all targets" all.json &&
	for t in a630 a740; do
		$SHDB cmp --target $t --format=json hist/night-005 hist/night-006 >$t.json &&
		LISTS=1 perl $TESTS/report-vs-cmp.pl out/index.html $t $t.json || return 1
	done
'

test_expect 'summary.md holds shdb cmp'\''s own Markdown of the last two runs' '
	$SHDB cmp --format=markdown --changes-only hist/night-005 hist/night-006 >cmp.md &&
	sed -n "/^## Last two runs$/,\$p" out/summary.md | tail -n +3 >last.md &&
	test_cmp cmp.md last.md &&
	grep -q "^| \`all targets\` | \`nops\` | [0-9]* | [0-9]* | +[0-9.]*% | HURT | \`night-003\` (#3): [0-9]*; new in \`night-006\` (#6): [0-9]* |$" out/summary.md
'

test_expect 'a regression that comes back: first seen three nights before' '
	grep -q "night-003 (#3): [0-9]* shaders; new in night-006 (#6): [0-9]* shaders" out/index.html &&
	grep -q "<td>night-003 (#3)</td>" out/index.html
'

test_expect 'detail pages: statistics, history, and the disassembly diff' '
	page=$(grep -o "href=\"shaders/[0-9a-f]*\.html\"" out/index.html | head -1 | sed "s/href=\"//; s/\"//") &&
	test -s "out/$page" && grep -q "<h2>History</h2>" "out/$page" &&
	grep -q "<pre class=\"diff\"><span class=\"hunk\">@@ -" "out/$page" &&
	grep -q "class=\"\(add\|del\)\"" "out/$page" &&
	for p in $(grep -o "href=\"shaders/[^\"]*\"" out/index.html | sed "s/href=\"//; s/\"//" | sort -u); do
		test -s "out/$p" || { echo "missing $p"; return 1; }
	done
'

test_expect 'the same history gives the same bytes (a new folder, and over the old report)' '
	$SHDB report -j1 hist -o out2 >/dev/null 2>&1 && diff -r out out2 &&
	echo stale >out2/shaders/0000000000000000.html &&
	$SHDB report hist -o out2 >/dev/null 2>&1 && diff -r out out2
'

test_expect 'the run order comes from run.json (date, then label), not folder names' '
	mkdir -p shuffled && cp -r hist/night-001 shuffled/zz && cp -r hist/night-002 shuffled/aa &&
	$SHDB report --no-charts shuffled -o out3 >/dev/null 2>&1 &&
	grep -q "Last run <b>night-002 (#2)</b>" out3/index.html
'

test_expect 'OUT must be a report of ours or empty' '
	mkdir other && echo x >other/keep.txt &&
	expect_status 2 $SHDB report hist -o other 2>err &&
	grep -q "neither empty nor a report of shdb report" err && test -s other/keep.txt &&
	expect_status 2 $SHDB report hist 2>err && grep -q "needs an output folder" err
'

test_done
