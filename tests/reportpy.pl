#!/usr/bin/perl
# An independent reference implementation of Mesa shader-db's report.py
# (../shared/reference/shaderdb-tools.md §2 for the formulas, §4.1 for the
# output), written from that description and not from shdb's C code, so that
# tests/t0720-cmp-reportpy.sh can hold `shdb cmp --format=reportpy` to it.
#
#	perl tests/reportpy.pl [-s] [-c] [--ignore-loops] [-m a,b] [-S STAGE] BEFORE AFTER
#
# The Student t quantile is computed differently from shdb (which inverts the
# regularized incomplete beta function): here P(|T| <= t) is the finite sum of
# Abramowitz & Stegun 26.7.3/26.7.4 for integer degrees of freedom, inverted by
# bisection.
#
# Where this follows shdb's documented departures from report.py rather than
# report.py itself (none of them changes a number report.py prints):
#  - the verdict names the direction: "Waves are HURT." when waves fell;
#    report.py words it by the sign of the change only;
#  - no "(scheduled: …)" note (report.py's bug prints it on every Intel line);
#  - a shader missing a statistic is skipped, not a KeyError.
use strict;
use warnings;
use POSIX qw(floor);
use List::Util qw(sum min max);
use sort 'stable';

my %opt = (summary => 0, changes => 0, ignore_loops => 0, measurements => undef, stage => undef);
my @files;
while (@ARGV) {
	my $arg = shift @ARGV;
	if ($arg eq '-s' || $arg eq '--summary-only') { $opt{summary} = 1 }
	elsif ($arg eq '-c' || $arg eq '--changes-only') { $opt{changes} = 1 }
	elsif ($arg eq '--ignore-loops') { $opt{ignore_loops} = 1 }
	elsif ($arg eq '-m' || $arg eq '--measurements') { $opt{measurements} = [split /,/, shift @ARGV] }
	elsif ($arg eq '-S' || $arg eq '--stage') { $opt{stage} = shift @ARGV }
	else { push @files, $arg }
}
die "usage: reportpy.pl [options] BEFORE AFTER\n" unless @files == 2;

my %gt_better = map { $_ => 1 } qw(threads waves maxwaves);

# A run: keys in file order, stats per key (name -> value, names in line order), time.
sub get_results {
	my ($file) = @_;
	my (%res, @order);
	my $time = 0;
	open(my $fh, '<', $file) or die "$file: $!\n";
	while (my $line = <$fh>) {
		chomp $line;
		if ($line =~ /Thread \S+ took (\S+) seconds/) {
			$time += $1;
			next;
		}
		next unless $line =~ /(\S+) - (.*) shader: (.*)/;
		my ($name, $stage, $stats) = ($1, $2, $3);
		next if defined $opt{stage} && $opt{stage} ne $stage;
		my (%vals, @names);
		for my $stat (split /, /, $stats) {
			my @tok = split / /, $stat, -1;
			next unless @tok == 2;
			my ($val, $m) = @tok;
			$m = 'instructions' if $m eq 'inst';
			if ($m eq 'spills:fills') {
				my ($s, $f) = split /:/, $val;
				push @names, 'spills', 'fills';
				@vals{qw(spills fills)} = ($s, $f);
			} elsif ($val =~ /^[0-9]+$/) {
				push @names, $m;
				$vals{$m} = $val;
			}
		}
		my $key = "$name $stage";
		push @order, $key unless exists $res{$key};
		$res{$key} = { vals => \%vals, names => \@names };
	}
	return { res => \%res, order => \@order, time => $time };
}

binmode STDOUT, ':utf8';

sub format_percent {
	my ($frac) = @_;
	return '<.01%' if abs($frac) > 0 && abs($frac) < 0.0001;
	return sprintf('%.2f%%', $frac * 100);
}

sub format_num {
	my ($n) = @_;
	return sprintf('%.0f', floor($n)) if $n - floor($n) < 0.01;
	return sprintf('%.2f', $n);
}

sub get_delta {
	my ($x, $y) = @_;
	return '' unless $x != 0 && $y != 0;
	return ' (' . format_percent($y / $x - 1.0) . ')';
}

sub change { my ($x, $y) = @_; return format_num($x) . ' -> ' . format_num($y) . get_delta($x, $y) }

sub result_string {
	my ($p, $x, $y) = @_;
	$p .= ': ';
	$p .= ' ' while length($p) < 50;
	return $p . change($x, $y);
}

sub mean { my @v = @_; return sum(@v) / @v }

