#!/usr/bin/perl
# Our ir3 and etnaviv models against Mesa 24.3's real compilers on the same
# corpus units.
#
#   mesa-compare.pl compare  MANIFEST MESA_TSV STATS.jsonl   per GPU and statistic
#   mesa-compare.pl coverage MANIFEST MESA_TSV STATS.jsonl   per target: ok, failures
#   mesa-compare.pl shaders  MANIFEST MESA_TSV STATS.jsonl GPU STAT [N]
#                            the N (default 30) shaders farthest from Mesa on
#                            STAT for GPU (by difference), ours and Mesa's
#
# STATS.jsonl is `shdb run`'s over ../shared/corpus with that manifest;
# MESA_TSV is ../shared/reference/mesa-ir3-dev.tsv or mesa-etnaviv-dev.tsv
# (one row per unit and GPU, Mesa's shader-db fields; the family is told by
# its columns: etnaviv's GPUs GC2000 … are our gc2000 …, ir3's 630 our
# a630).  Units are matched by file and stage: the manifest's repo
# "owner/name" is Mesa's prefix and our folder owner-name/.
#
# compare: over the units both compilers compiled, for each statistic the
# totals (ours, Mesa's, their ratio), the median per-shader ratio ours/Mesa
# (shaders where Mesa's value is not 0) and the share of shaders within
# ±10% of Mesa's value (equal when Mesa's is 0); then the compile time per
# unit, ours (the record's time_us: front end included) against Mesa's
# in-process figure (inproc_ms, from glslang's SPIR-V on), medians and their
# ratio, over every unit and over the units read as SPIR-V (like with like).
#
# coverage: for every target, the units that reached the backend (a record
# naming the target: the front end and the optimiser made valid IR), how
# many compiled, and the failures grouped by message (numbers and quoted
# names folded), those Mesa 24.3 fails too on the same GPU (or the nearest
# one it was run on) marked "mesa fails too".  Two shares: of all the units
# that reached the backend, and of those Mesa compiles.  Exit status 1 on
# any crash, hang, verifier failure or internal error, or when
# a target compiles less than $MIN_SHARE (default 0.99) of the latter.
use strict;
use warnings;
use utf8;
use JSON::PP;
binmode STDOUT, ':encoding(UTF-8)';

my ($mode, $manifest, $mesa_tsv, $stats, $sh_gpu, $sh_stat, $sh_n) = @ARGV;
die "usage: $0 compare|coverage MANIFEST MESA_TSV STATS.jsonl | shaders … GPU STAT [N]\n"
	unless $stats && ($mode eq 'compare' || $mode eq 'coverage' ||
			  ($mode eq 'shaders' && $sh_stat));

my %short = (vertex => 'vert', fragment => 'frag', compute => 'comp', geometry => 'geom',
	     tess_ctrl => 'tesc', tess_eval => 'tese');
my $etna = do {
	open my $f, '<', $mesa_tsv or die "$mesa_tsv: $!\n";
	scalar(<$f>) =~ /\tinstructions\t/;
};
# our JSON keys => Mesa's columns
my @stats = $etna ? ([instructions => 'instructions'], [temps => 'temps'],
		     [immediates => 'immediates'], [loops => 'loops']) : (
	[inst => 'inst'], [nops => 'nops'], [mov => 'mov'], [cov => 'cov'],
	[dwords => 'dwords'], [last_baryf => 'last-baryf'], [last_helper => 'last-helper'],
	[half => 'half'], [full => 'full'], [constlen => 'constlen'],
	(map { ["cat$_" => "cat$_"] } 0 .. 7), [stp => 'stp'], [ldp => 'ldp'],
	[sstall => 'sstall'], [ss => 'ss'], [systall => 'systall'], [sy => 'sy'],
	[waves => 'waves'], [loops => 'loops'],
);

# Mesa's "owner/name/path" => our "owner-name/path"
my %ours_of;
{
	open my $f, '<', $manifest or die "$manifest: $!\n";
	my @h = split /\t/, scalar <$f>;
	chomp @h;
	my %col = map { $h[$_] => $_ } 0 .. $#h;
	while (<$f>) {
		chomp;
		my @c = split /\t/;
		my ($repo, $path) = ($c[$col{repo}], $c[$col{path}]);
		next unless defined $repo && defined $path;
		(my $dir = $repo) =~ s{/}{-}g;
		$ours_of{"$repo/$path"} = "$dir/$path";
	}
}

