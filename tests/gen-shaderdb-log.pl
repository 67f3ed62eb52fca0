#!/usr/bin/perl
# Write a pair of Mesa shader-db logs, before.txt and after.txt, as shader-db's
# `run` prints them (../shared/reference/shaderdb-tools.md §3), for the
# agreement tests of `shdb cmp` with report.py's formulas.
#
#	perl tests/gen-shaderdb-log.pl [--seed S] [--files N] [--driver D] DIR
#
# D is ir3 (default), intel, etnaviv or v3d.  About a third of the shaders
# change (with an odd seed, mostly downwards, for conclusive verdicts); some lose or gain a loop, some go to or from 0, some change by a
# hair (a "<.01%" total), some are lost or gained; Thread lines give times.
# The output depends only on the arguments (a 31-bit LCG, not perl's rand).
use strict;
use warnings;

my %opt = (seed => 1, files => 200, driver => 'ir3');
my $dir;
while (@ARGV) {
	my $arg = shift @ARGV;
	if ($arg =~ /^--(seed|files|driver)$/) { $opt{$1} = shift @ARGV }
	else { $dir = $arg }
}
die "usage: gen-shaderdb-log.pl [--seed S] [--files N] [--driver ir3|intel|etnaviv|v3d] DIR\n"
	unless defined $dir;

my $state = $opt{seed} * 7919 + 17;
sub below {
	my ($n) = @_;
	$state = ($state * 1103515245 + 12345) % 2147483648;
	return int(($state >> 8) * $n / 8388608);
}

my %drivers = (
	ir3 => {
		stages => [qw(VERT FRAG CL)],
		stats => [qw(inst nops non-nops mov cov dwords last-baryf last-helper half full constlen
			     cat0 cat1 cat2 cat3 cat4 cat5 cat6 cat7 stp ldp sstall (ss) systall (sy) waves loops)],
	},
	intel => { stages => ['VS SIMD8', 'FS SIMD8', 'FS SIMD16', 'CS SIMD16'],
		   stats => [qw(inst loops cycles spills fills sends)] },
	etnaviv => { stages => [qw(VERT FRAG)], stats => [qw(instructions temps immediates loops)] },
	v3d => { stages => [qw(VERT FRAG)],
		 stats => [qw(inst threads loops uniforms max-temps spills fills sfu-stalls inst-and-stalls nops)] },
);
my $d = $drivers{$opt{driver}} or die "unknown driver $opt{driver}\n";

sub make_stats {
	my %v;
	for my $s (@{$d->{stats}}) { $v{$s} = below(4) ? below(60) : below(2000) }
	$v{waves} = (4, 8, 16)[below(3)] if exists $v{waves};
	$v{threads} = (1, 2, 4)[below(3)] if exists $v{threads};
	$v{loops} = below(8) ? 0 : 1 + below(2);
	$v{half} = 0 if exists $v{half};
	$v{$_} = 0 for grep { exists $v{$_} && below(3) } qw(stp ldp spills fills cov);
	return \%v;
}

sub change_stats {
	my ($v) = @_;
	my %w = %$v;
	my @names = @{$d->{stats}};
	for (1 .. 1 + below(3)) {
		my $s = $names[below(scalar @names)];
		next if $s eq 'loops' && below(3);
		my $kind = below(10);
		if ($kind == 0) { $w{$s} = 0 }
		elsif ($kind == 1) { $w{$s} = $w{$s} ? $w{$s} : 1 + below(5) }
		elsif ($kind < 6 && $opt{seed} % 2) { $w{$s} -= 1 + below(3) }	# odd seeds: a clear trend
		elsif ($kind < 6) { $w{$s} = $w{$s} + below(7) - 4 }
		else { $w{$s} = $w{$s} + below(3) - 1 }
		$w{$s} = 0 if $w{$s} < 0;
	}
	return \%w;
}

sub line {
	my ($path, $stage, $v) = @_;
	my @parts;
	my @names = @{$d->{stats}};
	for (my $i = 0; $i < @names; $i++) {
		my $s = $names[$i];
		if ($s eq 'spills') {
			push @parts, "$v->{spills}:$v->{fills} spills:fills";
			$i++;
		} else {
			push @parts, "$v->{$s} $s";
		}
	}
	push @parts, 'scheduled with mode top-down', "Promoted 0 constants", "compacted 800 to 600 bytes."
		if $opt{driver} eq 'intel';
	return "$path - $stage shader: " . join(', ', @parts) . "\n";
}

open(my $b, '>', "$dir/before.txt") or die "$dir/before.txt: $!\n";
open(my $a, '>', "$dir/after.txt") or die "$dir/after.txt: $!\n";
print $b "a line that is not a shader's\n";
for my $f (1 .. $opt{files}) {
	my $path = sprintf('shaders/app_%d/%d.shader_test', below(7), $f);
	for my $stage (@{$d->{stages}}) {
		next if below(3) == 0 && $stage ne $d->{stages}[0];
		my $v = make_stats();
		my $fate = below(40);
		print $b line($path, $stage, $v) unless $fate == 0;			# gained
		print $a line($path, $stage, below(3) ? $v : change_stats($v)) unless $fate == 1;	# lost
	}
}
# one huge shader with a tiny change, for a "<.01%" total
my $big = make_stats();
$big->{$_} = 1_000_000 for @{$d->{stats}};
print $b line('shaders/big/huge.shader_test', $d->{stages}[0], $big);
$big->{$d->{stats}[0]}++;
print $a line('shaders/big/huge.shader_test', $d->{stages}[0], $big);
printf $b "Thread %d took %.2f seconds and compiled %d shaders\n", $_, 1 + below(300) / 100, 10 for 0 .. 1;
printf $a "Thread %d took %.2f seconds and compiled %d shaders\n", $_, 1 + below(300) / 100, 10 for 0 .. 1;
close($b) or die;
close($a) or die;
