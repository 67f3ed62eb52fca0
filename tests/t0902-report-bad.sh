#!/bin/bash
# shdb report on bad histories: clear messages, no crash, the report renders what it
# can (its "problems" section lists the messages) and the exit status says whether
# anything was left out; a missing or failing gnuplot.
. "$(dirname "$0")/lib.sh"

command -v xmllint >/dev/null || skip_all "no xmllint (libxml2-utils)"

# run DIR LABEL DATE INST [TARGET]: a run folder with two records
run() {
	mkdir -p "$1" &&
	printf '{"label": "%s", "date": "%s", "git_commit": "c0ffee", "status": "complete"}\n' "$2" "$3" >"$1/run.json" &&
	for s in a b c d e; do
		printf '{"path":"%s.frag","stage":"fragment","target":"%s","status":"ok","message":"","stats":{"inst":%d,"nops":2}}\n' \
			$s "${5:-a630}" $(($4 + ${#s}))
	done >"$1/stats.jsonl"
}
ok_page() { test -s "$1/index.html" && xmllint --noout "$1/index.html"; }

test_expect 'an empty history: an error, and a page that says so' '
	mkdir empty && expect_status 1 $SHDB report --no-charts empty -o out1 >out 2>err &&
	grep -q "^empty: error: no runs in the history" err && ok_page out1 &&
	grep -q "no runs in the history" out1/index.html
'

test_expect 'a history that does not exist: exit 1, no report written' '
	expect_status 1 $SHDB report --no-charts nowhere -o out2 >out 2>err &&
	grep -q "^shdb: error: cannot read the history .nowhere.: No such file or directory" err &&
	test ! -e out2 &&
	mkdir out2b && echo old >out2b/index.html &&
	expect_status 1 $SHDB report --no-charts nowhere -o out2b >out 2>err &&
	grep -q "^old$" out2b/index.html
'

test_expect 'failures group by the shape of their message: numbers and quoted names aside' '
	run hf/n1 n1 2025-06-01 10 && run hf/n2 n2 2025-06-02 10 &&
	for i in 12 345 6789; do
		printf "{\"path\":\"s%s.spv\",\"stage\":\"fragment\",\"target\":null,\"status\":\"error\",\"message\":\"s%s.spv: error: word %s: OpFoo: unsupported\",\"stats\":{}}\n" $i $i $i
	done >>hf/n2/stats.jsonl &&
	for v in a b; do
		printf "{\"path\":\"u%s.frag\",\"stage\":\"fragment\",\"target\":null,\"status\":\"error\",\"message\":\"u%s.frag:3: error: \047%s\047 : undeclared identifier\",\"stats\":{}}\n" $v $v $v
	done >>hf/n2/stats.jsonl &&
	$SHDB report --no-charts hf -o outf >out 2>err && ok_page outf &&
	grep -q "<tr><td class=\"n\">3</td><td class=\"bad\">error</td><td><code>word N: OpFoo: unsupported</code>" outf/index.html &&
	grep -q "<tr><td class=\"n\">2</td><td class=\"bad\">error</td><td><code>&#39;…&#39; : undeclared identifier</code>" outf/index.html
'

test_expect 'a malformed run.json: a warning; the run is named after its folder, dated never' '
	run h3/n1 n1 2025-06-01 10 && run h3/n2 n2 2025-06-02 12 && run h3/n3 n3 2025-06-03 14 &&
	echo "{ \"label\": " >h3/n2/run.json &&
	$SHDB report --no-charts h3 -o out3 >out 2>err &&
	grep -q "^h3/n2/run.json:2: warning: .*the run has no date and is named after its folder" err &&
	ok_page out3 && grep -q "<h2>Problems reading the history</h2>" out3/index.html &&
	grep -q "compared with <b>n1 (#2)</b>" out3/index.html &&
	grep -q "<td class=\"n\">1</td><td>—</td><td>n2</td>" out3/index.html
'

test_expect 'a run without stats.jsonl: an error, left out, the others reported' '
	run h4/n1 n1 2025-06-01 10 && run h4/n2 n2 2025-06-02 12 && run h4/n3 n3 2025-06-03 14 &&
	rm h4/n3/stats.jsonl && mkdir h4/notes &&
	expect_status 1 $SHDB report --no-charts h4 -o out4 >out 2>err &&
	grep -q "^h4/n3: error: a run without stats.jsonl; left out$" err &&
	grep -q "^h4/notes: warning: not a run" err &&
	grep -q "shdb: error: the report is incomplete (1 error above)" err &&
	ok_page out4 && grep -q "Last run <b>n2 (#2)</b>" out4/index.html
'

test_expect 'an unreadable or malformed stats.jsonl: located errors; the last two readable runs compared' '
	run h5/n1 n1 2025-06-01 10 && run h5/n2 n2 2025-06-02 12 && run h5/n3 n3 2025-06-03 14 &&
	run h5/n4 n4 2025-06-04 16 && rm h5/n4/stats.jsonl && mkdir h5/n4/stats.jsonl &&
	echo "{not json" >>h5/n2/stats.jsonl &&
	expect_status 1 $SHDB report --no-charts h5 -o out5 >out 2>err &&
	grep -q "^h5/n2/stats.jsonl:6:[0-9]*: error: malformed JSON" err &&
	grep -q "^h5/n4/stats.jsonl: error: not a file$" err &&
	ok_page out5 && grep -q "Last run <b>n3 (#3)</b>.*compared with <b>n2 (#2)</b>" out5/index.html &&
	grep -q "<td colspan=\"7\" class=\"bad\">unreadable</td>" out5/index.html
'

test_expect 'runs with different targets: every target has its section' '
	run h6/n1 n1 2025-06-01 10 a630 && run h6/n2 n2 2025-06-02 12 a630 &&
	run h6/n3 n3 2025-06-03 14 a740 &&
	$SHDB report --no-charts h6 -o out6 >out 2>err && ok_page out6 &&
	grep -q "<h2>Target a630</h2>" out6/index.html && grep -q "<h2>Target a740</h2>" out6/index.html &&
	grep -q "data-scope=\"all targets\" data-before-records=\"5\" data-after-records=\"5\" data-matched=\"0\" .* data-lost=\"5\" data-gained=\"5\"" out6/index.html
'

test_expect 'one run, and an unfinished one: trends only, a warning' '
	run h7/n1 n1 2025-06-01 10 && sed -i "s/complete/running/" h7/n1/run.json &&
	$SHDB report --no-charts h7 -o out7 >out 2>err && ok_page out7 &&
	grep -q "warning: the run is .running., not complete" err &&
	grep -q "Alerts need two runs to compare" out7/index.html
'

test_expect 'no gnuplot in PATH: a clear error, the page without charts' '
	expect_status 1 env PATH=/nonexistent $SHDB report h3 -o out8 >out 2>err &&
	grep -q "error: gnuplot is not in PATH: no charts (install it, e.g. apt-get install gnuplot-nox, or pass --no-charts)" err &&
	ok_page out8 && ! ls out8/charts/*.svg 2>/dev/null && grep -q "no chart (see the problems above)" out8/index.html
'

test_expect 'a gnuplot that fails: its message' '
	mkdir bin && printf "#!/bin/sh\necho \"line 3: fake failure\" >&2\nexit 1\n" >bin/gnuplot && chmod +x bin/gnuplot &&
	expect_status 1 env PATH="$PWD/bin:$PATH" $SHDB report h3 -o out9 >out 2>err &&
	grep -q "error: gnuplot failed (exit status 1): line 3: fake failure" err && ok_page out9
'

test_expect '--no-charts: no gnuplot needed, no error' '
	env PATH=/nonexistent $SHDB report --no-charts h3 -o out10 >out 2>err && ok_page out10
'

test_done
