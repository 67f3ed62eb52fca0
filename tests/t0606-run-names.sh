#!/bin/bash
# File names and messages that are not UTF-8 (issue 19): JSON holds only
# UTF-8, so such bytes are written as \xNN, never dropped: records keep their
# "path" and "message", shdb reads its own stats.jsonl back, asm.pack keeps
# the entry, --resume finds where it stopped, cmp's JSON stays whole.
. "$(dirname "$0")/lib.sh"

strip_time() { sed 's/,"time_us":[0-9]*//' "$1"; }
OK=$(printf 'ok\377.frag') ERR=$(printf 'err\376.frag')
mkdir corpus &&
printf '#version 450\nlayout(location=0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n' >"corpus/$OK" &&
printf '#version 450\nvoid main() { nope(); }\n' >"corpus/$ERR" &&
cp "corpus/$OK" "corpus/ok]b.frag" && cp "corpus/$OK" corpus/a.frag

test_expect 'shdb run: every record keeps its path and message, escaped' '
	$SHDB run -q -t a630 --keep-asm -o ref corpus 2>err && ! test -s err &&
	test "$(grep -c "\"path\":" ref/stats.jsonl)" = 4 &&
	grep -q "^{\"path\":\"ok\\\\\\\\xff.frag\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\"" ref/stats.jsonl &&
	grep -q "\"path\":\"err\\\\\\\\xfe.frag\".*\"message\":\"err\\\\\\\\xfe.frag:2: error: " ref/stats.jsonl
'

test_expect 'shdb stats reads them back; shdb compile --stats the same' '
	$SHDB stats ref >out 2>err && ! test -s err && grep -q "(4 records: 3 ok, 1 error)" out &&
	$SHDB compile -t a630 --stats "corpus/$OK" >out &&
	grep -q "^{\"path\":\"corpus/ok\\\\\\\\xff.frag\"" out
'

test_expect '--resume from such a file redoes it, and only it' '
	cp -r ref res && sed -i "s/\"complete\"/\"running\"/" res/run.json &&
	$SHDB run -q -t a630 --keep-asm --resume -o res corpus &&
	strip_time ref/stats.jsonl >a && strip_time res/stats.jsonl >b && test_cmp a b
'

test_expect 'shdb cmp --format=json of a Mesa log with such paths: valid JSON' '
	printf "%s - FRAG shader: 3 inst\n" "$OK" "$ERR" >m.log &&
	$SHDB cmp --format=json m.log m.log >out &&
	perl -MJSON::PP -e "local \$/; decode_json(<STDIN>)" <out
'

test_done