# Mesa: "path\tstage\tgpu" => { status, stats }
my (%mesa, %mesa_gpus);
{
	open my $f, '<', $mesa_tsv or die "$mesa_tsv: $!\n";
	my @h = split /\t/, scalar <$f>;
	chomp @h;
	my %col = map { $h[$_] => $_ } 0 .. $#h;
	while (<$f>) {
		chomp;
		my @c = split /\t/, $_, -1;
		my $ours = $ours_of{$c[$col{file}]} // next;
		my %v = map { $_->[0] => $c[$col{$_->[1]}] } @stats;
		my $gpu = $etna ? lc $c[$col{gpu}] : "a$c[$col{gpu}]";
		$mesa{"$ours\t$c[$col{stage}]\t$gpu"} = { ok => $c[$col{status}] eq 'ok', v => \%v,
			ms => $c[$col{inproc_ms}] };
		$mesa_gpus{$gpu} = 1;
	}
}

# ours: the same keys; records without a target did not reach the backend
my (%ours, %targets, %front_fail);
{
	open my $f, '<', $stats or die "$stats: $!\n";
	my $json = JSON::PP->new;
	while (<$f>) {
		my $r = $json->decode($_);
		(my $path = $r->{path}) =~ s{^.*?/corpus/}{};
		my $stage = $short{$r->{stage}} // $r->{stage};
		if (!defined $r->{target}) {
			$front_fail{"$path\t$stage"} = $r->{message};
			next;
		}
		$targets{$r->{target}} = 1;
		$ours{"$path\t$stage\t$r->{target}"} = { status => $r->{status},
			message => $r->{message}, v => $r->{stats}, us => $r->{time_us} };
	}
}

sub by_target { my ($a, $b) = @_; ($a =~ /(\d+)/)[0] <=> ($b =~ /(\d+)/)[0] || $a cmp $b }

