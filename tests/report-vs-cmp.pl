#!/usr/bin/perl
# report-vs-cmp.pl INDEX.html SCOPE CMP.json: the numbers shdb report's page
# shows for SCOPE ("all targets" or a target) against `shdb cmp --format=json`
# of the same two runs: the record counts, each changed statistic's totals,
# helped and hurt counts, 95% interval and verdict, the alerts (statistics
# helped or HURT), and the top lists (same shaders, same order).  Prints what
# differs and exits 1, or prints "ok N checks".
use strict;
use warnings;
use JSON::PP;

my ($index, $scope, $json) = @ARGV;
open(my $fh, '<:raw', $index) or die "$index: $!\n";
my $html = do { local $/; <$fh> };
open($fh, '<:raw', $json) or die "$json: $!\n";
my $cmp = decode_json(do { local $/; <$fh> });

my ($checks, @bad) = (0);
sub unescape { my $s = shift; $s =~ s/&lt;/</g; $s =~ s/&gt;/>/g; $s =~ s/&quot;/"/g; $s =~ s/&#39;/'/g; $s =~ s/&amp;/&/g; $s }
sub attrs { my %a; my $t = shift; $a{$1} = unescape($2) while $t =~ /([\w-]+)="([^"]*)"/g; \%a }
sub near { my ($x, $y) = @_; return 0 unless defined $x && defined $y; abs($x - $y) <= 1e-8 * (abs($y) > 1 ? abs($y) : 1) }
sub check { my ($ok, $what) = @_; $checks++; push @bad, $what unless $ok }
my %verdict = (helped => 'helped', hurt => 'HURT', inconclusive => 'inconclusive', none => '');

# the summary line
my ($line) = grep { attrs($_)->{'data-scope'} eq $scope } $html =~ /<p class="cmp-line"([^>]*)>/g;
check(defined $line, "no summary line for scope '$scope'");
if (defined $line) {
	my $a = attrs($line);
	check($a->{"data-$_->[0]"} == $_->[1], "$_->[0]: page $a->{\"data-$_->[0]\"}, cmp $_->[1]")
		for ['matched', $cmp->{matched}], ['both-ok', $cmp->{both_ok}], ['affected', $cmp->{affected}],
		    ['lost', $cmp->{lost_count}], ['gained', $cmp->{gained_count}],
		    ['before-records', $cmp->{before}{records}], ['after-records', $cmp->{after}{records}];
}

# the comparison table: one row per changed statistic
my %row;
for my $t ($html =~ /<tr (data-scope="[^>]*data-before="[^>]*)>/g) {
	my $a = attrs($t);
	$row{$a->{'data-stat'}} = $a if $a->{'data-scope'} eq $scope;
}
my (%changed, %alert);
for my $s (@{$cmp->{statistics}}) {
	next unless $s->{helped}{count} || $s->{hurt}{count};
	$changed{$s->{key}} = 1;
	$alert{$s->{key}} = $verdict{$s->{verdict}} if $s->{verdict} eq 'helped' || $s->{verdict} eq 'hurt';
	my $a = $row{$s->{key}};
	check($a, "no row for $s->{key}") or next;
	check(near($a->{'data-before'}, $s->{total}{before}), "$s->{key} before: $a->{'data-before'} vs $s->{total}{before}");
	check(near($a->{'data-after'}, $s->{total}{after}), "$s->{key} after: $a->{'data-after'} vs $s->{total}{after}");
	check($a->{'data-helped'} == $s->{helped}{count}, "$s->{key} helped");
	check($a->{'data-hurt'} == $s->{hurt}{count}, "$s->{key} hurt");
	check($a->{'data-verdict'} eq $verdict{$s->{verdict}}, "$s->{key} verdict: '$a->{'data-verdict'}' vs $s->{verdict}");
	if ($s->{ci95}) {
		check(near($a->{'data-ci-lo'}, $s->{ci95}{rel}[0]) && near($a->{'data-ci-hi'}, $s->{ci95}{rel}[1]),
		      "$s->{key} interval");
	} else {
		check(!defined $a->{'data-ci-lo'}, "$s->{key}: an interval cmp has not");
	}
	# the top lists, when the page has them for this scope
	for my $side ('hurt', 'helped') {
		my @page = map { attrs($_) } grep { /data-list="$side"/ } $html =~ /<tr (data-list="[^>]*)>/g;
		@page = grep { $_->{'data-scope'} eq $scope && $_->{'data-stat'} eq $s->{key} } @page;
		next if !@page && !$ENV{LISTS};	# LISTS=1: the page must have them
		my @want = @{$s->{$side}{shaders}};
		check(@page == @want, "$s->{key} $side list: " . scalar(@page) . " shaders, cmp " . scalar(@want));
		for my $i (0 .. $#want) {
			check($page[$i] && $page[$i]{'data-path'} eq $want[$i]{path} && $page[$i]{'data-stage'} eq $want[$i]{stage},
			      "$s->{key} $side #$i: $want[$i]{path}");
		}
	}
}
check(!(grep { !$changed{$_} } keys %row), "rows for statistics cmp finds unchanged: " . join(' ', grep { !$changed{$_} } keys %row));

# the alerts
my %page_alert;
for my $t ($html =~ /<tr (class="(?:hurt|helped)" data-scope="[^>]*)>/g) {
	my $a = attrs($t);
	$page_alert{$a->{'data-stat'}} = $a->{'data-verdict'} if $a->{'data-scope'} eq $scope;
}
check(join(',', map { "$_=$alert{$_}" } sort keys %alert) eq join(',', map { "$_=$page_alert{$_}" } sort keys %page_alert),
      "alerts: page " . join(',', sort keys %page_alert) . "; cmp " . join(',', sort keys %alert));

if (@bad) {
	print "not ok: $_\n" for @bad;
	exit 1;
}
print "ok $checks checks\n";
