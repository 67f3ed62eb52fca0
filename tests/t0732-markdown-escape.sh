#!/bin/bash
# Markdown of shdb cmp (--format=markdown) and of shdb report (summary.md):
# paths, labels, statistic names, stages and targets from the input may hold
# backticks, '|', line breaks and HTML; none of it ends a code span, breaks a
# table row or reaches the reader as markup (issue 19).
. "$(dirname "$0")/lib.sh"

# md-check FILE: outside code spans, no HTML but our <details> and <summary>;
# every table row has as many cells as its header.
cat >md-check.pl <<'PL'
my ($cols, $bad) = (0, 0);
while (my $line = <>) {
	chomp $line;
	(my $text = $line) =~ s/(`+)(?!`)(.*?)(?<!`)\1(?!`)/CODE/g;
	$text =~ s/\\[[:punct:]]//g;
	(my $tags = $text) =~ s/<\/?(details|summary)>//g;
	if ($tags =~ /<|`/) { print "markup or a stray backtick: $line\n"; $bad++; }
	if ($line =~ /^\|/) {
		(my $cells = $line) =~ s/\\\|//g;
		my $n = () = $cells =~ /\|/g;
		$cols = $n if $line =~ /^\| :?--/ || !$cols;
		if ($n != $cols) { print "$n cells, not $cols: $line\n"; $bad++; }
	} else {
		$cols = 0;
	}
}
exit($bad ? 1 : 0);
PL

EVIL='a`b\n<img src=x onerror=alert(1)>|c.frag'
EVIL2='``|d <b>.frag'
rec() { # rec PATH STATUS INST
	printf '{"path":"%s","stage":"frag<i>ment","target":"a6|30","status":"%s","stats":{"inst":%s,"<b>bold</b>":1}}\n' "$@"
}

test_expect 'shdb cmp --format=markdown: every string fenced or escaped' '
	{ rec "$EVIL" ok 10; rec "$EVIL2" ok 10; rec "x/lost\`.frag" ok 3; } >before.jsonl &&
	{ rec "$EVIL" ok 12; rec "$EVIL2" error 10; rec "y/gained<b>.frag" ok 4; } >after.jsonl &&
	$SHDB cmp --format=markdown before.jsonl after.jsonl >out.md &&
	perl md-check.pl out.md &&
	grep -qF "| \\<b\\>bold\\</b\\> (\`<b>bold</b>\`) | 1 | 1 |" out.md &&
	grep -qF "| \`inst\` | HURT | \`\`a\`b <img src=x onerror=alert(1)>\\|c.frag frag<i>ment a6\\|30\`\` |" out.md &&
	grep -qF -e "- \`\`\` \`\`|d <b>.frag frag<i>ment a6|30 \`\`\`: ok → error (newly failing)" out.md &&
	grep -qF -e "- \`\`x/lost\`.frag\`\` frag\\<i\\>ment a6|30" out.md
'

test_expect 'shdb report: summary.md likewise' '
	for n in 1 2; do
		mkdir -p "hist/run\`$n|<b>" &&
		printf "{\"label\":\"night\`$n\\\\n<img src=x>|\",\"date\":\"2025-06-0${n}T00:00:00Z\"}\n" \
			>"hist/run\`$n|<b>/run.json" || return 1
	done &&
	cp before.jsonl "hist/run\`1|<b>/stats.jsonl" && cp after.jsonl "hist/run\`2|<b>/stats.jsonl" &&
	$SHDB report --no-charts hist -o rep >out 2>err &&
	perl md-check.pl rep/summary.md &&
	grep -qF "\`\`night\`2 <img src=x>\\|\`\`" rep/summary.md
'

test_done
