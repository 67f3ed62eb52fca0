#!/usr/bin/perl
# Prints the installed packages that installing the given ones brought: each
# package and, recursively, what its Depends and Pre-Depends name (for an
# alternative "a | b", the ones installed; a virtual name, the installed packages
# that provide it).  Reads dpkg's database once (dpkg-query -W).
#
#   perl tests/deps-closure.pl PACKAGE...
use strict;
use warnings;

my (%deps, %provides);
open my $q, '-|', 'dpkg-query', '-W',
	'-f=${Package}\t${Status}\t${Provides}\t${Depends}, ${Pre-Depends}\n' or die "dpkg-query: $!\n";
while (<$q>) {
	chomp;
	my ($pkg, $status, $prov, $dep) = split /\t/, $_, 4;
	next unless $status =~ / installed$/;
	$deps{$pkg} = [grep { /\S/ } split /,/, $dep // ''];
	for (split /,/, $prov // '') {
		my ($name) = /^\s*([^\s(:]+)/ or next;
		push @{$provides{$name}}, $pkg;
	}
}
close $q;

my %seen;
my @todo = @ARGV;
while (defined(my $name = shift @todo)) {
	my @pkgs = exists $deps{$name} ? ($name) : @{$provides{$name} // []};
	for my $p (@pkgs) {
		next if $seen{$p}++;
		for my $d (@{$deps{$p}}) {
			for my $alt (split /\|/, $d) {
				my ($n) = $alt =~ /^\s*([^\s(:]+)/ or next;
				push @todo, $n;
			}
		}
	}
}
print "$_\n" for sort keys %seen;