sub median {
	my @s = sort { $a <=> $b } @_;
	return @s ? ($s[$#s / 2] + $s[@s / 2]) / 2 : 0;
}

# The rules the run followed (run.json beside STATS.jsonl): the reference is
# Mesa 24.3's, and a run with current Mesa's a7xx delays and aliases (shdb
# run's default) differs from it on a7xx by that alone.
sub rules_note {
	(my $run = $stats) =~ s{[^/]*$}{run.json};
	open my $f, '<', $run or return;
	local $/;
	my $settings = eval { decode_json(<$f>)->{settings} } // {};
	return if ($settings->{mesa} // '') eq '24.3' || $etna;
	print "note: this run follows current Mesa's a7xx delays and aliases; the reference\n" .
	      "      is Mesa 24.3's (shdb run --mesa 24.3 follows it)\n\n";
}

sub compare {
	rules_note();
	for my $gpu (sort { by_target($a, $b) } grep { $targets{$_} } keys %mesa_gpus) {
		my @both = grep { $ours{$_}{status} eq 'ok' && $mesa{$_} && $mesa{$_}{ok} }
			grep { /\t\Q$gpu\E$/ } keys %ours;
		my $mesa_ok = grep { /\t\Q$gpu\E$/ && $mesa{$_}{ok} } keys %mesa;
		my $ours_ok = grep { /\t\Q$gpu\E$/ && $ours{$_}{status} eq 'ok' } keys %ours;
		printf "%s: %d units compiled by both (Mesa %d, ours %d)\n", $gpu, scalar @both,
			$mesa_ok, $ours_ok;
		printf "  %-12s %11s %11s %7s %7s %6s\n", 'stat', 'ours', 'mesa', 'ratio', 'median', '±10%';
		for my $s (@stats) {
			my $k = $s->[0];
			my ($to, $tm, $within, @ratios) = (0, 0, 0);
			for my $u (@both) {
				my ($o, $m) = ($ours{$u}{v}{$k} // 0, $mesa{$u}{v}{$k} // 0);
				$to += $o;
				$tm += $m;
				push @ratios, $o / $m if $m;
				$within++ if $m ? abs($o - $m) <= 0.1 * $m : $o == 0;
			}
			printf "  %-12s %11d %11d %7s %7.3f %5.1f%%\n", $k, $to, $tm,
				$tm ? sprintf('%.3f', $to / $tm) : '-', median(@ratios),
				@both ? 100 * $within / @both : 0;
		}
		# Mesa's in-process time starts from glslang's SPIR-V; ours from a
		# GLSL or HLSL file includes glslang: the units read as SPIR-V
		# compare like with like
		for my $set (['every unit, ours from source: glslang included', \@both], ['SPIR-V files', [grep { /\.spv\t/ } @both]]) {
			my @units = grep { defined $ours{$_}{us} && ($mesa{$_}{ms} // '') ne '' }
				@{ $set->[1] };
			next unless @units;
			my $mo = median(map { $ours{$_}{us} / 1000 } @units);
			my $mm = median(map { $mesa{$_}{ms} } @units);
			printf "  compile time per unit, median over %d (%s): ours %.3f ms, Mesa" .
				" in-process %.3f ms (Mesa/ours %.1fx)\n", scalar @units, $set->[0], $mo,
				$mm, $mo ? $mm / $mo : 0;
		}
		print "\n";
	}
}

sub reason {
	my ($m) = @_;
	$m //= '';
	$m =~ s/'[^']*'/'X'/g unless $m =~ /^unsupported (ALU op|intrinsic|64-bit)/;
	$m =~ s/\b\d+\b/N/g;
	return $m;
}

# the GPU of the reference nearest a target
my %nearest = (a618 => 'a630', a690 => 'a660', a750 => 'a740');

sub coverage {
	my $fail = 0;
	my $min = $ENV{MIN_SHARE} // 0.99;
	printf "%d units stopped before the backend (front end or IR)\n", scalar keys %front_fail;
	for my $t (sort { by_target($a, $b) } keys %targets) {
		my $ref = $mesa_gpus{$t} ? $t : $nearest{$t} // $t;
		my @u = grep { /\t\Q$t\E$/ } keys %ours;
		my @ok = grep { $ours{$_}{status} eq 'ok' } @u;
		my %mesa_ok;
		for my $k (@u) {
			(my $m = $k) =~ s/\t\Q$t\E$/\t$ref/;
			$mesa_ok{$k} = $mesa{$m} && $mesa{$m}{ok};
		}
		my @mu = grep { $mesa_ok{$_} } @u;
		my @mok = grep { $ours{$_}{status} eq 'ok' } @mu;
		my $share = @u ? @ok / @u : 1;
		my $mshare = @mu ? @mok / @mu : 1;
		printf "%-5s %5d of %5d units compiled (%.2f%%); of the %d Mesa compiles (%s): %d (%.2f%%)%s\n",
			$t, scalar @ok, scalar @u, 100 * $share, scalar @mu, $ref, scalar @mok, 100 * $mshare,
			$mshare < $min ? sprintf('  below %.0f%%', 100 * $min) : '';
		$fail = 1 if $mshare < $min;
		my %why;
		$why{"$ours{$_}{status}: " . reason($ours{$_}{message}) .
		     ($mesa_ok{$_} ? '' : '   [mesa fails too]')}++
			for grep { $ours{$_}{status} ne 'ok' } @u;
		printf "        %5d  %s\n", $why{$_}, $_
			for sort { $why{$b} <=> $why{$a} || $a cmp $b } keys %why;
	}
	# whatever the shares, code that fails a verifier, a crash, a hang or an
	# internal error is a bug
	my @bugs = grep { $ours{$_}{status} =~ /^(crash|timeout)$/ ||
			  ($ours{$_}{message} // '') =~ /^(verifier:|invalid machine IR|internal error)/ }
		sort keys %ours;
	if (@bugs) {
		printf "%d results are compiler bugs (verifier, crash, hang, internal error), e.g.:\n",
			scalar @bugs;
		printf "  %s: %s %s\n", $_ =~ s/\t/ /gr, $ours{$_}{status}, $ours{$_}{message} // ''
			for @bugs[0 .. ($#bugs < 9 ? $#bugs : 9)];
		$fail = 1;
	}
	exit $fail;
}

sub shaders {
	my @both = grep { /\t\Q$sh_gpu\E$/ && $ours{$_}{status} eq 'ok' && $mesa{$_} && $mesa{$_}{ok} }
		keys %ours;
	my %d = map { $_ => ($ours{$_}{v}{$sh_stat} // 0) - ($mesa{$_}{v}{$sh_stat} // 0) } @both;
	my @w = sort { abs($d{$b}) <=> abs($d{$a}) || $a cmp $b } @both;
	printf "%8s %8s %8s  %s\n", 'ours', 'mesa', 'diff', "shader ($sh_gpu $sh_stat)";
	for my $u (@w[0 .. ($sh_n // 30) - 1]) {
		last unless defined $u;
		(my $name = $u) =~ s/\t[^\t]*$//;
		printf "%8d %8d %+8d  %s\n", $ours{$u}{v}{$sh_stat} // 0, $mesa{$u}{v}{$sh_stat} // 0,
			$d{$u}, $name =~ s/\t/ /r;
	}
}

$mode eq 'compare' ? compare() : $mode eq 'shaders' ? shaders() : coverage();
