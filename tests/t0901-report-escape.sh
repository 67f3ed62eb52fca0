#!/bin/bash
# shdb report escapes every string from the history: file names with <script> and
# quotes, labels, target names, messages, statistic names, disassembly, sources, the
# HISTORY path itself; bytes that are not UTF-8 and control characters.  The runs come from
# shdb run with a stand-in compiler (--keep-asm), end to end.  gnuplot's scripts
# hold none of those strings.
. "$(dirname "$0")/lib.sh"

command -v xmllint >/dev/null || skip_all "no xmllint (libxml2-utils)"
command -v gnuplot >/dev/null || skip_all "no gnuplot"

cat >cc.sh <<'CC'
#!/bin/sh
# cc.sh PATH TARGET: inst grows by $DELTA for the files whose name has a digit
n=$(printf '%s' "$1" | cksum | cut -c1-2)
case "$1" in *[0-9]*) n=$((n + DELTA)) ;; esac
case "$1" in *bad*) [ "$DELTA" = 0 ] || { echo "$1:1: error: <img src=x onerror=alert(1)> & \"q\""; exit 1; } ;; esac
echo "$1 - FRAG shader: $n inst, 3 nops, $((n - 3)) non-nops, 16 waves, 0 loops"
echo "mov.f32f32 r0.x, c0.x ; <script>alert('asm')</script>"
i=0; while [ $i -lt $n ]; do echo "add.f r$i.x, r0.x, \"$TARGET\" & <b>"; i=$((i + 1)); done
CC
chmod +x cc.sh
EVIL='a<script>alert("x")'"'"'&amp;'
H='hist <script>alert("h") "q" '"'"'s'"'"' &amp;'
mkdir corpus && for i in 1 2 3 4 5 6; do
	echo "void main() {} // </pre><b>src</b> <script>alert('src')</script> &amp;" >"corpus/$EVIL$i.frag"
done &&
echo x >"corpus/$EVIL-bad.frag"
T='x<y>"z'
run() { # run LABEL DELTA DIR
	DELTA=$2 $SHDB run -q -j2 -t "$T" --keep-asm --label "$1" \
		--compiler "TARGET={target} $TRASH/cc.sh {path} {target}" --compiler-preset ir3 corpus -o "$H/$3"
}

all_pages() { find out -name "*.html"; }

test_expect 'two runs with evil names, and the report' '
	mkdir "$H" && run "<b>\"night\" 1</b> & '"'"'x'"'"'" 0 r1 && run "<i>night 2</i>" 3 r2 &&
	$SHDB report "$H" -o out >stdout 2>stderr && ! test -s stderr
'

test_expect 'no markup from the history gets through' '
	! grep -l "<script>alert\|<img src=x\|<y>\|<i>night\|<b>\"night\|</pre><b>" $(all_pages) &&
	grep -q "a&lt;script&gt;alert(&quot;x&quot;)&#39;&amp;amp;1.frag" out/index.html &&
	grep -q "&lt;b&gt;&quot;night&quot; 1&lt;/b&gt; &amp; &#39;x&#39;" out/index.html &&
	grep -q "hist &lt;script&gt;alert(&quot;h&quot;) &quot;q&quot; &#39;s&#39; &amp;amp;" out/index.html &&
	grep -q "Target x&lt;y&gt;&quot;z" out/index.html &&
	grep -q "newly failing: ok → error</td><td><code>a&lt;script&gt;alert(&quot;x&quot;)&#39;&amp;amp;-bad.frag:1: error: &lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;</code>" out/index.html
'

test_expect 'in attributes too (data-* of the lists, alt and title texts)' '
	grep -q "data-path=\"a&lt;script&gt;alert(&quot;x&quot;)&#39;&amp;amp;[0-9].frag\"" out/index.html &&
	grep -q "data-scope=\"x&lt;y&gt;&quot;z\"" out/index.html
'

test_expect 'the disassembly diff is escaped' '
	grep -l "<pre class=\"diff\">" out/shaders/*.html >pages && test -s pages &&
	grep -q "&lt;script&gt;alert(&#39;asm&#39;)&lt;/script&gt;" $(head -1 pages) &&
	grep -q "add.f r[0-9]*.x, r0.x, &quot;x&lt;y&gt;&quot;z&quot; &amp; &lt;b&gt;" $(head -1 pages)
'

test_expect 'the source is escaped' '
	grep -q "<pre class=\"source\">void main() {} // &lt;/pre&gt;&lt;b&gt;src&lt;/b&gt; &lt;script&gt;alert(&#39;src&#39;)&lt;/script&gt; &amp;amp;" $(head -1 pages)
'

test_expect 'every page is well-formed XML' '
	for f in $(all_pages); do xmllint --noout "$f" || return 1; done
'

test_expect 'gnuplot sees none of it; the charts are named after the sanitised target' '
	! grep -l "script\|<\|\"\|&" out/charts/*.gp &&
	test -s out/charts/t1-x_y__z-inst.svg && test -s out/charts/t1-x_y__z-inst.png &&
	grep -q "set title '"'"'x_y__z: Instructions'"'"'" out/charts/svg.gp
'

test_expect 'summary.md: strings in code spans, pipes escaped' '
	grep -q "last run \`<i>night 2</i>\` (#2)" out/summary.md &&
	grep -q "^| \`x<y>\"z\` |" out/summary.md
'

test_expect 'bytes that are not UTF-8, and control characters, become U+FFFD' '
	mkdir -p ctl/r1 ctl/r2 &&
	printf "bad\377path\001.frag - FRAG shader: 10 inst, 2 nops\n" >ctl/r1/stats.jsonl &&
	printf "bad\377path\001.frag - FRAG shader: 12 inst, 2 nops\n" >ctl/r2/stats.jsonl &&
	printf "{\"label\": \"tab\\\\there\\\\u0001\"}\n" >ctl/r2/run.json &&
	$SHDB report --no-charts ctl -o ctlout >/dev/null 2>&1 &&
	for f in $(find ctlout -name "*.html"); do xmllint --noout "$f" || return 1; done &&
	grep -q "bad�path�.frag" ctlout/index.html && grep -q "tab	here�" ctlout/index.html
'

test_done