sub median {
	my @v = sort { $a <=> $b } @_;
	my $n = @v;
	return $n % 2 ? $v[($n - 1) / 2] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

# P(|T| <= t), T ~ Student's t with integer df (A&S 26.7.3, 26.7.4).
sub t_central {
	my ($t, $df) = @_;
	my $theta = atan2($t, sqrt($df));
	my ($s, $c) = (sin($theta), cos($theta));
	my $c2 = $c * $c;
	if ($df % 2) {
		return 2 / 3.141592653589793238 * $theta if $df == 1;
		my ($term, $acc) = ($c, $c);
		for (my $k = 3; $k <= $df - 2; $k += 2) {
			$term *= $c2 * ($k - 1) / $k;
			$acc += $term;
		}
		return 2 / 3.141592653589793238 * ($theta + $s * $acc);
	}
	my ($term, $acc) = (1, 1);
	for (my $k = 2; $k <= $df - 2; $k += 2) {
		$term *= $c2 * ($k - 1) / $k;
		$acc += $term;
	}
	return $s * $acc;
}

# t.ppf((1 + conf) / 2, df) by bisection on the central probability.
sub t_quantile {
	my ($conf, $df) = @_;
	my ($lo, $hi) = (0, 1);
	$hi *= 2 while t_central($hi, $df) < $conf;
	for (1 .. 200) {
		my $mid = ($lo + $hi) / 2;
		last if $mid == $lo || $mid == $hi;
		if (t_central($mid, $df) < $conf) { $lo = $mid } else { $hi = $mid }
	}
	return ($lo + $hi) / 2;
}

sub mean_ci {
	my @v = @_;
	my $n = @v;
	my $m = mean(@v);
	my $ss = sum(map { ($_ - $m) ** 2 } @v);
	my $se = sqrt($ss / ($n - 1)) / sqrt($n);
	my $h = $se * t_quantile(0.95, $n - 1);
	return ($m, $m - $h, $m + $h);
}

sub gather {
	my ($list, $before, $after, $m) = @_;
	my @abs = map { abs($before->{$_}{vals}{$m} - $after->{$_}{vals}{$m}) } @$list;
	my @rel = map {
		my $x = $before->{$_}{vals}{$m};
		$x == 0 ? 0 : abs($x - $after->{$_}{vals}{$m}) / $x
	} @$list;
	return { avg_abs => mean(@abs), med_abs => median(@abs), lo_abs => min(@abs), hi_abs => max(@abs),
		 avg_rel => mean(@rel), med_rel => median(@rel), lo_rel => min(@rel), hi_rel => max(@rel) };
}

sub spill_fill_note {
	my ($m, $x, $y) = @_;
	return '' if $m eq 'spills' || $m eq 'fills';
	for my $k (qw(spills fills)) { return '' unless defined $x->{$k} && defined $y->{$k} }
	return '' if $x->{spills} == $y->{spills} && $x->{fills} == $y->{fills};
	return ' (spills: ' . change($x->{spills}, $y->{spills}) . '; fills: ' . change($x->{fills}, $y->{fills}) . ')';
}

my $B = get_results($files[0]);
my $A = get_results($files[1]);
my ($before, $after) = ($B->{res}, $A->{res});

my @measurements;
if ($opt{measurements}) {
	@measurements = map { $_ eq 'inst' ? 'instructions' : $_ } @{$opt{measurements}};
} elsif (@{$B->{order}}) {
	@measurements = @{$before->{$B->{order}[0]}{names}};
}

my (%total_b, %total_a, %aff_b, %aff_a, %helped, %hurt, %ci);
for my $m (@measurements) {
	($total_b{$m}, $total_a{$m}, $aff_b{$m}, $aff_a{$m}) = (0, 0, 0, 0);
	my (@helped, @hurt);
	for my $p (@{$B->{order}}) {
		next unless exists $after->{$p};
		my ($bv, $av) = ($before->{$p}{vals}, $after->{$p}{vals});
		next unless defined $bv->{$m} && defined $av->{$m};
		next if $m ne 'loops' && !$opt{ignore_loops} && defined $bv->{loops} && defined $av->{loops}
			&& $bv->{loops} != $av->{loops};
		my ($x, $y) = ($bv->{$m}, $av->{$m});
		$total_b{$m} += $x;
		$total_a{$m} += $y;
		next if $x == $y;
		$aff_b{$m} += $x;
		$aff_a{$m} += $y;
		if (($y > $x) xor $gt_better{$m}) { push @hurt, $p } else { push @helped, $p }
	}
	$helped{$m} = \@helped;
	$hurt{$m} = \@hurt;
	unless ($opt{summary}) {
		my $key = sub {
			my ($p, $sign) = @_;
			my ($bv, $av) = ($before->{$p}{vals}{$m}, $after->{$p}{vals}{$m});
			return $bv == 0 ? $av : $sign * ($bv - $av) / $bv;
		};
		for my $side ([\@helped, 'helped', 1], [\@hurt, 'HURT', -1]) {
			my ($list, $word, $sign) = @$side;
			for my $p (sort { $key->($a, $sign) <=> $key->($b, $sign) } @$list) {
				print "$m $word:   ", result_string($p, $before->{$p}{vals}{$m}, $after->{$p}{vals}{$m}),
					spill_fill_note($m, $before->{$p}{vals}, $after->{$p}{vals}), "\n";
			}
			print "\n" if @$list;
		}
	}
	next if $m eq 'spills' || $m eq 'fills';
	if (@helped + @hurt > 3) {
		my @changes = (@helped, @hurt);
		my @va = map { $after->{$_}{vals}{$m} - $before->{$_}{vals}{$m} } @changes;
		my @vb = map {
			my $x = $before->{$_}{vals}{$m};
			$x == 0 ? 0 : ($after->{$_}{vals}{$m} - $x) / $x
		} @changes;
		$ci{$m} = [[mean_ci(@va)], [mean_ci(@vb)]];
	}
}

my @lost = sort grep { !exists $after->{$_} } @{$B->{order}};
my @gained = sort grep { !exists $before->{$_} } @{$A->{order}};
unless ($opt{summary}) {
	print "LOST:   $_\n" for @lost;
	print "\n" if @lost;
	print "GAINED: $_\n" for @gained;
	print "\n" if @gained;
}

sub side_stats {
	my ($title, $pad, $s) = @_;
	printf "%s (abs)%s min: %s max: %s x\x{304}: %.2f x\x{303}: %d\n", $title, $pad, $s->{lo_abs},
		$s->{hi_abs}, $s->{avg_abs}, int($s->{med_abs});
	printf "%s (rel)%s min: %s max: %s x\x{304}: %s x\x{303}: %s\n", $title, $pad,
		format_percent($s->{lo_rel}), format_percent($s->{hi_rel}), format_percent($s->{avg_rel}),
		format_percent($s->{med_rel});
}

my $any = 0;
for my $m (@measurements) {
	my ($nh, $nu) = (scalar @{$helped{$m}}, scalar @{$hurt{$m}});
	$any ||= $nh || $nu;
	next unless $nh || $nu || !$opt{changes};
	print "total $m in shared programs: ", change($total_b{$m}, $total_a{$m}), "\n";
	print "$m in affected programs: ", change($aff_b{$m}, $aff_a{$m}), "\n";
	print "helped: $nh\nHURT: $nu\n";
	if ($m eq 'spills' || $m eq 'fills') {
		print "\n";
		next;
	}
	side_stats('helped stats', '', gather($helped{$m}, $before, $after, $m)) if $nh > 2 || ($nh && $nu);
	side_stats('HURT stats', '  ', gather($hurt{$m}, $before, $after, $m)) if $nu > 2 || ($nu && $nh);
	if (my $c = $ci{$m}) {
		my ($v, $r) = @$c;
		printf "95%% mean confidence interval for %s value: %.2f %.2f\n", $m, $v->[1], $v->[2];
		printf "95%% mean confidence interval for %s %%-change: %s %s\n", $m, format_percent($r->[1]),
			format_percent($r->[2]);
		if ($v->[1] < 0 && $v->[2] > 0) {
			print "Inconclusive result (value mean confidence interval includes 0).\n";
		} elsif ($r->[1] < 0 && $r->[2] > 0) {
			print "Inconclusive result (%-change mean confidence interval includes 0).\n";
		} elsif (($v->[1] < 0) != ($r->[1] < 0)) {
			print "Inconclusive result (value mean confidence interval and %-change mean confidence interval disagree).\n";
		} else {
			my $decreased = $v->[1] < 0;
			my $good = $gt_better{$m} ? !$decreased : $decreased;
			print ucfirst(lc $m), ' are ', ($good ? 'helped' : 'HURT'), ".\n";
		}
	}
	print "\n";
}

if (@lost || @gained || !$opt{changes}) {
	print 'LOST:   ', scalar @lost, "\nGAINED: ", scalar @gained, "\n";
} elsif (!$any) {
	print "No changes.\n";
}
print "\nTotal CPU time (seconds): ", change($B->{time}, $A->{time}), "\n";
