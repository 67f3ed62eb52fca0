#!/bin/bash
# shdb cmp agrees with report.py: byte for byte with report.py's own output
# quoted in shaderdb-tools.md §4.1 (tests/golden/reportpy), and with an
# independent Perl implementation of its formulas (tests/reportpy.pl) on
# generated shader-db logs of four drivers.
. "$(dirname "$0")/lib.sh"

G=$TESTS/golden/reportpy

# lines_in_order EXCERPT OUTPUT: every non-blank line of EXCERPT is in OUTPUT, in order.
lines_in_order() {
	perl -e 'open(E, $ARGV[0]) or die; open(G, $ARGV[1]) or die; my @g = <G>; my $i = 0;
		LINE: while (my $e = <E>) { next if $e eq "\n";
			while ($i < @g) { next LINE if $g[$i++] eq $e }
			print "missing or out of order: $e"; exit 1 }' "$1" "$2"
}

test_expect 'report.py -S FRAG -m inst: the same output, byte for byte' '
	$SHDB cmp --format=reportpy -S FRAG -m inst $G/fd-before.txt $G/fd-after.txt >out &&
	test_cmp $G/frag-inst.report-py out
'

test_expect 'report.py default: every line report.py printed, in order' '
	$SHDB cmp --format=reportpy $G/fd-before.txt $G/fd-after.txt >out &&
	lines_in_order $G/default.report-py out
'

test_expect 'report.py -c -m instructions,full,waves' '
	$SHDB cmp --format=reportpy -c -m instructions,full,waves $G/fd-before.txt $G/fd-after.txt >out &&
	lines_in_order $G/changes-full-waves.report-py out &&
	! grep -q "^total mov" out
'

test_expect 'report.py --ignore-loops -m inst,loops -s' '
	$SHDB cmp --format=reportpy --ignore-loops -m inst,loops -s $G/fd-before.txt $G/fd-after.txt >out &&
	lines_in_order $G/ignore-loops.report-py out && ! grep -q "helped:  " out
'

# The Perl reference on generated logs: every driver, odd seeds with a trend
# (conclusive verdicts), even ones without; each option report.py has.
stats_of() {
	case $1 in
	ir3) echo inst,waves,loops,full ;;
	intel) echo inst,cycles,spills,fills ;;
	etnaviv) echo instructions,temps,loops ;;
	v3d) echo inst,threads,max-temps ;;
	esac
}

for driver in ir3 intel etnaviv v3d; do
	for seed in 1 2 3; do
		test_expect "agrees with reportpy.pl: $driver, seed $seed, every option" '
			mkdir -p $driver.$seed && cd $driver.$seed &&
			perl $TESTS/gen-shaderdb-log.pl --driver $driver --seed $seed --files 150 . &&
			for opts in "" "-s" "-c" "--ignore-loops" "-m $(stats_of $driver)" "-S FRAG" "-c -s"; do
				perl $TESTS/reportpy.pl $opts before.txt after.txt >expect &&
				$SHDB cmp --format=reportpy $opts before.txt after.txt >actual &&
				test_cmp expect actual || { echo "options: $opts"; exit 1; }
			done
		'
	done
done

test_expect 'the generated logs exercise intervals, verdicts both ways and "<.01%"' '
	cat */expect >/dev/null &&
	for d in ir3.1 v3d.1 intel.1; do
		perl $TESTS/reportpy.pl $d/before.txt $d/after.txt
	done >all &&
	grep -q "are helped\." all && grep -q "are HURT\." all && grep -q "^Inconclusive" all &&
	grep -q "(<.01%)" all && grep -q "(spills: " all && grep -q "^threads helped" all
'

test_done
