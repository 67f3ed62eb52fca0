#!/bin/bash
# shdb run: inputs, the record format, canonical order, run.json, filters, exit codes.
. "$(dirname "$0")/lib.sh"

# records without their timings: what must not depend on -j or on interruptions
strip_time() { sed 's/,"time_us":[0-9]*//' "$1"; }

mkdir -p corpus/sub corpus/.hidden corpus/b-dir &&
# shaders that stop in the front end: one error record per file, whatever the targets
for f in a.frag b.vert sub/c.comp sub/d.tesc b-dir/e.geom .hidden/h.frag; do
	echo "void main() { undeclared(); } // $f" >corpus/$f
done
echo "notes" >corpus/README.md
: >corpus/empty.frag
ln -s ../sub corpus/sub/loop
ln -s missing.frag corpus/dangling.frag

test_expect 'run --help' '
	$SHDB run --help | grep -q -- "--resume"
'

test_expect 'usage errors exit 2' '
	expect_status 2 $SHDB run corpus 2>err && grep -q "needs an output folder" err &&
	expect_status 2 $SHDB run -o out 2>err && grep -q "^usage: shdb run" err &&
	expect_status 2 $SHDB run -o out -t a999 corpus 2>err && grep -q "unknown target" err &&
	expect_status 2 $SHDB run -o out --shard 3/2 corpus 2>err && grep -q "K/N" err &&
	expect_status 2 $SHDB run -o out --include "(" corpus 2>err && grep -q "include" err &&
	test ! -e out
'

test_expect 'an input that does not exist: exit 1 (as compile, stats, cmp), nothing written' '
	expect_status 1 $SHDB run -o out nowhere 2>err &&
	grep -q "^shdb: error: cannot read .nowhere.: No such file or directory$" err &&
	test ! -e out
'

test_expect 'a run writes one record per file, in path order' '
	$SHDB run -q -o out corpus 2>err &&
	cut -d\" -f4 out/stats.jsonl >paths &&
	printf "%s\n" a.frag b-dir/e.geom b.vert dangling.frag empty.frag sub/c.comp sub/d.tesc >want &&
	test_cmp want paths
'

test_expect 'the record format is shdb compile --stats'"'"'s' '
	(cd corpus && $SHDB compile --stats -t all sub/c.comp 2>/dev/null) | sed "s/,\"time_us\":[0-9]*//" >one &&
	grep "\"sub/c.comp\"" out/stats.jsonl | sed "s/,\"time_us\":[0-9]*//" >from_run &&
	test_cmp one from_run
'

test_expect 'unknown files and dot-folders are left out of a walk, loops are walked once' '
	! grep -q README out/stats.jsonl && ! grep -q hidden out/stats.jsonl &&
	! grep -q loop/ out/stats.jsonl &&
	grep -q "\"ignored_files\": 1" out/run.json &&
	grep -q "sub/loop.: a folder already walked" err
'

test_expect 'a dangling link (an unreadable file) is an error record, the run goes on' '
	grep "\"dangling.frag\"" out/stats.jsonl | grep -q "\"status\":\"error\",\"message\":\"dangling.frag: error: cannot read" &&
	grep -q "\"empty.frag\".*\"status\":\"error\"" out/stats.jsonl
'

test_expect 'named files: a shader, an unknown kind, a FIFO' '
	echo x >notes.txt && mkfifo pipe.frag &&
	$SHDB run -q -o named notes.txt ./corpus/a.frag pipe.frag &&
	grep -q "^{\"path\":\"corpus/a.frag\",\"stage\":\"fragment\"" named/stats.jsonl &&
	grep -q "\"path\":\"notes.txt\",\"stage\":\"none\",\"target\":null,\"status\":\"skipped\",\"message\":\"not a shader: unknown kind of input (extension .txt.)\"" named/stats.jsonl &&
	grep -q "\"path\":\"pipe.frag\",.*\"status\":\"skipped\",\"message\":\"not a regular file\"" named/stats.jsonl
'

