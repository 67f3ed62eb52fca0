#!/bin/bash
# shdb run: crash isolation, timeouts, interruption (SIGINT, SIGTERM, SIGKILL) and --resume.
# The compiler's test hooks (SHDB_TEST_HOOKS=1) crash on SHDB-TEST-CRASH and hang on
# SHDB-TEST-HANG.
. "$(dirname "$0")/lib.sh"

export SHDB_TEST_HOOKS=1
strip_time() { sed 's/,"time_us":[0-9]*//' "$1"; }

mkdir corpus &&
# shaders that stop in the front end: one record per file
for i in $(seq -w 1 120); do echo "void main() { undeclared(); } // $i" >corpus/s$i.frag; done
echo "SHDB-TEST-CRASH" >corpus/s030.frag
echo "SHDB-TEST-CRASH" >corpus/s031.vert
echo "SHDB-TEST-HANG" >corpus/s060.frag

test_expect 'a crash is a record; the run goes on with a fresh worker' '
	$SHDB run -q -j2 --timeout 3 -o ref corpus &&
	grep -c . ref/stats.jsonl >n && echo 121 >want && test_cmp want n &&
	grep -q "^{\"path\":\"s030.frag\",\"stage\":\"fragment\",\"target\":null,\"status\":\"crash\",\"message\":\"compiler crashed: SIGSEGV\"" ref/stats.jsonl &&
	grep -q "\"s031.vert\",\"stage\":\"vertex\",.*\"status\":\"crash\"" ref/stats.jsonl &&
	grep -q "\"s032.frag\".*\"status\":\"error\"" ref/stats.jsonl &&
	grep -q "\"crash\": 2" ref/run.json
'

test_expect 'a hang is a timeout record after --timeout seconds' '
	grep -q "\"s060.frag\",.*\"status\":\"timeout\",\"message\":\"timed out after 3 s\"" ref/stats.jsonl &&
	grep -q "\"timeout\": 1" ref/run.json && grep -q "\"status\": \"complete\"" ref/run.json
'

test_expect 'crashes and timeouts are the same with one worker' '
	$SHDB run -q -j1 --timeout 3 -o one corpus &&
	strip_time ref/stats.jsonl >a && strip_time one/stats.jsonl >b && test_cmp a b
'

# interrupt: start a run that will wait on the hanging shader, stop it with $1, resume
interrupt_and_resume() {
	sig=$1 out=$2
	$SHDB run -q -j2 --timeout 20 -o $out corpus &
	pid=$!
	# wait until the run has written the files before the hang, then stop it
	for i in $(seq 600); do
		[ -f $out/stats.jsonl ] && [ $(grep -c . $out/stats.jsonl) -ge 40 ] && break
		sleep 0.1
	done
	kill -$sig $pid
	wait $pid
	echo "exit status $?" >$out.status
	n=$(grep -c . $out/stats.jsonl)
	[ $n -ge 40 ] && [ $n -lt 121 ] || { echo "$n records after $sig"; return 1; }
	# every line is a whole record
	grep -v "^{\"path\":.*\"time_us\":[0-9]*}$" $out/stats.jsonl && return 1
	$SHDB run -q -j2 --timeout 3 --resume -o $out corpus || return 1
	grep -q "\"status\": \"complete\"" $out/run.json &&
	grep -q "\"resumed\": 1" $out/run.json &&
	strip_time ref/stats.jsonl >a && strip_time $out/stats.jsonl >b && test_cmp a b
}

test_expect 'SIGINT stops the run cleanly (exit 130); --resume finishes it' '
	interrupt_and_resume INT int && grep -q "exit status 130" int.status
'

test_expect 'SIGTERM: exit 143, and the same final records' '
	interrupt_and_resume TERM term && grep -q "exit status 143" term.status
'

test_expect 'SIGKILL: run.json still says running; --resume gives the same final records' '
	interrupt_and_resume KILL kill && grep -q "exit status 137" kill.status
'

test_expect 'an interrupted run says so in run.json' '
	$SHDB run -q -j1 --timeout 20 -o intr corpus & pid=$!
	for i in $(seq 600); do
		[ -f intr/stats.jsonl ] && [ $(grep -c . intr/stats.jsonl) -ge 40 ] && break
		sleep 0.1
	done
	kill -INT $pid; wait $pid
	grep -q "\"status\": \"interrupted\"" intr/run.json
'

test_expect 'a torn last line (a power cut) is cut away by --resume' '
	cp -r ref torn && head -c -30 ref/stats.jsonl >torn/stats.jsonl &&
	sed -i "s/\"complete\"/\"running\"/" torn/run.json &&
	$SHDB run -q -j2 --timeout 3 --resume -o torn corpus 2>err &&
	grep -q "cutting a torn or invalid end" err &&
	strip_time torn/stats.jsonl >b && strip_time ref/stats.jsonl >a && test_cmp a b
'

test_expect '--resume refuses other settings or other inputs' '
	expect_status 2 $SHDB run -q --resume -t a630 -o intr corpus 2>err &&
	grep -q "setting .targets. differs" err &&
	cp -r corpus corpus2 && echo "void main(){}" >corpus2/new.frag &&
	expect_status 2 $SHDB run -q --resume -o intr corpus2 2>err &&
	grep -q "the input files changed" err &&
	expect_status 2 $SHDB run -q --resume -o nothing corpus 2>err && grep -q "nothing to resume" err
'

test_expect '--resume of a complete run does nothing' '
	cp ref/stats.jsonl before && $SHDB run --resume --timeout 3 -o ref corpus >out &&
	grep -q "complete already" out && cmp before ref/stats.jsonl
'

test_expect 'two runs cannot write one folder' '
	$SHDB run -q -j1 --timeout 20 -o busy corpus & pid=$!
	for i in $(seq 50); do [ -f busy/stats.jsonl ] && break; sleep 0.1; done
	sleep 0.2
	expect_status 1 $SHDB run -q --force -o busy corpus 2>err
	st=$?
	kill -INT $pid; wait $pid
	[ $st = 0 ] && grep -q "another shdb run is writing" err
'

test_done
