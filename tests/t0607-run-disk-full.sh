#!/bin/bash
# shdb run when its files cannot grow (a full disk; here a file size limit,
# which fails write() the same way part way through a buffer): stats.jsonl
# keeps whole lines only, the message names stats.jsonl, run.json says
# "failed", and --resume finishes the run once there is room (issue 19).
. "$(dirname "$0")/lib.sh"

strip_time() { sed 's/,"time_us":[0-9]*//' "$1"; }

test_expect 'the whole run, for reference' '
	$SHDB run -q -j2 -t a630 -o ref "$SRCDIR/shaders" && test "$(wc -c <ref/stats.jsonl)" -gt 4096
'

test_expect 'stats.jsonl cannot grow past 4 KiB: whole lines, exit 1, run.json failed' '
	(trap "" XFSZ && ulimit -f 4 && exec $SHDB run -q -j2 -t a630 -o full "$SRCDIR/shaders") 2>err
	test $? = 1 &&
	grep -q "cannot write .*full/stats.jsonl.: File too large" err &&
	! grep -q "run.json" err &&
	test "$(wc -c <full/stats.jsonl)" -le 4096 && test -s full/stats.jsonl &&
	test "$(tail -c 1 full/stats.jsonl | od -An -c | tr -d " ")" = "\n" &&
	perl -MJSON::PP -ne "decode_json(\$_)" full/stats.jsonl &&
	grep -q "\"status\": \"failed\"" full/run.json
'

test_expect '--resume with room finishes it: the same records' '
	$SHDB run -q -j2 -t a630 --resume -o full "$SRCDIR/shaders" &&
	strip_time ref/stats.jsonl >a && strip_time full/stats.jsonl >b && test_cmp a b
'

test_done