test_expect 'several inputs: each path starts with its input as given, so none collide' '
	mkdir -p h1 h2/sub && cp $SRCDIR/shaders/lighting/blinn.frag h1/1.frag &&
	cp $SRCDIR/shaders/lighting/toon.frag h2/1.frag &&
	echo "void main() { undeclared(); }" >h2/sub/bad.frag &&
	$SHDB run -q -t a630 -o two h1 ./h2/ 2>err &&
	cut -d\" -f4 two/stats.jsonl >paths &&
	printf "%s\n" h1/1.frag h2/1.frag h2/sub/bad.frag >want && test_cmp want paths &&
	grep -q "\"message\":\"h2/sub/bad.frag:1:" two/stats.jsonl &&
	$SHDB stats -s two >st 2>err && ! grep -q duplicate err &&
	grep -q "^all: 3 records" st &&
	$SHDB run -q -t a630 -o twoinc --include "^h2/" h1 h2 &&
	cut -d\" -f4 twoinc/stats.jsonl >paths &&
	printf "%s\n" h2/1.frag h2/sub/bad.frag >want && test_cmp want paths &&
	$SHDB run -q -t a630 -o single h2 && cut -d\" -f4 single/stats.jsonl >paths &&
	printf "%s\n" 1.frag sub/bad.frag >want && test_cmp want paths
'

test_expect 'run.json says what ran' '
	for key in "\"status\": \"complete\"" "\"files\": 7" "\"records\": 7" "\"label\": \"out\"" \
		   "\"corpus_roots\"" "\"targets\"" "\"a750\"" "\"start\"" "\"end\"" "\"host\"" \
		   "\"git_commit\"" "\"shdb_version\"" "\"error\": 7" "\"crash\": 0"; do
		grep -q "$key" out/run.json || { echo "no $key"; exit 1; }
	done
'

test_expect 'an existing run is not replaced without --force' '
	expect_status 2 $SHDB run -q -o out corpus 2>err && grep -q "holds a run already" err &&
	$SHDB run -q --force -o out --label mine corpus && grep -q "\"label\": \"mine\"" out/run.json
'

test_expect 'the same records whatever -j' '
	$SHDB run -q -j1 -o j1 corpus 2>/dev/null && $SHDB run -q -j2 -o j2 corpus 2>/dev/null &&
	$SHDB run -q -j2 --max-jobs-per-worker 1 -o j2r corpus 2>/dev/null &&
	strip_time j1/stats.jsonl >1 && strip_time j2/stats.jsonl >2 && strip_time j2r/stats.jsonl >3 &&
	test_cmp 1 2 && test_cmp 1 3
'

test_expect '--include and --exclude match relative paths' '
	$SHDB run -q -o inc --include "^sub/" --include "\\.geom\$" --exclude "tesc" corpus 2>/dev/null &&
	cut -d\" -f4 inc/stats.jsonl >paths && printf "%s\n" b-dir/e.geom sub/c.comp >want &&
	test_cmp want paths && grep -q "\"filtered_files\": 5" inc/run.json
'

test_expect 'the summary table counts per target; silent with -q' '
	$SHDB run -o sum corpus 2>/dev/null >summary &&
	grep -q "^shdb run: 7 files, 7 records" summary &&
	grep -Eq "^-  +7 +0 +7 +0 +0 +0$" summary &&
	$SHDB run -q --force -o sum corpus 2>/dev/null >quiet && test ! -s quiet
'

test_expect 'no progress line when standard error is not a terminal' '
	$SHDB run -q --force -o sum corpus 2>err && ! grep -q "files/s" err
'

if command -v script >/dev/null 2>&1; then
test_expect 'a progress line on a terminal' '
	script -qec "$SHDB run --force -o tty corpus" typescript >/dev/null 2>&1 &&
	grep -a "files/s" typescript | grep -a "ETA" | grep -aq "failures" &&
	grep -aq "7/7 100%" typescript
'
else
test_skip 'a progress line on a terminal' 'no script(1)'
fi

test_expect 'failures do not fail the run, unless --fail-on-error' '
	$SHDB run -q --force -o sum corpus 2>/dev/null &&
	expect_status 1 $SHDB run -q --force --fail-on-error -o sum corpus 2>err &&
	grep -q "^shdb: error: --fail-on-error: 7 of 7 records failed (7 error); .shdb stats sum. lists them$" err
'

test_expect 'inputs without a shader: an error, nothing written; one such folder among others: a warning' '
	mkdir -p noshader/sub && echo notes >noshader/README.md && echo x >noshader/sub/data.json &&
	expect_status 1 $SHDB run -q -o none noshader 2>err &&
	grep -q "^shdb: error: no shader under .noshader. (2 files of unknown kind)$" err &&
	test ! -e none &&
	$SHDB run -q -t a630 -o some noshader h1 2>err &&
	grep -q "^shdb: warning: no shader under .noshader. (2 files of unknown kind)$" err &&
	$SHDB run -q -o filtered --include nothing h1 2>err && test -e filtered
'

test_expect 'an output folder that cannot be made is an infrastructure failure (1)' '
	echo x >plain && expect_status 1 $SHDB run -q -o plain/out corpus 2>err &&
	grep -q "cannot create the folder" err
'

test_done
