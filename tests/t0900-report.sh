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

# well_formed FILE: strict XML, and HTML with no error but libxml2's unknown HTML5
# tags (and inline SVG's)
well_formed() {
	xmllint --noout "$1" || return 1
	xmllint --html --noout "$1" 2>&1 | grep "parser error" |
		grep -v "Tag \(header\|main\|section\|figure\|figcaption\|details\|summary\|svg\|g\|text\|polyline\|circle\) invalid" >errs
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

test_expect 'the charts name each run by its date and commit on the x axis' '
	grep -q "^6 \"06-06 [0-9a-f]\{7\}\" [0-9]" out/charts/t1-a630.dat &&
	grep -q "^1 \"06-01 [0-9a-f]\{7\}\" [0-9]" out/charts/status.dat &&
	grep -q "set xlabel .run: date (MM-DD) and commit." out/charts/svg.gp &&
	test $(grep -c "^plot .*:xtic(" out/charts/svg.gp) = 13
'

test_expect 'runs that one date and commit do not tell apart: their labels' '
	mkdir -p same && for n in 1 2 3; do
		cp -r hist/night-00$n same/ &&
		sed -i "s/\"date\": .*/\"date\": \"2025-06-01T02:00:00Z\",/; s/\"git_commit\": .*/\"git_commit\": \"abc\",/" same/night-00$n/run.json || return 1
	done &&
	$SHDB report same -o outsame >/dev/null 2>&1 &&
	grep -q "^2 \"night-002\" [0-9]" outsame/charts/t1-a630.dat &&
	grep -q "set xlabel .run: label." outsame/charts/svg.gp
'

# y_axes SCRIPT: per trend chart (not status, not dist), "from0" or "band"
y_axes() {
	awk "/^set output .*-(inst|nops|full|spill|sync|waves)\.svg/ { name = \$3 }
	     name && /^set yrange \[0:\*\]/ { print name, \"from0\"; name = \"\" }
	     name && /^set ylabel .not from 0./ { print name, \"band\"; name = \"\" }" "$1"
}

test_expect 'a trend'\''s y axis starts at 0, or the chart and its caption say it does not' '
	y_axes out/charts/svg.gp >axes &&
	test $(wc -l <axes) = 12 && grep -q " from0$" axes && grep -q " band$" axes &&
	grep " band$" axes | while read -r name kind; do
		chart=$(echo "$name" | tr -d "\047" | sed "s/\.svg$//") &&
		grep -q "src=\"charts/$chart.svg\".*y axis not from 0</b>: [0-9]* to [0-9]*" out/index.html || { echo "$chart"; return 1; }
	done
'

test_expect 'shader pages: a small chart of the history (inline SVG, no script)' '
	for f in out/shaders/*.html; do
		grep -q "<svg class=\"spark\"" "$f" && grep -q "<polyline" "$f" || { echo "$f"; return 1; }
	done
'

test_expect 'the comparison'\''s totals per app: shdb cmp'\''s numbers' '
	$SHDB cmp --format=json hist/night-005 hist/night-006 >apps.json &&
	perl -ne "print \"\$1 \$2 \$3\n\" if m{^<tr><td class=\"l\">([^<]*)</td><td class=\"n\">(\d+)</td><td class=\"n\">(\d+)</td>}" \
		<(sed -n "/<h3>By app<\/h3>/,/<\/table>/p" out/index.html | head -200) >page-apps &&
	test $(wc -l <page-apps) = 10 &&
	perl -MJSON::PP -e "
		my \$j = decode_json(do { local \$/; open my \$f, q(<), q(apps.json) or die; <\$f> });
		my %a = map { (\$_->{name}, qq(\$_->{shared} \$_->{affected})) } @{\$j->{apps}};
		while (<STDIN>) { my (\$n, \$s) = /^(\S+) (.*)/; die qq(\$n: \$s, cmp says \$a{\$n}\n) if \$a{\$n} ne \$s }
	" <page-apps
'

test_expect 'every table sorts by a click on its header (a few lines of inline script); without it the page is the same' '
	for f in out/index.html out/shaders/*.html; do
		test $(grep -c "<table" "$f") = $(grep -c "<table class=\"[^\"]*sortable" "$f") &&
		test $(grep -c "<script" "$f") = 1 && ! grep -q "<script [^>]*src" "$f" &&
		sed -n "/^<script>$/,/^<\/script>$/p" "$f" | sed "1d;\$d" >script.js &&
		test $(wc -l <script.js) -lt 30 && ! grep -q "[<&]" script.js || { echo "$f"; return 1; }
	done &&
	grep -q "^</script>$" out/index.html && tail -3 out/index.html | grep -q "^</html>$"
'

test_expect 'the same history gives the same bytes (a new folder, and over the old report)' '
	$SHDB report -j1 hist -o out2 >/dev/null 2>&1 && diff -r out out2 &&
	echo stale >out2/shaders/0000000000000000.html &&
	$SHDB report hist -o out2 >/dev/null 2>&1 && diff -r out out2
'

# two runs of 100 shaders: in the second, 90 grow by 1% to 9% (ten each) and
# ten by 400%; one more, ../outside.frag, by 1%
small_history() {
	for n in 1 2; do
		mkdir -p small/n$n &&
		printf '{"label": "n%d", "date": "2025-06-0%dT02:00:00Z", "git_commit": "c%d"}\n' $n $n $n >small/n$n/run.json &&
		for i in $(seq 0 99); do
			inst=100
			[ $n = 2 ] && inst=$((i < 90 ? 100 + i / 10 + 1 : 500))
			printf '{"path":"app%d/s%d.frag","stage":"fragment","target":"a630","status":"ok","stats":{"inst":%d}}\n' $((i % 4)) $i $inst
		done >small/n$n/stats.jsonl &&
		printf '{"path":"../outside.frag","stage":"fragment","target":"a630","status":"ok","stats":{"inst":%d}}\n' $((99 + n)) >>small/n$n/stats.jsonl || return 1
	done
}

test_expect 'the change histogram'\''s bins come from the data: the bulk spreads, the few beyond in the end bins' '
	small_history && $SHDB report --top 0 small -o outsmall >/dev/null 2>&1 &&
	grep -q "^set xrange \[-10:10\]$" outsmall/charts/svg.gp &&
	awk "!/^#/ && \$3 > 0 { n++ } END { print n }" outsmall/charts/t1-a630-dist.dat >bins &&
	test "$(cat bins)" = 9 &&
	tail -1 outsmall/charts/t1-a630-dist.dat >last && test "$(cat last)" = "9.5 0 20"
'

test_expect 'shader pages show their source, found where the run'\''s paths start (--source), and nothing outside it' '
	mkdir -p src/app1 && echo "void main() { /* <s1> & */ }" >src/app1/s1.frag &&
	echo secret >outside.frag &&
	$SHDB report --no-charts --top 0 --source src small -o outsrc >/dev/null 2>&1 &&
	page=$(grep -l "<h1>app1/s1.frag</h1>" outsrc/shaders/*.html) &&
	grep -q "<pre class=\"source\">void main() { /\* &lt;s1&gt; &amp; \*/ }" $page &&
	page=$(grep -l "<h1>app2/s2.frag</h1>" outsrc/shaders/*.html) &&
	grep -q "<code>src/app2/s2.frag</code>: not found" $page &&
	page=$(grep -l "<h1>../outside.frag</h1>" outsrc/shaders/*.html) &&
	grep -q "<code>src/../outside.frag</code>: not under the run&#39;s inputs: not shown.</p>" $page &&
	! grep -q secret $page
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
